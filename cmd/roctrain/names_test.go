package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

func TestParseRecipe(t *testing.T) {
	point := kdequantile.Config{Recall: 0.9}
	for _, c := range []struct {
		name string
		want train.Recipe
	}{
		{"kde", train.FineTune{Loss: train.KDE{Config: point}}},
		{"kde-plain", train.Plain{Loss: train.KDE{Config: point}}},
		{"ce", train.Plain{Loss: train.CrossEntropy{}}},
	} {
		r, err := parseRecipe(c.name, point)
		require.NoError(t, err)
		require.Equal(t, []train.Recipe{c.want}, r)
	}
	want := map[string]string{
		"ce": "ce", "kde": "ce→kde(alpha=0.1, v0=0, v1=0) at lr×0.1", "kde-plain": "kde(alpha=0.1, v0=0, v1=0)",
		"logistic": "logistic(pairs=all)", "exp": "exp(pairs=all)", "square": "square(margin=1, pairs=all)",
		"hinge": "hinge(margin=1, pairs=all)", "sqhinge": "sqhinge(margin=1, pairs=all)",
		"ce+kde": "1×ce + 0.1×kde(alpha=0.1, v0=0, v1=0)",
	}
	for _, name := range recipeNames {
		r, err := parseRecipe(name, kdequantile.Config{Alpha: 0.1})
		require.NoError(t, err, name)
		require.Equal(t, want[name], r[0].String(), name)
	}
	// "ce+kde" offers validation one candidate per weight λ.
	r, err := parseRecipe("ce+kde", kdequantile.Config{Alpha: 0.1})
	require.NoError(t, err)
	require.Len(t, r, len(kdeWeights))
	require.Equal(t, "1×ce + 3×kde(alpha=0.1, v0=0, v1=0)", r[len(r)-1].String())
	for _, bad := range []string{"", "kde+wu", "nope", "focal"} {
		_, err := parseRecipe(bad, point)
		require.ErrorContains(t, err, "unknown loss", bad)
	}
}

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
	rs, err := parseRecipe("ce+kde", kdequantile.Config{Alpha: 0.1})
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
