package deploy

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
)

func TestSafeName(t *testing.T) {
	require.Equal(t, "kde_pool_1024", SafeName("kde:pool=1024"))
	require.Equal(t, "sqhinge+wu", SafeName("sqhinge+wu"))
	require.Equal(t, "a.b-c_d", SafeName("a.b-c_d"))
}

// seedModels finds the per-seed sidecars of a run, sorted by seed as numbers (2 before 10),
// and ignores other runs and names that are not a seed.
func TestSeedModels(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"kde.seed10.json", "kde.seed2.json", "kde.seed1.json", "kde.seedx.json", "kdex.seed3.json", "ce.seed1.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	require.Equal(t, []string{p("kde.seed1.params"), p("kde.seed2.params"), p("kde.seed10.params")}, seedModels(p("kde.params")))
	require.Nil(t, seedModels(p("sq.params")))
}

// ScoreFile writes what ScoreCSV writes for the file's rows, names the file in a CSV error,
// and stops with ctx's error when ctx is done.
func TestScoreFile(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(newFixture(t, 1).save(t, dir, "run"))
	require.NoError(t, err)
	defer s.Close()
	good := filepath.Join(dir, "rows.csv")
	require.NoError(t, os.WriteFile(good, []byte(rowsCSV(10)), 0o644))
	var want, got strings.Builder
	wr, wf, err := s.ScoreCSV(strings.NewReader(rowsCSV(10)), &want)
	require.NoError(t, err)
	rows, flagged, err := s.ScoreFile(context.Background(), good, &got)
	require.NoError(t, err)
	require.Equal(t, [2]int{wr, wf}, [2]int{rows, flagged})
	require.Equal(t, want.String(), got.String())

	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("c,y,a,b\n1,0,x,2\n"), 0o644))
	_, _, err = s.ScoreFile(context.Background(), bad, io.Discard)
	ce, ok := errors.AsType[*data.CSVError](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, bad, ce.File)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = s.ScoreFile(ctx, good, io.Discard)
	require.ErrorIs(t, err, context.Canceled)
	_, _, err = s.ScoreFile(context.Background(), filepath.Join(dir, "missing.csv"), io.Discard)
	require.ErrorIs(t, err, os.ErrNotExist)
}

// ExplainLoad lists the per-seed models of a run loaded by its plain name, keeps Load's
// error underneath, and leaves other errors alone.
func TestExplainLoad(t *testing.T) {
	dir := t.TempDir()
	f := newFixture(t, 1)
	f.save(t, dir, "run.seed2")
	f.save(t, dir, "run.seed1")
	path := filepath.Join(dir, "run.params")
	_, err := Load(path)
	require.Error(t, err)
	e := ExplainLoad(path, err)
	require.ErrorIs(t, e, ErrSidecar)
	require.ErrorContains(t, e, filepath.Join(dir, "run.seed1.params")+", "+filepath.Join(dir, "run.seed2.params"))
	_, err = Load(filepath.Join(dir, "other.params"))
	require.ErrorContains(t, ExplainLoad(filepath.Join(dir, "other.params"), err), "is saved beside the model")
	other := errors.New("disk on fire")
	require.Equal(t, other, ExplainLoad(path, other))
}
