package experiment

import (
	"context"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// SetFit makes s train each candidate with fit in place of its recipe, for tests of the search
// itself that script the trainings.
func SetFit(s *Search, fit func(context.Context, Candidate, nn.Model, train.Config, *Split) (*train.History, error)) {
	s.fit = fit
}
