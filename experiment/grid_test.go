package experiment_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// The hooks of a grid and of its searches are called in order: for every seed the split,
// then for every search its start, each candidate's start, the trainer hooks the candidate's
// start added, the candidate's end, and the search's end. A search Start declines is skipped
// whole.
func TestGridHooksInOrder(t *testing.T) {
	var log []string
	logf := func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }
	var seen []call
	search := func(name string) *experiment.Search {
		r := scripted{name: name, seen: &seen, metrics: map[float64][]float64{0.1: {0.5, 0.6}, 0.2: {0.7}}}
		return scripts(&experiment.Search{Name: name, LearningRates: []float64{0.1, 0.2},
			Hooks: experiment.Hooks{
				Start: func(c experiment.Candidate, _ nn.Model) []train.Hook {
					logf("%s start %v", name, c.LearningRate)
					return []train.Hook{
						{
							Name:    "epoch",
							OnEpoch: func(e train.Epoch) error { logf("%s epoch %d", name, e.Index); return nil },
						},
					}
				},
				Done: func(c experiment.Candidate, _ *train.History, err error) {
					logf("%s done %v %v", name, c.LearningRate, err)
				},
			}}, r)
	}
	g := &experiment.Grid{
		Seeds:    []uint64{1, 2},
		Split:    func(seed uint64) (*experiment.Split, error) { logf("split %d", seed); return tinySplit(t, seed), nil },
		Searches: []*experiment.Search{search("a"), search("b")},
		Hooks: experiment.GridHooks{
			Split: func(sp *experiment.Split) error { logf("prepared %d", sp.Seed); return nil },
			Start: func(sp *experiment.Split, k int) bool {
				logf("run %d seed %d", k, sp.Seed)
				return !(sp.Seed == 2 && k == 0) // as if a resumed grid had it on file
			},
			Done: func(sp *experiment.Split, k int, best *experiment.Best, err error) error {
				logf("ran %d seed %d: lr %v epoch %d %v", k, sp.Seed, best.LearningRate, best.Epoch(), err)
				return nil
			},
		},
	}
	require.NoError(t, g.Run(context.Background()))
	search1 := func(name string) []string {
		return []string{
			name + " start 0.1", name + " epoch 1", name + " epoch 2", name + " done 0.1 <nil>",
			name + " start 0.2", name + " epoch 1", name + " done 0.2 <nil>",
		}
	}
	var want []string
	for _, seed := range []int{1, 2} {
		want = append(
			want,
			fmt.Sprintf("split %d", seed),
			fmt.Sprintf("prepared %d", seed),
			fmt.Sprintf("run 0 seed %d", seed),
		)
		if seed == 1 {
			want = append(want, search1("a")...)
			want = append(want, "ran 0 seed 1: lr 0.2 epoch 1 <nil>")
		}
		want = append(want, fmt.Sprintf("run 1 seed %d", seed))
		want = append(want, search1("b")...)
		want = append(want, fmt.Sprintf("ran 1 seed %d: lr 0.2 epoch 1 <nil>", seed))
	}
	if got := strings.Join(log, "\n"); got != strings.Join(want, "\n") {
		assert.Fail(t, fmt.Sprintf("hooks called\n%s\n\nwant\n%s", got, strings.Join(want, "\n")))
	}
}

// An error from Split or from a Done hook stops the grid; so does a cancelled context, after
// the search that was running, whose error reaches Done.
func TestGridStops(t *testing.T) {
	var seen []call
	r := scripted{name: "r", seen: &seen, metrics: map[float64][]float64{0.1: {0.5}}}
	searches := []*experiment.Search{scripts(&experiment.Search{LearningRates: []float64{0.1}}, r),
		scripts(&experiment.Search{LearningRates: []float64{0.1}}, r)}
	split := func(seed uint64) (*experiment.Split, error) { return tinySplit(t, seed), nil }

	bad := errors.New("no such file")
	g := &experiment.Grid{Seeds: []uint64{1, 2}, Searches: searches,
		Split: func(uint64) (*experiment.Split, error) { return nil, bad }}
	if err := g.Run(context.Background()); !errors.Is(err, bad) || len(seen) != 0 {
		assert.Fail(t, fmt.Sprintf("a failing split: %v after %d trainings, want it before any", err, len(seen)))
	}

	full := errors.New("disk full")
	runs := 0
	g = &experiment.Grid{Seeds: []uint64{1, 2}, Searches: searches, Split: split, Hooks: experiment.GridHooks{
		Done: func(*experiment.Split, int, *experiment.Best, error) error { runs++; return full }}}
	if err := g.Run(context.Background()); !errors.Is(err, full) || runs != 1 {
		assert.Fail(t, fmt.Sprintf("a failing Done: %v after %d runs, want it after 1", err, runs))
	}

	ctx, cancel := context.WithCancel(context.Background())
	runs = 0
	var errs []error
	g = &experiment.Grid{Seeds: []uint64{1, 2}, Searches: searches, Split: split, Hooks: experiment.GridHooks{
		Start: func(*experiment.Split, int) bool { cancel(); return true },
		Done: func(_ *experiment.Split, _ int, _ *experiment.Best, err error) error {
			runs++
			errs = append(errs, err)
			return nil
		}}}
	if err := g.Run(ctx); !errors.Is(err, context.Canceled) || runs != 1 ||
		!errors.Is(errs[0], context.Canceled) {
		assert.Fail(t, fmt.Sprintf("cancelled: %v after %d runs (their errors %v), want context.Canceled after 1 that saw it",
			err,
			runs,
			errs))
	}
}
