package deploy

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
)

// newClassFixture returns an MLP 3→4→3 initialised with seed and its operating point: a
// multi-class model of the classes "cat", "dog, big" and `say "hi"` (names a CSV must quote)
// when multilabel is false, else a multi-label model of the label columns p, q and r. The
// thresholds flag class scores ≥ 0 (≥ 0.3 and ≥ 0.45 for probabilities), but those of the
// last class, which nothing met α for (+Inf).
func newClassFixture(t *testing.T, seed uint64, multilabel, probabilities bool) fixture {
	t.Helper()
	f := newFixture(t, seed)
	m, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Seed: seed, Outputs: 3})
	require.NoError(t, err)
	f.m = m
	f.op.Threshold = math.Inf(1) // what Load returns for a model of classes
	f.op.Classes = []string{"cat", "dog, big", `say "hi"`}
	if multilabel {
		f.op.Classes, f.op.Label, f.op.Multilabel = []string{"p", "q", "r"}, "", true
	}
	f.op.Probabilities = probabilities
	f.op.Thresholds = []float64{0, 0, math.Inf(1)}
	if probabilities {
		f.op.Thresholds = []float64{0.3, 0.45, math.Inf(1)}
	}
	f.op.ClassValFPR, f.op.ClassValTPR = []float64{0.1, 0.05, 0}, []float64{0.7, 0.5, 0}
	f.op.ClassTestFPR, f.op.ClassTestTPR = []float64{0.09, 0.1, 0}, []float64{0.6, 0.4, 0}
	return f
}

// wantScores returns the scores of raw rows by the fixture's model, computed here: nn.Scores
// of the rows standardised by the fixture's statistics, then softmax when probabilities.
func (f fixture) wantScores(t *testing.T, raw []float64, n int) []float64 {
	t.Helper()
	in := len(f.features)
	z := make([]float64, len(raw))
	for i := range raw {
		z[i] = (raw[i] - f.st.Mean[i%in]) / f.st.Std[i%in]
	}
	s, err := nn.Scores(f.m, z, n)
	require.NoError(t, err)
	if f.op.Probabilities {
		s, err = crossentropy.Softmax(s, nn.Outputs(f.m))
		require.NoError(t, err)
	}
	return s
}

// Save then Load of a multi-class model (raw outputs and probabilities) and of a multi-label
// one gives back the operating point with its classes, thresholds and per-class rates, a
// version-3 sidecar, and scores equal to the model's outputs (or their softmax) on the
// standardised rows, k per row, bit for bit; FlagClass flags at each class's threshold.
func TestClassesRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name                      string
		multilabel, probabilities bool
	}{{"multi-class", false, false}, {"multi-class probabilities", false, true}, {"multi-label", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := newClassFixture(t, 4, c.multilabel, c.probabilities)
			path := f.save(t, dir, "mc")
			b, err := os.ReadFile(sidecarOf(dir, "mc"))
			require.NoError(t, err)
			require.Contains(t, string(b), `"version": 3`)
			require.Contains(t, string(b), `"thresholds": [`)
			require.NotContains(t, string(b), `"threshold":`)

			s, err := Load(path)
			require.NoError(t, err)
			defer s.Close()
			require.Equal(t, f.op, s.OperatingPoint())
			require.Equal(t, versionClasses, s.Version())
			require.Equal(t, 3, max(1, len(s.OperatingPoint().Classes)))
			require.Equal(t, f.op.Classes, s.OperatingPoint().Classes)
			require.Equal(t, f.op.Thresholds, s.OperatingPoint().Thresholds)
			require.Equal(t, c.multilabel, s.OperatingPoint().Multilabel)
			require.Equal(t, c.probabilities, s.OperatingPoint().Probabilities)
			require.Equal(t, ModelSpec{Architecture: "MLP(in=3, hidden=[4], activation=relu, outputs=3)", Dtype: tensor.Float64}, s.Spec())

			const n = 40
			raw := rawRows(t, n)
			got, err := s.Score(raw, n)
			require.NoError(t, err)
			want := f.wantScores(t, raw, n)
			require.Len(t, got, 3*n)
			require.Equal(t, want, got, "scores bit for bit")
			flagged := [3]int{}
			for i := range n {
				for k := range 3 {
					require.Equal(t, got[3*i+k] >= f.op.Thresholds[k], s.FlagClass(k, got[3*i+k]))
					if s.FlagClass(k, got[3*i+k]) {
						flagged[k]++
					}
				}
				if c.probabilities {
					require.InDelta(t, 1, got[3*i]+got[3*i+1]+got[3*i+2], 1e-15)
				}
				require.False(t, s.Flag(got[3*i]), "Flag of a model of classes flags nothing")
			}
			require.Greater(t, flagged[0]+flagged[1], 0, "the thresholds flag some rows")
			require.Less(t, flagged[0]+flagged[1], 2*n, "and not all")
			require.Zero(t, flagged[2], "+Inf flags nothing")
			require.False(t, s.FlagClass(3, math.MaxFloat64), "no class 3")
			require.False(t, s.FlagClass(-1, math.MaxFloat64), "no class -1")

			// The accessors return copies.
			s.OperatingPoint().Classes[0], s.OperatingPoint().Thresholds[0] = "x", 99
			op := s.OperatingPoint()
			op.Classes[0], op.ClassValFPR[0] = "x", 0.5
			require.Equal(t, f.op, s.OperatingPoint())
		})
	}
}

// A multi-label model of one label column has one output and is a model of classes all the
// same: version 3, FlagClass(0, ·) at its threshold.
func TestOneLabelMultilabel(t *testing.T) {
	f := newFixture(t, 2)
	f.op.Threshold, f.op.Label = math.Inf(1), ""
	f.op.Classes, f.op.Multilabel, f.op.Thresholds = []string{"p"}, true, []float64{0.5}
	f.op.ClassValFPR, f.op.ClassValTPR, f.op.ClassTestFPR, f.op.ClassTestTPR = []float64{0.1}, []float64{0.5}, []float64{0.1}, []float64{0.5}
	s, err := Load(f.save(t, t.TempDir(), "ml"))
	require.NoError(t, err)
	require.Equal(t, versionClasses, s.Version())
	require.Equal(t, 1, max(1, len(s.OperatingPoint().Classes)))
	require.Equal(t, f.op, s.OperatingPoint())
	require.True(t, s.FlagClass(0, 0.5))
	require.False(t, s.FlagClass(0, math.Nextafter(0.5, 0)))
	require.False(t, s.Flag(0.5))
}

// Save refuses, writing nothing, an operating point of classes that does not fit the model or
// holds a bad value, and a model of several outputs without classes.
func TestSaveValidatesClasses(t *testing.T) {
	cases := []struct {
		name string
		edit func(f *fixture)
		msg  string
	}{
		{"no classes for 3 outputs", func(f *fixture) {
			f.op.Classes, f.op.Thresholds = nil, nil
			f.op.ClassValFPR, f.op.ClassValTPR, f.op.ClassTestFPR, f.op.ClassTestTPR = nil, nil, nil, nil
		}, "needs its classes"},
		{"two classes for 3 outputs", func(f *fixture) { f.op.Classes = f.op.Classes[:2] }, "2 classes for a model of 3 outputs"},
		{"one class", func(f *fixture) { f.op.Classes = f.op.Classes[:1] }, "1 classes for a multi-class model"},
		{"empty classes", func(f *fixture) { f.op.Classes = []string{} }, "0 classes"},
		{"two thresholds", func(f *fixture) { f.op.Thresholds = f.op.Thresholds[:2] }, "2 thresholds for 3 classes"},
		{"NaN threshold", func(f *fixture) { f.op.Thresholds[1] = math.NaN() }, "threshold NaN"},
		{"-Inf threshold", func(f *fixture) { f.op.Thresholds[0] = math.Inf(-1) }, "threshold -Inf"},
		{"empty class name", func(f *fixture) { f.op.Classes[1] = "" }, "class 2 has the name"},
		{"padded class name", func(f *fixture) { f.op.Classes[1] = " dog" }, "padded"},
		{"repeated class", func(f *fixture) { f.op.Classes[2] = "cat" }, `class "cat" is listed twice`},
		{"rate above 1", func(f *fixture) { f.op.ClassTestTPR[1] = 1.5 }, "class_test_tpr"},
		{"rates missing", func(f *fixture) { f.op.ClassValFPR = nil }, "0 values of class_validation_fpr"},
		{"probabilities of labels", func(f *fixture) {
			f.op.Multilabel, f.op.Label, f.op.Probabilities = true, "", true
		}, "multi-label"},
		{"label of labels", func(f *fixture) { f.op.Multilabel = true }, `label "y" for a multi-label model`},
		{"label column a feature", func(f *fixture) {
			f.op.Multilabel, f.op.Label, f.op.Classes[1] = true, "", "b"
		}, `label column "b" is a feature`},
		{"thresholds without classes", func(f *fixture) {
			f.m, _ = nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}})
			f.op.Classes = nil
		}, "without classes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newClassFixture(t, 1, false, false)
			c.edit(&f)
			dir := t.TempDir()
			_, err := Save(dir, "mc", f.m, f.op, f.st, f.features)
			require.ErrorIs(t, err, ErrSidecar)
			require.ErrorContains(t, err, c.msg)
			require.Empty(t, files(t, dir), "nothing written")
		})
	}
	// A binary operating point for a binary model still saves, and Threshold is ignored for a
	// model of classes (even a NaN).
	f := newClassFixture(t, 1, false, false)
	f.op.Threshold = math.NaN()
	s, err := Load(f.save(t, t.TempDir(), "mc"))
	require.NoError(t, err)
	require.True(t, math.IsInf(s.OperatingPoint().Threshold, 1))
}

// A binary Save writes today the bytes of the committed version-2 pair, written before models
// of classes, and that pair loads and scores its CSV as it did then (testdata/v2).
func TestVersion2PairUnchanged(t *testing.T) {
	f := newFixture(t, 11)
	f.op.Threshold = 16.5 // the fixture the pair was saved from
	dir := t.TempDir()
	path := f.save(t, dir, "ce")
	for _, name := range []string{"ce.json", filepath.Base(path)} {
		want, err := os.ReadFile(filepath.Join("testdata", "v2", name))
		require.NoError(t, err, name)
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), name)
	}

	s, err := Load(filepath.Join("testdata", "v2", "ce.params"))
	require.NoError(t, err)
	require.Equal(t, 2, s.Version())
	require.Equal(t, 16.5, s.OperatingPoint().Threshold) // "threshold" in testdata/v2/ce.json
	require.Nil(t, s.OperatingPoint().Classes)
	require.Equal(t, 1, max(1, len(s.OperatingPoint().Classes)))
	in, err := os.ReadFile(filepath.Join("testdata", "rows.csv"))
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("testdata", "v2", "ce.predict.csv"))
	require.NoError(t, err)
	var out bytes.Buffer
	rows, flagged, err := s.ScoreCSV(bytes.NewReader(in), &out)
	require.NoError(t, err)
	require.Equal(t, 300, rows)
	// The pair's scores were written under gonum's own BLAS; the default build's kernels and
	// OpenBLAS round the products differently: the same scores to 1e-12 and the same flags.
	requireSameScores(t, string(want), out.String(), s.OperatingPoint().Threshold, 1e-12)
	require.Equal(t, 62, flagged) // the flags of testdata/v2/ce.predict.csv
	// Under gonum's own BLAS, the one the pair was written with: the same bits.
	if nn.BLAS() == "gonum" {
		defer gorgonia.Use(gorgonia.WhichBLAS())
		gorgonia.Use(gonum.Implementation{})
		s, err := Load(filepath.Join("testdata", "v2", "ce.params"))
		require.NoError(t, err)
		out.Reset()
		_, flagged, err := s.ScoreCSV(bytes.NewReader(in), &out)
		require.NoError(t, err)
		require.Equal(t, string(want), out.String())
		require.Equal(t, 62, flagged)
	}
}
