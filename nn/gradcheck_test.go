package nn

import (
	"fmt"
	"testing"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/opkit"
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
				if err != nil {
					t.Fatal(err)
				}
				g := gorgonia.NewGraph()
				xv, err := newMatrix(dt, rows, m.InputSize(), randomRows(51, rows, m.InputSize()))
				if err != nil {
					t.Fatal(err)
				}
				wv, err := opkit.NewVector(dt, randomRows(52, rows, 1))
				if err != nil {
					t.Fatal(err)
				}
				x := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, m.InputSize()), gorgonia.WithValue(xv), gorgonia.WithName("x"))
				w := gorgonia.NewVector(g, dt, gorgonia.WithShape(rows), gorgonia.WithValue(wv), gorgonia.WithName("w"))
				scores, learnables, err := m.Build(g, x)
				if err != nil {
					t.Fatal(err)
				}
				prod, err := gorgonia.HadamardProd(scores, w)
				if err != nil {
					t.Fatal(err)
				}
				cost, err := gorgonia.Sum(prod)
				if err != nil {
					t.Fatal(err)
				}
				report := gradcheck.Assert(t, cost, learnables, gradcheck.Config{Lisp: gradcheck.LispRequire})
				if report != nil && len(report.Machines) != 2 {
					t.Errorf("checked machines %v, want tape and lisp", report.Machines)
				}
			})
		}
	}
}
