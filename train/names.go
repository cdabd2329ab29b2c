package train

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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
	// recipes returns the candidates the name stands for at the KDE loss's configuration
	// point with the options o; the options are parsed and checked one by one already.
	recipes func(point kdequantile.Config, o options) ([]Recipe, error)
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

// KDEWeights are the weights λ among which validation chooses for "ce+kde" without a "w"
// option.
var KDEWeights = []float64{0.1, 0.3, 1, 3}

// recipes is the registry: each name, with its help, options and recipes, lives here once.
var recipes = []RecipeName{
	{Name: "ce", Help: "cross-entropy",
		recipes: func(kdequantile.Config, options) ([]Recipe, error) {
			return []Recipe{Plain{Loss: CrossEntropy{}}}, nil
		}},
	{Name: "kde",
		Help: "cross-entropy, then KDE fine-tuning at a tenth of the learning rate," +
			" kept only when it improves validation",
		Options: []RecipeOption{optTail, optWiden, optPool, optLR, optBatch, optPos},
		recipes: func(point kdequantile.Config, o options) ([]Recipe, error) {
			f := KDERecipe(o.point(point))
			f.LearningRateScale, f.BatchSize, f.PositiveFraction = o["lr"], int(o["batch"]), o["pos"]
			f.NegativePool = int(o["pool"])
			return []Recipe{f}, nil
		}},
	{Name: "kde-plain", Help: "the KDE loss alone, trained from the start",
		Options: []RecipeOption{optTail, optWiden, optPool, optAnneal},
		recipes: func(point kdequantile.Config, o options) ([]Recipe, error) {
			pool := int(o["pool"])
			if _, anneal := o["anneal"]; anneal {
				if _, widen := o["widen"]; widen {
					return nil, fmt.Errorf("anneal sets the widths itself; leave out widen")
				}
				return []Recipe{Anneal{Point: o.point(point), NegativePool: pool}}, nil
			}
			return []Recipe{Plain{Loss: KDE{Config: o.point(point)}, NegativePool: pool}}, nil
		}},
	{Name: "ce+kde",
		Help: fmt.Sprintf("cross-entropy plus λ times the KDE loss from the start, λ ∈ %s chosen on validation"+
			" like the learning rate", weightSet()),
		Options: []RecipeOption{optTail, optWiden, optPool, optW},
		recipes: func(point kdequantile.Config, o options) ([]Recipe, error) {
			weights := KDEWeights
			if w, ok := o["w"]; ok {
				weights = []float64{w}
			}
			kde := KDE{Config: o.point(point)}
			rs := make([]Recipe, len(weights))
			for k, w := range weights {
				loss := Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: w, Loss: kde}}
				rs[k] = Plain{Loss: loss, NegativePool: int(o["pool"])}
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
// pairwise.ParseSurrogate reads it: the binary [Pairwise] loss, which [ForData] turns into the
// one-vs-rest or label-wise loss on multi-class or multi-label data, or with the option ovo the
// one-vs-one [MulticlassPairwise] loss, which ForData refuses on binary and multi-label data.
func pairwiseName(s pairwise.Surrogate, help string) RecipeName {
	return RecipeName{Name: s.String(), Help: help + " over all pairs, x = f_pos − f_neg",
		Options: []RecipeOption{optMaxFPR, optMinTPR, optOvO}, // optMaxFPR, optMinTPR: aucnames.go
		recipes: func(_ kdequantile.Config, o options) ([]Recipe, error) {
			if _, ovo := o["ovo"]; ovo { // a multi-class loss: ForData refuses it on other data
				cfg := partialConfig(s, o)
				cfg.OvO = true
				return []Recipe{Plain{Loss: MulticlassPairwise{Config: cfg}}}, nil
			}
			return []Recipe{Plain{Loss: Pairwise{Config: partialConfig(s, o)}}}, nil
		}}
}

// Recipes returns the registry of recipe names, in the order help lists them: what
// [ParseRecipe] reads, cmd/roctrain's -losses help lists and the README names.
func Recipes() []RecipeName { return slices.Clone(recipes) }

// RecipeNames lists the names [ParseRecipe] accepts, before their options: the names of
// [Recipes].
var RecipeNames = func() []string {
	names := make([]string, len(recipes))
	for k, r := range recipes {
		names[k] = r.Name
	}
	return names
}()

// weightSet writes KDEWeights as the set {0.1, 0.3, 1, 3}.
func weightSet() string { return numberSet(KDEWeights) }

// numberSet writes xs as the set {x1, x2, …}.
func numberSet(xs []float64) string {
	parts := make([]string, len(xs))
	for k, w := range xs {
		parts[k] = strconv.FormatFloat(w, 'g', -1, 64)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// ParseRecipe returns the recipes a name of [Recipes] stands for, such as "kde:lr=0.3:pool=1024"
// (a name, then options after colons): one recipe, or for "ce+kde" without a fixed weight one
// per weight in KDEWeights, among which the caller chooses on validation data as it chooses
// the learning rate. point is the KDE loss's configuration (a kdequantile.Config with Alpha or
// Recall set, and possibly its bandwidths, Tail or Widen, to which the options add); the
// other losses ignore it. A name or option it does not know, an option given twice or a bad
// value is an [ErrConfig] error naming it.
func ParseRecipe(name string, point kdequantile.Config) ([]Recipe, error) {
	entry, o, err := lookup(name)
	if err != nil {
		return nil, err
	}
	rs, err := entry.recipes(point, o)
	if err != nil {
		return nil, configError("recipe %q: %v", name, err)
	}
	return rs, nil
}

// SearchRates returns the learning rates a search of the recipe name (as [ParseRecipe] reads
// it) tries in place of the run's: the value of its entry's RateOption when given (one
// rate), else its entry's LearningRates; nil when the name takes the run's. For "aucm" that
// is [PESGRates], for "aucm:lr=0.3" the one rate 0.3, for every other name of [Recipes] nil.
// A name ParseRecipe refuses for its spelling is the same [ErrConfig] error here.
func SearchRates(name string) ([]float64, error) {
	entry, o, err := lookup(name)
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
		return RecipeName{}, nil, configError("unknown recipe %q (want one of %s)", name, strings.Join(RecipeNames, ", "))
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

// point adds the KDE options tail and widen to the configuration point.
func (o options) point(point kdequantile.Config) kdequantile.Config {
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
