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

// SeedModels finds the per-seed sidecars of a run, sorted by seed as numbers (2 before 10),
// and ignores other runs and names that are not a seed.
func TestSeedModels(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"kde.seed10.json", "kde.seed2.json", "kde.seed1.json", "kde.seedx.json", "kdex.seed3.json", "ce.seed1.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	require.Equal(t, []string{p("kde.seed1.params"), p("kde.seed2.params"), p("kde.seed10.params")}, SeedModels(p("kde.params")))
	require.Nil(t, SeedModels(p("sq.params")))
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
