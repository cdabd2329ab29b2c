package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
	"github.com/rocops/rocops/train"
)

// errNoCandidate reports a search with nothing to try: no recipe or no learning rate.
var errNoCandidate = errors.New("experiment: a search needs at least one recipe and one learning rate")

// Search trains every candidate, each recipe of Recipes at each learning rate of
// LearningRates, on a split's training part and keeps the candidate whose best validation
// epoch scores highest under Config.Metric (the first such candidate on ties). Every
// candidate starts from the same initial weights (Model with the split's seed) and sees the
// same batches (Config.Seed is the split's seed), so the candidates differ only in what is
// searched.
//
// A candidate whose training fails part-way still competes with the weights of its best
// epoch, which the trainer restores; one that finishes no epoch is skipped. Its error reaches
// Hooks.Done and [Best.Failed]. A configuration error (rocops.ErrConfig) or a cancelled
// context stops the search at once.
type Search struct {
	// Name names the search in the reports, such as a -losses entry of roctrain.
	Name string
	// Recipes are the trainings searched over; several, such as the weights λ of
	// roctrain's "ce+kde", are chosen among on validation as the learning rate is.
	Recipes []train.Recipe
	// LearningRates are the learning rates tried with every recipe; train.SearchRates gives
	// those a recipe name searches in place of the run's (for aucm, PESG's train.PESGRates).
	LearningRates []float64
	// Model is every candidate's model, an MLP (a linear scorer without Hidden layers); its In
	// and Seed are set from the split (its columns and its seed).
	Model nn.MLPConfig
	// Init, when not nil, builds every candidate's initial model for the split in place of
	// Model (roctrain's -init, -freeze and -adapter: a saved model, a frozen body, adapters). It
	// must return a new model at each call, with the same weights for the same split.
	Init func(sp *Split) (nn.Model, error)
	// Config holds the trainer's settings. LearningRate is the candidate's, Seed and the Seed
	// of a non-nil Diagnose are the split's; Loss belongs to the recipes and must be left nil.
	Config train.Config
	// Hooks observe the candidates.
	Hooks Hooks
	// fit, when set (by the package's tests), trains a candidate in place of its recipe.
	fit func(ctx context.Context, c Candidate, m nn.Model, cfg train.Config, sp *Split) (*train.History, error)
}

// Candidate is one training of a search.
type Candidate struct {
	// Index counts the candidates from 0, learning rates inner: recipe k at learning rate l
	// is candidate k·len(LearningRates) + l.
	Index        int
	Recipe       train.Recipe
	LearningRate float64
}

// Hooks observe a search; a nil field is not called. They are called in order: for every
// candidate Start, the trainer's own hooks during training, then Done.
type Hooks struct {
	// Start is called before the candidate trains, with its freshly initialised model; the
	// trainer hooks it returns run after Config.Hooks during that training (so that they can
	// measure the model).
	Start func(c Candidate, m nn.Model) []train.Hook
	// Done is called after the candidate trained, with its History (nil when training could
	// not start; Best < 0 when no epoch finished) and its error, nil on success. Errors name the
	// candidate ("learning rate 0.01: …", with the recipe first when the search has several).
	// It is not called for a candidate whose error stops the search (a configuration error, a
	// cancelled context): Run returns that error as it is.
	Done func(c Candidate, h *train.History, err error)
}

// Best is the candidate a search keeps.
type Best struct {
	Candidate
	// Model holds the weights of the candidate's best validation epoch, and History its
	// training.
	Model   nn.Model
	History *train.History
	// PESG is the optimiser's state at the end of the candidate's training (its last step, not
	// its best epoch: see train.AUCM) when its recipe is a train.AUCM, nil for other recipes.
	// The search gives every AUCM candidate a State of its own, so that a State the recipe
	// holds receives nothing.
	PESG *optim.PESGState
	// Failed joins the errors of the candidates that failed, kept or not; nil when none did.
	Failed error
}

// Epoch is the 1-based index of the kept epoch, warm-up epochs included.
func (b *Best) Epoch() int { return b.History.Epochs[b.History.Best].Index }

// Run searches on the split sp. It returns the best candidate, or, when no candidate
// finished an epoch, the candidates' errors joined.
func (s *Search) Run(ctx context.Context, sp *Split) (*Best, error) {
	if len(s.Recipes) == 0 || len(s.LearningRates) == 0 {
		return nil, fmt.Errorf("%w (%q)", errNoCandidate, s.Name)
	}
	var (
		best      *Best
		bestScore = math.Inf(-1)
		errs      []error
	)
	for k, recipe := range s.Recipes {
		for l, lr := range s.LearningRates {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c := Candidate{Index: k*len(s.LearningRates) + l, Recipe: recipe, LearningRate: lr}
			m, h, st, err := s.train(ctx, sp, c)
			stop := err != nil && (errors.Is(err, rocops.ErrConfig) || ctx.Err() != nil)
			if err != nil && !stop {
				what := fmt.Sprintf("learning rate %g", lr)
				if len(s.Recipes) > 1 {
					what = fmt.Sprintf("%v, %s", recipe, what)
				}
				err = fmt.Errorf("%s: %w", what, err)
				errs = append(errs, err)
			}
			if stop {
				return nil, err
			}
			if s.Hooks.Done != nil {
				s.Hooks.Done(c, h, err)
			}
			if h == nil || h.Best < 0 {
				continue
			}
			if score := h.Epochs[h.Best].Metric; score > bestScore {
				best, bestScore = &Best{Candidate: c, Model: m, History: h, PESG: st}, score
			}
		}
	}
	if best == nil {
		if len(errs) == 0 {
			return nil, fmt.Errorf("experiment: %s: no candidate has a finite validation metric", s.Name)
		}
		return nil, errors.Join(errs...)
	}
	best.Failed = errors.Join(errs...)
	return best, nil
}

// train trains one candidate from the search's initial weights; st is its PESG state when its
// recipe is a train.AUCM.
func (s *Search) train(ctx context.Context, sp *Split, c Candidate) (m nn.Model, h *train.History, st *optim.PESGState, err error) {
	if s.Init != nil {
		m, err = s.Init(sp)
	} else {
		mc := s.Model
		mc.In, mc.Seed = sp.Train.Cols, sp.Seed
		m, err = nn.NewMLP(mc)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := s.Config
	cfg.LearningRate, cfg.Seed = c.LearningRate, sp.Seed
	if cfg.Diagnose != nil {
		d := *cfg.Diagnose
		d.Seed = sp.Seed
		cfg.Diagnose = &d
	}
	if s.Hooks.Start != nil {
		cfg.Hooks = append(cfg.Hooks[:len(cfg.Hooks):len(cfg.Hooks)], s.Hooks.Start(c, m)...)
	}
	recipe := slices.Clone(c.Recipe)
	for k, p := range recipe {
		if a, ok := p.Loss.(train.AUCM); ok { // the kept candidate's PESG state, for -out
			st = new(optim.PESGState)
			a.State = st
			recipe[k].Loss = a
		}
	}
	if s.fit != nil {
		h, err = s.fit(ctx, c, m, cfg, sp)
	} else {
		h, err = recipe.Fit(ctx, m, cfg, sp.Train, sp.Val)
	}
	if st != nil && len(st.A) == 0 { // Fit stopped before PESG existed
		st = nil
	}
	return m, h, st, err
}
