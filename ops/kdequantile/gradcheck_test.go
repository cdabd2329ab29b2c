package kdequantile_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestGradcheck compares both ops' gradients on both machines with numerical derivatives
// over a grid of batch sizes, class ratios, α and bandwidths, in float64 with the checker's
// default tolerance, 1e-6 relative. The bandwidths are fixed: a batch-chosen bandwidth is held
// constant in the backward pass, which finite differences of the cost would not do.
func TestGradcheck(t *testing.T) {
	ops := []struct {
		name string
		op   func(f, y *gorgonia.Node, cfg kdequantile.Config) (*gorgonia.Node, error)
	}{{"Loss", kdequantile.Loss}, {"Threshold", kdequantile.Threshold}}
	seed := uint64(0)
	for _, n := range []int{3, 17, 64} {
		for _, posFrac := range []float64{0.1, 0.5} {
			for _, alpha := range []float64{0.05, 0.5, 0.9} {
				for _, v := range [][2]float64{{0.5, 2}, {2, 2}, {8, 3}} {
					seed++
					scores, labels := gradcheckBatch(seed, n, posFrac)
					cfg := kdequantile.Config{Alpha: alpha, V0: v[0], V1: v[1]}
					for _, o := range ops {
						name := fmt.Sprintf("%s/n=%d/pos=%v/alpha=%v/v=%v", o.name, n, posFrac, alpha, v)
						t.Run(name, func(t *testing.T) {
							g := gorgonia.NewGraph()
							f := vector(g, "f", scores)
							cost, err := o.op(f, vector(g, "y", labels), cfg)
							require.NoError(t, err)
							// LispRequire: both machines or an error.
							r := gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
							if r != nil {
								t.Logf("largest relative error %.2g", r.MaxRel())
							}
						})
					}
				}
			}
		}
	}
}

// vector returns a float64 input node holding xs.
func vector(g *gorgonia.ExprGraph, name string, xs []float64) *gorgonia.Node {
	return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName(name),
		gorgonia.WithValue(tensor.New(tensor.WithBacking(xs))))
}

// gradcheckBatch returns n scores in (−2, 3), about posFrac of them positive and at least one
// of each class, positives shifted up by one.
func gradcheckBatch(seed uint64, n int, posFrac float64) (scores, labels []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	scores, labels = make([]float64, n), make([]float64, n)
	for i := range n {
		scores[i] = 4*rng.Float64() - 2
		if i == 0 || (i > 1 && rng.Float64() < posFrac) {
			labels[i] = 1
			scores[i]++
		}
	}
	return scores, labels
}

// TestGradcheckRecall checks the mirrored loss (Config.Recall) and its threshold on both
// machines, in float64 and float32 graphs, with the checker's default tolerance for each dtype
// (1e-6 and 1e-3 relative). Bandwidths are fixed, as in TestGradcheck.
//
// TestGradcheckTail does the same for Config.Tail, with Alpha and with Recall.
func TestGradcheckRecall(t *testing.T) {
	ops := []struct {
		name string
		op   func(f, y *gorgonia.Node, cfg kdequantile.Config) (*gorgonia.Node, error)
	}{{"Loss", kdequantile.Loss}, {"Threshold", kdequantile.Threshold}}
	seed := uint64(1000)
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, n := range []int{3, 17, 64} {
			for _, recall := range []float64{0.5, 0.9, 0.98} {
				for _, v := range [][2]float64{{0.5, 2}, {3, 4}} {
					seed++
					scores, labels := gradcheckBatch(seed, n, 0.3)
					cfg := kdequantile.Config{Recall: recall, V0: v[0], V1: v[1]}
					for _, o := range ops {
						name := fmt.Sprintf("%v/%s/n=%d/recall=%v/v=%v", dt, o.name, n, recall, v)
						t.Run(name, func(t *testing.T) {
							g := gorgonia.NewGraph()
							f, err := graph.Input(g, dt, "f", scores)
							require.NoError(t, err)
							y, err := graph.Input(g, dt, "y", labels)
							require.NoError(t, err)
							cost, err := o.op(f, y, cfg)
							require.NoError(t, err)
							r := gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
							if ev, err := kdequantile.Evaluate(scores, labels, cfg); r != nil && err == nil {
								t.Logf("L = %.3g, τ = %.3g; largest relative error %.2g", ev.Loss, ev.Tau, r.MaxRel())
							}
						})
					}
				}
			}
		}
	}
}

func TestGradcheckTail(t *testing.T) {
	seed := uint64(2000)
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, n := range []int{5, 17, 64} {
			for _, cfg := range []kdequantile.Config{
				{Alpha: 0.05, V0: 2, V1: 1.5, Tail: true},
				{Alpha: 0.3, V0: 0.5, V1: 3, Tail: true},
				{Recall: 0.9, V0: 1.5, V1: 2, Tail: true},
			} {
				seed++
				scores, labels := gradcheckBatch(seed, n, 0.3)
				t.Run(fmt.Sprintf("%v/n=%d/%+v", dt, n, cfg), func(t *testing.T) {
					g := gorgonia.NewGraph()
					f, err := graph.Input(g, dt, "f", scores)
					require.NoError(t, err)
					y, err := graph.Input(g, dt, "y", labels)
					require.NoError(t, err)
					cost, err := kdequantile.Loss(f, y, cfg)
					require.NoError(t, err)
					gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
				})
			}
		}
	}
}
