package train

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

func TestParseAUCRecipes(t *testing.T) {
	names := Names{Point: Point{Alpha: 0.05}}
	def := optim.DefaultPESG()
	lr := optim.DefaultPESG()
	lr.LearningRate = 0.03
	for _, c := range []struct {
		name string
		want []Recipe
	}{
		{"aucm", []Recipe{Plain(AUCM{PESG: &def})}},
		{"aucm:lr=0.03:margin=0.5", []Recipe{Plain(AUCM{Config: aucm.Config{Margin: 0.5}, PESG: &lr})}},
		{"pauc", []Recipe{Plain(Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.05}})}},
		{"pauc:mintpr=0.5", []Recipe{Plain(Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.05, MinTPR: 0.5}})}},
		{"sqhinge:maxfpr=0.1", []Recipe{Plain(Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.1}})}},
		{"hinge:maxfpr=0.1:mintpr=0.5", []Recipe{Plain(Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.1, MinTPR: 0.5}})}},
		{"logistic:mintpr=0.2", []Recipe{Plain(Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic, MinTPR: 0.2}})}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, wu, err := names.Parse(c.name)
			require.NoError(t, err)
			require.Zero(t, wu)
			require.Equal(t, c.want, r)
		})
	}
	r, _, err := names.Parse("aucm:lr=0.03:margin=0.5")
	require.NoError(t, err)
	require.Equal(t, "aucm(margin=0.5, pesg, lr=0.03)", r[0].String())
	r, _, err = names.Parse("hinge:maxfpr=0.1:mintpr=0.5")
	require.NoError(t, err)
	require.Equal(t, "hinge(margin=1, pairs=all, maxfpr=0.1, mintpr=0.5)", r[0].String())
}

func TestParseAUCRecipeErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		point Point
		says  string
	}{
		{"aucm:pool=3", Point{Alpha: 0.1}, "unknown option"},
		{"aucm:lr=-1", Point{Alpha: 0.1}, "above 0"},
		{"aucm:lr=NaN", Point{Alpha: 0.1}, "above 0"},
		{"aucm:margin=-1", Point{Alpha: 0.1}, "above 0"},
		{"aucm:lr", Point{Alpha: 0.1}, "needs a value"},
		{"aucm:lr=0.1:lr=0.2", Point{Alpha: 0.1}, "given twice"},
		{"pauc", Point{Recall: 0.9}, "needs the run's false-positive rate"},
		{"pauc:maxfpr=0.2", Point{Alpha: 0.1}, "unknown option"},
		{"pauc:mintpr=1", Point{Alpha: 0.1}, "below 1"},
		{"sqhinge:maxfpr=1.5", Point{Alpha: 0.1}, "at most 1"},
		{"sqhinge:maxfpr=0", Point{Alpha: 0.1}, "above 0"},
		{"sqhinge:maxfpr=x", Point{Alpha: 0.1}, "invalid syntax"},
		{"hinge:margin=2", Point{Alpha: 0.1}, "unknown option"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Names{Point: c.point}.Parse(c.name)
			require.ErrorIs(t, err, rocops.ErrConfig)
			require.ErrorContains(t, err, c.says)
		})
	}
}

// SearchRates gives aucm PESG's rates, aucm:lr=η the one rate η, and every other name nil
// (the run's), kde's lr option included (a scale of the fine-tuning, not a rate); a bad name
// is the Names.Parse error.
func TestSearchRates(t *testing.T) {
	for name, want := range map[string][]float64{
		"aucm": {0.03, 0.1, 0.3}, "aucm:margin=0.5": {0.03, 0.1, 0.3}, "aucm:lr=0.2": {0.2},
		"aucm:margin=2:lr=0.05": {0.05}, "ce": nil, "kde:lr=0.3": nil, "sqhinge:maxfpr=0.1": nil, "pauc": nil,
		"sqhinge+wu": nil, "hinge:maxfpr=0.1+wu": nil, // a "+wu" name takes its plain loss's rates
	} {
		got, err := SearchRates(name)
		require.NoError(t, err, name)
		require.Equal(t, want, got, name)
	}
	got, _ := SearchRates("aucm")
	got[0] = 7 // a copy: the registry keeps its rates
	again, _ := SearchRates("aucm")
	require.Equal(t, PESGRates, again)
	for _, name := range []string{"nope", "aucm:lr=-1", "aucm:lr=0.1:lr=0.2", "ce:lr=0.1", "nope+wu", "ce+wu+wu"} {
		_, err := SearchRates(name)
		require.ErrorIs(t, err, rocops.ErrConfig, name)
	}
	for _, r := range Recipes() { // an entry's rate option is one of its options
		if r.RateOption != "" {
			require.True(t, slices.ContainsFunc(r.Options, func(o RecipeOption) bool { return o.Key == r.RateOption }), r.Name)
		}
	}
}

// SearchRates and Names.Parse agree on what a name is: SearchRates fails exactly when the
// spelling is bad (a rocops.ErrConfig error, never a panic), which Parse then refuses too; a
// name Parse reads has rates SearchRates gives, nil or positive and finite.
func FuzzSearchRates(f *testing.F) {
	for _, s := range []string{"aucm", "aucm:lr=0.2", "aucm:margin=2:lr=1e-3", "kde:lr=0.3", "ce", "aucm:lr=", "aucm:lr=0.1:lr=0.1", "x:y", ":", "pauc", "sqhinge+wu", "aucm+wu", "+wu"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		rates, err := SearchRates(name)
		_, _, perr := Names{Point: Point{Alpha: 0.1}, Warmup: 3}.Parse(name)
		if err != nil {
			require.False(t, !errors.Is(err, rocops.ErrConfig) || perr == nil, "%q: SearchRates %v, Parse %v", name, err, perr)
			return
		}
		for _, r := range rates {
			require.False(t, !(r > 0) || math.IsInf(r, 0), "%q: rate %v", name, r)
		}
		require.False(t, perr == nil && strings.HasPrefix(name, "aucm") && len(rates) == 0, "%q: aucm without rates", name)
	})
}
