package main

import (
	"slices"
	"sort"
)

// maxMacroGrid bounds the false-positive rates at which macroROC averages the curves: the
// union of the curves' own rates when it holds at most this many, else this many evenly
// spaced rates.
const maxMacroGrid = 2001

// macroROC is the macro-average of k ROC curves, curve c given by its vertices fprs[c] and
// tprs[c] (nondecreasing, from (0, 0) to (1, 1), as metrics.ROC returns them): at each
// false-positive rate x of a grid, the mean over the curves of each curve's true-positive rate
// at x on its polyline, twice where some curve rises vertically at x (the mean of the lowest and
// of the highest rate each curve has there), so that the result is again a polyline. The grid
// is the union of the curves' rates when it has at most maxMacroGrid of them; the area under
// the curve is then the mean of the curves' areas (the macro one-vs-rest AUC). Otherwise the
// grid is maxMacroGrid evenly spaced rates in [0, 1], and the area differs from that mean by
// the curvature between grid points.
func macroROC(fprs, tprs [][]float64) (fpr, tpr []float64) {
	var grid []float64
	for _, f := range fprs {
		grid = append(grid, f...)
		if len(grid) > 4*maxMacroGrid {
			grid = slices.Compact(slices.Sorted(slices.Values(grid)))
		}
	}
	slices.Sort(grid)
	grid = slices.Compact(grid)
	if len(grid) > maxMacroGrid {
		grid = make([]float64, maxMacroGrid)
		for i := range grid {
			grid[i] = float64(i) / float64(maxMacroGrid-1)
		}
	}
	lo, hi := make([]float64, len(grid)), make([]float64, len(grid))
	for c := range fprs {
		for g, x := range grid {
			l, h := rateAt(fprs[c], tprs[c], x)
			lo[g] += l / float64(len(fprs))
			hi[g] += h / float64(len(fprs))
		}
	}
	for g, x := range grid {
		fpr, tpr = append(fpr, x), append(tpr, lo[g])
		if hi[g] != lo[g] {
			fpr, tpr = append(fpr, x), append(tpr, hi[g])
		}
	}
	return fpr, tpr
}

// rateAt returns the lowest and highest true-positive rate of the polyline (fpr, tpr) at
// false-positive rate x: the rates of its first and last vertex at x, or where no vertex is at
// x both the linear interpolation between its neighbours.
func rateAt(fpr, tpr []float64, x float64) (lo, hi float64) {
	i := sort.SearchFloat64s(fpr, x) // the first vertex with FPR ≥ x
	switch {
	case i == len(fpr):
		return tpr[len(tpr)-1], tpr[len(tpr)-1]
	case fpr[i] == x:
		j := i
		for j+1 < len(fpr) && fpr[j+1] == x {
			j++
		}
		return tpr[i], tpr[j]
	case i == 0:
		return tpr[0], tpr[0]
	}
	t := tpr[i-1] + (tpr[i]-tpr[i-1])*(x-fpr[i-1])/(fpr[i]-fpr[i-1])
	return t, t
}

// maxClassPanels is the most classes a plot of data of classes draws one panel each; with
// more, plottedClasses picks that many.
const maxClassPanels = 6

// macroClass stands for the macro-average curve among the classes of plottedClasses and
// classView.
const macroClass = -1

// plottedClasses returns the classes a plot draws a one-vs-rest panel of, in class order, of
// classes whose test rows are positives[c]: every class, or with more than maxClassPanels
// classes the maxClassPanels with the fewest test rows (the first in class order on ties),
// followed by macroClass.
func plottedClasses(positives []int) []int {
	all := make([]int, len(positives))
	for c := range all {
		all[c] = c
	}
	if len(all) <= maxClassPanels {
		return all
	}
	slices.SortStableFunc(all, func(a, b int) int { return positives[a] - positives[b] })
	picked := slices.Sorted(slices.Values(all[:maxClassPanels]))
	return append(picked, macroClass)
}

// classView is r, a result on data of classes, as a binary result of class c one-vs-rest for
// a plot: FPR and TPR are the class's test ROC curve, TestTPR its TPR at FPR α, and the
// deployed rates its own. For c = macroClass they are the macro-average curve (macroROC) and
// the macro figures of r.
func classView(r seedResult, c int) seedResult {
	m := r.Classes
	if c == macroClass {
		fprs, tprs := make([][]float64, len(m.Class)), make([][]float64, len(m.Class))
		for k, f := range m.Class {
			fprs[k], tprs[k] = f.ROCFPR, f.ROCTPR
		}
		r.FPR, r.TPR = macroROC(fprs, tprs)
		return r
	}
	f := m.Class[c]
	r.FPR, r.TPR, r.TestTPR, r.DeployedTestFPR, r.DeployedTestTPR = f.ROCFPR, f.ROCTPR, f.TPR, f.TestFPR, f.TestTPR
	return r
}
