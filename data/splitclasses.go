package data

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// splitClassOrder is splitOrder for a multi-class ds (Classes set), with fractions fr: the
// rows of each class c, in class order, are shuffled by one PCG stream seeded with seed and
// dealt to the parts by apportion, so every part holds every class and keeps the classes'
// ratio up to rounding. A class of fewer than 3 rows is ErrClassTooSmall naming it. It holds
// two indices per row (the class-major order and the part-major result).
func splitClassOrder(ds *Dataset, fr [3]float64, seed uint64) (order []int, sizes [3]int, err error) {
	if ds.Labels != nil {
		return nil, sizes, check.Errorf("data", rocops.ErrLabel,
			"Split stratifies binary and multi-class labels; the multi-label dataset's %d label columns are not split", len(ds.Labels))
	}
	k := len(ds.Classes)
	start := make([]int, k+1) // class c's rows are byClass[start[c]:start[c+1]]
	for i, y := range ds.Y {
		if !(y >= 0 && y < float64(k)) || y != float64(int(y)) {
			return nil, sizes, check.Errorf("data", rocops.ErrLabel, "row %d has label %v, want a class index in 0…%d", i, y, k-1)
		}
		start[int(y)+1]++
	}
	for c := range k {
		if n := start[c+1]; n < len(sizes) {
			return nil, sizes, fmt.Errorf("%w: class %q has %d rows, need one in each of the %d parts",
				ErrClassTooSmall, ds.Classes[c], n, len(sizes))
		}
		start[c+1] += start[c]
	}
	byClass := make([]int, ds.Rows)
	next := slices.Clone(start[:k])
	for i, y := range ds.Y {
		byClass[next[int(y)]], next[int(y)] = i, next[int(y)]+1
	}
	rng := rand.New(rand.NewPCG(seed, splitStream))
	counts := make([][3]int, k)
	for c := range k {
		rows := byClass[start[c]:start[c+1]]
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		counts[c] = apportion(len(rows), fr)
		for p := range sizes {
			sizes[p] += counts[c][p]
		}
	}
	order = make([]int, 0, ds.Rows)
	for p := range sizes {
		lo := len(order)
		for c := range k {
			off := start[c]
			for q := range p {
				off += counts[c][q]
			}
			order = append(order, byClass[off:off+counts[c][p]]...)
		}
		slices.Sort(order[lo:])
	}
	return order, sizes, nil
}
