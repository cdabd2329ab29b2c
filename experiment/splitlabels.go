package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/floats"
)

// splitMultilabel is NewSplit of a multi-label ds (Labels set), which data.Split does not
// stratify: the rows are stratified by their label pattern (the row's k labels), each pattern
// of at least data.MinClassRows rows a stratum of its own and the rarer patterns one stratum
// together (joined to the largest stratum when they hold fewer than data.MinClassRows rows),
// and split 60/20/20 as data.Split splits classes, so that every part holds each common
// pattern in proportion; the parts are then standardised with the training part's statistics.
func splitMultilabel(ds *data.Dataset, seed uint64) (*Split, error) {
	names, strata, err := patternStrata(ds)
	if err != nil {
		return nil, err
	}
	parts := [3]*data.Dataset{}
	if parts[0], parts[1], parts[2], err = data.Split(withLabels(ds, names, strata), data.SplitConfig{Seed: seed}); err != nil {
		return nil, err
	}
	for p, part := range parts {
		parts[p] = withoutLabels(ds, part)
	}
	st, err := data.FitStandardizer(parts[0])
	if err != nil {
		return nil, err
	}
	for p := range parts {
		if parts[p], err = st.Apply(parts[p]); err != nil {
			return nil, err
		}
	}
	return &Split{Seed: seed, Train: parts[0], Val: parts[1], Test: parts[2], Std: st}, nil
}

// pattern is row i's label pattern in the multi-label ds: its k labels as "0" and "1".
func pattern(ds *data.Dataset, i int) string {
	k := len(ds.Labels)
	var b strings.Builder
	for _, y := range ds.Y[i*k : (i+1)*k] {
		b.WriteByte('0' + byte(y))
	}
	return b.String()
}

// patternStrata numbers the strata of splitMultilabel: names are the strata's names (the
// common patterns in order, then "rare patterns" when the rare ones are a stratum of their
// own), and strata[i] is row i's stratum.
func patternStrata(ds *data.Dataset) (names []string, strata []int, err error) {
	counts := map[string]int{}
	for i := range ds.Rows {
		counts[pattern(ds, i)]++
	}
	var common []string
	rare := 0
	for p, n := range counts {
		if n >= data.MinClassRows {
			common = append(common, p)
		} else {
			rare += n
		}
	}
	slices.Sort(common)
	stratum := make(map[string]int, len(counts))
	for s, p := range common {
		stratum[p] = s
	}
	rest := len(common) // the stratum of the rare patterns
	if rare > 0 && rare < data.MinClassRows && len(common) > 0 {
		sizes := make([]int, len(common))
		for s, p := range common {
			sizes[s] = counts[p]
		}
		rest = slices.Index(sizes, slices.Max(sizes)) // the largest pattern, the first on ties
	}
	names = slices.Clone(common)
	if rare > 0 && rest == len(common) {
		names = append(names, "rare patterns")
	}
	if len(names) < 2 {
		return nil, nil, fmt.Errorf("experiment: the %d rows' label patterns give %d strata; a multi-label split needs at least two of %d rows", ds.Rows, len(names), data.MinClassRows)
	}
	strata = make([]int, ds.Rows)
	for i := range strata {
		s, ok := stratum[pattern(ds, i)]
		if !ok {
			s = rest
		}
		strata[i] = s
	}
	return names, strata, nil
}

// withLabels is ds with its k labels as k more features, in float64 (float32 values widen
// exactly), and each row's stratum as its class among names, for data.Split, which copies
// rows.
func withLabels(ds *data.Dataset, names []string, strata []int) *data.Dataset {
	k := len(ds.Labels)
	joint := &data.Dataset{Rows: ds.Rows, Cols: ds.Cols + k, Classes: names,
		FeatureNames: append(slices.Clone(ds.FeatureNames), ds.Labels...),
		X:            make([]float64, 0, ds.Rows*(ds.Cols+k)), Y: make([]float64, ds.Rows)}
	wide := ds.Float64()
	for i := range ds.Rows {
		joint.X = append(joint.X, wide.Row(i)...)
		joint.X = append(joint.X, ds.Y[i*k:(i+1)*k]...)
		joint.Y[i] = float64(strata[i])
	}
	return joint
}

// withoutLabels is a part of withLabels(ds, …) as a part of ds: its features back in ds's
// storage, exactly, and its label columns back as labels.
func withoutLabels(ds, part *data.Dataset) *data.Dataset {
	k := len(ds.Labels)
	out := &data.Dataset{Rows: part.Rows, Cols: ds.Cols, FeatureNames: slices.Clone(ds.FeatureNames),
		LabelName: ds.LabelName, Labels: slices.Clone(ds.Labels),
		X: make([]float64, 0, part.Rows*ds.Cols), Y: make([]float64, 0, part.Rows*k)}
	for i := range part.Rows {
		row := part.Row(i)
		out.X = append(out.X, row[:ds.Cols]...)
		out.Y = append(out.Y, row[ds.Cols:]...)
	}
	if ds.Float32() {
		out.X32 = floats.From64[float32](out.X)
		out.X = nil
	}
	return out
}
