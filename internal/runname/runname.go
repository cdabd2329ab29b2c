// Package runname holds the spellings the module's commands and packages share for runs and
// the files a run saves: the suffix of a run name trained after a cross-entropy warm-up, and
// the sidecar of a saved model file.
package runname

import (
	"regexp"
	"strings"
)

// WarmupSuffix ends a run name whose plain loss trains after a cross-entropy warm-up
// ("sqhinge+wu"; train.Names.Warmup epochs of it).
const WarmupSuffix = "+wu"

// SidecarPath returns the sidecar that deploy.Load reads for path: path itself when it ends
// in .json, else <name>.json for <name>.params or <name>.<h>.params (h 16 hex digits).
func SidecarPath(path string) string {
	if strings.HasSuffix(path, ".json") {
		return path
	}
	base := strings.TrimSuffix(path, ".params")
	if m := hashSuffix.FindStringIndex(base); m != nil && path != base {
		base = base[:m[0]]
	}
	return base + ".json"
}

var hashSuffix = regexp.MustCompile(`\.[0-9a-f]{16}$`)
