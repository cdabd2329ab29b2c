package data

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

func TestTeacher(t *testing.T) {
	cfg := TeacherConfig{Rows: 1000, Cols: 5, Positive: 0.05, Noise: 0.2, Seed: 3}
	ds, err := Teacher(cfg)
	require.NoError(t, err)
	assert.False(t, ds.Rows != 1000 || ds.Cols != 5 || ds.Positives() != 50, "rows %d, cols %d, positives %d; want 1000, 5, 50", ds.Rows, ds.Cols, ds.Positives())
	clean, err := Teacher(TeacherConfig{Rows: 1000, Cols: 5, Positive: 0.05, Seed: 3})
	require.NoError(t, err)
	// Same features; labels differ on exactly 2·round(0.2·50) = 20 rows.
	diff := 0
	for i := range ds.Y {
		require.True(t, ds.X[i*5] == clean.X[i*5], "the noise changed the features")
		if ds.Y[i] != clean.Y[i] {
			diff++
		}
	}
	assert.True(t, diff == 20, "%d labels flipped, want 20", diff)
	again, _ := Teacher(cfg)
	for i := range ds.Y {
		require.True(t, again.Y[i] == ds.Y[i], "the same configuration gave different labels")
	}
	for _, bad := range []TeacherConfig{{Rows: -1}, {Positive: 1}, {Noise: 2}, {Cols: -3}} {
		if _, err := Teacher(bad); !errors.Is(err, rocops.ErrConfig) || !strings.HasPrefix(err.Error(), "data: invalid setting: teacher with ") {
			assert.Fail(t, fmt.Sprintf("%+v: error %v, want rocops.ErrConfig", bad, err))
		}
	}
}
