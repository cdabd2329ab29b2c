//go:build !unix

package cputime

import "time"

// now is unavailable here: Report reports nothing.
func now() (time.Duration, bool) { return 0, false }
