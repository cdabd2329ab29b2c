package pairwise

import "github.com/rocops/rocops/internal/floats"

// item is one score in the merged sort of the hinge algorithms.
type item struct {
	key uint64 // orderKey of the value the score is sorted by
	ref int    // index in the batch, shifted left by one; the low bit is 1 for a positive
}

func (it item) positive() bool { return it.ref&1 == 1 }
func (it item) index() int     { return it.ref >> 1 }
func (it item) value() float64 { return floats.FromOrderKey(it.key) }

// radixSort sorts items by key, stably, with one least-significant-digit pass per byte of
// the key; a byte that every key shares is skipped. tmp is scratch space of the same length.
// It returns the sorted slice, which is items or tmp. From a few thousand items up it costs no
// more than a comparison sort of the bare float64 scores (docs/benchmarks.md).
func radixSort(items, tmp []item) []item {
	if len(items) < 2 {
		return items
	}
	var counts [8][256]int
	for _, it := range items {
		for d := range counts {
			counts[d][byte(it.key>>(8*d))]++
		}
	}
	for d := range counts {
		c := &counts[d]
		shift := 8 * d
		if c[byte(items[0].key>>shift)] == len(items) {
			continue
		}
		sum := 0
		for b, n := range c {
			c[b], sum = sum, sum+n
		}
		for _, it := range items {
			b := byte(it.key >> shift)
			tmp[c[b]] = it
			c[b]++
		}
		items, tmp = tmp, items
	}
	return items
}
