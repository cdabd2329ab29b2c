package experiment

import (
	"context"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/train"
)

// classData is n rows of 3 features and, cycling, k classes, the features shifted by the
// class; feature 0 is the row's index, to find the row again after a split.
func classData(n, k int) *data.Dataset {
	ds := &data.Dataset{Rows: n, Cols: 3, FeatureNames: []string{"i", "u", "v"}, LabelName: "y"}
	for c := range k {
		ds.Classes = append(ds.Classes, string(rune('a'+c)))
	}
	for i := range n {
		c := i % k
		ds.X = append(ds.X, float64(i), math.Sin(float64(i*i))+0.7*float64(c), math.Cos(float64(3*i))-0.4*float64(c%2))
		ds.Y = append(ds.Y, float64(c))
	}
	return ds
}

// measureClasses gives what the metric functions give on the model's scores (after
// crossentropy.Softmax with probabilities): the macro OvR and OvO AUC, each class's AUC, TPR at
// FPR α and partial AUC, and the threshold chosen on the validation column one-vs-rest
// (metrics.ThresholdAtFPR) with the test rates of flagging score ≥ it, counted here.
func TestMeasureClassesEqualsTheMetricFunctions(t *testing.T) {
	sp, err := NewSplit(classData(400, 4), 3)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{8}, Outputs: 4, Seed: 3})
	require.NoError(t, err)
	cfg := train.Config{Epochs: 2, Seed: 3, Metric: train.MacroAUC(metrics.OvR), Progress: io.Discard}
	_, err = train.Plain(nil).Fit(context.Background(), m, cfg, sp.Train, sp.Val)
	require.NoError(t, err)
	const alpha = 0.2
	for _, probabilities := range []bool{false, true} {
		got, err := measureClasses(m, sp, MeasureConfig{Alpha: alpha}, probabilities)
		require.NoError(t, err)
		scores := func(ds *data.Dataset) []float64 {
			s, err := nn.Scores(m, ds.X, ds.Rows)
			require.NoError(t, err)
			if probabilities {
				s, err = crossentropy.Softmax(s, 4)
				require.NoError(t, err)
			}
			return s
		}
		te, val := scores(sp.Test), scores(sp.Val)
		require.Equal(t, te, got.TestScores)
		y := sp.Test.Y
		ovr, err := metrics.TaskAUC(te, y, rocops.Classes(4), metrics.OvR, metrics.Macro)
		require.NoError(t, err)
		ovo, err := metrics.TaskAUC(te, y, rocops.Classes(4), metrics.OvO, metrics.Macro)
		require.NoError(t, err)
		aucs, err := metrics.ClassAUCs(te, y, rocops.Classes(4))
		require.NoError(t, err)
		require.Equal(t, ovr, got.OvR)
		require.Equal(t, ovo, *got.OvO)
		require.Equal(t, []string{"a", "b", "c", "d"}, got.Names)
		require.Equal(t, probabilities, got.Probabilities)
		for c := range 4 {
			f := got.Class[c]
			col, lab := column(te, 4, c), indicator(sp.Test, c)
			require.InDelta(t, aucs[c], f.AUC, 1e-15)
			tpr, err := metrics.TPRAtFPR(col, lab, alpha)
			require.NoError(t, err)
			require.Equal(t, tpr, f.TPR)
			pauc, err := metrics.PartialAUC(col, lab, alpha)
			require.NoError(t, err)
			require.InDelta(t, pauc, f.PartialAUC, 1e-15)
			th, vfpr, vtpr, err := metrics.ThresholdAtFPR(column(val, 4, c), indicator(sp.Val, c), alpha)
			require.NoError(t, err)
			require.Equal(t, [3]float64{th, vfpr, vtpr}, [3]float64{f.Threshold, f.ValFPR, f.ValTPR})
			require.LessOrEqual(t, f.ValFPR, alpha)
			var fp, tp, neg, pos float64
			for i, s := range col {
				flag := map[bool]float64{true: 1}[s >= th]
				if lab[i] == 1 {
					tp, pos = tp+flag, pos+1
				} else {
					fp, neg = fp+flag, neg+1
				}
			}
			require.Equal(t, [2]float64{fp / neg, tp / pos}, [2]float64{f.TestFPR, f.TestTPR})
		}
		r := newClassResult(&Best{Model: m, History: &train.History{Epochs: []train.Epoch{{Index: 1}}}}, got)
		require.Equal(t, ovr, r.TestAUC)
		require.InDelta(t, (got.Class[0].TPR+got.Class[1].TPR+got.Class[2].TPR+got.Class[3].TPR)/4, r.TestTPR, 1e-15)
		require.Len(t, r.DeployedThresholds, 4)
		var fpr, tpr float64
		for c, f := range got.Class {
			fpr, tpr = fpr+f.TestFPR/4, tpr+f.TestTPR/4
			if math.IsInf(f.Threshold, 1) {
				require.Nil(t, r.DeployedThresholds[c])
			} else {
				require.Equal(t, f.Threshold, *r.DeployedThresholds[c])
			}
		}
		require.InDelta(t, fpr, r.DeployedTestFPR, 1e-15)
		require.InDelta(t, tpr, r.DeployedTestTPR, 1e-15)
	}
}

// column and indicator read class c one-vs-rest, for multi-class and multi-label data.
func TestColumnAndIndicator(t *testing.T) {
	require.Equal(t, []float64{2, 5}, column([]float64{1, 2, 3, 4, 5, 6}, 3, 1))
	mc := &data.Dataset{Rows: 3, Y: []float64{2, 0, 2}, Classes: []string{"a", "b", "c"}}
	require.Equal(t, []float64{1, 0, 1}, indicator(mc, 2))
	ml := &data.Dataset{Rows: 2, Y: []float64{1, 0, 0, 1}, Labels: []string{"p", "q"}}
	require.Equal(t, []float64{0, 1}, indicator(ml, 1))
}

// NewSplit of multi-label data keeps every row once, with its own labels, in one of the
// three parts, every part holds both values of every label, each common label pattern is
// dealt to the parts 60/20/20 up to rounding, and the parts are standardised by the training
// part's statistics.
func TestNewSplitMultilabel(t *testing.T) {
	const n = 500
	ds := &data.Dataset{Rows: n, Cols: 2, FeatureNames: []string{"i", "u"}, Labels: []string{"p", "q", "r"}}
	for i := range n {
		u := math.Sin(float64(i * i))
		ds.X = append(ds.X, float64(i), u)
		p, q, r := b2f(u > 0), b2f(i%3 == 0), b2f(i%7 == 0 && u > 0.5)
		if i == 17 || i == 18 { // a pattern of two rows, too rare for a stratum of its own
			p, q, r = 0, 1, 1
		}
		ds.Y = append(ds.Y, p, q, r)
	}
	require.NoError(t, ds.Validate())
	sp, err := NewSplit(ds, 5)
	require.NoError(t, err)
	seen := make([]int, n)
	patterns := map[string][3]int{}
	for p, part := range []*data.Dataset{sp.Train, sp.Val, sp.Test} {
		require.Equal(t, ds.Labels, part.Labels)
		require.NoError(t, part.Validate())
		for c := range 3 {
			col := indicator(part, c)
			ones := slices.Index(col, 1) >= 0
			zeros := slices.Index(col, 0) >= 0
			require.True(t, ones && zeros, "part %d, label %d", p, c)
		}
		for i := range part.Rows {
			row := part.Row(i)
			orig := int(math.Round(row[0]*sp.Std.Std[0] + sp.Std.Mean[0]))
			require.InDelta(t, ds.X[2*orig+1], row[1]*sp.Std.Std[1]+sp.Std.Mean[1], 1e-9)
			require.Equal(t, ds.Y[3*orig:3*orig+3], part.Y[3*i:3*i+3], "row %d", orig)
			seen[orig]++
			key := string(rune('0'+int(ds.Y[3*orig]))) + string(rune('0'+int(ds.Y[3*orig+1]))) + string(rune('0'+int(ds.Y[3*orig+2])))
			c := patterns[key]
			c[p]++
			patterns[key] = c
		}
	}
	for i, k := range seen {
		require.Equal(t, 1, k, "row %d", i)
	}
	// The rare pattern (two rows) rides with the largest pattern's stratum.
	largest, rare := "", patterns["011"]
	delete(patterns, "011")
	for key, c := range patterns {
		if l := patterns[largest]; largest == "" || c[0]+c[1]+c[2] > l[0]+l[1]+l[2] {
			largest = key
		}
	}
	l := patterns[largest]
	patterns[largest] = [3]int{l[0] + rare[0], l[1] + rare[1], l[2] + rare[2]}
	for key, c := range patterns {
		total := c[0] + c[1] + c[2]
		require.GreaterOrEqual(t, total, data.MinClassRows, key)
		for p, share := range []float64{0.6, 0.2, 0.2} {
			require.InDelta(t, share*float64(total), float64(c[p]), 1.5, "pattern %s, part %d: %v", key, p, c)
		}
	}
	tr := sp.Train
	var sum float64
	for i := range tr.Rows {
		sum += tr.Row(i)[1]
	}
	require.InDelta(t, 0, sum/float64(tr.Rows), 1e-12) // standardised on the training part
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// A multi-label data set whose rows share one label pattern gives one stratum, which a
// stratified split cannot deal out: an error naming the rows and the strata.
func TestNewSplitMultilabelNeedsTwoStrata(t *testing.T) {
	ds := &data.Dataset{Rows: 40, Cols: 1, FeatureNames: []string{"x"}, Labels: []string{"p", "q"}}
	for i := range 40 {
		ds.X = append(ds.X, float64(i))
		ds.Y = append(ds.Y, 1, 0)
	}
	_, err := NewSplit(ds, 1)
	require.ErrorContains(t, err, "data: class too small to split: the 40 rows' label sets give 1 strata")
}

// With a confidence, each class's deployed threshold is the umbrella threshold of its
// validation column one-vs-rest, its test rates get their Clopper–Pearson intervals, and the
// result lists each class's deployed test rates and intervals in class order.
func TestMeasureClassesWithConfidence(t *testing.T) {
	sp, err := NewSplit(classData(1200, 3), 3)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{8}, Outputs: 3, Seed: 3})
	require.NoError(t, err)
	cfg := train.Config{Epochs: 2, Seed: 3, Metric: train.MacroAUC(metrics.OvR), Progress: io.Discard}
	_, err = train.Plain(nil).Fit(context.Background(), m, cfg, sp.Train, sp.Val)
	require.NoError(t, err)
	const alpha = 0.1
	got, err := measureClasses(m, sp, MeasureConfig{Alpha: alpha, Confidence: 0.9}, false)
	require.NoError(t, err)
	val, err := nn.Scores(m, sp.Val.X, sp.Val.Rows)
	require.NoError(t, err)
	for c := range 3 {
		f := got.Class[c]
		th, err := metrics.ThresholdNP(column(val, 3, c), indicator(sp.Val, c), alpha, 0.1)
		require.NoError(t, err)
		require.Equal(t, th, f.Threshold, "class %d", c)
		col, lab := column(got.TestScores, 3, c), indicator(sp.Test, c)
		var fp, tp, neg, pos int
		for i, s := range col {
			flag := map[bool]int{true: 1}[s >= th]
			if lab[i] == 1 {
				tp, pos = tp+flag, pos+1
			} else {
				fp, neg = fp+flag, neg+1
			}
		}
		require.Equal(t, [2]float64{float64(fp) / float64(neg), float64(tp) / float64(pos)}, [2]float64{f.TestFPR, f.TestTPR})
		lo, hi, err := metrics.ClopperPearson(fp, neg, 0.95)
		require.NoError(t, err)
		require.Equal(t, &Interval{lo, hi}, f.TestFPRCI)
		lo, hi, err = metrics.ClopperPearson(tp, pos, 0.95)
		require.NoError(t, err)
		require.Equal(t, &Interval{lo, hi}, f.TestTPRCI)
	}
	r := newClassResult(&Best{Model: m, History: &train.History{Epochs: []train.Epoch{{Index: 1}}}}, got)
	for c, f := range got.Class {
		require.Equal(t, f.TestFPR, r.DeployedClassTestFPR[c])
		require.Equal(t, f.TestTPR, r.DeployedClassTestTPR[c])
		require.Equal(t, *f.TestFPRCI, r.DeployedClassTestFPRCI[c])
		require.Equal(t, *f.TestTPRCI, r.DeployedClassTestTPRCI[c])
	}

	plain, err := measureClasses(m, sp, MeasureConfig{Alpha: alpha}, false)
	require.NoError(t, err)
	r = newClassResult(&Best{Model: m, History: &train.History{Epochs: []train.Epoch{{Index: 1}}}}, plain)
	require.Nil(t, plain.Class[0].TestFPRCI)
	require.Nil(t, r.DeployedClassTestFPR, "the per-class rates come with a confidence only")
	require.Nil(t, r.DeployedClassTestFPRCI)
}
