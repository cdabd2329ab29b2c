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

// RecipeNames lists the names [ParseRecipe] accepts, before their options.
var RecipeNames = []string{"ce", "kde", "kde-plain", "ce+kde", "logistic", "exp", "square", "hinge", "sqhinge"}

// KDEWeights are the weights λ among which validation chooses for "ce+kde" without a "w"
// option.
var KDEWeights = []float64{0.1, 0.3, 1, 3}

// ParseRecipe returns the recipes a name stands for, as cmd/roctrain's -losses and
// docs/results.md spell them: one recipe, or for "ce+kde" without a fixed weight one per
// weight in KDEWeights, among which the caller chooses on validation data as it chooses the
// learning rate. point is the KDE loss's configuration (a kdequantile.Config with Alpha or
// Recall set, and possibly its bandwidths, Tail or Widen, to which the options below add);
// the other losses ignore it.
//
//   - "ce" is cross-entropy ([Plain]);
//   - "kde" is [KDERecipe](point): cross-entropy, then KDE fine-tuning kept only when it
//     helps;
//   - "kde-plain" is the KDE loss alone, trained from the start;
//   - "ce+kde" is cross-entropy plus λ times the KDE loss from the start ([Weighted]);
//   - "logistic", "exp", "square", "hinge" and "sqhinge" are the pairwise surrogates over all
//     pairs with margin 1.
//
// The KDE names take options, each after a colon, such as "kde:lr=0.3:pool=1024":
//
//   - tail: kdequantile.Config.Tail, the upper bound (all three);
//   - widen=w: kdequantile.Config.Widen (all three);
//   - anneal: the [Anneal] of the plain loss over widths 4, 2 and 1 ("kde-plain" only, not
//     with widen);
//   - pool=n: Config.NegativePool, n more negatives per batch of the KDE loss (all three; for
//     "kde" the fine-tuning phase only, as FineTune.NegativePool);
//   - lr=s, batch=n, pos=p: FineTune's LearningRateScale, BatchSize and PositiveFraction
//     ("kde" only);
//   - w=λ: the one weight λ of "ce+kde".
//
// A name or option it does not know is an [ErrConfig] error naming it.
func ParseRecipe(name string, point kdequantile.Config) ([]Recipe, error) {
	base, opts, hasOpts := strings.Cut(name, ":")
	if !slices.Contains(RecipeNames, base) {
		return nil, configError("unknown recipe %q (want one of %s)", name, strings.Join(RecipeNames, ", "))
	}
	var o recipeOptions
	if hasOpts {
		var err error
		if o, err = parseOptions(base, opts); err != nil {
			return nil, err
		}
	}
	point.Tail = point.Tail || o.tail
	if o.widen != 0 {
		point.Widen = o.widen
	}
	kde := KDE{Config: point}
	switch base {
	case "ce":
		return []Recipe{Plain{Loss: CrossEntropy{}}}, nil
	case "kde":
		f := KDERecipe(point)
		f.LearningRateScale, f.BatchSize, f.PositiveFraction, f.NegativePool = o.lr, o.batch, o.pos, o.pool
		return []Recipe{f}, nil
	case "kde-plain":
		if o.anneal {
			return []Recipe{Anneal{Point: point, NegativePool: o.pool}}, nil
		}
		return []Recipe{Plain{Loss: kde, NegativePool: o.pool}}, nil
	case "ce+kde":
		weights := KDEWeights
		if o.w != 0 {
			weights = []float64{o.w}
		}
		rs := make([]Recipe, len(weights))
		for k, w := range weights {
			rs[k] = Plain{Loss: Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: w, Loss: kde}}, NegativePool: o.pool}
		}
		return rs, nil
	}
	s, err := pairwise.ParseSurrogate(base)
	if err != nil {
		// Not reached while RecipeNames lists only pairwise's surrogates (TestParseRecipe).
		return nil, configError("recipe %q: %v", name, err)
	}
	return []Recipe{Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: s}}}}, nil
}

// recipeOptions are the options of a KDE recipe name; zero values are the defaults.
type recipeOptions struct {
	tail, anneal      bool
	widen, lr, pos, w float64
	batch, pool       int
}

// parseOptions reads the colon-separated options of a recipe name with base name base.
func parseOptions(base, opts string) (recipeOptions, error) {
	var o recipeOptions
	allowed := map[string][]string{
		"kde":       {"tail", "widen", "pool", "lr", "batch", "pos"},
		"kde-plain": {"tail", "widen", "pool", "anneal"},
		"ce+kde":    {"tail", "widen", "pool", "w"},
	}[base]
	seen := map[string]bool{}
	for _, opt := range strings.Split(opts, ":") {
		key, val, hasVal := strings.Cut(opt, "=")
		flag := key == "tail" || key == "anneal" // the options without a value
		switch {
		case allowed == nil:
			return o, configError("recipe %q takes no options, got %q", base, opt)
		case !slices.Contains(allowed, key):
			return o, configError("recipe %q: unknown option %q (want %s)", base, opt, strings.Join(allowed, ", "))
		case seen[key]:
			return o, configError("recipe %q: option %q given twice", base, key)
		case flag && hasVal:
			return o, configError("recipe %q: option %s takes no value, got %q", base, key, opt)
		case !flag && !hasVal:
			return o, configError("recipe %q: option %q needs a value (%s=…)", base, key, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "tail":
			o.tail = true
		case "anneal":
			if o.anneal = true; seen["widen"] {
				err = fmt.Errorf("anneal sets the widths itself; leave out widen")
			}
		case "widen":
			if o.widen, err = positive(val); err == nil && seen["anneal"] {
				err = fmt.Errorf("anneal sets the widths itself; leave out widen")
			}
		case "lr":
			o.lr, err = positive(val)
		case "w":
			o.w, err = positive(val)
		case "pos":
			if o.pos, err = positive(val); err == nil && o.pos >= 1 {
				err = fmt.Errorf("want a fraction below 1")
			}
		case "batch":
			if o.batch, err = strconv.Atoi(val); err == nil && o.batch < 2 {
				err = fmt.Errorf("want at least 2 rows")
			}
		case "pool":
			if o.pool, err = strconv.Atoi(val); err == nil && o.pool < 1 {
				err = fmt.Errorf("want at least 1 negative")
			}
		}
		if err != nil {
			return o, configError("recipe %q: option %q: %v", base, opt, err)
		}
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
