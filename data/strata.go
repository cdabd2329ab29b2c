package data

import (
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Strata partitions the rows of a dataset by their labels: Strata[s] lists the rows of stratum
// s in increasing order, and every row is in exactly one stratum. It is the unit every
// stratified draw of the module keeps its proportions in — [Split], the trainer's batches and
// diagnostic sets, and metrics.BootstrapRows, which takes [Strata.PerRow]. A row's stratum is
//
//   - binary data: its label, stratum 0 holding the negatives and stratum 1 the positives
//     (both present in the slice, even when one is empty);
//   - k classes: its class, stratum c holding the rows of class c (k strata, some perhaps
//     empty);
//   - k labels: its set of labels, the row's k labels taken together, one stratum for each set
//     that occurs, numbered in the lexicographic order of the sets (label 0 first, 0 before
//     1), none empty.
type Strata [][]int

// Strata returns ds's strata, after checking its labels as [Dataset.Validate] does: a label
// that is not 0 or 1, or not a class index 0…k−1, is [rocops.ErrLabel] naming the row, and
// fields that do not fit each other are [ErrShape]. It reads the labels only — Y, Rows,
// Classes and Labels — so a dataset of labels alone (Cols 0 and no X, X32 or FeatureNames)
// has strata too; for any other dataset the fields of the features are checked as well (as
// Validate does, but without reading the features). The strata share one new backing array
// of Rows indices, each capped so that appending to one cannot overwrite the next.
func (ds *Dataset) Strata() (Strata, error) {
	s, _, err := ds.strata()
	return s, err
}

// strata is Strata, also returning the backing array: the strata's rows one stratum after the
// other, in stratum order.
func (ds *Dataset) strata() (Strata, []int, error) {
	if err := ds.checkStrataShape(); err != nil {
		return nil, nil, err
	}
	if ds.Labels != nil {
		return ds.labelSetStrata()
	}
	k := 2
	if ds.Classes != nil {
		k = len(ds.Classes)
	}
	start := make([]int, k+1) // stratum c's rows are rows[start[c]:start[c+1]]
	for i, y := range ds.Y {
		if err := ds.checkLabel(i, y, k); err != nil {
			return nil, nil, err
		}
		start[int(y)+1]++
	}
	return group(start, len(ds.Y), func(i int) int { return int(ds.Y[i]) })
}

// checkStrataShape is checkShape of a dataset with features, and of one of labels alone its
// label fields only.
func (ds *Dataset) checkStrataShape() error {
	if ds != nil && ds.Cols == 0 && ds.X == nil && ds.X32 == nil && ds.FeatureNames == nil {
		return ds.checkLabelShape()
	}
	return ds.checkShape()
}

// checkLabel reports label y of row i (of a binary or k-class dataset) that is not 0 or 1,
// or not a class index 0…k−1.
func (ds *Dataset) checkLabel(i int, y float64, k int) error {
	if ds.Classes == nil {
		if y != 0 && y != 1 {
			return check.Errorf("data", rocops.ErrLabel, "row %d has label %v", i, y)
		}
		return nil
	}
	if !(y >= 0 && y < float64(k)) || y != math.Trunc(y) {
		return check.Errorf("data", rocops.ErrLabel, "row %d has label %v, want a class index in 0…%d", i, y, k-1)
	}
	return nil
}

// group returns the strata of n rows, row i in stratum of(i), whose sizes are the differences
// of start (start[0] = 0, len(start) = strata + 1, overwritten), and their backing array.
func group(start []int, n int, of func(i int) int) (Strata, []int, error) {
	k := len(start) - 1
	for c := range k {
		start[c+1] += start[c]
	}
	rows := make([]int, n)
	next := slices.Clone(start[:k])
	for i := range n {
		c := of(i)
		rows[next[c]], next[c] = i, next[c]+1
	}
	s := make(Strata, k)
	for c := range s {
		s[c] = rows[start[c]:start[c+1]:start[c+1]]
	}
	return s, rows, nil
}

// labelSetStrata is strata of a multi-label ds: one stratum for each set of labels that
// occurs, in the lexicographic order of the sets.
func (ds *Dataset) labelSetStrata() (Strata, []int, error) {
	k := len(ds.Labels)
	key := make([]byte, k)
	keyOf := func(i int) []byte {
		for c, y := range ds.Y[i*k : (i+1)*k] {
			key[c] = '0' + byte(y)
		}
		return key
	}
	counts := map[string]int{}
	for i := range ds.Rows {
		for c, y := range ds.Y[i*k : (i+1)*k] {
			if y != 0 && y != 1 {
				return nil, nil, check.Errorf("data", rocops.ErrLabel, "row %d, label %q is %v", i, ds.Labels[c], y)
			}
		}
		counts[string(keyOf(i))]++
	}
	sets := make([]string, 0, len(counts))
	for set := range counts {
		sets = append(sets, set)
	}
	slices.Sort(sets)
	number := make(map[string]int, len(sets))
	start := make([]int, len(sets)+1)
	for s, set := range sets {
		number[set], start[s+1] = s, counts[set]
	}
	return group(start, ds.Rows, func(i int) int { return number[string(keyOf(i))] })
}

// PerRow returns each row's stratum: PerRow()[i] = s for every row i of s[s], the per-row
// strata metrics.BootstrapRows draws within. It has one entry per row up to the largest row of
// s; a row of no stratum (none in Dataset.Strata's) has −1.
func (s Strata) PerRow() []int {
	n := 0
	for _, rows := range s {
		for _, r := range rows {
			n = max(n, r+1)
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for c, rows := range s {
		for _, r := range rows {
			if r >= 0 {
				out[r] = c
			}
		}
	}
	return out
}

// splitStrata returns the strata Split deals to the parts, and a name for each, for errors:
// ds's strata, except that the label sets of a multi-label dataset with fewer than
// MinClassRows rows are pooled into one stratum, after the others ("rare label sets"), or,
// when they hold fewer than MinClassRows rows together, into the largest stratum (the first
// of the largest). A multi-label dataset needs two strata of at least MinClassRows rows so.
// The strata are contiguous in the returned backing array, in stratum order.
func (ds *Dataset) splitStrata() (Strata, []int, func(s int) string, error) {
	strata, rows, err := ds.strata()
	if err != nil {
		return nil, nil, nil, err
	}
	switch {
	case ds.Classes != nil:
		return strata, rows, func(c int) string { return fmt.Sprintf("class %q", ds.Classes[c]) }, nil
	case ds.Labels == nil:
		return strata, rows, func(c int) string { return fmt.Sprintf("class %d", c) }, nil
	}
	k := len(ds.Labels)
	setOf := func(rows []int) string {
		var b []byte
		for _, y := range ds.Y[rows[0]*k : (rows[0]+1)*k] {
			b = append(b, '0'+byte(y))
		}
		return string(b)
	}
	var common Strata // the sets of MinClassRows rows or more, in order
	var rare []int    // the rows of the others
	for _, r := range strata {
		if len(r) >= MinClassRows {
			common = append(common, r)
		} else {
			rare = append(rare, r...)
		}
	}
	names := make([]string, len(common))
	for s, r := range common {
		names[s] = "label set " + setOf(r)
	}
	pooled := slices.Clone(common)
	switch {
	case len(rare) >= MinClassRows || (len(rare) > 0 && len(common) == 0):
		pooled, names = append(pooled, rare), append(names, "rare label sets")
	case len(rare) > 0:
		largest := 0
		for s, r := range common {
			if len(r) > len(common[largest]) {
				largest = s
			}
		}
		pooled[largest] = append(slices.Clone(common[largest]), rare...)
	}
	if len(pooled) < 2 {
		return nil, nil, nil, fmt.Errorf("%w: the %d rows' label sets give %d strata of at least %d rows; a multi-label split needs two",
			ErrClassTooSmall, ds.Rows, len(pooled), MinClassRows)
	}
	out := make([]int, 0, ds.Rows)
	for s, r := range pooled {
		lo := len(out)
		out = append(out, r...)
		slices.Sort(out[lo:])
		pooled[s] = out[lo:len(out):len(out)]
	}
	return pooled, out, func(s int) string { return names[s] }, nil
}
