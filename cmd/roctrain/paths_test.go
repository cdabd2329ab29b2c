package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// No output overwrites an input or another output, whether the two are one path, a hard
// link, a symbolic link or another spelling of it; the command fails before training and
// the file keeps its content. Before, -plot x.csv with -data x.csv turned the data into a
// PNG, and -plot m/ce.params -out m overwrote the saved model; both exited 0.
func TestOutputsNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	csv := writeCSV(t, dir, 60)
	models := filepath.Join(dir, "models")
	require.NoError(t, os.MkdirAll(models, 0o755))
	saved := filepath.Join(models, "ce.params")
	require.NoError(t, os.WriteFile(saved, []byte("a saved model"), 0o644))
	hard := filepath.Join(dir, "hard.csv")
	require.NoError(t, os.Link(csv, hard))
	soft := filepath.Join(dir, "soft.png")
	require.NoError(t, os.Symlink(csv, soft))
	diagData := filepath.Join(dir, "p-diagnostics.png")
	require.NoError(t, os.WriteFile(diagData, []byte("a,y\n1,0\n"), 0o644))

	base := []string{"-label", "y", "-losses", "ce", "-epochs", "1", "-lr", "0.01", "-hidden", "", "-boot", "0"}
	for _, c := range []struct {
		name    string
		args    []string
		kept    string // the file that must keep its content
		mention string // what the error names
	}{
		{"-plot is -data", []string{"-data", csv, "-plot", csv}, csv, "the -data file"},
		{"-plot is -data spelt otherwise", []string{"-data", csv, "-plot", filepath.Join(dir, ".", "..", filepath.Base(dir), "rows.csv")}, csv, "the -data file"},
		{"-plot is a hard link to -data", []string{"-data", csv, "-plot", hard}, csv, "the -data file"},
		{"-plot is a symbolic link to -data", []string{"-data", csv, "-plot", soft}, csv, "the -data file"},
		{"-plot is a model -out writes", []string{"-data", csv, "-plot", saved, "-out", models}, saved, "-out's model ce.params"},
		{"-plot is an operating-point file -out writes", []string{"-data", csv, "-plot", filepath.Join(models, "ce.json"), "-out", models}, csv, "-out's operating-point file ce.json"},
		{"-plot is a model of a later seed", []string{"-data", csv, "-seeds", "2", "-plot", filepath.Join(models, "ce.seed2.params"), "-out", models}, csv, "ce.seed2.params"},
		{"-data is a model -out writes", []string{"-data", saved, "-plot", "", "-out", models}, saved, "the -data file"},
		{"-plot's diagnostics PNG is -data", []string{"-data", diagData, "-plot", filepath.Join(dir, "p.png"), "-diagnose"}, diagData, "-plot's diagnostics PNG"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, err := os.ReadFile(c.kept)
			require.NoError(t, err)
			code, stdout, stderr := roctrain(t, append(append([]string{}, base...), c.args...)...)
			require.Equal(t, 1, code, stderr)
			require.Contains(t, stderr, c.mention)
			require.Contains(t, stderr, "may not overwrite")
			require.NotContains(t, stderr, "training", "refused before training")
			require.Empty(t, stdout)
			after, err := os.ReadFile(c.kept)
			require.NoError(t, err)
			require.Equal(t, before, after, "%s was changed", c.kept)
		})
	}

	// Distinct files pass, also a plot inside -out under a name -out does not write.
	for _, args := range [][]string{
		{"-data", csv, "-plot", filepath.Join(models, "roc.png"), "-out", models},
		{"-data", csv, "-plot", filepath.Join(dir, "roc.png"), "-diagnose", "-out", models, "-seeds", "3"},
	} {
		opt, err := parseFlags(append(append([]string{}, base...), args...), nil)
		require.NoError(t, err)
		require.NoError(t, checkOutputs(opt), "%q", args)
	}
}
