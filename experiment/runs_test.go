package experiment_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// Compare measures every search on every seed and compares each with search 0 on the same
// seed: two searches of one recipe are one model, so their paired differences are 0 with
// [0, 0]. A finish that fails drops that search on that seed, named, and keeps the others.
func TestCompare(t *testing.T) {
	search := func(name string) *experiment.Search {
		return &experiment.Search{Name: name, Recipes: []train.Recipe{train.Plain(nil)}, LearningRates: []float64{0.01},
			Model: nn.MLPConfig{}, Config: train.Config{Epochs: 2, Metric: train.PartialAUC(0.2)}}
	}
	g := &experiment.Grid{
		Seeds:    []uint64{1, 2},
		Split:    func(seed uint64) (*experiment.Split, error) { return tinySplit(t, seed), nil },
		Searches: []*experiment.Search{search("a"), search("b"), search("c")},
	}
	finished := 0
	perRun, failed, err := experiment.Compare(context.Background(), g, experiment.MeasureConfig{Alpha: 0.2, Boot: 50},
		func(sp *experiment.Split, k int, _ *experiment.Best, r *experiment.Result) error {
			finished++
			r.Name = g.Searches[k].Name
			if k == 2 && sp.Seed == 2 {
				return errors.New("disk full")
			}
			return nil
		})
	require.NoError(t, err)
	require.Equal(t, 6, finished)
	require.Len(t, failed, 1)
	require.EqualError(t, failed[0], "run c, seed 2: disk full")
	require.Equal(t, []int{2, 2, 1}, []int{len(perRun[0]), len(perRun[1]), len(perRun[2])})
	for k, rs := range perRun {
		for i, r := range rs {
			require.Nil(t, r.Test, "curves are dropped from the results")
			require.Equal(t, 0.2, r.Alpha)
			if k == 0 {
				require.Nil(t, r.TestVsFirst)
				continue
			}
			require.Equal(t, perRun[0][i].ScoresHash, r.ScoresHash, "one recipe, one seed: one model")
			require.NotNil(t, r.TestAUCVsFirst)
			require.Zero(t, r.TestAUCVsFirst.Diff)
			for key, p := range r.TestVsFirst {
				require.Equal(t, experiment.Paired{}, p, key)
			}
			require.Len(t, r.TestVsFirst, 4, "pAUC, TPR, deployed TPR and FPR")
		}
	}
	require.Equal(t, []uint64{1, 2}, []uint64{perRun[1][0].Seed, perRun[1][1].Seed})
}
