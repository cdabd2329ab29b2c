package train

import (
	"fmt"
	"slices"

	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

// The registry's entries and options of the AUC-M and partial-AUC names: "aucm", "pauc", and
// the maxfpr and mintpr options of every pairwise name.

var (
	optMaxFPR = RecipeOption{Key: "maxfpr", Arg: "β", Example: "0.1", parse: upToOne,
		Help: "the one-way partial AUC up to false-positive rate β: only the top ⌈β·n₋⌉ negatives of a batch"}
	optMinTPR = RecipeOption{Key: "mintpr", Arg: "γ", Example: "0.5", parse: fraction,
		Help: "the two-way partial AUC: only the bottom ⌈(1−γ)·n₊⌉ positives of a batch as well"}
	optPESGRate = RecipeOption{Key: "lr", Arg: "η", Example: "0.1", parse: positive,
		Help: "PESG's one learning rate η, in place of the choice among " + numberSet(PESGRates) + " on validation"}
	optMargin = RecipeOption{Key: "margin", Arg: "m", Example: "1", parse: positive,
		Help: "the AUC-M margin (default 1)"}
)

// PESGRates are the learning rates a search of "aucm" tries in place of the run's (see
// [RecipeName].LearningRates): 0.03, LibAUC's default 0.1, and 0.3, the grid docs/results.md
// ("Against Deep-AUC") chooses PESG's rate from on validation. PESG steps at this scale, far
// above the rates of Adam (0.001 to 0.01 in cmd/roctrain), at which AUC-M barely trains.
var PESGRates = []float64{0.03, 0.1, 0.3}

// aucmName is "aucm": [AUCM], AUC-M trained with PESG at LibAUC's defaults, its learning rate
// searched among PESGRates unless the option lr fixes it.
func aucmName() RecipeName {
	return RecipeName{Name: "aucm",
		Help: "AUC-M on σ(score) trained with PESG at LibAUC's defaults (Deep-AUC, Yuan et al. 2021)," +
			" PESG's learning rate chosen on validation among " + numberSet(PESGRates) + " in place of the run's",
		Options:       []RecipeOption{optPESGRate, optMargin},
		LearningRates: slices.Clone(PESGRates), RateOption: "lr",
		recipes: func(_ Names, o options) ([]Recipe, error) {
			set := optim.DefaultPESG()
			set.LearningRate = o["lr"]
			return []Recipe{Plain(AUCM{Config: aucm.Config{Margin: o["margin"]}, PESG: &set})}, nil
		}}
}

// paucName is "pauc": the squared hinge over the one-way partial AUC up to the run's α.
func paucName() RecipeName {
	return RecipeName{Name: "pauc",
		Help:    "the pairwise squared hinge over the partial AUC up to false-positive rate α (MaxFPR = α)",
		Options: []RecipeOption{optMinTPR},
		recipes: func(n Names, o options) ([]Recipe, error) {
			if !(n.Point.Alpha > 0 && n.Point.Alpha < 1) {
				return nil, fmt.Errorf("needs the run's false-positive rate α, got %v", n.Point.Alpha)
			}
			cfg := pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: n.Point.Alpha, MinTPR: o["mintpr"]}
			return []Recipe{Plain(Pairwise{Config: cfg})}, nil
		}}
}

// partialConfig is the pairwise configuration of surrogate s with the options maxfpr and
// mintpr of o (absent = 0, off).
func partialConfig(s pairwise.Surrogate, o options) pairwise.Config {
	return pairwise.Config{Surrogate: s, MaxFPR: o["maxfpr"], MinTPR: o["mintpr"]}
}

// upToOne parses a number in (0, 1].
func upToOne(s string) (float64, error) {
	v, err := positive(s)
	if err == nil && v > 1 {
		err = fmt.Errorf("want a rate of at most 1")
	}
	return v, err
}
