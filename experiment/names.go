package experiment

import (
	"fmt"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// WarmupSuffix ends a run name whose plain loss trains after a cross-entropy warm-up
// ("sqhinge+wu").
const WarmupSuffix = "+wu"

// ParseRun reads a run name: a recipe name of train's registry (train.ParseRecipe, at the KDE
// loss's configuration point), optionally with [WarmupSuffix], which gives each of its plain
// recipes warmup epochs of cross-entropy first. It returns the recipes, the run's warm-up
// (warmup with the suffix, else 0) and, before any training, the error Fit would return for
// a recipe's own settings (train.CheckRecipe: a KDE option out of the loss's range). A
// warm-up of a recipe that starts from cross-entropy already (such as kde) is an error.
func ParseRun(name string, warmup int, point kdequantile.Config) ([]train.Recipe, int, error) {
	base, wu := strings.CutSuffix(name, WarmupSuffix)
	recipes, err := train.ParseRecipe(base, point)
	if err != nil {
		return nil, 0, err
	}
	if !wu {
		warmup = 0
	}
	for k, r := range recipes {
		if wu {
			plain, ok := r.(train.Plain)
			if !ok {
				return nil, 0, fmt.Errorf("%q already starts from cross-entropy; a warm-up applies to the plain losses (such as kde-plain+wu)", name)
			}
			plain.WarmupEpochs = warmup
			recipes[k] = plain
		}
		if err := train.CheckRecipe(recipes[k]); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", name, err)
		}
	}
	return recipes, warmup, nil
}

// RunLabel is a run's one name in tables, legends and JSON: its name, with the warm-up's
// epochs for a run with one ("sqhinge+wu(10)").
func RunLabel(name string, warmup int) string {
	if warmup > 0 {
		return fmt.Sprintf("%s(%d)", name, warmup)
	}
	return name
}

// ForData returns a run's recipes as they train on ds's task, each by train.ForData: the
// recipes themselves on binary data; on multi-class or multi-label data cross-entropy as the
// data's and a pairwise loss one-vs-rest or label-wise. The first recipe that does not fit
// the task (a KDE recipe on data of classes, a one-vs-one loss on other data) is the error.
func ForData(recipes []train.Recipe, ds *data.Dataset) ([]train.Recipe, error) {
	out := make([]train.Recipe, len(recipes))
	for k, r := range recipes {
		var err error
		if out[k], err = train.ForData(r, ds); err != nil {
			return nil, err
		}
	}
	return out, nil
}
