package main

import (
	"fmt"
	"math"
	"slices"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// kdeAlpha is the false-positive rate of the KDE kernels.
const kdeAlpha = 0.05

// partialFPR is β of the partial-AUC kernel, partialKernel its name; the report divides it by
// the full squared hinge.
const (
	partialFPR    = 0.1
	partialKernel = "pairwise/sqhinge/maxfpr=0.1"
	aucmKernel    = "aucm/gradient"
)

// sink keeps results alive so that no call is optimised away.
var sink float64

// kernels lists every timed kernel, in the order of the report.
func kernels() []kernel {
	ks := kdeKernels()
	for _, s := range pairwise.Surrogates() {
		ks = append(ks, pairwiseKernels(s)...)
	}
	ks = append(ks, partialAUCKernel(), aucmGradientKernel())
	ks = append(ks, metricKernels()...)
	return append(ks, floorKernels()...)
}

// kdeKernels are the KDE-quantile loss's kernels at α = kdeAlpha: Gradient on slices, the Loss
// op in a graph, and the naive graph of sigmoids.
func kdeKernels() []kernel {
	kdeCfg := kdequantile.Config{Alpha: kdeAlpha}
	return []kernel{
		{Name: "kde/gradient", Label: "kdequantile.Gradient", Kind: op, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				return func() error {
					g, r, err := kdequantile.Gradient(b.scores, b.labels, kdeCfg)
					if err == nil {
						sink += g[0] + r.Loss
					}
					return err
				}, nil
			}},
		{Name: "kde/graph", Label: "kdequantile.Loss graph, forward+backward", Kind: op, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				return graphCall(b, func(f, y *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, y, kdeCfg) })
			}},
		{Name: "naive/kde", Label: "naive: sigmoids in a graph, bisection for τ", Kind: baseline, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				k, err := newNaiveKDE(len(b.scores), kdeAlpha)
				if err != nil {
					return nil, err
				}
				return func() error {
					l, g, err := k.run(b.scores, b.labels)
					if err == nil {
						sink += l + g[0]
					}
					return err
				}, nil
			}},
	}
}

// pairwiseKernels are the kernels of surrogate s: Gradient over all pairs, the Loss op in a
// graph, Gradient over 4n sampled pairs, and the naive broadcast matrix.
func pairwiseKernels(s pairwise.Surrogate) []kernel {
	growth := 1.0
	if s == pairwise.Logistic {
		growth = 2 // the exact logistic loss visits every pair
	}
	exact := pairwise.Config{Surrogate: s}
	return []kernel{
		{Name: "pairwise/" + s.String() + "/exact", Label: "pairwise.Gradient, all pairs", Kind: op, Growth: growth,
			prepare: func(b *batch) (func() error, error) {
				return func() error {
					g, l, err := pairwise.Gradient(b.scores, b.labels, exact)
					if err == nil {
						sink += g[0] + l
					}
					return err
				}, nil
			}},
		{Name: "pairwise/" + s.String() + "/graph", Label: "pairwise.Loss graph, forward+backward", Kind: op, Growth: growth,
			prepare: func(b *batch) (func() error, error) {
				return graphCall(b, func(f, y *gorgonia.Node) (*gorgonia.Node, error) { return pairwise.Loss(f, y, exact) })
			}},
		{Name: "pairwise/" + s.String() + "/sampled", Label: "pairwise.Gradient, 4n sampled pairs", Kind: op, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				cfg := pairwise.Config{Surrogate: s, Pairs: 4 * len(b.scores), Seed: 1}
				return func() error {
					g, l, err := pairwise.Gradient(b.scores, b.labels, cfg)
					if err == nil {
						sink += g[0] + l
					}
					return err
				}, nil
			}},
		{Name: "naive/pairwise/" + s.String(), Label: "naive: |B1|×|B0| broadcast matrix in a graph", Kind: baseline, Growth: 2,
			prepare: func(b *batch) (func() error, error) {
				p, err := newNaivePairwise(s, b.labels)
				if err != nil {
					return nil, err
				}
				return func() error {
					l, g, err := p.run(b.scores, b.labels)
					if err == nil {
						sink += l + g[0]
					}
					return err
				}, nil
			}},
	}
}

// partialAUCKernel is Gradient of the squared hinge up to the false-positive rate partialFPR.
func partialAUCKernel() kernel {
	partial := pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: partialFPR}
	return kernel{Name: partialKernel, Label: "pairwise.Gradient, squared hinge, MaxFPR = 0.1", Kind: op, Growth: 1,
		prepare: func(b *batch) (func() error, error) {
			return func() error {
				g, l, err := pairwise.Gradient(b.scores, b.labels, partial)
				if err == nil {
					sink += g[0] + l
				}
				return err
			}, nil
		}}
}

// aucmGradientKernel is aucm.Gradient of a binary batch at a = 0.5, b = 0.2 and α = 0.3.
func aucmGradientKernel() kernel {
	return kernel{Name: aucmKernel, Label: "aucm.Gradient: value and the four derivatives", Kind: op, Growth: 1,
		prepare: func(b *batch) (func() error, error) {
			a, bb, alpha := []float64{0.5}, []float64{0.2}, []float64{0.3}
			return func() error {
				dz, _, _, _, v, err := aucm.Gradient(b.scores, b.labels, a, bb, alpha, aucm.Config{})
				if err == nil {
					sink += dz[0] + v
				}
				return err
			}, nil
		}}
}

// metricKernels are metrics.AUC, ROC and DeLong.
func metricKernels() []kernel {
	return []kernel{
		{Name: "metrics/auc", Label: "metrics.AUC", Kind: op, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				return func() error {
					a, err := metrics.AUC(b.scores, b.labels)
					sink += a
					return err
				}, nil
			}},
		{Name: "metrics/roc", Label: "metrics.ROC", Kind: op, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				return func() error {
					fpr, _, _, err := metrics.ROC(b.scores, b.labels)
					if err == nil {
						sink += fpr[len(fpr)/2]
					}
					return err
				}, nil
			}},
		{Name: "metrics/delong", Label: "metrics.DeLong", Kind: op, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				return func() error {
					a, v, err := metrics.DeLong(b.scores, b.labels)
					sink += a + v
					return err
				}, nil
			}},
	}
}

// floorKernels are the floors: one pass of n logistic sigmoids, and a sort of n float64s.
func floorKernels() []kernel {
	return []kernel{
		{Name: "floor/sigmoid", Label: "floor: n logistic sigmoids", Kind: floor, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				out := make([]float64, len(b.scores))
				return func() error {
					for i, x := range b.scores {
						out[i] = 1 / (1 + math.Exp(-x))
					}
					sink += out[0]
					return nil
				}, nil
			}},
		{Name: "floor/sort", Label: "floor: sort of n float64s", Kind: floor, Growth: 1,
			prepare: func(b *batch) (func() error, error) {
				buf := make([]float64, len(b.scores))
				return func() error {
					copy(buf, b.scores)
					slices.Sort(buf)
					sink += buf[0]
					return nil
				}, nil
			}},
	}
}

// graphCall builds a float64 graph holding only the loss of the batch's scores and labels,
// differentiated with respect to the scores, and returns one forward and backward run of a
// TapeMachine over it.
func graphCall(b *batch, loss func(f, y *gorgonia.Node) (*gorgonia.Node, error)) (func() error, error) {
	g := gorgonia.NewGraph()
	f := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("f"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking(b.scores))))
	y := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("y"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking(b.labels))))
	l, err := loss(f, y)
	if err != nil {
		return nil, err
	}
	if _, err := gorgonia.Grad(l, f); err != nil {
		return nil, fmt.Errorf("differentiating: %w", err)
	}
	vm := gorgonia.NewTapeMachine(g)
	return func() error {
		vm.Reset()
		return graph.RunAll(vm)
	}, nil
}
