package runname

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSidecarPath: a sidecar is its own, a model file of version 1 (<name>.params) and of a
// hashed name (<name>.<16 hex digits>.params) have <name>.json, and a suffix that is not 16
// hex digits stays in the name.
func TestSidecarPath(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"runs/kde.json", "runs/kde.json"},
		{"runs/kde.params", "runs/kde.json"},
		{"runs/kde.0123456789abcdef.params", "runs/kde.json"},
		{"runs/kde.0123456789abcdeg.params", "runs/kde.0123456789abcdeg.json"},
		{"runs/kde.0123456789abcdef", "runs/kde.0123456789abcdef.json"},
		{"runs/sq" + WarmupSuffix + ".seed2.params", "runs/sq+wu.seed2.json"},
	} {
		require.Equal(t, c.want, SidecarPath(c.path), c.path)
	}
}
