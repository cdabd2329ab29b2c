//go:build race

package race

// Enabled reports whether the binary was built with the race detector (go test -race).
const Enabled = true
