package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
)

// labelCSV writes a multi-label CSV of n rows, a feature x and the label columns a, b and c,
// with the labels that labels gives row i, and loads it.
func labelCSV(t *testing.T, n int, labels func(i int) [3]int) *data.Dataset {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,a,b,c\n")
	for i := range n {
		l := labels(i)
		fmt.Fprintf(&b, "%d,%d,%d,%d\n", i, l[0], l[1], l[2])
	}
	path := filepath.Join(t.TempDir(), "labels.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	ds, err := data.Load(path, data.CSVConfig{Labels: []string{"a", "b", "c"}})
	require.NoError(t, err)
	return ds
}

// A label column that is 0 (or 1) on every row of a part is refused by the split, naming the
// column, the part and the column's 1s in each part, before any run trains on it (every run
// trained, then failed on the part: "batch has no positives: label column 2"). Columns whose
// 1s reach every part pass. (A column of no 1 at all is refused by data.Load.)
func TestNewSplitLabelColumnInEveryPart(t *testing.T) {
	common := func(i int) [3]int { return [3]int{i % 2, i % 3 / 2, (i + 1) % 2} }
	cases := []struct {
		name   string
		labels func(i int) [3]int
		want   string // "" for a split
	}{
		{"every column in every part", common, ""},
		{"two 1s", func(i int) [3]int {
			l := common(i)
			l[2] = 0
			if i == 5 || i == 17 {
				l[2] = 1
			}
			return l
		}, `label column "c" is 0 on every row of the test part (its 1s: 1 of 17 training rows, 1 of 7 validation rows, 0 of 6 test rows)`},
		{"one 0", func(i int) [3]int {
			l := common(i)
			l[0] = 1
			if i == 4 {
				l[0] = 0
			}
			return l
		}, `label column "a" is 1 on every row of the validation part (its 1s: 17 of 18 training rows, 6 of 6 validation rows, 6 of 6 test rows)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := labelCSV(t, 30, c.labels)
			sp, err := NewSplit(ds, 1)
			if c.want == "" {
				require.NoError(t, err)
				require.Equal(t, [3]int{18, 6, 6}, [3]int{sp.Train.Rows, sp.Val.Rows, sp.Test.Rows})
				return
			}
			require.ErrorIs(t, err, data.ErrClassTooSmall)
			require.EqualError(t, err, "data: class too small to split: "+c.want+"; every part needs a 1 and a 0 of every label")
		})
	}
}

// Parts given apart (-valid and -test files) are checked as a split's parts are, before the
// encoder and the standardisation.
func TestNewSplitFromLabelColumnInEveryPart(t *testing.T) {
	labels := func(i int) [3]int { return [3]int{i % 2, i % 3 / 2, (i + 1) % 2} }
	train, val := labelCSV(t, 30, labels), labelCSV(t, 10, labels)
	_, err := NewSplitFrom(train, val, labelCSV(t, 10, labels), 1)
	require.NoError(t, err)
	test := labelCSV(t, 10, labels)
	for i := range test.Rows {
		test.Y[3*i+1] = 0 // what data.Load refuses, in a part made otherwise
	}
	_, err = NewSplitFrom(train, val, test, 1)
	require.ErrorIs(t, err, data.ErrClassTooSmall)
	require.EqualError(t, err, `data: class too small to split: label column "b" is 0 on every row of the test part `+
		`(its 1s: 10 of 30 training rows, 3 of 10 validation rows, 0 of 10 test rows); every part needs a 1 and a 0 of every label`)
}
