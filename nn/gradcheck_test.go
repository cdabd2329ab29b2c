package nn

import (
	"fmt"
	"testing"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/stretchr/testify/require"
)

// TestGradcheck runs the module's gradient checker on every test model and dtype: the
// TapeMachine and LispMachine gradients of c = Σᵢ wᵢ·sᵢ with respect to the learnables
// against five-point finite differences, with the checker's default tolerances.
func TestGradcheck(t *testing.T) {
	const rows = 5
	for _, tm := range testModels() {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", tm.name, dt), func(t *testing.T) {
				m, err := tm.new(dt)
				require.NoError(t, err)
				cost, learnables, _ := weightedScoreCost(t, gorgonia.NewGraph(), m, randomRows(51, rows, m.InputSize()), rows, randomRows(52, rows, 1))
				report := gradcheck.Assert(t, cost, learnables, gradcheck.Config{Lisp: gradcheck.LispRequire})
				require.False(t, report != nil && len(report.Machines) != 2, "checked machines %v, want tape and lisp", report.Machines)
			})
		}
	}
}
