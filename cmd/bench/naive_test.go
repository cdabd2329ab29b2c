package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// agreeTol is how closely a naive baseline must reproduce the fused op: the loss to within
// agreeTol relative to its size, each gradient component to within agreeTol relative to the
// largest component. Both sides are float64 computations of the same formulas (for the KDE
// loss, τ is a root found to the last bit by two different solvers), so they differ by
// rounding only.
const agreeTol = 1e-10

// agreement returns the relative differences of the losses and of the gradients.
func agreement(l, wantL float64, g, wantG []float64) (dl, dg float64) {
	var scale float64
	for _, x := range wantG {
		scale = max(scale, math.Abs(x))
	}
	for i := range wantG {
		dg = max(dg, math.Abs(g[i]-wantG[i])/scale)
	}
	return math.Abs(l-wantL) / math.Abs(wantL), dg
}

// sizes of the agreement tests: from n = 20 on a batch has n/10 ≥ 2 positives, so the
// bandwidth rule's fallback for a class of one score is not exercised.
var agreeSizes = []int{20, 100, 1000}

func TestNaiveKDEMatchesGradient(t *testing.T) {
	for _, n := range agreeSizes {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			b := newBatch(n)
			want, res, err := kdequantile.Gradient(b.scores, b.labels, kdequantile.Config{Alpha: kdeAlpha})
			require.NoError(t, err)
			k, err := newNaiveKDE(n, kdeAlpha)
			require.NoError(t, err)
			for run := range 2 { // the second run checks that the graph takes new inputs
				l, g, err := k.run(b.scores, b.labels)
				require.NoError(t, err)
				dl, dg := agreement(l, res.Loss, g, want)
				if dl > agreeTol || dg > agreeTol {
					assert.Fail(t, fmt.Sprintf("run %d: loss %v, fused %v (rel. diff %.2g); gradient rel. diff %.2g; tolerance %g",
						run, l, res.Loss, dl, dg, agreeTol))
				}
				b.scores[0] += 0.25 // a different batch for the second run
				want, res, err = kdequantile.Gradient(b.scores, b.labels, kdequantile.Config{Alpha: kdeAlpha})
				require.NoError(t, err)
			}
		})
	}
}

func TestNaivePairwiseMatchesGradient(t *testing.T) {
	for _, s := range pairwise.Surrogates() {
		for _, n := range agreeSizes {
			t.Run(fmt.Sprintf("surrogate=%v/n=%d", s, n), func(t *testing.T) {
				b := newBatch(n)
				p, err := newNaivePairwise(s, b.labels)
				require.NoError(t, err)
				for run := range 2 {
					want, wantL, err := pairwise.Gradient(b.scores, b.labels, pairwise.Config{Surrogate: s})
					require.NoError(t, err)
					l, g, err := p.run(b.scores, b.labels)
					require.NoError(t, err)
					dl, dg := agreement(l, wantL, g, want)
					if dl > agreeTol || dg > agreeTol {
						assert.Fail(t, fmt.Sprintf("run %d: loss %v, fused %v (rel. diff %.2g); gradient rel. diff %.2g; tolerance %g",
							run, l, wantL, dl, dg, agreeTol))
					}
					b.scores[0] += 0.25
				}
			})
		}
	}
}
