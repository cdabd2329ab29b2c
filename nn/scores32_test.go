package nn

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// TestScoresFloat32Storage scores float32 features with Scores and ScoresWith and compares
// them with Scores of their float64 widening: the scores are equal bit for bit, for both
// dtypes, through a Pass (the MLPs) and through a graph (a model nn has no Pass for), over
// more rows than one chunk.
func TestScoresFloat32Storage(t *testing.T) {
	rows := scoreChunk + 13
	for _, tm := range testModels() {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", tm.name, dt), func(t *testing.T) {
				m, err := tm.new(dt)
				require.NoError(t, err)
				models := []Model{m}
				if l, ok := m.(*MLP); ok {
					models = append(models, otherModel{l}) // scored through a graph
				}
				x64 := randomRows(5, rows, m.InputSize())
				x32 := make([]float32, len(x64))
				for k, v := range x64 {
					x32[k] = float32(v)
					x64[k] = float64(x32[k])
				}
				for _, m := range models {
					want, err := Scores(m, x64, rows)
					require.NoError(t, err)
					got, err := Scores(m, x32, rows)
					require.NoError(t, err)
					require.Equal(t, want, got)
					s, err := NewScorer(m)
					require.NoError(t, err)
					again, err := ScoresWith(s, x32, rows)
					s.Close()
					require.NoError(t, err)
					require.Equal(t, want, again)
				}
			})
		}
	}
}

// TestCheckInputFloat32Storage: CheckInput of features held in float32 refuses what it refuses
// in float64 ones: a wrong length and a non-finite value, naming its row and feature.
func TestCheckInputFloat32Storage(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2, Dtype: tensor.Float32})
	require.NoError(t, err)
	require.NoError(t, CheckInput(m, []float32{0, math.MaxFloat32, -math.MaxFloat32, 1}, 2))
	require.ErrorIs(t, CheckInput(m, []float32{0, 1, 2}, 2), ErrInput)
	err = CheckInput(m, []float32{0, 1, float32(math.Inf(1)), 2}, 2)
	require.ErrorIs(t, err, ErrInput)
	require.ErrorContains(t, err, "row 1, feature 0")
	_, err = Scores(m, []float32{0, float32(math.NaN()), 1, 2}, 2)
	require.ErrorIs(t, err, ErrInput)
	require.ErrorContains(t, err, "row 0, feature 1")
}
