package deploy

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// Save then Load gives back the operating point, features, standardisation and a model that
// scores raw rows exactly as the saved model scores them standardised here; Load takes the
// sidecar, <name>.params and the content-addressed file alike.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f := newFixture(t, 7)
	path := f.save(t, dir, "ce")
	require.Regexp(t, `^ce\.[0-9a-f]{16}\.params$`, filepath.Base(path))

	const n = 50
	raw := rawRows(t, n)
	ds := &data.Dataset{X: raw, Y: make([]float64, n), Rows: n, Cols: 3, FeatureNames: f.features}
	z, err := f.st.Apply(ds)
	require.NoError(t, err)
	want, err := nn.Scores(f.m, z.X, n)
	require.NoError(t, err)

	for _, p := range []string{path, filepath.Join(dir, "ce.params"), sidecarOf(dir, "ce")} {
		s, err := Load(p)
		require.NoError(t, err, p)
		require.Equal(t, f.op, s.OperatingPoint())
		require.Equal(t, f.features, s.Features())
		require.Equal(t, f.st, s.Standardizer())
		require.Equal(t, 0.1, s.OperatingPoint().Alpha)
		require.Equal(t, 0.0, s.OperatingPoint().Threshold)
		require.Equal(t, "y", s.OperatingPoint().Label)
		require.Equal(t, versionBinary, s.Version())
		require.Equal(t, path, s.ModelPath())
		require.Equal(t, ModelSpec{Architecture: "MLP(in=3, hidden=[4], activation=relu)", Dtype: tensor.Float64}, s.Spec())
		got, err := s.Score(raw, n)
		require.NoError(t, err)
		require.Equal(t, want, got, "scores bit for bit")
		s.Close()
	}
}

// Every model package nn builds is described by its spec and rebuilt by Load: the linear
// scorer, MLPs of each activation and depth, float32 as well as float64.
func TestSpecRebuildsEveryModel(t *testing.T) {
	cfgs := []nn.MLPConfig{
		{In: 3},
		{In: 3, Hidden: []int{5, 2}, Activation: nn.Tanh, Seed: 3},
		{In: 3, Hidden: []int{1}, Activation: nn.Identity, Dtype: tensor.Float32},
	}
	for _, cfg := range cfgs {
		m, err := nn.NewMLP(cfg)
		require.NoError(t, err)
		f := newFixture(t, 1)
		f.m = m
		dir := t.TempDir()
		f.save(t, dir, "run")
		s, err := Load(filepath.Join(dir, "run.params"))
		require.NoError(t, err, m.Architecture())
		require.Equal(t, m.Architecture(), s.Spec().Architecture)
		require.Equal(t, m.Dtype(), s.Spec().Dtype)
		raw := rawRows(t, 10)
		got, err := s.Score(raw, 10)
		require.NoError(t, err)
		z := make([]float64, len(raw))
		for i := range raw {
			z[i] = (raw[i] - f.st.Mean[i%3]) / f.st.Std[i%3]
		}
		want, err := nn.Scores(m, z, 10)
		require.NoError(t, err)
		require.Equal(t, want, got, m.Architecture())
	}
}

// A model Load could not rebuild, and bad operating points, names, features or
// standardisations, are refused by Save before it writes anything.
func TestSaveValidates(t *testing.T) {
	f := newFixture(t, 1)
	cases := []struct {
		name string
		edit func(f *fixture, run *string)
		err  error
	}{
		{"nil model", func(f *fixture, _ *string) { f.m = nil }, ErrModel},
		{"undescribed model", func(f *fixture, _ *string) { f.m = undescribed{f.m} }, ErrModel},
		{"alpha 0", func(f *fixture, _ *string) { f.op.Alpha = 0 }, ErrSidecar},
		{"alpha 1", func(f *fixture, _ *string) { f.op.Alpha = 1 }, ErrSidecar},
		{"threshold NaN", func(f *fixture, _ *string) { f.op.Threshold = math.NaN() }, ErrSidecar},
		{"threshold -Inf", func(f *fixture, _ *string) { f.op.Threshold = math.Inf(-1) }, ErrSidecar},
		{"rate above 1", func(f *fixture, _ *string) { f.op.TestTPR = 1.5 }, ErrSidecar},
		{"two features", func(f *fixture, _ *string) { f.features = f.features[:2] }, ErrSidecar},
		{"duplicate feature", func(f *fixture, _ *string) { f.features = []string{"a", "b", "a"} }, ErrSidecar},
		{"label is a feature", func(f *fixture, _ *string) { f.op.Label = "b" }, ErrSidecar},
		{"zero std", func(f *fixture, _ *string) { f.st.Std = []float64{1, 0, 1} }, ErrSidecar},
		{"Inf mean", func(f *fixture, _ *string) { f.st.Mean = []float64{1, math.Inf(1), 1} }, ErrSidecar},
		{"path in name", func(_ *fixture, run *string) { *run = "../ce" }, ErrSidecar},
		{"hidden name", func(_ *fixture, run *string) { *run = ".ce" }, ErrSidecar},
		{"empty name", func(_ *fixture, run *string) { *run = "" }, ErrSidecar},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, run := f, "ce"
			g.features = append([]string(nil), f.features...)
			c.edit(&g, &run)
			dir := t.TempDir()
			_, err := Save(dir, run, g.m, g.op, g.st, g.features)
			require.ErrorIs(t, err, c.err)
			require.Empty(t, files(t, dir), "nothing written")
		})
	}
	// +Inf is the threshold that flags nothing, saved as null.
	g := f
	g.op.Threshold = math.Inf(1)
	dir := t.TempDir()
	g.save(t, dir, "ce")
	b, err := os.ReadFile(sidecarOf(dir, "ce"))
	require.NoError(t, err)
	require.Contains(t, string(b), `"threshold": null`)
	s, err := Load(sidecarOf(dir, "ce"))
	require.NoError(t, err)
	require.True(t, math.IsInf(s.OperatingPoint().Threshold, 1))
	require.False(t, s.Flag(math.MaxFloat64))
}

// undescribed is a model without an architecture line.
type undescribed struct{ nn.Model }

// A second Save of a run replaces its pair and removes the superseded model file (and a
// version-1 <name>.params), but never another run's files nor a file named like a model file
// that is not a checkpoint; loading an explicitly named superseded model file is refused.
func TestSaveSupersedes(t *testing.T) {
	dir := t.TempDir()
	v1, err := os.ReadFile(filepath.Join("testdata", "v1", "ce.params"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ce.params"), v1, 0o644))
	notModel := "ce.0123456789abcdef.params" // named like a model file, but not a checkpoint
	require.NoError(t, os.WriteFile(filepath.Join(dir, notModel), []byte("a,b\n1,2\n"), 0o644))
	first := newFixture(t, 1).save(t, dir, "ce")
	other := newFixture(t, 5).save(t, dir, "ce.seed2")
	second := newFixture(t, 2).save(t, dir, "ce")
	require.NotEqual(t, first, second)
	names := files(t, dir)
	want := []string{".ce.lock", ".ce.seed2.lock", "ce.json", "ce.seed2.json", filepath.Base(other), filepath.Base(second), notModel}
	require.ElementsMatch(t, want, names)
	_, err = Load(first)
	require.ErrorIs(t, err, ErrSidecar)
	require.Contains(t, err.Error(), "superseded")
	s, err := Load(filepath.Join(dir, "ce.params"))
	require.NoError(t, err)
	require.Equal(t, uint64(2), s.OperatingPoint().Run.Seed)
}

// ScoreCSV streams a CSV of more rows than one chunk in order, with the scores of Score on
// the same raw rows, the label copied, flags at the threshold and the counts it returns.
func TestScoreCSVLongerThanAChunk(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(newFixture(t, 3).save(t, dir, "ce"))
	require.NoError(t, err)
	n := 2*chunk + 17
	var out bytes.Buffer
	rows, flagged, err := s.ScoreCSV(strings.NewReader(rowsCSV(n)), &out)
	require.NoError(t, err)
	require.Equal(t, n, rows)
	want, err := s.Score(rawRows(t, n), n)
	require.NoError(t, err)
	recs, err := csv.NewReader(&out).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"row", "y", "score", "flag"}, recs[0])
	require.Len(t, recs, n+1)
	wantFlagged := 0
	for i, rec := range recs[1:] {
		require.Equal(t, strconv.Itoa(i+1), rec[0])
		require.Equal(t, strconv.Itoa(i%3/2), rec[1])
		require.Equal(t, strconv.FormatFloat(want[i], 'g', -1, 64), rec[2], "row %d", i+1)
		flag := "0"
		if want[i] >= 0 {
			flag = "1"
			wantFlagged++
		}
		require.Equal(t, flag, rec[3])
	}
	require.Equal(t, wantFlagged, flagged)
	require.Greater(t, flagged, 0)
	require.Less(t, flagged, n)
}

// ScoreCSV applies training's CSV rules, naming the line: a duplicate column, a row with more
// (or fewer) fields than the header, a missing value, a bad label, a missing feature column
// and a row beyond data's limits; the rows before the fault are written.
func TestScoreCSVRules(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	long := strings.Repeat("9", 64<<10+1)
	cases := []struct {
		name, text string
		err        error
		line       int
		written    int
	}{
		{"duplicate column", "a,b,c,a,y\n1,2,3,4,0\n", data.ErrHeader, 1, 0},
		{"more fields", "a,b,c\n1,2,3\n1,2,3,4\n", data.ErrMalformed, 3, 1},
		{"fewer fields", "a,b,c\n1,2\n", data.ErrMalformed, 2, 0},
		{"missing value", "a,b,c\n1,2,3\n1,NA,3\n", data.ErrMissing, 3, 1},
		{"infinite value", "a,b,c\n1,2,1e999\n", data.ErrNotNumber, 2, 0},
		{"bad label", "a,b,c,y\n1,2,3,0\n1,2,3,2\n", rocops.ErrLabel, 3, 1},
		{"no feature column", "a,c,y\n1,2,0\n", data.ErrHeader, 1, 0},
		{"field beyond the limit", "a,b,c\n1,2,3\n1," + long + ",3\n", data.ErrTooLong, 3, 1},
		{"no rows", "a,b,c\n", rocops.ErrEmpty, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			rows, _, err := s.ScoreCSV(strings.NewReader(c.text), &out)
			require.ErrorIs(t, err, c.err)
			ce, ok := err.(*data.CSVError)
			require.True(t, ok, "%T", err)
			require.Equal(t, c.line, ce.Line, err.Error())
			require.Equal(t, c.written, rows)
			require.Equal(t, c.written, max(0, strings.Count(out.String(), "\n")-1), out.String())
		})
	}
}

// Score refuses rows it cannot score, naming the row: a wrong length, a non-finite value.
func TestScoreRefusesBadRows(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	_, err = s.Score([]float64{1, 2}, 1)
	require.ErrorContains(t, err, "2 values for 1 rows of 3 features")
	_, err = s.Score([]float64{1, 2, 3, 4, math.NaN(), 6}, 2)
	require.ErrorContains(t, err, `row 1, feature "b" is NaN`)
	s.Close()
	_, err = s.Score([]float64{1, 2, 3}, 1)
	require.ErrorContains(t, err, "closed")
}
