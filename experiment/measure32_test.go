package experiment

import (
	"context"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// storedBoth returns ds with its features rounded to float32, stored in float64 (exact
// float32 values) and in float32.
func storedBoth(ds *data.Dataset) (r64, r32 *data.Dataset) {
	a, b := *ds, *ds
	a.X, b.X, b.X32 = make([]float64, len(ds.X)), nil, make([]float32, len(ds.X))
	for k, v := range ds.X {
		b.X32[k] = float32(v)
		a.X[k] = float64(b.X32[k])
	}
	a.Y, b.Y = slices.Clone(ds.Y), slices.Clone(ds.Y)
	return &a, &b
}

// TestMeasureFloat32Storage: a split of a dataset stored in float32 is that of the float64
// dataset of the same values, its parts rounded to float32, and measuring a model on it (the
// parts scored by nn.Scores of X32, never widened) gives every figure of its parts widened to
// float64 bit for bit, and for a float32 model those of the float64 split — for a binary
// dataset (Measure) and a multi-label one (measureClasses, whose split stratifies by the rows'
// sets of labels), for float32 and float64 models.
func TestMeasureFloat32Storage(t *testing.T) {
	ds, err := data.Teacher(data.TeacherConfig{Rows: 1200, Cols: 6, Positive: 0.2, Seed: 5})
	require.NoError(t, err)
	for _, multilabel := range []bool{false, true} {
		for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
			t.Run(fmt.Sprintf("multilabel=%v/%v", multilabel, dt), func(t *testing.T) {
				r64, r32 := storedBoth(ds)
				if multilabel {
					r64.Labels, r32.Labels = []string{"y"}, []string{"y"}
				}
				sp64, err := NewSplit(r64, 3)
				require.NoError(t, err)
				sp32, err := NewSplit(r32, 3)
				require.NoError(t, err)
				require.Equal(t, sp64.Std, sp32.Std)
				for p, pair := range [][2]*data.Dataset{{sp64.Train, sp32.Train}, {sp64.Val, sp32.Val}, {sp64.Test, sp32.Test}} {
					require.True(t, pair[1].Float32(), "part %d", p)
					require.Equal(t, pair[0].Y, pair[1].Y, "part %d", p)
					narrowed := make([]float32, len(pair[0].X))
					for k, v := range pair[0].X {
						narrowed[k] = float32(v)
					}
					require.Equal(t, narrowed, pair[1].X32, "part %d", p)
				}
				m, err := nn.NewMLP(nn.MLPConfig{In: 6, Hidden: []int{16}, Dtype: dt, Seed: 4})
				require.NoError(t, err)
				cfg := train.Config{Epochs: 2, Seed: 4, Progress: io.Discard}
				_, err = train.Plain(nil).Fit(context.Background(), m, cfg, sp64.Train, sp64.Val)
				require.NoError(t, err)
				mc := MeasureConfig{Alpha: 0.1, Recall: 0.8, Boot: 50, Seed: 9}
				wide := &Split{Seed: sp32.Seed, Train: sp32.Train.Float64(), Val: sp32.Val.Float64(),
					Test: sp32.Test.Float64(), Std: sp32.Std}
				// The float32 split against its widening, and, for a float32 model (which rounds
				// its input to float32), against the float64 split.
				against := []*Split{wide}
				if dt == tensor.Float32 {
					against = append(against, sp64)
				}
				for _, other := range against {
					if multilabel {
						a, err := measureClasses(m, other, mc, false)
						require.NoError(t, err)
						b, err := measureClasses(m, sp32, mc, false)
						require.NoError(t, err)
						require.Equal(t, a, b)
						continue
					}
					a, err := Measure(m, other, mc)
					require.NoError(t, err)
					b, err := Measure(m, sp32, mc)
					require.NoError(t, err)
					require.Equal(t, a.TestScores, b.TestScores)
					a.Test, b.Test = nil, nil // the curves of those scores
					require.Equal(t, *a, *b)
				}
			})
		}
	}
}
