package optim

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// SavePESGState refuses the counts LoadPESGState refuses (2^31 steps and more), writing
// nothing, and saves and loads the largest it takes: it wrote states it could not read back.
func TestPESGStateCountLimits(t *testing.T) {
	dir := t.TempDir()
	for name, set := range map[string]func(*PESGState, int){
		"steps":       func(s *PESGState, v int) { s.Steps = v },
		"since reset": func(s *PESGState, v int) { s.SinceReset = v },
		"epochs":      func(s *PESGState, v int) { s.Epochs = v },
	} {
		path := filepath.Join(dir, name+".pesg")
		st := validState()
		set(&st, math.MaxInt32+1)
		err := SavePESGState(path, st)
		require.ErrorIs(t, err, rocops.ErrConfig, name)
		require.ErrorContains(t, err, "optim: invalid setting: PESG: ", name)
		require.ErrorContains(t, err, "2147483648", name)
		_, err = os.Stat(path)
		require.ErrorIs(t, err, os.ErrNotExist, "%s: nothing written", name)

		st = validState()
		set(&st, math.MaxInt32)
		require.NoError(t, SavePESGState(path, st), name)
		back, err := LoadPESGState(path)
		require.NoError(t, err, name)
		require.Equal(t, st, back, name)
	}
}
