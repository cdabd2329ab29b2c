package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A multi-label column of two 1s, which the split leaves out of the test part, is refused
// before any run trains, in one line naming the column and the part (every run trained, then
// failed: "metrics: batch has no positives: label column 2").
func TestLabelColumnMissingFromAPart(t *testing.T) {
	path := writeRows(t, "labels.csv", "x1,x2,a,b,c", 30, func(i int) string {
		c := 0
		if i == 5 || i == 17 {
			c = 1
		}
		return fmt.Sprintf("%d,%d,%d,%d,%d", i, i*i%7, i%2, i%3/2, c)
	})
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "a,b,c", "-epochs", "1", "-plot", "")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Equal(t, `roctrain: data: class too small to split: label column "c" is 0 on every row of the test part `+
		`(its 1s: 1 of 17 training rows, 1 of 7 validation rows, 0 of 6 test rows); every part needs a 1 and a 0 of every label`+"\n", stderr)
}
