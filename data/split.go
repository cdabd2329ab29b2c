package data

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// ErrClassTooSmall is the error of Split for a class with fewer rows than the parts. Bad
// fractions are [rocops.ErrConfig].
var ErrClassTooSmall = errors.New("data: class too small to split")

// SplitConfig says how [Split] divides a dataset. The zero value gives 60% training, 20%
// validation and 20% test rows, shuffled with seed 0.
type SplitConfig struct {
	// Train, Validation and Test are the shares of the rows of each class going to each part.
	// All zero means 0.6, 0.2 and 0.2; otherwise each must be positive and their sum 1.
	Train, Validation, Test float64
	// Seed seeds the shuffle (PCG): the same dataset and Seed give the same split.
	Seed uint64
}

// tolSum is how far from 1 the fractions of a SplitConfig may sum, for decimal fractions
// such as 0.7 + 0.2 + 0.1 that do not sum to 1 exactly in floating point.
const tolSum = 1e-9

func (c SplitConfig) fractions() ([3]float64, error) {
	fr := [3]float64{c.Train, c.Validation, c.Test}
	if fr == [3]float64{} {
		return [3]float64{0.6, 0.2, 0.2}, nil
	}
	for _, f := range fr {
		if !(f > 0) {
			return fr, check.Errorf("data", rocops.ErrConfig, "split fractions %v, %v, %v: each must be positive", fr[0], fr[1], fr[2])
		}
	}
	if sum := fr[0] + fr[1] + fr[2]; math.Abs(sum-1) > tolSum {
		return fr, check.Errorf("data", rocops.ErrConfig, "split fractions %v, %v, %v sum to %v, not 1", fr[0], fr[1], fr[2], sum)
	}
	return fr, nil
}

// Split divides ds into training, validation and test parts, stratified by its [Strata]: the
// rows of each stratum are shuffled (math/rand/v2 PCG seeded with cfg.Seed, one stream for the
// strata in their order) and dealt to the parts in proportion to the fractions, so every part
// keeps the strata's ratio of ds up to rounding. Each part's count of a stratum is within one
// row of its exact share, except that a part that would get no row of a stratum takes one
// from the largest part: every part holds both classes of binary data and every class of a
// multi-class dataset (Classes set). A class with fewer than 3 rows is therefore an error
// ([ErrClassTooSmall]), naming the class. A multi-label dataset (Labels set) is stratified by
// its rows' sets of labels, each set of at least [MinClassRows] rows a stratum of its own and
// the rarer sets one stratum together (joined to the largest stratum when they hold fewer than
// MinClassRows rows), so that every part holds each common set of labels in proportion; fewer
// than two such strata is ErrClassTooSmall.
//
// The parts are new datasets, disjoint, covering ds, each keeping the rows in the order of
// ds and its storage (X or X32). The same ds and cfg give the same split.
func Split(ds *Dataset, cfg SplitConfig) (train, val, test *Dataset, err error) {
	order, sizes, err := splitOrder(ds, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	var out [3]*Dataset
	for k, n := range sizes {
		out[k] = ds.subset(order[:n])
		order = order[n:]
	}
	return out[0], out[1], out[2], nil
}

// splitOrder returns the rows of the parts of Split one after the other, each part's in
// increasing order, and the parts' sizes. It needs no memory but the one index per row it
// returns (a multi-label dataset's strata, pooled, take a second): the strata's backing
// array, each stratum shuffled in place, with each row's part (its place in its stratum's
// shuffled order says which) marked in the index while the rows are gathered part by part.
func splitOrder(ds *Dataset, cfg SplitConfig) (order []int, sizes [3]int, err error) {
	if err := ds.checkShape(); err != nil {
		return nil, sizes, err
	}
	fr, err := cfg.fractions()
	if err != nil {
		return nil, sizes, err
	}
	strata, order, name, err := ds.splitStrata()
	if err != nil {
		return nil, sizes, err
	}
	for s, rows := range strata {
		if n := len(rows); n < len(sizes) {
			return nil, sizes, fmt.Errorf("%w: %s has %d rows, need one in each of the %d parts",
				ErrClassTooSmall, name(s), n, len(sizes))
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, splitStream))
	for _, rows := range strata {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		counts := apportion(len(rows), fr)
		for p, n := range counts {
			for q := range n {
				rows[q] = rows[q]*len(sizes) + p // the row and its part
			}
			rows = rows[n:]
			sizes[p] += n
		}
	}
	// Gather the rows part by part (a three-way partition by the part marked), then unmark them
	// and sort each part.
	lo, mid, hi := 0, 0, len(order)
	for mid < hi {
		switch order[mid] % len(sizes) {
		case 0:
			order[lo], order[mid] = order[mid], order[lo]
			lo, mid = lo+1, mid+1
		case 1:
			mid++
		default:
			hi--
			order[mid], order[hi] = order[hi], order[mid]
		}
	}
	for i := range order {
		order[i] /= len(sizes)
	}
	lo = 0
	for _, n := range sizes {
		slices.Sort(order[lo : lo+n])
		lo += n
	}
	return order, sizes, nil
}

// permuteRows reorders the rows of ds in place so that row p holds what row order[p] held;
// order is a permutation of the rows, used up as scratch. It moves each row once, following
// the permutation's cycles with one row of buffer.
func permuteRows(ds *Dataset, order []int) {
	w := ds.Task().LabelsPerRow()
	if ds.X32 != nil {
		permute(ds.X32, ds.Y, ds.Cols, w, order)
	} else {
		permute(ds.X, ds.Y, ds.Cols, w, order)
	}
}

// permute is permuteRows of the features x (c columns) and the labels y (w per row).
func permute[T floats.Float](x []T, y []float64, c, w int, order []int) {
	tmp, ty := make([]T, c), make([]float64, w)
	for start := range order {
		if order[start] < 0 || order[start] == start {
			continue
		}
		copy(tmp, rowOf(x, start, c))
		copy(ty, rowOf(y, start, w))
		q := start
		for {
			src := order[q]
			order[q] = -1
			if src == start {
				copy(rowOf(x, q, c), tmp)
				copy(rowOf(y, q, w), ty)
				break
			}
			copy(rowOf(x, q, c), rowOf(x, src, c))
			copy(rowOf(y, q, w), rowOf(y, src, w))
			q = src
		}
	}
}

// view returns the rows [lo, hi) of ds as a dataset sharing its memory, capped so that
// appending to its slices cannot overwrite the next rows.
func (ds *Dataset) view(lo, hi int) *Dataset {
	c, w := ds.Cols, ds.Task().LabelsPerRow()
	v := &Dataset{Y: ds.Y[lo*w : hi*w : hi*w], Rows: hi - lo, Cols: c, FeatureNames: slices.Clone(ds.FeatureNames),
		LabelName: ds.LabelName, Classes: slices.Clone(ds.Classes), Labels: slices.Clone(ds.Labels),
		LabelValues: slices.Clone(ds.LabelValues), Levels: ds.Levels}
	if ds.X32 != nil {
		v.X32 = ds.X32[lo*c : hi*c : hi*c]
	} else {
		v.X = ds.X[lo*c : hi*c : hi*c]
	}
	return v
}

// splitStream is the second PCG seed word of Split, fixed so that Seed alone picks the split.
const splitStream = 0x5eed5b117

// apportion divides n ≥ 3 items among parts with the given fractions (summing to 1) by
// rounding the cumulative shares, so each count is within one of n·fraction and they sum to
// n, then moves one item from the largest part to each empty part.
func apportion(n int, fr [3]float64) [3]int {
	var counts [3]int
	var cum float64
	prev := 0
	for k := range len(fr) - 1 {
		cum += fr[k]
		end := int(math.Round(float64(n) * cum))
		counts[k], prev = end-prev, end
	}
	counts[len(fr)-1] = n - prev
	for k := range counts {
		if counts[k] == 0 {
			largest := 0
			for m := range counts {
				if counts[m] > counts[largest] {
					largest = m
				}
			}
			counts[largest]--
			counts[k]++
		}
	}
	return counts
}
