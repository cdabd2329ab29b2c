package train

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

func TestParseAUCRecipes(t *testing.T) {
	point := kdequantile.Config{Alpha: 0.05}
	def := DefaultPESG()
	lr := DefaultPESG()
	lr.LearningRate = 0.03
	for _, c := range []struct {
		name string
		want []Recipe
	}{
		{"aucm", []Recipe{AUCM{PESG: &def}}},
		{"aucm:lr=0.03:margin=0.5", []Recipe{AUCM{Loss: aucm.Config{Margin: 0.5}, PESG: &lr}}},
		{"pauc", []Recipe{Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.05}}}}},
		{"pauc:mintpr=0.5", []Recipe{Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.05, MinTPR: 0.5}}}}},
		{"sqhinge:maxfpr=0.1", []Recipe{Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.1}}}}},
		{"hinge:maxfpr=0.1:mintpr=0.5", []Recipe{Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.1, MinTPR: 0.5}}}}},
		{"logistic:mintpr=0.2", []Recipe{Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic, MinTPR: 0.2}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseRecipe(c.name, point)
			require.NoError(t, err)
			require.Equal(t, c.want, r)
		})
	}
	r, err := ParseRecipe("aucm:lr=0.03:margin=0.5", point)
	require.NoError(t, err)
	require.Equal(t, "aucm(margin=0.5, pesg, lr=0.03)", r[0].String())
	r, err = ParseRecipe("hinge:maxfpr=0.1:mintpr=0.5", point)
	require.NoError(t, err)
	require.Equal(t, "hinge(margin=1, pairs=all, maxfpr=0.1, mintpr=0.5)", r[0].String())
}

func TestParseAUCRecipeErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		point kdequantile.Config
		says  string
	}{
		{"aucm:pool=3", kdequantile.Config{Alpha: 0.1}, "unknown option"},
		{"aucm:lr=-1", kdequantile.Config{Alpha: 0.1}, "above 0"},
		{"aucm:lr=NaN", kdequantile.Config{Alpha: 0.1}, "above 0"},
		{"aucm:margin=-1", kdequantile.Config{Alpha: 0.1}, "above 0"},
		{"aucm:lr", kdequantile.Config{Alpha: 0.1}, "needs a value"},
		{"aucm:lr=0.1:lr=0.2", kdequantile.Config{Alpha: 0.1}, "given twice"},
		{"pauc", kdequantile.Config{Recall: 0.9}, "needs the run's false-positive rate"},
		{"pauc:maxfpr=0.2", kdequantile.Config{Alpha: 0.1}, "unknown option"},
		{"pauc:mintpr=1", kdequantile.Config{Alpha: 0.1}, "below 1"},
		{"sqhinge:maxfpr=1.5", kdequantile.Config{Alpha: 0.1}, "at most 1"},
		{"sqhinge:maxfpr=0", kdequantile.Config{Alpha: 0.1}, "above 0"},
		{"sqhinge:maxfpr=x", kdequantile.Config{Alpha: 0.1}, "invalid syntax"},
		{"hinge:margin=2", kdequantile.Config{Alpha: 0.1}, "unknown option"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRecipe(c.name, c.point)
			require.ErrorIs(t, err, ErrConfig)
			require.ErrorContains(t, err, c.says)
		})
	}
}

// SearchRates gives aucm PESG's rates, aucm:lr=η the one rate η, and every other name nil
// (the run's), kde's lr option included (a scale of the fine-tuning, not a rate); a bad name
// is the ParseRecipe error.
func TestSearchRates(t *testing.T) {
	for name, want := range map[string][]float64{
		"aucm": {0.03, 0.1, 0.3}, "aucm:margin=0.5": {0.03, 0.1, 0.3}, "aucm:lr=0.2": {0.2},
		"aucm:margin=2:lr=0.05": {0.05}, "ce": nil, "kde:lr=0.3": nil, "sqhinge:maxfpr=0.1": nil, "pauc": nil,
	} {
		got, err := SearchRates(name)
		require.NoError(t, err, name)
		require.Equal(t, want, got, name)
	}
	got, _ := SearchRates("aucm")
	got[0] = 7 // a copy: the registry keeps its rates
	again, _ := SearchRates("aucm")
	require.Equal(t, PESGRates, again)
	for _, name := range []string{"nope", "aucm:lr=-1", "aucm:lr=0.1:lr=0.2", "ce:lr=0.1"} {
		_, err := SearchRates(name)
		require.ErrorIs(t, err, ErrConfig, name)
	}
	for _, r := range Recipes() { // an entry's rate option is one of its options
		if r.RateOption != "" {
			require.True(t, slices.ContainsFunc(r.Options, func(o RecipeOption) bool { return o.Key == r.RateOption }), r.Name)
		}
	}
}

// SearchRates and ParseRecipe agree on what a name is: SearchRates fails exactly when the
// spelling is bad (an ErrConfig error, never a panic), which ParseRecipe then refuses too; a
// name ParseRecipe reads has rates SearchRates gives, nil or positive and finite.
func FuzzSearchRates(f *testing.F) {
	for _, s := range []string{"aucm", "aucm:lr=0.2", "aucm:margin=2:lr=1e-3", "kde:lr=0.3", "ce", "aucm:lr=", "aucm:lr=0.1:lr=0.1", "x:y", ":", "pauc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		rates, err := SearchRates(name)
		_, perr := ParseRecipe(name, kdequantile.Config{Alpha: 0.1})
		if err != nil {
			if !errors.Is(err, ErrConfig) || perr == nil {
				t.Fatalf("%q: SearchRates %v, ParseRecipe %v", name, err, perr)
			}
			return
		}
		for _, r := range rates {
			if !(r > 0) || math.IsInf(r, 0) {
				t.Fatalf("%q: rate %v", name, r)
			}
		}
		if perr == nil && strings.HasPrefix(name, "aucm") && len(rates) == 0 {
			t.Fatalf("%q: aucm without rates", name)
		}
	})
}
