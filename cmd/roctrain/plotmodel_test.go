package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// -plot may not overwrite a model file a sidecar names, <run>.<h>.params, with or without
// -out, nor one of the names a run -out saves gives its model: -plot dir/ce.<h>.params wrote
// the PNG over the saved model, as the output check knew only the name <run>.params.
func TestPlotNeverOverwritesASavedModel(t *testing.T) {
	dir := t.TempDir()
	csv := writeCSV(t, dir, 60)
	models := filepath.Join(dir, "models")
	base := []string{"-data", csv, "-label", "y", "-losses", "ce", "-epochs", "1", "-lr", "0.01", "-hidden", "", "-boot", "0"}
	code, _, stderr := roctrain(t, append(append([]string{}, base...), "-plot", "", "-out", models)...)
	require.Equal(t, 0, code, stderr)
	found, err := filepath.Glob(filepath.Join(models, "ce.*.params"))
	require.NoError(t, err)
	require.Len(t, found, 1)
	model := found[0]
	other := filepath.Join(models, "ce.0123456789abcdef.params") // a name ce.json does not give
	require.NoError(t, os.WriteFile(other, []byte("not named"), 0o644))
	for _, c := range []struct {
		name    string
		args    []string
		mention string
	}{
		{"with -out", []string{"-plot", model, "-out", models}, "a model file name of the run"},
		{"without -out", []string{"-plot", model}, "the model file that " + filepath.Join(models, "ce.json") + " names"},
		{"a PNG beside it", []string{"-plot", strings.TrimSuffix(model, ".params") + ".png"}, ""},
		{"a name -out gives a new model", []string{"-plot", filepath.Join(models, "kde.fedcba9876543210.params"), "-losses", "kde", "-out", models}, "a model file name of the run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, err := os.ReadFile(model)
			require.NoError(t, err)
			code, stdout, stderr := roctrain(t, append(append([]string{}, base...), c.args...)...)
			after, err := os.ReadFile(model)
			require.NoError(t, err)
			require.Equal(t, before, after, "the model file was changed")
			if c.mention == "" { // an unrelated name beside the model is fine
				require.Equal(t, 0, code, stderr)
				return
			}
			require.Equal(t, 1, code, stderr)
			require.Contains(t, stderr, c.mention)
			require.Contains(t, stderr, "may not overwrite")
			require.Empty(t, stdout)
		})
	}
	code, _, stderr = roctrain(t, append(append([]string{}, base...), "-plot", other)...)
	require.Equal(t, 0, code, "a file of a model's name that no sidecar names may be written: %s", stderr)
}
