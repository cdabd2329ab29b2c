package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
)

// trapezoid is the area under a polyline by the trapezoid rule.
func trapezoid(x, y []float64) float64 {
	var a float64
	for i := 1; i < len(x); i++ {
		a += (x[i] - x[i-1]) * (y[i] + y[i-1]) / 2
	}
	return a
}

// The macro ROC curve of k classes' one-vs-rest curves is a polyline from (0, 0) to (1, 1)
// whose area is the macro one-vs-rest AUC (metrics.TaskAUC), ties included; a single
// curve is its own macro curve, vertex for vertex up to repeated points.
func TestMacroROC(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	const n, k = 300, 4
	scores := make([]float64, n*k)
	labels := make([]float64, n)
	for i := range n {
		labels[i] = float64(rng.IntN(k))
		for c := range k {
			s := math.Round(4*rng.NormFloat64()) / 4 // heavily tied
			if float64(c) == labels[i] {
				s += 0.5
			}
			scores[i*k+c] = s
		}
	}
	var fprs, tprs [][]float64
	for c := range k {
		col, lab := make([]float64, n), make([]float64, n)
		for i := range n {
			col[i] = scores[i*k+c]
			if labels[i] == float64(c) {
				lab[i] = 1
			}
		}
		f, tp, _, err := metrics.ROC(col, lab)
		require.NoError(t, err)
		fprs, tprs = append(fprs, f), append(tprs, tp)
	}
	fpr, tpr := macroROC(fprs, tprs)
	want, err := metrics.TaskAUC(scores, labels, rocops.Classes(k), metrics.OvR, metrics.Macro)
	require.NoError(t, err)
	require.InDelta(t, want, trapezoid(fpr, tpr), 1e-12)
	require.Equal(t, [2]float64{0, 0}, [2]float64{fpr[0], tpr[0]})
	require.Equal(t, [2]float64{1, 1}, [2]float64{fpr[len(fpr)-1], tpr[len(tpr)-1]})
	for i := 1; i < len(fpr); i++ {
		require.True(t, fpr[i] >= fpr[i-1] && tpr[i] >= tpr[i-1], "vertex %d", i)
	}
	one, oneT := macroROC(fprs[:1], tprs[:1])
	require.InDelta(t, trapezoid(fprs[0], tprs[0]), trapezoid(one, oneT), 1e-15)
	// Past the grid bound the grid is even, and the area stays close.
	many, manyT := fprs, tprs
	for range 30 {
		many, manyT = append(many, fprs...), append(manyT, tprs...)
	}
	for c := range many { // shift each copy's rates a little, so the union outgrows the bound
		f := append([]float64(nil), many[c]...)
		for i := 1; i < len(f)-1; i++ {
			f[i] = min(1, f[i]*(1+1e-4*float64(c)))
		}
		many[c] = f
	}
	g, gT := macroROC(many, manyT)
	require.InDelta(t, want, trapezoid(g, gT), 5e-3)
}

// plottedClasses draws every class up to maxClassPanels, else the maxClassPanels with the
// fewest test rows, in class order (ties by class order), then the macro curve.
func TestPlottedClasses(t *testing.T) {
	require.Equal(t, []int{0, 1, 2}, plottedClasses([]int{5, 1, 9}))
	require.Equal(t, []int{0, 1, 2, 3, 4, 5}, plottedClasses([]int{6, 5, 4, 3, 2, 1}))
	require.Equal(t, []int{1, 2, 3, 5, 6, 7, macroClass}, plottedClasses([]int{9, 1, 2, 3, 9, 3, 4, 5, 6}))
}
