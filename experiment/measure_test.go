package experiment_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// Measure gives, bit for bit, what the separate metric calls give on the model's scores: each
// figure, each interval (the same resamples) and the deployed point.
func TestMeasureEqualsTheMetricFunctions(t *testing.T) {
	ds, err := data.Teacher(data.TeacherConfig{Rows: 1500, Cols: 6, Positive: 0.2, Seed: 2})
	require.NoError(t, err)
	sp, err := experiment.NewSplit(ds, 4)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{8}, Seed: 4})
	require.NoError(t, err)
	cfg := train.Config{Epochs: 2, Seed: 4, Progress: io.Discard}
	if _, err := (train.Plain(nil)).Fit(context.Background(), m, cfg, sp.Train, sp.Val); err != nil {
		require.Fail(t, fmt.Sprint(err))
	}
	const alpha, recall, boot = 0.1, 0.8, 150
	got, err := experiment.Measure(
		m,
		sp,
		experiment.MeasureConfig{Alpha: alpha, Recall: recall, Boot: boot, Seed: 9},
	)
	require.NoError(t, err)

	s, err := nn.Scores(m, sp.Test.X, sp.Test.Rows)
	require.NoError(t, err)
	y := sp.Test.Y
	require.True(t, slices.EqualFunc(got.TestScores, s, same), "the test scores differ from nn.Scores")
	must := func(x float64, err error) float64 {
		t.Helper()
		require.NoError(t, err)
		return x
	}
	auc, variance, err := metrics.DeLong(s, y)
	require.NoError(t, err)
	// The reference intervals by BootstrapRows, whose resamples with the classes as strata are
	// those of Curve.Bootstrap: each resample's scores taken at the rows drawn.
	strata := make([]int, len(y))
	for i, yi := range y {
		strata[i] = int(yi)
	}
	ofRows := func(stat func(s, y []float64) (float64, error)) func(rows []int) (float64, error) {
		return func(rows []int) (float64, error) {
			drawn := make([]float64, len(rows))
			for i, r := range rows {
				drawn[i] = s[r]
			}
			return stat(drawn, y)
		}
	}
	pauc := func(s, y []float64) (float64, error) { return metrics.PartialAUC(s, y, alpha) }
	tpr := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, alpha) }
	_, pLo, pHi, err := metrics.BootstrapRows(strata, ofRows(pauc), boot, 0.95, 9)
	require.NoError(t, err)
	_, tLo, tHi, err := metrics.BootstrapRows(strata, ofRows(tpr), boot, 0.95, 9)
	require.NoError(t, err)
	vs, err := nn.Scores(m, sp.Val.X, sp.Val.Rows)
	require.NoError(t, err)
	th, vFPR, vTPR, err := metrics.ThresholdAtFPR(vs, sp.Val.Y, alpha)
	require.NoError(t, err)
	var fp, tp float64 // the test rows flagged at th, counted
	for i, si := range s {
		if si >= th {
			fp, tp = fp+1-y[i], tp+y[i]
		}
	}
	half := 1.959963984540054 * math.Sqrt(variance)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"AUC", got.AUC, must(metrics.AUC(s, y))},
		{"DeLong AUC", got.DeLong.AUC, auc},
		{"DeLong variance", got.DeLong.Variance, variance},
		{"DeLong lo", got.DeLong.CI[0], max(0, auc-half)},
		{"DeLong hi", got.DeLong.CI[1], min(1, auc+half)},
		{"pAUC", got.PartialAUC, must(metrics.PartialAUC(s, y, alpha))},
		{"TPR", got.TPR, must(metrics.TPRAtFPR(s, y, alpha))},
		{"FPR at TPR", *got.FPRAtTPR, must(metrics.FPRAtTPR(s, y, recall))},
		{"pAUC lo", got.PartialAUCCI[0], pLo},
		{"pAUC hi", got.PartialAUCCI[1], pHi},
		{"TPR lo", got.TPRCI[0], tLo},
		{"TPR hi", got.TPRCI[1], tHi},
		{"threshold", got.Threshold, th},
		{"validation FPR", got.ValFPR, vFPR},
		{"validation TPR", got.ValTPR, vTPR},
		{"deployed test FPR", got.TestFPR, fp / float64(sp.Test.Rows-sp.Test.Positives())},
		{"deployed test TPR", got.TestTPR, tp / float64(sp.Test.Positives())},
	} {
		assert.True(t, same(c.got, c.want), "%s: Measure %v, the metric call %v", c.name, c.got, c.want)
	}
	fpr, tprs, _, err := metrics.ROC(s, y)
	require.NoError(t, err)
	gf, gt, _ := got.Test.ROC()
	assert.False(t, !slices.EqualFunc(gf, fpr, same) || !slices.EqualFunc(gt, tprs, same), "the curve's ROC differs from metrics.ROC")
}

// Without Alpha, Recall and Boot only the AUC is read; DeLong's needs two rows of each class.
func TestMeasureLeavesOutWhatIsNotAsked(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	y := []float64{0, 0, 0, 1, 0, 0, 1, 0, 1, 1}
	ds, err := data.New(x, y, 1)
	require.NoError(t, err)
	one, err := data.New([]float64{0, 1, 2}, []float64{0, 1, 0}, 1)
	require.NoError(t, err)
	m, err := nn.NewMLP(
		nn.MLPConfig{In: 1, Seed: 1},
	) // a linear scorer: the AUC is 20/24 or 4/24 (the positives rank above 3, 5, 6 and 6 negatives)
	require.NoError(t, err)
	got, err := experiment.Measure(
		m,
		&experiment.Split{Train: ds, Val: ds, Test: ds},
		experiment.MeasureConfig{},
	)
	require.NoError(t, err)
	if !(got.AUC == 20.0/24 || got.AUC == 4.0/24) || got.DeLong == nil || got.FPRAtTPR != nil ||
		got.PartialAUCCI != nil ||
		got.TPR != 0 ||
		got.Threshold != 0 {
		assert.Fail(t, fmt.Sprintf("got %+v, want the AUC (20/24 or 4/24) and DeLong's only", got))
	}
	got, err = experiment.Measure(
		m,
		&experiment.Split{Train: one, Val: one, Test: one},
		experiment.MeasureConfig{Alpha: 0.5},
	)
	require.NoError(t, err)
	if got.DeLong != nil || got.AUC != 0.5 { // the positive scores between the two negatives
		assert.Fail(t, fmt.Sprintf("one positive: DeLong %v, AUC %v; want none and 0.5", got.DeLong, got.AUC))
	}
}
