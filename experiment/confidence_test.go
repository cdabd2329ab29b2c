package experiment_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// With a confidence, Measure deploys the umbrella threshold of the validation scores at δ =
// 1 − confidence (δ = 0.05 for 0.95, exactly), or with a recall its mirror, with its
// validation and test rates counted here and the 95% Clopper–Pearson intervals of the test
// rates; a confidence outside (0, 1) is rocops.ErrConfig naming it.
func TestMeasureWithConfidence(t *testing.T) {
	ds, err := data.Teacher(data.TeacherConfig{Rows: 2000, Cols: 6, Positive: 0.3, Seed: 2})
	require.NoError(t, err)
	sp, err := experiment.NewSplit(ds, 4)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{8}, Seed: 4})
	require.NoError(t, err)
	cfg := train.Config{Epochs: 2, Seed: 4, Progress: io.Discard}
	_, err = train.Plain(nil).Fit(context.Background(), m, cfg, sp.Train, sp.Val)
	require.NoError(t, err)
	vs, err := nn.Scores(m, sp.Val.X, sp.Val.Rows)
	require.NoError(t, err)
	ts, err := nn.Scores(m, sp.Test.X, sp.Test.Rows)
	require.NoError(t, err)

	// rates counts the rows flagging score ≥ th flags: the negatives and positives flagged, of all.
	rates := func(s, y []float64, th float64) (fp, neg, tp, pos int) {
		for i, si := range s {
			f := 0
			if si >= th {
				f = 1
			}
			if y[i] == 1 {
				tp, pos = tp+f, pos+1
			} else {
				fp, neg = fp+f, neg+1
			}
		}
		return fp, neg, tp, pos
	}
	const alpha, recall = 0.1, 0.8
	for _, c := range []struct {
		name   string
		recall float64
		want   func() (float64, error)
	}{
		{"alpha", 0, func() (float64, error) { return metrics.ThresholdNP(vs, sp.Val.Y, alpha, 0.05) }},
		{"recall", recall, func() (float64, error) { return metrics.ThresholdNPRecall(vs, sp.Val.Y, recall, 0.05) }},
	} {
		got, err := experiment.Measure(m, sp, experiment.MeasureConfig{Alpha: alpha, Recall: c.recall, Confidence: 0.95})
		require.NoError(t, err, c.name)
		th, err := c.want()
		require.NoError(t, err, c.name)
		require.Equal(t, th, got.Threshold, c.name)
		fp, neg, tp, pos := rates(vs, sp.Val.Y, th)
		require.Equal(t, [2]float64{float64(fp) / float64(neg), float64(tp) / float64(pos)}, [2]float64{got.ValFPR, got.ValTPR}, c.name)
		if c.recall == 0 {
			plain, _, _, err := metrics.ThresholdAtFPR(vs, sp.Val.Y, alpha)
			require.NoError(t, err)
			require.Greater(t, th, plain, "the guarantee flags fewer validation rows than the plain rule")
		} else {
			require.GreaterOrEqual(t, got.ValTPR, recall)
		}
		fp, neg, tp, pos = rates(ts, sp.Test.Y, th)
		require.Equal(t, [2]float64{float64(fp) / float64(neg), float64(tp) / float64(pos)}, [2]float64{got.TestFPR, got.TestTPR}, c.name)
		lo, hi, err := metrics.ClopperPearson(fp, neg, 0.95)
		require.NoError(t, err)
		require.Equal(t, &experiment.Interval{lo, hi}, got.TestFPRCI, c.name)
		lo, hi, err = metrics.ClopperPearson(tp, pos, 0.95)
		require.NoError(t, err)
		require.Equal(t, &experiment.Interval{lo, hi}, got.TestTPRCI, c.name)
		require.Less(t, got.TestTPRCI[0], got.TestTPR)
		require.Greater(t, got.TestTPRCI[1], got.TestTPR)
	}

	plain, err := experiment.Measure(m, sp, experiment.MeasureConfig{Alpha: alpha})
	require.NoError(t, err)
	require.Nil(t, plain.TestFPRCI, "no intervals without a confidence")
	require.Nil(t, plain.TestTPRCI)
	for _, bad := range []float64{-0.5, 1, 1.5} {
		_, err := experiment.Measure(m, sp, experiment.MeasureConfig{Alpha: alpha, Confidence: bad})
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "Confidence")
	}
}

// With a confidence, Compare checks each split before any search runs on it: a validation part
// of too few negatives (with a recall, positives; on multi-class data, of some class
// one-vs-rest) stops the grid with the metrics error naming how many there are and how many
// the guarantee needs, and no search starts.
func TestCompareRefusesTooSmallAValidationPart(t *testing.T) {
	classes := &data.Dataset{Rows: 150, Cols: 1, FeatureNames: []string{"x"}, LabelName: "y", Classes: []string{"a", "b", "c"}}
	for i := range classes.Rows {
		classes.X = append(classes.X, float64(i))
		classes.Y = append(classes.Y, float64(i%3))
	}
	for _, c := range []struct {
		name string
		ds   func() *data.Dataset
		cfg  experiment.MeasureConfig
		want error
		msg  string
	}{
		// 200 rows, 30% positive: 40 validation rows, 28 negatives and 12 positives.
		{"negatives", func() *data.Dataset {
			ds, err := data.Teacher(data.TeacherConfig{Rows: 200, Cols: 3, Positive: 0.3, Seed: 5})
			require.NoError(t, err)
			return ds
		}, experiment.MeasureConfig{Alpha: 0.05, Confidence: 0.95}, metrics.ErrTooFewNegatives,
			"experiment: the validation part of seed 1: metrics: too few negatives for the guarantee: 28 negatives, the guarantee at alpha = 0.05 with delta = 0.05 needs at least 59"},
		{"positives", func() *data.Dataset {
			ds, err := data.Teacher(data.TeacherConfig{Rows: 200, Cols: 3, Positive: 0.3, Seed: 5})
			require.NoError(t, err)
			return ds
		}, experiment.MeasureConfig{Alpha: 0.1, Recall: 0.9, Confidence: 0.95}, metrics.ErrTooFewPositives,
			"experiment: the validation part of seed 1: metrics: too few positives for the guarantee: 12 positives, the guarantee at recall = 0.9 with delta = 0.05 needs at least 29"},
		// 150 rows of 3 classes: 30 validation rows, 20 negatives of each class.
		{"classes", func() *data.Dataset { return classes }, experiment.MeasureConfig{Alpha: 0.1, Confidence: 0.95}, metrics.ErrTooFewNegatives,
			`experiment: class "a", the validation part of seed 1: metrics: too few negatives for the guarantee: 20 negatives, the guarantee at alpha = 0.1 with delta = 0.05 needs at least 29`},
	} {
		started := 0
		g := &experiment.Grid{
			Seeds: []uint64{1, 2},
			Split: func(seed uint64) (*experiment.Split, error) { return experiment.NewSplit(c.ds(), seed) },
			Searches: []*experiment.Search{{Name: "a", Recipes: []train.Recipe{train.Plain(nil)}, LearningRates: []float64{0.01},
				Model: nn.MLPConfig{}, Config: train.Config{Epochs: 1, Metric: train.PartialAUC(0.2)}}},
			Hooks: experiment.GridHooks{Start: func(*experiment.Split, int) bool { started++; return true }},
		}
		perRun, failed, err := experiment.Compare(context.Background(), g, c.cfg, nil)
		require.ErrorIs(t, err, c.want, c.name)
		require.EqualError(t, err, c.msg, c.name)
		require.Zero(t, started, c.name)
		require.Empty(t, failed, c.name)
		require.Empty(t, perRun[0], c.name)
		if !errors.Is(c.want, metrics.ErrTooFewPositives) { // the same split admits the plain rule
			_, _, err = experiment.Compare(context.Background(), g, experiment.MeasureConfig{Alpha: c.cfg.Alpha}, nil)
			require.NoError(t, err, c.name)
			require.Equal(t, 2, started, c.name)
		}
	}
}
