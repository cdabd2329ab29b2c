package train

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookPanicRestoresBestWeights: a hook that panics stops training like one that returns
// an error: Fit recovers, returns ErrHookPanic naming the hook (wrapping the panic value
// when it is an error) with the history so far, and the model holds the best epoch's
// weights, not those of the moment of the panic.
func TestHookPanicRestoresBestWeights(t *testing.T) {
	for _, where := range []string{"OnStep", "OnEpoch"} {
		t.Run(where, func(t *testing.T) {
			tr := blobs(t, 200, 3, 0.3, 2, 5)
			m := mlp(t, 3, 8)
			var snaps [][][]float64 // the weights after every epoch
			rec := Hook{Name: "record", OnEpoch: func(Epoch) error { snaps = append(snaps, params(t, m)); return nil }}
			bad := errors.New("broken invariant")
			var atPanic [][]float64
			boom := Hook{Name: "boom"}
			if where == "OnStep" {
				boom.OnStep = func(s StepInfo) error {
					if s.Epoch == 3 && s.Step == 2 {
						atPanic = params(t, m)
						panic(bad)
					}
					return nil
				}
			} else {
				boom.OnEpoch = func(e Epoch) error {
					if e.Index == 3 {
						atPanic = params(t, m)
						panic("index out of range")
					}
					return nil
				}
			}
			h, err := fit(t, m, Config{Epochs: 5, BatchSize: 50, Hooks: []Hook{rec, boom}}, tr, tr)
			require.False(t, !errors.Is(err, ErrHookPanic) || !strings.Contains(err.Error(), `"boom"`), "Fit: %v, want ErrHookPanic naming \"boom\"", err)
			assert.False(t, where == "OnStep" && !errors.Is(err, bad), "a panic with an error value should wrap it: %v", err)
			assert.False(t, where == "OnEpoch" && !strings.Contains(err.Error(), "index out of range"), "the error should give the panic value: %v", err)
			require.False(t, h == nil || h.Best < 0, "history %+v: want the epochs before the panic, with a best one", h)
			want := snaps[h.Best]
			require.False(t, where == "OnStep" && equalParams(atPanic, want), "precondition: the weights at the panic should differ from the best epoch's")
			assert.True(t, equalParams(params(t, m), want), "the model does not hold the weights of the best epoch %d", h.Epochs[h.Best].Index)
		})
	}
}

func equalParams(a, b [][]float64) bool {
	return slices.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) })
}
