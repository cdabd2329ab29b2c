package testbatch

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRoundTrip: Decode(Encode(x)) is x, bit for bit, for special values and every label,
// and Decode stops at MaxLen elements and at a short tail.
func TestRoundTrip(t *testing.T) {
	scores := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), -1e308, 5e-324}
	labels := []float64{0, 1, 2, 1, 0, 2}
	f, y := Decode(append(Encode(scores, labels), 1, 2, 3)) // a 3-byte tail
	require.Equal(t, len(scores), len(f), "decoded %d scores, want %d", len(f), len(scores))
	for k := range scores {
		require.Equal(t, math.Float64bits(scores[k]), math.Float64bits(f[k]), "element %d: (%v, %v), want (%v, %v)", k, f[k], y[k], scores[k], labels[k])
		require.Equal(t, labels[k], y[k], "element %d: (%v, %v), want (%v, %v)", k, f[k], y[k], scores[k], labels[k])
	}
	long := make([]float64, MaxLen+5)
	f, _ = Decode(Encode(long, long))
	require.Equal(t, MaxLen, len(f), "decoded %d scores, want MaxLen = %d", len(f), MaxLen)
}

func TestValid(t *testing.T) {
	for _, c := range []struct {
		scores, labels []float64
		want           bool
	}{
		{[]float64{0, 1}, []float64{1, 0}, true},
		{nil, nil, false},
		{[]float64{0, 1}, []float64{1}, false},
		{[]float64{math.NaN(), 1}, []float64{1, 0}, false},
		{[]float64{math.Inf(-1), 1}, []float64{1, 0}, false},
		{[]float64{0, 1}, []float64{1, 2}, false},
		{[]float64{0, 1}, []float64{1, 1}, false},
		{[]float64{0, 1}, []float64{0, 0}, false},
	} {
		got := Valid(c.scores, c.labels)
		require.Equal(t, c.want, got, "Valid(%v, %v) = %v, want %v", c.scores, c.labels, got, c.want)
	}
}

// Classes reads rows of k + 1 bytes, the class mod k + 1 and k levels, up to maxRows rows.
func TestClasses(t *testing.T) {
	data := []byte{4, 10, 20, 1, 30, 40, 2, 50, 60, 9} // the last byte is a partial row
	level := func(b byte) float64 { return float64(b) / 10 }
	scores, labels := Classes(data, 2, 10, level)
	wantScores, wantLabels := []float64{1, 2, 3, 4, 5, 6}, []int{1, 1, 2}
	require.True(t, slices.Equal(scores, wantScores), "got %v %v, want %v %v", scores, labels, wantScores, wantLabels)
	require.True(t, slices.Equal(labels, wantLabels), "got %v %v, want %v %v", scores, labels, wantScores, wantLabels)
	scores, labels = Classes(data, 2, 2, level)
	require.Equal(t, 4, len(scores), "maxRows 2: %d scores, %d labels", len(scores), len(labels))
	require.Equal(t, 2, len(labels), "maxRows 2: %d scores, %d labels", len(scores), len(labels))
}
