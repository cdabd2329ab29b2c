package main

import (
	"fmt"
	"strings"

	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// recipeNames lists the names -losses accepts, before an optional "+wu".
var recipeNames = []string{"ce", "kde", "kde-plain", "logistic", "exp", "square", "hinge", "sqhinge"}

// parseRecipe returns the recipe of a -losses name. point is the operating point of the KDE
// loss (a kdequantile.Config with Alpha or Recall set); the other losses ignore it.
//
//   - "ce" is cross-entropy;
//   - "kde" is train.KDERecipe(point): cross-entropy, then KDE fine-tuning kept only when it
//     helps;
//   - "kde-plain" is the KDE loss alone, trained from the start;
//   - "logistic", "exp", "square", "hinge" and "sqhinge" are the pairwise surrogates over all
//     pairs with margin 1.
func parseRecipe(name string, point kdequantile.Config) (train.Recipe, error) {
	switch name {
	case "ce":
		return train.Plain{Loss: train.CrossEntropy{}}, nil
	case "kde":
		return train.KDERecipe(point), nil
	case "kde-plain":
		return train.Plain{Loss: train.KDE{Config: point}}, nil
	}
	s, err := pairwise.ParseSurrogate(name)
	if err != nil {
		return nil, fmt.Errorf("unknown loss %q (want one of %s)", name, strings.Join(recipeNames, ", "))
	}
	return train.Plain{Loss: train.Pairwise{Config: pairwise.Config{Surrogate: s}}}, nil
}
