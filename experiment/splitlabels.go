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
	k := len(ds.Labels)
	pattern := func(i int) string {
		var b strings.Builder
		for _, y := range ds.Y[i*k : (i+1)*k] {
			b.WriteByte('0' + byte(y))
		}
		return b.String()
	}
	counts := map[string]int{}
	for i := range ds.Rows {
		counts[pattern(i)]++
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
	names := slices.Clone(common)
	if rare > 0 && rest == len(common) {
		names = append(names, "rare patterns")
	}
	if len(names) < 2 {
		return nil, fmt.Errorf("experiment: the %d rows' label patterns give %d strata; a multi-label split needs at least two of %d rows", ds.Rows, len(names), data.MinClassRows)
	}
	// The labels ride along as extra features through data.Split, which copies rows.
	joint := &data.Dataset{Rows: ds.Rows, Cols: ds.Cols + k, Classes: names,
		FeatureNames: append(slices.Clone(ds.FeatureNames), ds.Labels...),
		X:            make([]float64, 0, ds.Rows*(ds.Cols+k)), Y: make([]float64, ds.Rows)}
	wide := ds.Float64() // the labels join the features in float64; float32 values widen exactly
	for i := range ds.Rows {
		joint.X = append(joint.X, wide.Row(i)...)
		joint.X = append(joint.X, ds.Y[i*k:(i+1)*k]...)
		s, ok := stratum[pattern(i)]
		if !ok {
			s = rest
		}
		joint.Y[i] = float64(s)
	}
	parts := [3]*data.Dataset{}
	var err error
	if parts[0], parts[1], parts[2], err = data.Split(joint, data.SplitConfig{Seed: seed}); err != nil {
		return nil, err
	}
	for p, part := range parts {
		out := &data.Dataset{Rows: part.Rows, Cols: ds.Cols, FeatureNames: slices.Clone(ds.FeatureNames),
			LabelName: ds.LabelName, Labels: slices.Clone(ds.Labels),
			X: make([]float64, 0, part.Rows*ds.Cols), Y: make([]float64, 0, part.Rows*k)}
		for i := range part.Rows {
			row := part.Row(i)
			out.X = append(out.X, row[:ds.Cols]...)
			out.Y = append(out.Y, row[ds.Cols:]...)
		}
		if ds.Float32() { // back to ds's storage, exactly
			out.X32 = floats.From64[float32](out.X)
			out.X = nil
		}
		parts[p] = out
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
