package data

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/dataset"
	"github.com/stretchr/testify/require"
)

// rounded returns a float64 copy of ds whose features are rounded to float32 (and back, so
// exactly float32 values), and the same dataset stored in float32.
func rounded(ds *Dataset) (r64, r32 *Dataset) {
	a, b := *ds, *ds
	a.X, b.X, b.X32 = make([]float64, len(ds.X)), nil, make([]float32, len(ds.X))
	for k, v := range ds.X {
		b.X32[k] = float32(v)
		a.X[k] = float64(b.X32[k])
	}
	a.Y, b.Y = slices.Clone(ds.Y), slices.Clone(ds.Y)
	return &a, &b
}

// requireNarrowed requires that d32 is stored in float32 and holds d64's features rounded to
// float32, bit for bit, with the same labels and shape.
func requireNarrowed(t *testing.T, d64, d32 *Dataset) {
	t.Helper()
	require.True(t, d32.Float32())
	require.False(t, d64.Float32())
	require.Nil(t, d32.X)
	require.Equal(t, d64.Rows, d32.Rows)
	require.Equal(t, d64.Cols, d32.Cols)
	require.Equal(t, d64.Y, d32.Y)
	require.Equal(t, d64.FeatureNames, d32.FeatureNames)
	require.Len(t, d32.X32, len(d64.X))
	for k, v := range d64.X {
		require.True(t, math.Float32bits(float32(v)) == math.Float32bits(d32.X32[k]), "feature value %d: float32 storage %v, float64 %v rounds to %v", k, d32.X32[k], v, float32(v))
	}
}

// TestReadCSVFloat32 reads the WDBC CSV (4 significant digits, many not exact in binary) with
// and without Float32: the float32 dataset holds each float64 value rounded to nearest,
// single-label and multi-label alike.
func TestReadCSVFloat32(t *testing.T) {
	for _, cfg := range []CSVConfig{
		{Label: dataset.WDBCLabel},
		{Labels: []string{dataset.WDBCLabel}},
	} {
		d64, err := ReadCSV(bytes.NewReader(dataset.WDBC), cfg)
		require.NoError(t, err)
		cfg.Float32 = true
		d32, err := ReadCSV(bytes.NewReader(dataset.WDBC), cfg)
		require.NoError(t, err)
		require.NoError(t, d32.Validate())
		requireNarrowed(t, d64, d32)
		inexact := 0
		for _, v := range d64.X {
			if float64(float32(v)) != v {
				inexact++
			}
		}
		require.Greater(t, inexact, len(d64.X)/2, "most WDBC values are not float32 numbers")
	}
	// LoadCSV (which sizes the matrix first) agrees with ReadCSV.
	path := filepath.Join(t.TempDir(), "wdbc.csv")
	require.NoError(t, os.WriteFile(path, dataset.WDBC, 0o600))
	d64, err := LoadCSV(path, CSVConfig{Label: dataset.WDBCLabel})
	require.NoError(t, err)
	d32, err := LoadCSV(path, CSVConfig{Label: dataset.WDBCLabel, Float32: true})
	require.NoError(t, err)
	requireNarrowed(t, d64, d32)
}

// TestReadCSVFloat32Range: with Float32 a finite value beyond float32's range is rocops.ErrRange
// naming its line and column, in single-label and multi-label input; float32's largest value
// loads, and without Float32 so does the value beyond it.
func TestReadCSVFloat32Range(t *testing.T) {
	const text = "a,b,y\n1,2,0\n3,3.4028234e38,1\n5,-4e38,0\n7,8,1\n"
	for _, cfg := range []CSVConfig{{Float32: true}, {Labels: []string{"y"}, Float32: true}} {
		ds, err := ReadCSV(strings.NewReader(text), cfg)
		require.Nil(t, ds)
		require.ErrorIs(t, err, rocops.ErrRange)
		ce, ok := errors.AsType[*CSVError](err)
		require.True(t, ok)
		require.Equal(t, 4, ce.Line)
		require.Equal(t, "b", ce.Column)
		require.EqualError(t, err, `data: line 4, column "b": "-4e38" is beyond float32's range (CSVConfig.Float32)`)
	}
	ds, err := ReadCSV(strings.NewReader(text), CSVConfig{})
	require.NoError(t, err)
	require.Equal(t, -4e38, ds.X[5])
	ds, err = ReadCSV(strings.NewReader(strings.Replace(text, "-4e38", "6", 1)), CSVConfig{Float32: true})
	require.NoError(t, err)
	require.Equal(t, float32(math.MaxFloat32), ds.X32[3])
}

// TestSplitStandardizedFloat32: splitting and standardising a dataset stored in float32 gives
// the split and the Standardizer of the float64 dataset of the same (rounded) values, and its
// parts' features are the float64 parts' rounded to float32 — with a copy and in place.
func TestSplitStandardizedFloat32(t *testing.T) {
	for _, cfg := range []SplitConfig{{Seed: 1}, {Train: 0.5, Validation: 0.3, Test: 0.2, Seed: 9}} {
		r64, r32 := rounded(randomDataset(t, 503, 7, 4))
		tr64, va64, te64, err := Split(r64, cfg)
		require.NoError(t, err)
		tr32, va32, te32, err := Split(r32, cfg)
		require.NoError(t, err)
		for p, pair := range [3][2]*Dataset{{tr64, tr32}, {va64, va32}, {te64, te32}} {
			t.Logf("part %d: %d rows", p, pair[0].Rows)
			requireNarrowed(t, pair[0], pair[1]) // exact: the values are float32 numbers
		}

		s64, err := FitStandardizer(tr64)
		require.NoError(t, err)
		s32, err := FitStandardizer(tr32)
		require.NoError(t, err)
		require.Equal(t, s64, s32)
		a64, err := s64.Apply(va64)
		require.NoError(t, err)
		a32, err := s32.Apply(va32)
		require.NoError(t, err)
		requireNarrowed(t, a64, a32)

		ptr64, pva64, pte64, st64, err := SplitStandardized(r64, cfg)
		require.NoError(t, err)
		ptr32, pva32, pte32, st32, err := SplitStandardized(r32, cfg)
		require.NoError(t, err)
		require.Equal(t, st64, st32)
		require.Equal(t, s64, st32)
		keep := slices.Clone(r32.X32)
		itr32, iva32, ite32, ist32, err := SplitStandardizedInPlace(r32, cfg)
		require.NoError(t, err)
		require.Equal(t, st64, ist32)
		for _, pair := range [][2]*Dataset{{ptr64, ptr32}, {pva64, pva32}, {pte64, pte32}, {ptr64, itr32}, {pva64, iva32}, {pte64, ite32}} {
			requireNarrowed(t, pair[0], pair[1])
		}
		require.NotEqual(t, keep, r32.X32, "in place: ds's memory holds the standardised parts")
	}
}

// TestDatasetFloat32 covers the storage checks: Validate refuses both X and X32 and a
// non-finite float32; Row widens a float32 row (a copy) and shares a float64 one; Float64
// widens exactly; Subset keeps the storage.
func TestDatasetFloat32(t *testing.T) {
	_, r32 := rounded(randomDataset(t, 20, 3, 2))
	require.NoError(t, r32.Validate())

	both := *r32
	both.X = make([]float64, len(r32.X32))
	require.ErrorIs(t, both.Validate(), ErrShape)
	short := *r32
	short.X32 = short.X32[1:]
	require.ErrorIs(t, short.Validate(), ErrShape)
	bad := *r32
	bad.X32 = slices.Clone(r32.X32)
	bad.X32[7] = float32(math.Inf(-1))
	require.EqualError(t, bad.Validate(), `data: not a finite number: row 2, feature "x2" is -Inf`)

	w := r32.Float64()
	require.Same(t, w, w.Float64())
	requireNarrowed(t, w, r32)
	for i := range r32.Rows {
		require.Equal(t, w.X[3*i:3*i+3], r32.Row(i), "row %d", i)
		require.Equal(t, w.X[3*i:3*i+3], w.Row(i), "row %d", i)
	}
	r, before := r32.Row(1), r32.X32[3]
	r[0] = 99 // a float32 dataset's row is a copy
	require.Equal(t, before, r32.X32[3])
	r = w.Row(1)
	require.Equal(t, 3, cap(r)) // a float64 dataset's row is a capped view of X
	r[0] = 99
	require.Equal(t, 99.0, w.X[3])

	sub, err := r32.Subset([]int{4, 1, 4})
	require.NoError(t, err)
	require.True(t, sub.Float32())
	require.Equal(t, slices.Concat(r32.X32[12:15], r32.X32[3:6], r32.X32[12:15]), sub.X32)
}

// FuzzReadCSVFloat32: any CSV read with Float32 either fails as the float64 read does, or
// with rocops.ErrRange where that one loads, or loads the float64 read's values rounded to float32.
func FuzzReadCSVFloat32(f *testing.F) {
	f.Add("a,y\n1.5,0\n2,1\n")
	f.Add("a,y\n1e39,0\n2,1\n")
	f.Add("a,b,y\n0.1,-3.4028235e38,0\n2,1e-50,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		d64, err64 := ReadCSV(strings.NewReader(in), CSVConfig{})
		d32, err32 := ReadCSV(strings.NewReader(in), CSVConfig{Float32: true})
		switch {
		case err64 != nil:
			require.Error(t, err32)
		case err32 != nil:
			require.ErrorIs(t, err32, rocops.ErrRange)
			ce, ok := errors.AsType[*CSVError](err32)
			require.True(t, ok)
			require.Positive(t, ce.Line)
			require.NotEmpty(t, ce.Column)
		default:
			requireNarrowed(t, d64, d32)
		}
	})
}

// BenchmarkLoadCSVStorage loads a generated CSV of 30 features stored in float64 and in
// float32: the float32 load's bytes/op are about half (the features take n·30·4 bytes instead
// of n·30·8; the labels stay float64).
func BenchmarkLoadCSVStorage(b *testing.B) {
	for _, rows := range []int{100_000} {
		path := filepath.Join(b.TempDir(), "large.csv")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := writeLargeCSV(f, rows); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		for _, f32 := range []bool{false, true} {
			name := map[bool]string{false: "float64", true: "float32"}[f32]
			b.Run(fmt.Sprintf("rows=%d/storage=%s", rows, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := LoadCSV(path, CSVConfig{Float32: f32}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
