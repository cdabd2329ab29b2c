package check

import (
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

func TestBatch(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name           string
		scores, labels []float64
		want           error // nil: valid
		notWant        error // a sentinel the error must not match
		nPos, nNeg     int
	}{
		{"valid", []float64{1, 2, 3}, []float64{0, 1, 1}, nil, nil, 2, 1},
		{"empty", nil, nil, rocops.ErrEmpty, rocops.ErrLength, 0, 0},
		{"length", []float64{1, 2, 3}, []float64{0, 1}, rocops.ErrLength, rocops.ErrEmpty, 0, 0},
		{"nan", []float64{1, nan}, []float64{0, 1}, rocops.ErrNonFinite, rocops.ErrLabel, 0, 0},
		{"inf", []float64{-inf, 1}, []float64{0, 1}, rocops.ErrNonFinite, rocops.ErrLabel, 0, 0},
		{"label 2", []float64{1, 2}, []float64{0, 2}, rocops.ErrLabel, rocops.ErrNonFinite, 0, 0},
		{"label 0.5", []float64{1, 2}, []float64{0.5, 1}, rocops.ErrLabel, rocops.ErrNonFinite, 0, 0},
		{"label NaN", []float64{1, 2}, []float64{nan, 1}, rocops.ErrLabel, rocops.ErrNonFinite, 0, 0},
		{"no positives", []float64{1, 2}, []float64{0, 0}, rocops.ErrNoPositives, rocops.ErrNoNegatives, 0, 0},
		{"no negatives", []float64{1, 2}, []float64{1, 1}, rocops.ErrNoNegatives, rocops.ErrNoPositives, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nPos, nNeg, err := Batch("pkg", tc.scores, tc.labels)
			if tc.want == nil {
				require.NoError(t, err, "Batch = %d, %d, %v; want %d, %d, nil", nPos, nNeg, err, tc.nPos, tc.nNeg)
				require.Equal(t, tc.nPos, nPos, "Batch = %d, %d, %v; want %d, %d, nil", nPos, nNeg, err, tc.nPos, tc.nNeg)
				require.Equal(t, tc.nNeg, nNeg, "Batch = %d, %d, %v; want %d, %d, nil", nPos, nNeg, err, tc.nPos, tc.nNeg)
				return
			}
			require.ErrorIs(t, err, tc.want, "Batch error %v does not match %v", err, tc.want)
			require.NotErrorIs(t, err, tc.notWant, "Batch error %v also matches %v", err, tc.notWant)
			require.True(t, strings.HasPrefix(err.Error(), "pkg: "), "message %q does not start with the package name", err)
		})
	}
}

func TestOneClassFamily(t *testing.T) {
	for _, err := range []error{rocops.ErrNoPositives, rocops.ErrNoNegatives} {
		require.ErrorIs(t, err, rocops.ErrOneClass, "%v does not match rocops.ErrOneClass", err)
	}
	require.NotErrorIs(t, rocops.ErrOneClass, rocops.ErrNoPositives, "the one-class sentinels must stay distinguishable")
	require.NotErrorIs(t, rocops.ErrNoPositives, rocops.ErrNoNegatives, "the one-class sentinels must stay distinguishable")
}

func TestElementReportsTheIndex(t *testing.T) {
	err := Element("kdequantile", 7, math.NaN(), 1)
	got, want := err.Error(), "kdequantile: score is NaN or infinite: scores[7] = NaN"
	require.Equal(t, want, got, "message %q, want %q", got, want)
	require.NoError(t, Element("x", 0, 1, 1), "valid element")
}

func TestSplit(t *testing.T) {
	pos, neg, err := Split("pkg", []float64{3, 1, 4, 1, 5}, []float64{1, 0, 0, 1, 0})
	require.NoError(t, err, "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 2, len(pos), "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 3, len(neg), "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 3.0, pos[0], "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 1.0, pos[1], "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 1.0, neg[0], "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 4.0, neg[1], "Split = %v, %v, %v", pos, neg, err)
	require.Equal(t, 5.0, neg[2], "Split = %v, %v, %v", pos, neg, err)
	// Appending to one class must not overwrite the other.
	pos = append(pos, 9)
	require.Equal(t, 1.0, neg[0], "the classes share capacity")
	_, _, err = Split("pkg", []float64{1}, []float64{1})
	require.ErrorIs(t, err, rocops.ErrNoNegatives, "one class: %v", err)
}
