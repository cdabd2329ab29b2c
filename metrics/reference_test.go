package metrics

import (
	"math/rand/v2"
	"slices"
)

// The naive reference implementations below share no code with the package: they count pairs
// and rescan the data for every threshold, O(n²), so they are obviously right rather than
// fast.

// pairAUC counts, over all positive–negative pairs, 1 when the positive scores higher and ½
// for a tie.
func pairAUC(scores, labels []float64) float64 {
	var wins, pairs float64
	for i, yi := range labels {
		for j, yj := range labels {
			if yi != 1 || yj != 0 {
				continue
			}
			pairs++
			switch {
			case scores[i] > scores[j]:
				wins++
			case scores[i] == scores[j]:
				wins += 0.5
			}
		}
	}
	return wins / pairs
}

// bruteROC lists the distinct scores in descending order and, for each, counts the rows of
// each class scoring at least that much; the curve starts at (0, 0) with threshold +Inf.
func bruteROC(scores, labels []float64) (fpr, tpr, thresholds []float64) {
	distinct := slices.Clone(scores)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	slices.Reverse(distinct)
	var nPos, nNeg float64
	for _, y := range labels {
		nPos += y
		nNeg += 1 - y
	}
	fpr, tpr, thresholds = []float64{0}, []float64{0}, []float64{inf}
	for _, t := range distinct {
		var tp, fp float64
		for i, s := range scores {
			if s >= t {
				tp += labels[i]
				fp += 1 - labels[i]
			}
		}
		fpr, tpr, thresholds = append(fpr, fp/nNeg), append(tpr, tp/nPos), append(thresholds, t)
	}
	return fpr, tpr, thresholds
}

// clippedArea integrates the polyline (fpr, tpr) over [0, beta]: each segment is clipped to
// the interval independently and its trapezoid added.
func clippedArea(fpr, tpr []float64, beta float64) float64 {
	var area float64
	for k := 1; k < len(fpr); k++ {
		x0, x1, y0, y1 := fpr[k-1], fpr[k], tpr[k-1], tpr[k]
		if x0 >= beta || x1 == x0 {
			continue
		}
		if x1 > beta {
			y1 = y0 + (y1-y0)*(beta-x0)/(x1-x0)
			x1 = beta
		}
		area += (x1 - x0) * (y0 + y1) / 2
	}
	return area
}

// brutePartialAUC standardises clippedArea of bruteROC's curve by McClish's formula.
func brutePartialAUC(scores, labels []float64, beta float64) float64 {
	fpr, tpr, _ := bruteROC(scores, labels)
	a := clippedArea(fpr, tpr, beta)
	return 0.5 * (1 + (a-beta*beta/2)/(beta-beta*beta/2))
}

// bruteTPRAt finds the last point of bruteROC's curve with FPR ≤ x by scanning all of them
// and interpolates towards the next point, if any.
func bruteTPRAt(scores, labels []float64, x float64) float64 {
	fpr, tpr, _ := bruteROC(scores, labels)
	last := 0
	for k, f := range fpr {
		if f <= x {
			last = k
		}
	}
	if last == len(fpr)-1 {
		return tpr[last]
	}
	return tpr[last] + (tpr[last+1]-tpr[last])*(x-fpr[last])/(fpr[last+1]-fpr[last])
}

// randomProblem draws n labels with positive rate p (forcing both classes) and scores that
// are either continuous or from only `levels` values, so that ties within and across classes
// are common.
func randomProblem(rng *rand.Rand, n int, p float64, levels int) (scores, labels []float64) {
	scores, labels = make([]float64, n), make([]float64, n)
	for i := range n {
		if rng.Float64() < p {
			labels[i] = 1
		}
		if levels > 0 {
			scores[i] = float64(rng.IntN(levels)) / 8
		} else {
			scores[i] = rng.NormFloat64()
		}
		if labels[i] == 1 {
			scores[i] += 0.25 // some signal, so the curves are not all near the diagonal
		}
	}
	labels[0], labels[n-1] = 0, 1
	return scores, labels
}
