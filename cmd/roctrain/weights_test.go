package main

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/train"
)

// "ce+kde" trains one model per weight λ and learning rate and keeps the one validation
// prefers; the JSON names the chosen λ, and only for runs with candidates.
func TestWeightChosenOnValidation(t *testing.T) {
	code, stdout, stderr := roctrain(t, "-json", "-epochs", "2", "-lr", "0.01", "-boot", "0", "-plot", "", "-losses", "ce,ce+kde", "-seeds", "2")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Results []struct {
			Loss    string `json:"loss"`
			PerSeed []struct {
				ChosenRecipe *string `json:"chosen_recipe"`
			} `json:"per_seed"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Results, 2)
	candidates := map[string]bool{}
	rs, _, err := train.Names{Point: train.Point{Alpha: 0.1}}.Parse("ce+kde")
	require.NoError(t, err)
	for _, r := range rs {
		candidates[r.String()] = true
	}
	for _, s := range got.Results[0].PerSeed {
		require.Nil(t, s.ChosenRecipe, "ce has one candidate")
	}
	require.Len(t, got.Results[1].PerSeed, 2)
	for _, s := range got.Results[1].PerSeed {
		require.NotNil(t, s.ChosenRecipe)
		require.True(t, candidates[*s.ChosenRecipe], *s.ChosenRecipe)
	}
}

// Recipe options reach the runs: each run is reported under the name it was given and
// trains the recipe its options set.
func TestRecipeOptions(t *testing.T) {
	names := []string{"ce", "kde:pool=64:lr=0.3", "kde-plain:tail+wu", "ce+kde:w=0.5"}
	args := []string{"-json", "-epochs", "2", "-lr", "0.01", "-boot", "0", "-plot", "", "-warmup", "1", "-losses", strings.Join(names, ",")}
	opt, err := parseFlags(args, io.Discard)
	require.NoError(t, err)
	require.Len(t, opt.runs, len(names))
	for i, want := range []string{
		"ce",
		"ce→kde(alpha=0.1, v0=0, v1=0) at lr×0.3, 64 pooled negatives",
		"ce(1 epochs)→kde(alpha=0.1, v0=0, v1=0, tail)",
		"1×ce + 0.5×kde(alpha=0.1, v0=0, v1=0)",
	} {
		require.Len(t, opt.runs[i].recipes, 1)
		require.Equal(t, want, opt.runs[i].recipes[0].String(), names[i])
	}

	out := t.TempDir()
	code, stdout, stderr := roctrain(t, append(args, "-out", out)...)
	require.Equal(t, 0, code, stderr)
	for _, f := range []string{"ce", "kde_pool_64_lr_0.3", "kde-plain_tail+wu", "ce+kde_w_0.5"} {
		_, err := deploy.Load(filepath.Join(out, f+".params"))
		require.NoError(t, err, f)
	}
	var got struct {
		Results []struct {
			Loss string `json:"loss"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Results, len(names))
	for i, r := range got.Results {
		require.Equal(t, strings.TrimSuffix(names[i], "+wu"), r.Loss)
	}
}
