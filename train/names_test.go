package train

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

func TestParseRecipe(t *testing.T) {
	names := Names{Point: Point{Recall: 0.9}}
	point := kdequantile.Config{Recall: 0.9}
	tail := kdequantile.Config{Recall: 0.9, Tail: true, Widen: 2}
	for _, c := range []struct {
		name string
		want []Recipe
	}{
		{"ce", []Recipe{Plain(CrossEntropy{})}},
		{"kde", []Recipe{FineTune(Phase{Loss: KDE{Config: point}})}},
		{"kde", []Recipe{KDERecipe(point)}},
		{"kde-plain", []Recipe{Plain(KDE{Config: point})}},
		{"sqhinge", []Recipe{Plain(Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})}},
		{"kde:lr=0.3:batch=1024", []Recipe{FineTune(Phase{Loss: KDE{Config: point}, LearningRateScale: 0.3, BatchSize: 1024})}},
		{"kde:pos=0.5:pool=512", []Recipe{FineTune(Phase{Loss: KDE{Config: point}, PositiveFraction: 0.5, NegativePool: 512})}},
		{"kde:tail:widen=2", []Recipe{FineTune(Phase{Loss: KDE{Config: tail}})}},
		{"kde-plain:widen=2:tail:pool=64", []Recipe{{{Loss: KDE{Config: tail}, NegativePool: 64}}}},
		// The old Anneal recipe divided the trainer's default of 20 epochs: Names.Epochs 0.
		{"kde-plain:anneal:pool=8", []Recipe{pooled(Anneal(point, nil, 0), 8)}},
		{"kde-plain:anneal:pool=8", []Recipe{pooled(Anneal(point, nil, 20), 8)}},
		{"ce+kde:w=3", []Recipe{Plain(Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 3, Loss: KDE{Config: point}}})}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, wu, err := names.Parse(c.name)
			require.NoError(t, err)
			require.Zero(t, wu)
			require.Equal(t, c.want, r)
		})
	}
	// Names.Epochs is what an annealed recipe divides among its phases.
	r, _, err := Names{Point: Point{Recall: 0.9}, Epochs: 9}.Parse("kde-plain:anneal")
	require.NoError(t, err)
	require.Equal(t, []Recipe{Anneal(point, nil, 9)}, r)

	want := map[string]string{
		"ce": "ce", "kde": "ce→kde(alpha=0.1, v0=0, v1=0) at lr×0.1", "kde-plain": "kde(alpha=0.1, v0=0, v1=0)",
		"logistic": "logistic(pairs=all)", "exp": "exp(pairs=all)", "square": "square(margin=1, pairs=all)",
		"hinge": "hinge(margin=1, pairs=all)", "sqhinge": "sqhinge(margin=1, pairs=all)",
		"ce+kde": "1×ce + 0.1×kde(alpha=0.1, v0=0, v1=0)",
		"aucm":   "aucm(margin=1, pesg)", "pauc": "sqhinge(margin=1, pairs=all, maxfpr=0.1)",
	}
	alpha := Names{Point: Point{Alpha: 0.1}}
	for _, name := range recipeNames() {
		r, _, err := alpha.Parse(name)
		require.NoError(t, err, name)
		require.Equal(t, want[name], r[0].String(), name)
	}
	// "ce+kde" offers validation one candidate per weight λ.
	r, _, err = alpha.Parse("ce+kde")
	require.NoError(t, err)
	require.Len(t, r, len(kdeWeights))
	require.Equal(t, "1×ce + 3×kde(alpha=0.1, v0=0, v1=0)", r[len(r)-1].String())
	// The options add to the run's point.
	r, _, err = alpha.Parse("kde-plain:widen=3:tail")
	require.NoError(t, err)
	require.Equal(t, []Recipe{Plain(KDE{Config: kdequantile.Config{Alpha: 0.1, Tail: true, Widen: 3}})}, r)
	r, _, err = alpha.Parse("kde:pool=1024")
	require.NoError(t, err)
	require.Equal(t, "ce→kde(alpha=0.1, v0=0, v1=0) at lr×0.1, 1024 pooled negatives", r[0].String())
}

func TestParseRecipeErrors(t *testing.T) {
	for _, c := range []struct{ name, says string }{
		{"", "unknown recipe"},
		{"nope", "unknown recipe"},
		{"focal", "unknown recipe"},
		{"kde+wu", "already starts from cross-entropy"}, // the warm-up suffix is read once, on plain recipes
		{"sqhinge+wu+wu", "unknown recipe"},
		{"nope+wu", "unknown recipe"},
		{"aucm+wu", "without a warm-up"},
		{"nope:tail", "unknown recipe"},
		{"ce:tail", "takes no options"},
		{"hinge:pool=4", "unknown option"},
		{"kde-plain:lr=0.3", "unknown option"},
		{"kde:w=1", "unknown option"},
		{"kde:", "unknown option"},
		{"kde:lr=0.3:lr=1", "given twice"},
		{"kde:tail=1", "takes no value"},
		{"kde:pool", "needs a value"},
		{"kde:pool=0", "at least 1"},
		{"kde:pool=x", "invalid syntax"},
		{"kde:batch=1", "at least 2"},
		{"kde:pos=1", "below 1"},
		{"kde:lr=-1", "above 0"},
		{"kde:lr=NaN", "above 0"},
		{"ce+kde:w=Inf", "above 0"},
		{"kde-plain:widen=0", "above 0"},
		{"kde-plain:anneal:widen=2", "sets the widths itself"},
		{"kde-plain:widen=2:anneal", "sets the widths itself"},
		{"kde:anneal", "unknown option"},
		{"kde-plain:anneal=1", "takes no value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Names{Point: Point{Alpha: 0.1}, Warmup: 7}.Parse(c.name)
			require.ErrorIs(t, err, rocops.ErrConfig)
			require.ErrorContains(t, err, c.says)
		})
	}
}

// "+wu" gives a plain recipe its warm-up, refuses one on a recipe that starts from
// cross-entropy, and a KDE option out of the loss's range fails here, before training (ported
// from experiment's TestParseRun).
func TestParseRun(t *testing.T) {
	names := Names{Point: Point{Alpha: 0.1}, Warmup: 7}
	sq := Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}
	rs, wu, err := names.Parse("sqhinge+wu")
	require.NoError(t, err)
	require.Equal(t, 7, wu)
	require.Len(t, rs, 1)
	require.Equal(t, WithWarmup(7, sq), rs[0])
	require.True(t, rs[0][0].Warmup)
	require.Equal(t, 7, rs[0][0].Epochs)

	rs, wu, err = names.Parse("sqhinge")
	require.NoError(t, err)
	require.Zero(t, wu)
	require.Equal(t, Plain(sq), rs[0], "no warm-up without the suffix")

	_, _, err = names.Parse("kde+wu")
	require.ErrorContains(t, err, "already starts from cross-entropy")
	_, _, err = Names{Point: Point{Alpha: 0.1}}.Parse("kde:widen=1e308")
	require.ErrorContains(t, err, "kde:widen=1e308")
	_, _, err = Names{Point: Point{Alpha: 0.1}}.Parse("nosuch")
	require.Error(t, err)
	rs, _, err = Names{Point: Point{Alpha: 0.1}}.Parse("ce+kde")
	require.NoError(t, err)
	require.Len(t, rs, len(kdeWeights), "one candidate per weight λ")
	// A "+wu" name needs the warm-up's epochs.
	_, _, err = Names{Point: Point{Alpha: 0.1}}.Parse("sqhinge+wu")
	require.ErrorIs(t, err, rocops.ErrConfig)
}

func TestRunLabel(t *testing.T) {
	require.Equal(t, "sqhinge+wu(10)", Names{Warmup: 10}.Label("sqhinge+wu"))
	require.Equal(t, "kde", Names{}.Label("kde"))
	require.Equal(t, "kde", Names{Warmup: 10}.Label("kde"), "a name without the suffix has no warm-up")
}

// The reference's list of -losses names is the registry's, in its order, and every λ set
// that the README and docs/ write for "ce+kde" is kdeWeights.
func TestRecipeNamesInDocs(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("..", "docs", "reference.md"))
	require.NoError(t, err)
	lists := regexp.MustCompile("`-losses ([a-z+-]+(?:,[a-z+-]+)+)`").FindAllStringSubmatch(string(ref), -1)
	require.Len(t, lists, 1, "docs/reference.md lists the names once")
	require.Equal(t, recipeNames(), strings.Split(lists[0][1], ","))

	files, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	require.NoError(t, err)
	sets := 0
	for _, f := range append(files, filepath.Join("..", "README.md")) {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range regexp.MustCompile(`λ ∈ (\{[^}]*\})`).FindAllStringSubmatch(string(text), -1) {
			require.Equal(t, weightSet(), m[1], f)
			sets++
		}
	}
	require.Positive(t, sets)
}

// The registry's entries: distinct names, each option of an entry at most once, every option
// with a help line and, when it takes a value, an example value it accepts.
func TestRecipesRegistry(t *testing.T) {
	require.Len(t, Recipes(), len(recipeNames()))
	seen := map[string]bool{}
	for _, r := range Recipes() {
		require.False(t, seen[r.Name], r.Name)
		seen[r.Name] = true
		require.NotEmpty(t, r.Help, r.Name)
		keys := map[string]bool{}
		for _, o := range r.Options {
			require.False(t, keys[o.Key], "%s:%s", r.Name, o.Key)
			keys[o.Key] = true
			require.NotEmpty(t, o.Help, o.Key)
			require.Equal(t, o.Arg == "", o.Example == "", o.Key)
			name := r.Name + ":" + o.Key
			if o.Example != "" {
				name += "=" + o.Example
			}
			_, _, err := Names{Point: Point{Alpha: 0.1}}.Parse(name)
			require.NoError(t, err, name)
		}
	}
	require.Equal(t, "{0.1, 0.3, 1, 3}", weightSet()) // kdeWeights as written
}
