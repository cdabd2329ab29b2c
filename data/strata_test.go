package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// TestStrata: each task's strata as the doc defines them (binary: the negatives then the
// positives, both present; k classes: k strata by class; k labels: one per set of labels that
// occurs, in lexicographic order), rows in increasing order, PerRow their inverse; a dataset of
// labels alone has strata; bad labels and shapes are refused as Validate refuses them.
func TestStrata(t *testing.T) {
	x := func(n int) []float64 { return make([]float64, n) }
	names := func(n int) []string { return slices.Repeat([]string{"f"}, n) }
	for _, c := range []struct {
		name   string
		ds     *Dataset
		want   Strata
		perRow []int
	}{
		{"binary", &Dataset{X: x(5), Y: []float64{1, 0, 0, 1, 0}, Rows: 5, Cols: 1, FeatureNames: names(1)},
			Strata{{1, 2, 4}, {0, 3}}, []int{1, 0, 0, 1, 0}},
		{"binary without positives", &Dataset{X: x(2), Y: []float64{0, 0}, Rows: 2, Cols: 1, FeatureNames: names(1)},
			Strata{{0, 1}, {}}, []int{0, 0}},
		{"binary labels alone", &Dataset{Y: []float64{0, 1, 1}, Rows: 3},
			Strata{{0}, {1, 2}}, []int{0, 1, 1}},
		{"classes", &Dataset{X: x(6), Y: []float64{2, 0, 2, 1, 0, 2}, Rows: 6, Cols: 1, FeatureNames: names(1),
			Classes: []string{"a", "b", "c", "d"}},
			Strata{{1, 4}, {3}, {0, 2, 5}, {}}, []int{2, 0, 2, 1, 0, 2}},
		{"labels", &Dataset{X: x(10), Y: []float64{1, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1}, Rows: 5, Cols: 2,
			FeatureNames: names(2), Labels: []string{"p", "q", "r"}},
			// sets 100, 001, 101, 101, 001 → 001 < 100 < 101
			Strata{{1, 4}, {0}, {2, 3}}, []int{1, 0, 2, 2, 0}},
		{"labels alone", &Dataset{Y: []float64{0, 1, 0, 0, 1, 1}, Rows: 3, Labels: []string{"p", "q"}},
			Strata{{1}, {0}, {2}}, []int{1, 0, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.ds.Strata()
			require.NoError(t, err)
			require.Len(t, got, len(c.want))
			for s := range c.want {
				require.Equal(t, len(c.want[s]), len(got[s]), "stratum %d", s)
				require.Equal(t, len(got[s]), cap(got[s]), "stratum %d is capped", s)
				if len(c.want[s]) > 0 {
					require.Equal(t, c.want[s], got[s], "stratum %d", s)
				}
			}
			require.Equal(t, c.perRow, got.PerRow())
		})
	}
	require.Equal(t, []int{1, -1, 0}, Strata{{2}, {0}}.PerRow())

	for _, c := range []struct {
		name string
		ds   *Dataset
		want error
		msg  string
	}{
		{"binary label 2", &Dataset{Y: []float64{0, 2}, Rows: 2}, rocops.ErrLabel, "data: label is not 0 or 1: row 1 has label 2"},
		{"binary NaN", &Dataset{Y: []float64{math.NaN(), 1}, Rows: 2}, rocops.ErrLabel, "row 0 has label NaN"},
		{"class 3 of 3", &Dataset{Y: []float64{0, 3}, Rows: 2, Classes: []string{"a", "b", "c"}}, rocops.ErrLabel,
			"row 1 has label 3, want a class index in 0…2"},
		{"class 0.5", &Dataset{Y: []float64{0.5}, Rows: 1, Classes: []string{"a", "b"}}, rocops.ErrLabel, "row 0 has label 0.5"},
		{"label 2", &Dataset{Y: []float64{0, 1, 1, 2}, Rows: 2, Labels: []string{"p", "q"}}, rocops.ErrLabel, `row 1, label "q" is 2`},
		{"rows and labels", &Dataset{Y: []float64{0, 1, 1}, Rows: 2}, ErrShape, "3 labels for 2 rows of 1"},
		{"one class", &Dataset{Y: []float64{0}, Rows: 1, Classes: []string{"a"}}, ErrShape, "1 classes"},
		{"features without names", &Dataset{X: x(2), Y: []float64{0, 1}, Rows: 2, Cols: 1}, ErrShape, "0 feature names"},
		{"nil", nil, ErrShape, "nil dataset"},
	} {
		_, err := c.ds.Strata()
		require.ErrorIs(t, err, c.want, c.name)
		require.ErrorContains(t, err, c.msg, c.name)
	}
}

// refPooled is the stratification of the multi-label split as it was written first (the
// rows' label patterns as strings; the patterns of at least MinClassRows rows, sorted, each a
// stratum; the rest one stratum after them, or joined to the largest, the first on ties, when
// fewer than MinClassRows), giving each row's stratum.
func refPooled(ds *Dataset) []int {
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
		if n >= MinClassRows {
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
	rest := len(common)
	if rare > 0 && rare < MinClassRows && len(common) > 0 {
		sizes := make([]int, len(common))
		for s, p := range common {
			sizes[s] = counts[p]
		}
		rest = slices.Index(sizes, slices.Max(sizes))
	}
	out := make([]int, ds.Rows)
	for i := range out {
		s, ok := stratum[pattern(i)]
		if !ok {
			s = rest
		}
		out[i] = s
	}
	return out
}

// refStrataSplit is Split of rows in the given strata computed the plain way: each stratum's
// rows listed in order, shuffled in stratum order by one stream, dealt to the parts, each part
// then sorted.
func refStrataSplit(strata []int, cfg SplitConfig) [3][]int {
	fr, _ := cfg.fractions()
	var groups [][]int
	for i, s := range strata {
		for len(groups) <= s {
			groups = append(groups, nil)
		}
		groups[s] = append(groups[s], i)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, splitStream))
	var parts [3][]int
	for _, rows := range groups {
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for k, n := range apportion(len(rows), fr) {
			parts[k] = append(parts[k], rows[:n]...)
			rows = rows[n:]
		}
	}
	for _, p := range parts {
		slices.Sort(p)
	}
	return parts
}

// multilabelData returns n rows of two features (the row index and noise) and three labels:
// common sets, a few rare ones (label r needs p), and rare rows of the sets 011 and 001, which
// the others never have, in turn.
func multilabelData(t *testing.T, n, rare int, seed uint64) *Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	ds := &Dataset{Rows: n, Cols: 2, FeatureNames: []string{"i", "u"}, LabelName: "y", Labels: []string{"p", "q", "r"}}
	for i := range n {
		u := rng.NormFloat64()
		ds.X = append(ds.X, float64(i), u)
		p, q, r := b2f(u > 0), b2f(i%3 == 0), b2f(i%7 == 0 && u > 0.5)
		if i < rare {
			p, q, r = 0, b2f(i%2 == 0), 1
		}
		ds.Y = append(ds.Y, p, q, r)
	}
	require.NoError(t, ds.Validate())
	return ds
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestSplitMultilabel: Split, SplitStandardized and SplitStandardizedInPlace of multi-label
// data give the rows of the plain split over the pooled label sets (refPooled, refStrataSplit),
// in order, with their own labels, and the copy and the in-place preparation agree bit for bit,
// for float64 and float32 storage, whether the rare sets stand apart, join the largest or are
// absent; the standardisation is fitted on the training part.
func TestSplitMultilabel(t *testing.T) {
	for _, c := range []struct {
		n, rare int
		seed    uint64
		cfg     SplitConfig
		pooled  int // the strata the rare sets leave
	}{
		// 6 sets, one of 2 rows: it joins the largest stratum.
		{200, 0, 1, SplitConfig{}, 5},
		// 8 sets, two of 1 row: they join the largest stratum.
		{200, 2, 2, SplitConfig{Seed: 7}, 6},
		// 8 sets, two of 2 rows: together a stratum after the 6 others.
		{301, 4, 3, SplitConfig{Seed: 3, Train: 0.5, Validation: 0.3, Test: 0.2}, 7},
	} {
		ds64 := multilabelData(t, c.n, c.rare, c.seed)
		require.Equal(t, c.pooled, slices.Max(refPooled(ds64))+1)
		_, ds32 := rounded(ds64)
		want := refStrataSplit(refPooled(ds64), c.cfg)
		for _, ds := range []*Dataset{ds64, ds32} {
			parts := make([]*Dataset, 3)
			var err error
			parts[0], parts[1], parts[2], err = Split(ds, c.cfg)
			require.NoError(t, err)
			for p, part := range parts {
				require.NoError(t, part.Validate())
				require.Equal(t, ds.Labels, part.Labels)
				require.Equal(t, ds.Float32(), part.Float32())
				require.Len(t, part.Y, 3*len(want[p]))
				for i, r := range want[p] {
					require.Equal(t, ds.Row(r), part.Row(i), "part %d, row %d", p, i)
					require.Equal(t, ds.Y[3*r:3*r+3], part.Y[3*i:3*i+3], "part %d, row %d", p, i)
				}
			}
			st, err := FitStandardizer(parts[0])
			require.NoError(t, err)
			a, b, cc, st2, err := SplitStandardized(ds, c.cfg)
			require.NoError(t, err)
			require.Equal(t, st, st2)
			cp := *ds
			cp.X, cp.X32, cp.Y = slices.Clone(ds.X), slices.Clone(ds.X32), slices.Clone(ds.Y)
			a2, b2, c2, st3, err := SplitStandardizedInPlace(&cp, c.cfg)
			require.NoError(t, err)
			require.Equal(t, st, st3)
			for p, got := range [][2]*Dataset{{a, a2}, {b, b2}, {cc, c2}} {
				applied, err := st.Apply(parts[p])
				require.NoError(t, err)
				for _, g := range got {
					require.Equal(t, applied.X, g.X, "part %d", p)
					require.Equal(t, applied.X32, g.X32, "part %d", p)
					require.Equal(t, parts[p].Y, g.Y, "part %d", p)
					require.Equal(t, ds.Labels, g.Labels, "part %d", p)
				}
			}
		}
	}
}
