package nn

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
)

// TestRowsOverflow: a number of rows whose product with the features (or the outputs)
// overflows int is the length error, ErrInput, for Scores, ScoresWith, CheckInput (features
// held in float64 and in float32), ScoresAlong and NewPass, not a panic in makeslice: 1<<62 + 1
// rows of 4 features "are" 4 values once the product wraps around.
func TestRowsOverflow(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 4, Hidden: []int{3}, Outputs: 2, Seed: 1})
	require.NoError(t, err)
	const rows = 1<<62 + 1
	x64, x32 := make([]float64, 4), make([]float32, 4)
	s, err := NewScorer(m)
	require.NoError(t, err)
	defer s.Close()
	v := make([]float64, 4*3+3+3*2+2)
	for name, call := range map[string]func() error{
		"Scores":             func() error { _, err := Scores(m, x64, rows); return err },
		"Scores float32":     func() error { _, err := Scores(m, x32, rows); return err },
		"ScoresWith":         func() error { _, err := ScoresWith(s, x64, rows); return err },
		"ScoresWith float32": func() error { _, err := ScoresWith(s, x32, rows); return err },
		"CheckInput":         func() error { return CheckInput(m, x64, rows) },
		"CheckInput float32": func() error { return CheckInput(m, x32, rows) },
		"ScoresAlong":        func() error { _, _, err := m.ScoresAlong(x64, rows, v); return err },
		"NewPass":            func() error { _, err := NewPass(m, 1<<62); return err },
	} {
		err := call()
		require.ErrorIs(t, err, ErrInput, name)
		require.Regexp(t, `^nn: invalid input: .*(4 values for 4611686018427387905 rows of 4 features|overflows)`, err.Error(), name)
	}
}

// fuzzModels are the models the fuzz targets score: an MLP of one output and one of three,
// float64 and float32.
func fuzzModels(t testing.TB) []*MLP {
	var ms []*MLP
	for _, dt := range dtypes {
		for _, k := range []int{1, 3} {
			m, err := NewMLP(MLPConfig{In: 3, Hidden: []int{4}, Outputs: k, Seed: 5, Dtype: dt})
			require.NoError(t, err)
			ms = append(ms, m)
		}
	}
	return ms
}

// features reads data as float64 values, eight bytes each, little-endian.
func features(data []byte) []float64 {
	x := make([]float64, len(data)/8)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return x
}

// seedFeatures adds the fuzz seeds of FuzzScores and FuzzCheckInput: finite rows, a row with
// a NaN, a float32 overflow, a huge score, a short input, and an overflowing row count.
func seedFeatures(f *testing.F) {
	enc := func(xs ...float64) []byte {
		var b []byte
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	f.Add(enc(0.5, -1, 2, 0, 0, 0), 2)
	f.Add(enc(1, math.NaN(), 2), 1)
	f.Add(enc(1, 1e39, -2), 1)
	f.Add(enc(1e300, -1e300, 1e300), 1)
	f.Add(enc(math.MaxFloat32, -math.MaxFloat32, math.Inf(1)), 1)
	f.Add(enc(1, 2), 1)
	f.Add(enc(1, 2, 3), 1<<62+1)
	f.Add([]byte{}, 0)
}

// FuzzScores: on any features and number of rows, Scores never panics and, with the features
// held in float64 and (rounded) in float32, fails only with ErrInput or rocops.ErrRange in
// messages starting "nn: "; on success it gives rows·k finite scores, those of float32 features
// equal to those of the same values widened to float64 bit for bit, and a Scorer reused across
// calls gives the same scores.
func FuzzScores(f *testing.F) {
	seedFeatures(f)
	ms := fuzzModels(f)
	f.Fuzz(func(t *testing.T, data []byte, rows int) {
		x64 := features(data)
		x32 := make([]float32, len(x64))
		wide := make([]float64, len(x64))
		for i, v := range x64 {
			x32[i] = float32(v)
			wide[i] = float64(x32[i])
		}
		for _, m := range ms {
			s, err := NewScorer(m)
			require.NoError(t, err)
			for _, x := range [][]float64{x64, wide} {
				got, err := Scores(m, x, rows)
				again, errAgain := ScoresWith(s, x, rows)
				require.Equal(t, err == nil, errAgain == nil, "%v, %v", err, errAgain)
				if err != nil {
					require.True(t, errors.Is(err, ErrInput) || errors.Is(err, rocops.ErrRange), "%v", err)
					require.Regexp(t, "^nn: ", err.Error())
					continue
				}
				require.Len(t, got, rows*m.Outputs())
				for _, v := range got {
					require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "score %v", v)
				}
				require.Equal(t, got, again)
			}
			got32, err32 := Scores(m, x32, rows)
			want, err := Scores(m, wide, rows)
			require.Equal(t, err == nil, err32 == nil, "%v, %v", err, err32)
			if err == nil {
				require.Equal(t, want, got32)
			}
			s.Close()
		}
	})
}

// FuzzCheckInput: on any features and number of rows, CheckInput never panics and accepts
// exactly the inputs the plain rules accept — rows ≥ 1, rows·InputSize values, every one
// finite and, for a float32 model, within float32's range — for features held in float64 and
// in float32; Scores fails wherever CheckInput does, with the same error.
func FuzzCheckInput(f *testing.F) {
	seedFeatures(f)
	ms := fuzzModels(f)
	f.Fuzz(func(t *testing.T, data []byte, rows int) {
		x64 := features(data)
		x32 := make([]float32, len(x64))
		for i, v := range x64 {
			x32[i] = float32(v)
		}
		for _, m := range ms {
			in := m.InputSize()
			lengthOK := rows >= 1 && len(x64)%in == 0 && len(x64)/in == rows
			ok64, ok32 := lengthOK, lengthOK
			for i, v := range x64 {
				ok64 = ok64 && !math.IsNaN(v) && !math.IsInf(v, 0) &&
					(m.Dtype() == tensor.Float64 || !math.IsInf(float64(float32(v)), 0))
				w := float64(x32[i])
				ok32 = ok32 && !math.IsNaN(w) && !math.IsInf(w, 0)
			}
			err := CheckInput(m, x64, rows)
			require.Equal(t, ok64, err == nil, "float64 features: %v", err)
			if err != nil {
				_, serr := Scores(m, x64, rows)
				require.Equal(t, err.Error(), serr.Error())
			}
			err = CheckInput(m, x32, rows)
			require.Equal(t, ok32, err == nil, "float32 features: %v", err)
			if err != nil {
				require.ErrorIs(t, err, ErrInput, "float32 features are never beyond a model's range")
			}
		}
	})
}
