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

// Split divides ds into training, validation and test parts, stratified by class: the rows
// of each class are shuffled (math/rand/v2 PCG seeded with cfg.Seed) and dealt to the parts
// in proportion to the fractions, so every part keeps the class ratio of ds up to rounding.
// Each part's count of a class is within one row of its exact share, except that a part
// that would get no row of a class takes one from the largest part: every part holds both
// classes, or every class of a multi-class dataset (Classes set). A class with fewer than 3
// rows is therefore an error ([ErrClassTooSmall]), naming the class. A multi-label dataset is
// not split (rocops.ErrLabel).
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
// returns: the rows are grouped by class, each class shuffled in place, and the class-major
// layout A0 A1 A2 B0 B1 B2 (class A's share of part 0, …) turned into the part-major
// A0 B0 A1 B1 A2 B2 by two rotations.
func splitOrder(ds *Dataset, cfg SplitConfig) (order []int, sizes [3]int, err error) {
	if err := ds.checkShape(); err != nil {
		return nil, sizes, err
	}
	fr, err := cfg.fractions()
	if err != nil {
		return nil, sizes, err
	}
	if ds.Classes != nil || ds.Labels != nil {
		return splitClassOrder(ds, fr, cfg.Seed)
	}
	pos := 0
	for i, y := range ds.Y {
		if y != 0 && y != 1 {
			return nil, sizes, check.Errorf("data", rocops.ErrLabel, "row %d has label %v", i, y)
		}
		pos += int(y)
	}
	n0 := ds.Rows - pos
	for class, n := range [2]int{n0, pos} {
		if n < len(sizes) {
			return nil, sizes, fmt.Errorf("%w: class %d has %d rows, need one in each of the %d parts",
				ErrClassTooSmall, class, n, len(sizes))
		}
	}
	order = make([]int, ds.Rows)
	k0, k1 := 0, n0
	for i, y := range ds.Y {
		if y == 0 {
			order[k0], k0 = i, k0+1
		} else {
			order[k1], k1 = i, k1+1
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, splitStream))
	a, b := order[:n0], order[n0:]
	rng.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	ca, cb := apportion(len(a), fr), apportion(len(b), fr)
	// A0 [A1 A2 B0] B1 B2 → A0 B0 A1 A2 B1 B2, then A0 B0 A1 [A2 B1] B2 → A0 B0 A1 B1 A2 B2.
	rotate(order[ca[0]:n0+cb[0]], ca[1]+ca[2])
	rotate(order[ca[0]+cb[0]+ca[1]:n0+cb[0]+cb[1]], ca[2])
	lo := 0
	for k := range sizes {
		sizes[k] = ca[k] + cb[k]
		slices.Sort(order[lo : lo+sizes[k]])
		lo += sizes[k]
	}
	return order, sizes, nil
}

// rotate moves the first k elements of s to its end, in place.
func rotate(s []int, k int) {
	slices.Reverse(s[:k])
	slices.Reverse(s[k:])
	slices.Reverse(s)
}

// permuteRows reorders the rows of ds in place so that row p holds what row order[p] held;
// order is a permutation of the rows, used up as scratch. It moves each row once, following
// the permutation's cycles with one row of buffer.
func permuteRows(ds *Dataset, order []int) {
	if ds.X32 != nil {
		permute(ds.X32, ds.Y, ds.Cols, order)
	} else {
		permute(ds.X, ds.Y, ds.Cols, order)
	}
}

// permute is permuteRows of the features x (c columns) and the labels y, one per row.
func permute[T floats.Float](x []T, y []float64, c int, order []int) {
	tmp := make([]T, c)
	for start := range order {
		if order[start] < 0 || order[start] == start {
			continue
		}
		copy(tmp, rowOf(x, start, c))
		ty := y[start]
		q := start
		for {
			src := order[q]
			order[q] = -1
			if src == start {
				copy(rowOf(x, q, c), tmp)
				y[q] = ty
				break
			}
			copy(rowOf(x, q, c), rowOf(x, src, c))
			y[q] = y[src]
			q = src
		}
	}
}

// view returns the rows [lo, hi) of ds as a dataset sharing its memory, capped so that
// appending to its slices cannot overwrite the next rows.
func (ds *Dataset) view(lo, hi int) *Dataset {
	c := ds.Cols
	v := &Dataset{Y: ds.Y[lo:hi:hi], Rows: hi - lo, Cols: c,
		FeatureNames: slices.Clone(ds.FeatureNames), LabelName: ds.LabelName, Classes: slices.Clone(ds.Classes)}
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
