package main

import (
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
		require.Equal(t, c.want, r)
	}
	want := map[string]string{
		"ce": "ce", "kde": "ce→kde(alpha=0.1, v0=0, v1=0) at lr×0.1", "kde-plain": "kde(alpha=0.1, v0=0, v1=0)",
		"logistic": "logistic(pairs=all)", "exp": "exp(pairs=all)", "square": "square(margin=1, pairs=all)",
		"hinge": "hinge(margin=1, pairs=all)", "sqhinge": "sqhinge(margin=1, pairs=all)",
	}
	for _, name := range recipeNames {
		r, err := parseRecipe(name, kdequantile.Config{Alpha: 0.1})
		require.NoError(t, err, name)
		require.Equal(t, want[name], r.String(), name)
	}
	for _, bad := range []string{"", "kde+wu", "nope", "focal"} {
		_, err := parseRecipe(bad, point)
		require.ErrorContains(t, err, "unknown loss", bad)
	}
}
