package nn

import (
	"fmt"
	"math"
	"testing"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/stretchr/testify/require"
)

// TestScoresAlongMatchesBackward checks forward mode against Gorgonia's reverse mode: for
// weights c and a direction v, Σ_r c_r·t_r must equal ⟨∇θ Σ_r c_r·s_r, v⟩, the gradient from
// gorgonia.Grad on a TapeMachine. The scores must equal Scores'. Tolerances: 1e-12 relative
// in float64; float32 graphs round every product to about 6e-8, so 1e-5.
func TestScoresAlongMatchesBackward(t *testing.T) {
	const rows = 7
	for _, tm := range testModels() {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", tm.name, dt), func(t *testing.T) {
				m, err := tm.new(dt)
				require.NoError(t, err)
				tol := 1e-12
				if dt.Name() == "float32" {
					tol = 1e-5
				}
				x := randomRows(61, rows, m.InputSize())
				c := randomRows(62, rows, 1)
				n, err := NumParams(m)
				require.NoError(t, err)
				v := randomRows(63, n, 1)
				d, ok := m.(Directional)
				require.True(t, ok, "%T does not implement Directional", m)
				scores, tangents, err := d.ScoresAlong(x, rows, v)
				require.NoError(t, err)
				want, err := Scores(m, x, rows)
				require.NoError(t, err)
				assertClose(t, "scores", scores, want, tol)

				cost, learnables, _ := weightedScoreCost(t, gorgonia.NewGraph(), m, x, rows, c)
				_, err = gorgonia.Grad(cost, learnables...)
				require.NoError(t, err)
				vm := gorgonia.NewTapeMachine(cost.Graph(), gorgonia.BindDualValues(learnables...))
				defer vm.Close()
				require.NoError(t, graph.RunAll(vm))
				var backward, forward, scale float64
				off := 0
				for _, l := range learnables {
					gv, err := l.Grad()
					require.NoError(t, err)
					g, err := opkit.Floats(gv)
					require.NoError(t, err)
					for k, e := range g {
						backward += e * v[off+k]
						scale += math.Abs(e * v[off+k])
					}
					off += len(g)
				}
				for r := range tangents {
					forward += c[r] * tangents[r]
				}
				require.InDelta(t, backward, forward, tol*math.Max(1, scale), "Σ c·t = %.15g, ⟨∇θ Σ c·s, v⟩ = %.15g", forward, backward)
			})
		}
	}
}

func TestScoresAlongErrors(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2, Hidden: []int{3}})
	require.NoError(t, err)
	n, _ := NumParams(m)
	require.Equal(t, 2*3+3+3*1+1, n, "NumParams = %d, want 13", n)
	v := make([]float64, n)
	for _, tc := range []struct {
		name string
		x    []float64
		rows int
		v    []float64
	}{
		{"no rows", nil, 0, v},
		{"short x", []float64{1, 2, 3}, 2, v},
		{"NaN feature", []float64{1, math.NaN()}, 1, v},
		{"short v", []float64{1, 2}, 1, v[:5]},
	} {
		_, _, err := m.ScoresAlong(tc.x, tc.rows, tc.v)
		require.ErrorIs(t, err, ErrInput, "%s: error %v, want ErrInput", tc.name, err)
	}
}
