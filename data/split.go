package data

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rocops/rocops/internal/check"
)

// Errors of Split.
var (
	ErrSplitFractions = errors.New("data: bad split fractions")
	ErrClassTooSmall  = errors.New("data: class too small to split")
)

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
			return fr, fmt.Errorf("%w: %v, %v, %v: each must be positive", ErrSplitFractions, fr[0], fr[1], fr[2])
		}
	}
	if sum := fr[0] + fr[1] + fr[2]; math.Abs(sum-1) > tolSum {
		return fr, fmt.Errorf("%w: %v, %v, %v sum to %v, not 1", ErrSplitFractions, fr[0], fr[1], fr[2], sum)
	}
	return fr, nil
}

// Split divides ds into training, validation and test parts, stratified by class: the rows
// of each class are shuffled (math/rand/v2 PCG seeded with cfg.Seed) and dealt to the parts
// in proportion to the fractions, so every part keeps the class ratio of ds up to rounding.
// Each part's count of a class is within one row of its exact share, except that a part
// that would get no row of a class takes one from the largest part: every part holds both
// classes. A class with fewer than 3 rows is therefore an error ([ErrClassTooSmall]).
//
// The parts are new datasets, disjoint, covering ds, each keeping the rows in the order of
// ds. The same ds and cfg give the same split.
func Split(ds *Dataset, cfg SplitConfig) (train, val, test *Dataset, err error) {
	if err := ds.checkShape(); err != nil {
		return nil, nil, nil, err
	}
	fr, err := cfg.fractions()
	if err != nil {
		return nil, nil, nil, err
	}
	var byClass [2][]int
	for i, y := range ds.Y {
		if y != 0 && y != 1 {
			return nil, nil, nil, check.Errorf("data", ErrLabel, "row %d has label %v", i, y)
		}
		byClass[int(y)] = append(byClass[int(y)], i)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, splitStream))
	var parts [3][]int
	for class, rows := range byClass {
		if len(rows) < len(parts) {
			return nil, nil, nil, fmt.Errorf("%w: class %d has %d rows, need one in each of the %d parts",
				ErrClassTooSmall, class, len(rows), len(parts))
		}
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for k, n := range apportion(len(rows), fr) {
			parts[k] = append(parts[k], rows[:n]...)
			rows = rows[n:]
		}
	}
	var out [3]*Dataset
	for k, idx := range parts {
		slices.Sort(idx)
		out[k] = ds.subset(idx)
	}
	return out[0], out[1], out[2], nil
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
