package main

import (
	"fmt"
	"strings"

	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// recipeNames lists the names -losses accepts, before an optional "+wu".
var recipeNames = []string{"ce", "kde", "kde-plain", "ce+kde", "logistic", "exp", "square", "hinge", "sqhinge"}

// kdeWeights are the weights λ that "ce+kde" tries.
var kdeWeights = []float64{0.1, 0.3, 1, 3}

// parseRecipe returns the recipes of a -losses name, the candidates among which validation
// chooses (one, but for "ce+kde"). point is the operating point of the KDE loss (a
// kdequantile.Config with Alpha or Recall set); the other losses ignore it.
//
//   - "ce" is cross-entropy;
//   - "kde" is train.KDERecipe(point): cross-entropy, then KDE fine-tuning kept only when it
//     helps;
//   - "kde-plain" is the KDE loss alone, trained from the start;
//   - "ce+kde" is cross-entropy plus λ times the KDE loss from the start (train.Weighted), with
//     λ chosen on validation among kdeWeights;
//   - "logistic", "exp", "square", "hinge" and "sqhinge" are the pairwise surrogates over all
//     pairs with margin 1.
func parseRecipe(name string, point kdequantile.Config) ([]train.Recipe, error) {
	switch name {
	case "ce":
		return []train.Recipe{train.Plain{Loss: train.CrossEntropy{}}}, nil
	case "kde":
		return []train.Recipe{train.KDERecipe(point)}, nil
	case "kde-plain":
		return []train.Recipe{train.Plain{Loss: train.KDE{Config: point}}}, nil
	case "ce+kde":
		rs := make([]train.Recipe, len(kdeWeights))
		for k, w := range kdeWeights {
			rs[k] = train.Plain{Loss: train.Weighted{{Weight: 1, Loss: train.CrossEntropy{}}, {Weight: w, Loss: train.KDE{Config: point}}}}
		}
		return rs, nil
	}
	s, err := pairwise.ParseSurrogate(name)
	if err != nil {
		return nil, fmt.Errorf("unknown loss %q (want one of %s)", name, strings.Join(recipeNames, ", "))
	}
	return []train.Recipe{train.Plain{Loss: train.Pairwise{Config: pairwise.Config{Surrogate: s}}}}, nil
}
