package deploy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
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
