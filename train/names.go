package train

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rocops/rocops/internal/runname"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// A RecipeName is one entry of the registry of recipe names, [Recipes]: a name as
// cmd/roctrain's -losses, cmd/results and docs/results.md spell it, the options it
// takes after colons, and the recipes it stands for.
type RecipeName struct {
	Name    string         // such as "kde"
	Help    string         // one line saying what it trains
	Options []RecipeOption // the options it takes, in the order help lists them
	// LearningRates, when not nil, are the learning rates a search of the name tries in place
	// of the run's (such as roctrain's -lr, which are Adam's): those of a recipe with an
	// optimiser of its own scale, such as aucm's PESG ([PESGRates]). nil = the run's.
	LearningRates []float64
	// RateOption, when not "", is the key of the option that fixes the one learning rate a
	// search of the name tries, in place of LearningRates and the run's: "lr" for aucm.
	RateOption string
	// recipes returns the candidates the name stands for in the run n with the options o; the
	// options are parsed and checked one by one already.
	recipes func(n Names, o options) ([]Recipe, error)
}

// A RecipeOption is an option of a recipe name, written after a colon: "tail" or
// "pool=1024".
type RecipeOption struct {
	Key     string // such as "pool"
	Arg     string // the placeholder of its value in help, such as "n"; "" = it takes none
	Help    string // one line saying what it sets
	Example string // a valid value, such as "1024"; "" when it takes none
	parse   func(string) (float64, error)
}

// Usage is the option as help writes it: "tail" or "pool=n".
func (o RecipeOption) Usage() string {
	if o.Arg == "" {
		return o.Key
	}
	return o.Key + "=" + o.Arg
}

// The options, each defined once; the entries of recipes list those they take.
var (
	optTail = RecipeOption{Key: "tail",
		Help: "the KDE loss's upper bound with a linear tail, which keeps a gradient for positives far below τ"}
	optWiden = RecipeOption{Key: "widen", Arg: "w", Example: "2", parse: positive,
		Help: "the KDE bandwidths w times those of the batch rule"}
	optPool = RecipeOption{Key: "pool", Arg: "n", Example: "1024", parse: atLeast(1, "negative"),
		Help: "n more negatives in every batch of the KDE loss (for kde: of its fine-tuning)"}
	optAnneal = RecipeOption{Key: "anneal",
		Help: "bandwidths annealed over widths 4, 2 and 1 of the rule's, one phase each (not with widen)"}
	optLR = RecipeOption{Key: "lr", Arg: "s", Example: "0.3", parse: positive,
		Help: "the fine-tuning at s times the first phase's learning rate (default 0.1)"}
	optBatch = RecipeOption{Key: "batch", Arg: "n", Example: "1024", parse: atLeast(2, "rows"),
		Help: "the fine-tuning in batches of n rows"}
	optPos = RecipeOption{Key: "pos", Arg: "p", Example: "0.5", parse: fraction,
		Help: "the fine-tuning with a share p of positives in every batch"}
	optW = RecipeOption{Key: "w", Arg: "λ", Example: "1", parse: positive,
		Help: "one fixed weight λ instead of the choice on validation"}
	optOvO = RecipeOption{Key: "ovo",
		Help: "on multi-class data, one-vs-one: the mean over ordered pairs of classes (default one-vs-rest); not for binary or multi-label data"}
)

// kdeWeights are the weights λ among which validation chooses for "ce+kde" without a "w"
// option.
var kdeWeights = []float64{0.1, 0.3, 1, 3}

// recipes is the registry: each name, with its help, options and recipes, lives here once.
var recipes = []RecipeName{
	{Name: "ce", Help: "cross-entropy",
		recipes: func(Names, options) ([]Recipe, error) {
			return []Recipe{Plain(CrossEntropy{})}, nil
		}},
	{Name: "kde",
		Help: "cross-entropy, then KDE fine-tuning at a tenth of the learning rate," +
			" kept only when it improves validation",
		Options: []RecipeOption{optTail, optWiden, optPool, optLR, optBatch, optPos},
		recipes: func(n Names, o options) ([]Recipe, error) {
			return []Recipe{FineTune(Phase{Loss: KDE{Config: o.point(n.Point)}, LearningRateScale: o["lr"],
				BatchSize: int(o["batch"]), PositiveFraction: o["pos"], NegativePool: int(o["pool"])})}, nil
		}},
	{Name: "kde-plain", Help: "the KDE loss alone, trained from the start",
		Options: []RecipeOption{optTail, optWiden, optPool, optAnneal},
		recipes: func(n Names, o options) ([]Recipe, error) {
			pool := int(o["pool"])
			if _, anneal := o["anneal"]; anneal {
				if _, widen := o["widen"]; widen {
					return nil, fmt.Errorf("anneal sets the widths itself; leave out widen")
				}
				r := Anneal(o.point(n.Point), nil, n.Epochs)
				for k := range r {
					r[k].NegativePool = pool
				}
				return []Recipe{r}, nil
			}
			return []Recipe{{{Loss: KDE{Config: o.point(n.Point)}, NegativePool: pool}}}, nil
		}},
	{Name: "ce+kde",
		Help: fmt.Sprintf("cross-entropy plus λ times the KDE loss from the start, λ ∈ %s chosen on validation"+
			" like the learning rate", weightSet()),
		Options: []RecipeOption{optTail, optWiden, optPool, optW},
		recipes: func(n Names, o options) ([]Recipe, error) {
			weights := kdeWeights
			if w, ok := o["w"]; ok {
				weights = []float64{w}
			}
			kde := KDE{Config: o.point(n.Point)}
			rs := make([]Recipe, len(weights))
			for k, w := range weights {
				loss := Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: w, Loss: kde}}
				rs[k] = Recipe{{Loss: loss, NegativePool: int(o["pool"])}}
			}
			return rs, nil
		}},
	pairwiseName(pairwise.Logistic, "the pairwise logistic surrogate log(1 + e^(−x))"),
	pairwiseName(pairwise.Exponential, "the pairwise exponential surrogate e^(−x)"),
	pairwiseName(pairwise.Square, "the pairwise square surrogate (1 − x)²"),
	pairwiseName(pairwise.Hinge, "the pairwise hinge surrogate (1 − x)₊"),
	pairwiseName(pairwise.SquaredHinge, "the pairwise squared hinge surrogate (1 − x)₊²"),
	aucmName(), paucName(), // aucnames.go
}

// pairwiseName is the entry of a pairwise surrogate over all pairs with margin 1, named as
// pairwise.ParseSurrogate reads it: the [Pairwise] loss, one-vs-rest or label-wise on k classes
// or labels, or with the option ovo one-vs-one, which its Check refuses on binary and
// multi-label data.
func pairwiseName(s pairwise.Surrogate, help string) RecipeName {
	return RecipeName{Name: s.String(), Help: help + " over all pairs, x = f_pos − f_neg",
		Options: []RecipeOption{optMaxFPR, optMinTPR, optOvO}, // optMaxFPR, optMinTPR: aucnames.go
		recipes: func(_ Names, o options) ([]Recipe, error) {
			cfg := partialConfig(s, o)
			_, cfg.OvO = o["ovo"]
			return []Recipe{Plain(Pairwise{Config: cfg})}, nil
		}}
}

// Recipes returns the registry of recipe names, in the order help lists them: what
// [Names.Parse] reads, cmd/roctrain's -losses help lists and docs/reference.md names.
func Recipes() []RecipeName { return slices.Clone(recipes) }

// recipeNames lists the names the registry knows, before their options.
func recipeNames() []string {
	names := make([]string, len(recipes))
	for k, r := range recipes {
		names[k] = r.Name
	}
	return names
}

// weightSet writes kdeWeights as the set {0.1, 0.3, 1, 3}.
func weightSet() string { return numberSet(kdeWeights) }

// numberSet writes xs as the set {x1, x2, …}.
func numberSet(xs []float64) string {
	parts := make([]string, len(xs))
	for k, w := range xs {
		parts[k] = strconv.FormatFloat(w, 'g', -1, 64)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Point is the operating point a run aims at: a false-positive rate α, or with Recall set a
// true-positive rate (the mirrored KDE loss, kdequantile.Config.Recall). The KDE recipes train
// at it and "pauc" cuts its partial AUC at α; the other names ignore it.
type Point struct {
	Alpha  float64 // the false-positive rate α, in (0, 1); 0 when Recall is set
	Recall float64 // the true-positive rate, in (0, 1); 0 = off
}

// kde returns the KDE loss's configuration at p.
func (p Point) kde() kdequantile.Config { return kdequantile.Config{Alpha: p.Alpha, Recall: p.Recall} }

// Names reads the recipe names of one run, the one grammar of cmd/roctrain's -losses, cmd/results
// and cmd/corrective: a name of [Recipes], options after colons ("kde:lr=0.3:pool=1024"), and
// the suffix "+wu" on a name of one plain phase ("sqhinge+wu", "hinge+wu:maxfpr=0.1" is written
// "hinge:maxfpr=0.1+wu"). Its fields are what the names need besides themselves.
type Names struct {
	// Point is the run's operating point, at which the KDE recipes train.
	Point Point
	// Warmup is the number of cross-entropy epochs of a "+wu" name (at least 1 for one).
	Warmup int
	// Epochs is the number of epochs an annealed recipe ("kde-plain:anneal") divides among its
	// phases; 0 = the trainer's default of 20.
	Epochs int
}

// Parse returns the recipes a run name stands for, such as "kde:lr=0.3:pool=1024" or
// "sqhinge+wu": one recipe, or for "ce+kde" without a fixed weight one per weight in
// kdeWeights, among which the caller chooses on validation data as it chooses the learning
// rate; and the warm-up epochs of the name (n.Warmup with the suffix "+wu", else 0). A name or
// option the registry does not know, an option given twice, a bad value, a warm-up of a recipe
// that is not one plain phase (kde starts from cross-entropy already), or a recipe whose own
// settings Recipe.Check refuses on binary data of its point is a rocops.ErrConfig error naming
// it. Whether a recipe fits k classes or labels is Recipe.Check's on that task.
func (n Names) Parse(name string) ([]Recipe, int, error) {
	base, wu := strings.CutSuffix(name, runname.WarmupSuffix)
	entry, o, err := lookup(base)
	if err != nil {
		return nil, 0, err
	}
	rs, err := entry.recipes(n, o)
	if err != nil {
		return nil, 0, configError("recipe %q: %v", name, err)
	}
	warmup := 0
	if wu {
		if n.Warmup < 1 {
			return nil, 0, configError("recipe %q: a warm-up of %d epochs", name, n.Warmup)
		}
		warmup = n.Warmup
	}
	for k, r := range rs {
		if wu {
			if len(r) != 1 || r[0].Warmup {
				return nil, 0, configError("%q already starts from cross-entropy; a warm-up applies to the plain losses (such as kde-plain+wu)", name)
			}
			if _, ok := r[0].Loss.(AUCM); ok {
				return nil, 0, configError("%q: AUCM trains with PESG from the start, without a warm-up", name)
			}
			rs[k] = append(Recipe{{Epochs: warmup, Warmup: true}}, r...)
		}
		if err := rs[k].checkSettings(); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", name, err)
		}
	}
	return rs, warmup, nil
}

// Label is a run's one name in tables, legends and JSON: its name, with the warm-up's epochs
// for a run with one ("sqhinge+wu(10)").
func (n Names) Label(name string) string {
	if strings.HasSuffix(name, runname.WarmupSuffix) && n.Warmup > 0 {
		return fmt.Sprintf("%s(%d)", name, n.Warmup)
	}
	return name
}

// SearchRates returns the learning rates a search of the run name (as [Names.Parse] reads it)
// tries in place of the run's: the value of its entry's RateOption when given (one rate), else
// its entry's LearningRates; nil when the name takes the run's. For "aucm" that is [PESGRates],
// for "aucm:lr=0.3" the one rate 0.3, for every other name of [Recipes] nil. A name Parse
// refuses for its spelling is the same rocops.ErrConfig error here.
func SearchRates(name string) ([]float64, error) {
	entry, o, err := lookup(strings.TrimSuffix(name, runname.WarmupSuffix))
	if err != nil {
		return nil, err
	}
	if lr, ok := o[entry.RateOption]; ok && entry.RateOption != "" {
		return []float64{lr}, nil
	}
	return slices.Clone(entry.LearningRates), nil
}

// lookup finds the registry entry of name and parses its options.
func lookup(name string) (RecipeName, options, error) {
	base, opts, hasOpts := strings.Cut(name, ":")
	k := slices.IndexFunc(recipes, func(r RecipeName) bool { return r.Name == base })
	if k < 0 {
		return RecipeName{}, nil, configError("unknown recipe %q (want one of %s)", name, strings.Join(recipeNames(), ", "))
	}
	entry := recipes[k]
	o := options{}
	if hasOpts {
		var err error
		if o, err = entry.parseOptions(opts); err != nil {
			return RecipeName{}, nil, err
		}
	}
	return entry, o, nil
}

// options are the parsed options of a recipe name by key: the value, 1 for an option
// without one.
type options map[string]float64

// point returns the KDE loss's configuration at the run's point with the options tail and
// widen.
func (o options) point(p Point) kdequantile.Config {
	point := p.kde()
	_, tail := o["tail"]
	point.Tail = point.Tail || tail
	if w, ok := o["widen"]; ok {
		point.Widen = w
	}
	return point
}

// parseOptions reads the colon-separated options of a name of entry.
func (entry RecipeName) parseOptions(opts string) (options, error) {
	base := entry.Name
	keys := make([]string, len(entry.Options))
	for k, opt := range entry.Options {
		keys[k] = opt.Key
	}
	o := options{}
	for _, given := range strings.Split(opts, ":") {
		key, val, hasVal := strings.Cut(given, "=")
		k := slices.Index(keys, key)
		switch {
		case len(keys) == 0:
			return nil, configError("recipe %q takes no options, got %q", base, given)
		case k < 0:
			return nil, configError("recipe %q: unknown option %q (want %s)", base, given, strings.Join(keys, ", "))
		}
		_, seen := o[key]
		opt := entry.Options[k]
		switch {
		case seen:
			return nil, configError("recipe %q: option %q given twice", base, key)
		case opt.parse == nil && hasVal:
			return nil, configError("recipe %q: option %s takes no value, got %q", base, key, given)
		case opt.parse != nil && !hasVal:
			return nil, configError("recipe %q: option %q needs a value (%s=…)", base, key, key)
		case opt.parse == nil:
			o[key] = 1
			continue
		}
		v, err := opt.parse(val)
		if err != nil {
			return nil, configError("recipe %q: option %q: %v", base, given, err)
		}
		o[key] = v
	}
	return o, nil
}

// positive parses a finite number above 0.
func positive(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a finite number above 0, got %v", v)
	}
	return v, nil
}

// fraction parses a number in (0, 1).
func fraction(s string) (float64, error) {
	v, err := positive(s)
	if err == nil && v >= 1 {
		err = fmt.Errorf("want a fraction below 1")
	}
	return v, err
}

// atLeast returns the parser of an integer of at least lo, counting what.
func atLeast(lo int, what string) func(string) (float64, error) {
	return func(s string) (float64, error) {
		n, err := strconv.Atoi(s)
		if err == nil && n < lo {
			err = fmt.Errorf("want at least %d %s", lo, what)
		}
		return float64(n), err
	}
}
