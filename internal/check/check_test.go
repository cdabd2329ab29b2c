package check

import (
	"errors"
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
				if err != nil || nPos != tc.nPos || nNeg != tc.nNeg {
					t.Fatalf("Batch = %d, %d, %v; want %d, %d, nil", nPos, nNeg, err, tc.nPos, tc.nNeg)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Batch error %v does not match %v", err, tc.want)
			}
			if errors.Is(err, tc.notWant) {
				t.Fatalf("Batch error %v also matches %v", err, tc.notWant)
			}
			if !strings.HasPrefix(err.Error(), "pkg: ") {
				t.Fatalf("message %q does not start with the package name", err)
			}
		})
	}
}

func TestOneClassFamily(t *testing.T) {
	for _, err := range []error{rocops.ErrNoPositives, rocops.ErrNoNegatives} {
		if !errors.Is(err, rocops.ErrOneClass) {
			t.Errorf("%v does not match rocops.ErrOneClass", err)
		}
	}
	if errors.Is(rocops.ErrOneClass, rocops.ErrNoPositives) || errors.Is(rocops.ErrNoPositives, rocops.ErrNoNegatives) {
		t.Error("the one-class sentinels must stay distinguishable")
	}
}

func TestElementReportsTheIndex(t *testing.T) {
	err := Element("kdequantile", 7, math.NaN(), 1)
	if got, want := err.Error(), "kdequantile: score is NaN or infinite: scores[7] = NaN"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
	require.NoError(t, Element("x", 0, 1, 1), "valid element")
}

func TestSplit(t *testing.T) {
	pos, neg, err := Split("pkg", []float64{3, 1, 4, 1, 5}, []float64{1, 0, 0, 1, 0})
	if err != nil || len(pos) != 2 || len(neg) != 3 || pos[0] != 3 || pos[1] != 1 || neg[0] != 1 || neg[1] != 4 || neg[2] != 5 {
		t.Fatalf("Split = %v, %v, %v", pos, neg, err)
	}
	// Appending to one class must not overwrite the other.
	pos = append(pos, 9)
	if neg[0] != 1 {
		t.Fatal("the classes share capacity")
	}
	if _, _, err := Split("pkg", []float64{1}, []float64{1}); !errors.Is(err, rocops.ErrNoNegatives) {
		t.Fatalf("one class: %v", err)
	}
}
