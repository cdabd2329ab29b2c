package check_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
	"github.com/stretchr/testify/require"
)

// An input of a public (scores, labels) entry point: the kind of its labels, k columns (1 for
// binary data; 0 or 1 for classes or labels are among the bad inputs), the scores (row-major
// n×k) and the labels (0/1, class indices, or the n×k indicator).
type input struct {
	kind   rocops.Kind
	k      int
	scores []float64
	labels []float64
}

// task is the rocops.Task of in (an invalid one for k < 2 classes or labels).
func (in input) task() rocops.Task {
	switch in.kind {
	case rocops.Multiclass:
		return rocops.Classes(in.k)
	case rocops.Multilabel:
		return rocops.Labels(in.k)
	}
	return rocops.Task{}
}

// A bad input and the sentinel every entry point of its kind must give for it.
type badInput struct {
	name       string
	in         input
	want       error
	oneClass   bool // bad only in lacking a class: valid for an entry that is oneOK
	labels     bool // bad only in its labels or in how they pair with the scores: valid for an entry without labels
	shape      bool // a shape a matrix node or a model's outputs cannot have (ragged, k = 0): not run on those
	fewK       bool // fewer than two columns: a setting error (rocops.ErrConfig) for an entry that takes a rocops.Task
	anyClasses bool // bad only in its classes, in a way only the cross-entropies (anyClasses entries) accept
}

// An entry point: a public function of (scores, labels) input, and what the vocabulary asks of
// it.
type entry struct {
	name   string
	kind   rocops.Kind // the inputs it takes
	prefix string      // the package name its messages start with
	oneOK  bool        // defined on a batch that lacks a class (the cross-entropies)
	graph  bool        // a graph op: an empty input is a node of zero rows, ErrNode
	// model: the scores are a model's outputs on the rows of x (the severe directions). A score
	// the model gives as NaN or ±Inf is rocops.ErrRange, and x not of the labels' rows nn.ErrInput,
	// both checked by package nn as for diagnose.Comparisons.SevereDirection.
	model    bool
	noLabels bool // takes no labels (crossentropy.Softmax)
	task     bool // takes its k as a rocops.Task, which has at least two classes or labels
	// anyClasses: defined on any labels, with classes missing anywhere (the cross-entropies)
	anyClasses bool
	call       func(input) error
}

var (
	binaryCmp diagnose.Comparisons // the zero Comparisons: the binary task
	nan, inf  = math.NaN(), math.Inf(1)
	kdeCfg    = kdequantile.Config{Alpha: 0.25}
	pcfg      = pairwise.Config{Surrogate: pairwise.SquaredHinge}
	pcfgCut   = pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.5, MinTPR: 0.4}
	pcfgPairs = pairwise.Config{Surrogate: pairwise.Logistic, Pairs: 8, Seed: 3}
	edges     = []float64{-10, 0, 10}
	severityM = 0.1
)

// The valid inputs of each kind. The k-class batch: n = 6 rows of k = 3 scores, every class with
// rows and every label column with both values, and misranked pairs in every comparison (for
// the severe directions).
var (
	binaryScores = []float64{0.2, -1, 2, 0.5}
	binaryLabels = []float64{1, 0, 0, 1}
	kScores      = []float64{
		0.2, -1, 2,
		0.5, 1.5, -0.3,
		-0.7, 0.9, 1.1,
		1.3, -0.4, 0.6,
		-1.2, 0.3, -0.8,
		0.8, -0.6, 0.1,
	}
	kClasses   = []float64{0, 1, 2, 0, 1, 2}
	kIndicator = []float64{
		1, 0, 1,
		0, 1, 0,
		1, 1, 0,
		0, 0, 1,
		1, 0, 0,
		0, 1, 1,
	}
	extraRow = append(append([]float64(nil), kScores...), 0.4, -0.2, 0.9)
)

const kCols = 3

var valid = map[rocops.Kind]input{
	rocops.Binary:     {rocops.Binary, 1, binaryScores, binaryLabels},
	rocops.Multiclass: {rocops.Multiclass, kCols, kScores, kClasses},
	rocops.Multilabel: {rocops.Multilabel, kCols, kScores, kIndicator},
}

// with returns a copy of xs with xs[i] = v.
func with(xs []float64, i int, v float64) []float64 {
	out := append([]float64(nil), xs...)
	out[i] = v
	return out
}

// column returns a copy of the indicator with label column c set to v in every row.
func column(c int, v float64) []float64 {
	out := append([]float64(nil), kIndicator...)
	for i := c; i < len(out); i += kCols {
		out[i] = v
	}
	return out
}

// badInputs are the bad inputs of the shared list.
func badInputs() []badInput {
	b := func(s, y []float64) input { return input{rocops.Binary, 1, s, y} }
	mc := func(s []float64, k int, y []float64) input { return input{rocops.Multiclass, k, s, y} }
	ml := func(s []float64, k int, y []float64) input { return input{rocops.Multilabel, k, s, y} }
	ok, labels := binaryScores, binaryLabels
	return []badInput{
		{name: "empty", in: b(nil, nil), want: rocops.ErrEmpty},
		{name: "length", in: b(ok, labels[:3]), want: rocops.ErrLength},
		{name: "NaN score", in: b([]float64{0.2, nan, 2, 0.5}, labels), want: rocops.ErrNonFinite},
		{name: "+Inf score", in: b([]float64{0.2, -1, inf, 0.5}, labels), want: rocops.ErrNonFinite},
		{name: "-Inf score", in: b([]float64{-inf, -1, 2, 0.5}, labels), want: rocops.ErrNonFinite},
		{name: "label 2", in: b(ok, []float64{1, 0, 2, 1}), want: rocops.ErrLabel},
		{name: "label 0.5", in: b(ok, []float64{1, 0.5, 0, 1}), want: rocops.ErrLabel},
		{name: "label NaN", in: b(ok, []float64{1, 0, nan, 1}), want: rocops.ErrLabel},
		{name: "no positives", in: b(ok, []float64{0, 0, 0, 0}), want: rocops.ErrNoPositives, oneClass: true},
		{name: "no negatives", in: b(ok, []float64{1, 1, 1, 1}), want: rocops.ErrNoNegatives, oneClass: true},

		{name: "classes: no rows", in: mc(nil, kCols, nil), want: rocops.ErrEmpty},
		{name: "classes: labels short", in: mc(kScores, kCols, kClasses[:5]), want: rocops.ErrLength, labels: true},
		{name: "classes: scores of an extra row", in: mc(extraRow, kCols, kClasses), want: rocops.ErrLength, labels: true},
		{name: "classes: ragged scores", in: mc(kScores[:17], kCols, kClasses), want: rocops.ErrLength, shape: true},
		{name: "classes: k = 0", in: mc(kScores, 0, kClasses), want: rocops.ErrLength, shape: true, fewK: true},
		{name: "classes: NaN score", in: mc(with(kScores, 4, nan), kCols, kClasses), want: rocops.ErrNonFinite},
		{name: "classes: +Inf score", in: mc(with(kScores, 8, inf), kCols, kClasses), want: rocops.ErrNonFinite},
		{name: "classes: -Inf score", in: mc(with(kScores, 0, -inf), kCols, kClasses), want: rocops.ErrNonFinite},
		{name: "classes: label k", in: mc(kScores, kCols, with(kClasses, 2, kCols)), want: rocops.ErrLabel, labels: true},
		{name: "classes: label -1", in: mc(kScores, kCols, with(kClasses, 5, -1)), want: rocops.ErrLabel, labels: true},
		{name: "classes: label 0.5", in: mc(kScores, kCols, with(kClasses, 1, 0.5)), want: rocops.ErrLabel, labels: true},
		{name: "classes: class without rows", in: mc(kScores, kCols, []float64{0, 2, 0, 0, 2, 2}), want: rocops.ErrOneClass,
			oneClass: true, labels: true},
		{name: "classes: k = 1", in: mc(kScores[:6], 1, make([]float64, 6)), want: rocops.ErrOneClass, oneClass: true,
			labels: true, fewK: true},

		{name: "labels: no rows", in: ml(nil, kCols, nil), want: rocops.ErrEmpty},
		{name: "labels: labels short", in: ml(kScores, kCols, kIndicator[:15]), want: rocops.ErrLength, labels: true},
		{name: "labels: scores of an extra row", in: ml(extraRow, kCols, kIndicator), want: rocops.ErrLength, labels: true},
		{name: "labels: ragged labels", in: ml(kScores, kCols, kIndicator[:17]), want: rocops.ErrLength, shape: true},
		{name: "labels: ragged scores", in: ml(kScores[:17], kCols, kIndicator), want: rocops.ErrLength, shape: true},
		{name: "labels: k = 0", in: ml(kScores, 0, kIndicator), want: rocops.ErrLength, shape: true, fewK: true},
		{name: "labels: NaN score", in: ml(with(kScores, 4, nan), kCols, kIndicator), want: rocops.ErrNonFinite},
		{name: "labels: +Inf score", in: ml(with(kScores, 8, inf), kCols, kIndicator), want: rocops.ErrNonFinite},
		{name: "labels: -Inf score", in: ml(with(kScores, 0, -inf), kCols, kIndicator), want: rocops.ErrNonFinite},
		{name: "labels: label 2", in: ml(kScores, kCols, with(kIndicator, 7, 2)), want: rocops.ErrLabel, labels: true},
		{name: "labels: label 0.5", in: ml(kScores, kCols, with(kIndicator, 3, 0.5)), want: rocops.ErrLabel, labels: true},
		{name: "labels: label NaN", in: ml(kScores, kCols, with(kIndicator, 11, nan)), want: rocops.ErrLabel, labels: true},
		{name: "labels: column of 0s", in: ml(kScores, kCols, column(1, 0)), want: rocops.ErrNoPositives, oneClass: true, labels: true},
		{name: "labels: column of 1s", in: ml(kScores, kCols, column(2, 1)), want: rocops.ErrNoNegatives, oneClass: true, labels: true},
		// Valid only for the cross-entropy: even the micro average needs both classes somewhere.
		{name: "labels: every label 0", in: ml(kScores, kCols, make([]float64, 18)), want: rocops.ErrNoPositives, labels: true,
			anyClasses: true},
	}
}

// TestVocabulary runs every bad input of the shared list through every public (scores, labels)
// entry point of the module that takes its kind of labels: the valid input gives no error, and
// each bad one the shared sentinel (or, for a case the entry is defined on, no error), with a
// message that starts with the entry's package name.
func TestVocabulary(t *testing.T) {
	cases := badInputs()
	for _, e := range entries() {
		require.NoError(t, e.call(valid[e.kind]), "%s on valid input", e.name)
		for _, c := range cases {
			if c.in.kind != e.kind || c.shape && (e.graph || e.model) {
				continue
			}
			err := e.call(c.in)
			want, prefix := c.want, e.prefix
			switch {
			case c.fewK && e.task:
				want = rocops.ErrConfig
			case c.oneClass && e.oneOK, c.labels && e.noLabels, c.anyClasses && e.anyClasses:
				require.NoError(t, err, "%s, %s: %v; want no error", e.name, c.name, err)
				continue
			case e.graph && want == rocops.ErrEmpty:
				want = rocops.ErrNode
			case e.model && want == rocops.ErrLength && c.labels:
				want, prefix = nn.ErrInput, "nn"
			case e.model && want == rocops.ErrNonFinite:
				want, prefix = rocops.ErrRange, "nn"
			}
			require.ErrorIs(t, err, want, "%s, %s: %v; want %v", e.name, c.name, err, want)
			require.False(t, c.oneClass && want != rocops.ErrConfig && !errors.Is(err, rocops.ErrOneClass), "%s, %s: %v does not match ErrOneClass", e.name, c.name, err)
			// A graph op's error from a run is the op's own inside the machine's RunError.
			var run *graph.RunError
			if errors.As(err, &run) {
				err = run.Err
			}
			msg := err.Error()
			require.True(t, strings.HasPrefix(msg, prefix+": "), "%s, %s: message %q does not start with package %s", e.name, c.name, msg, prefix)
		}
	}
}

// entries are the module's public (scores, labels) entry points.
func entries() []entry {
	var out []entry
	bin := func(name, prefix string, call func(s, y []float64) error) entry {
		return entry{name: name, kind: rocops.Binary, prefix: prefix, call: func(in input) error { return call(in.scores, in.labels) }}
	}
	one := []float64{0.5}
	out = append(out,
		bin("kdequantile.Evaluate", "kdequantile", func(s, y []float64) error { _, err := kdequantile.Evaluate(s, y, kdeCfg); return err }),
		bin("kdequantile.Gradient", "kdequantile", func(s, y []float64) error { _, _, err := kdequantile.Gradient(s, y, kdeCfg); return err }),
		bin("kdequantile.GradientInto", "kdequantile", func(s, y []float64) error {
			_, err := kdequantile.GradientInto(make([]float64, len(s)), s, y, kdeCfg)
			return err
		}),
		bin("kdequantile.ShardedGradient", "kdequantile", func(s, y []float64) error {
			_, _, _, err := kdequantile.ShardedGradient([][]float64{s[:len(s)/2], s[len(s)/2:]}, [][]float64{y[:len(s)/2], y[len(s)/2:]}, kdeCfg)
			return err
		}),
		bin("pairwise.Evaluate", "pairwise", func(s, y []float64) error { _, err := pairwise.Evaluate(s, y, pcfg); return err }),
		bin("pairwise.Gradient, sampled pairs", "pairwise", func(s, y []float64) error { _, _, err := pairwise.Gradient(s, y, pcfgPairs); return err }),
		bin("pairwise.Evaluate, MaxFPR", "pairwise", func(s, y []float64) error {
			_, err := pairwise.Evaluate(s, y, pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.5})
			return err
		}),
		bin("pairwise.Gradient, MaxFPR and MinTPR", "pairwise", func(s, y []float64) error { _, _, err := pairwise.Gradient(s, y, pcfgCut); return err }),
		bin("pairwise.GradientInto, MinTPR", "pairwise", func(s, y []float64) error {
			_, err := pairwise.GradientInto(make([]float64, len(s)), s, y, pairwise.Config{Surrogate: pairwise.Logistic, MinTPR: 0.4})
			return err
		}),
		bin("aucm.Evaluate", "aucm", func(s, y []float64) error {
			_, err := aucm.Evaluate(s, y, one, one, []float64{0.1}, aucm.Config{})
			return err
		}),
		bin("aucm.Gradient", "aucm", func(s, y []float64) error {
			_, _, _, _, _, err := aucm.Gradient(s, y, one, one, []float64{0.1}, aucm.Config{})
			return err
		}),
		bin("aucm.Optimum", "aucm", func(s, y []float64) error { _, err := aucm.Optimum(s, y, aucm.Config{}); return err }),
		bin("metrics.AUC", "metrics", func(s, y []float64) error { _, err := metrics.AUC(s, y); return err }),
		bin("metrics.PartialAUC", "metrics", func(s, y []float64) error { _, err := metrics.PartialAUC(s, y, 0.5); return err }),
		bin("metrics.TPRAtFPR", "metrics", func(s, y []float64) error { _, err := metrics.TPRAtFPR(s, y, 0.5); return err }),
		bin("metrics.ROC", "metrics", func(s, y []float64) error { _, _, _, err := metrics.ROC(s, y); return err }),
		bin("metrics.DeLong", "metrics", func(s, y []float64) error { _, _, err := metrics.DeLong(s, y); return err }),
		bin("metrics.Curve.DeLongPaired", "metrics", func(s, y []float64) error {
			c, err := metrics.NewCurve(s, y)
			if err != nil {
				return err
			}
			_, _, _, err = c.DeLongPaired(c)
			return err
		}),
		bin("metrics.ThresholdAtFPR", "metrics", func(s, y []float64) error { _, _, _, err := metrics.ThresholdAtFPR(s, y, 0.5); return err }),
		bin("metrics.FPRAtTPR", "metrics", func(s, y []float64) error { _, err := metrics.FPRAtTPR(s, y, 0.5); return err }),
		bin("metrics.BootstrapPaired", "metrics", func(s, y []float64) error {
			_, _, _, err := metrics.BootstrapPaired(s, s, y, metrics.AUC, 10, 0.9, 1)
			return err
		}),
		bin("diagnose.Comparisons.Misranking, binary", "diagnose", func(s, y []float64) error {
			_, _, err := binaryCmp.Misranking(s, y)
			return err
		}),
		bin("diagnose.Comparisons.SevereMass, binary", "diagnose", func(s, y []float64) error {
			_, _, err := binaryCmp.SevereMass(s, y, 1)
			return err
		}),
		bin("diagnose.Comparisons.CEBound, binary", "diagnose", func(s, y []float64) error {
			_, _, err := binaryCmp.CEBound(s, y, 1)
			return err
		}),
		bin("diagnose.Comparisons.WeightShares, binary", "diagnose", func(s, y []float64) error {
			_, _, err := binaryCmp.WeightShares(s, y, pcfg, edges)
			return err
		}),
		bin("diagnose.Comparisons.Project, binary", "diagnose", func(s, y []float64) error {
			_, err := binaryCmp.Project(s, y, s, pairwise.Config{Surrogate: pairwise.Logistic})
			return err
		}),
	)
	for _, e := range []entry{
		bin("kdequantile.Loss", "kdequantile", graphOp(func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, l, kdeCfg) })),
		bin("kdequantile.Threshold", "kdequantile", graphOp(func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Threshold(f, l, kdeCfg) })),
		bin("pairwise.Loss", "pairwise", graphOp(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
			return pairwise.Loss(f, l, pairwise.Config{Surrogate: pairwise.Hinge})
		})),
		bin("pairwise.Loss, MaxFPR and MinTPR", "pairwise", graphOp(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
			return pairwise.Loss(f, l, pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.5, MinTPR: 0.4})
		})),
		bin("aucm.Loss", "aucm", graphOp(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
			g := f.Graph()
			return aucm.Loss(f, l, scalarNode(g, "a", 0.5), scalarNode(g, "b", 0.5), scalarNode(g, "alpha", 0.1), aucm.Config{})
		})),
	} {
		e.graph = true
		out = append(out, e)
	}
	// The cross-entropies are defined on a batch of one class.
	for _, e := range []entry{
		bin("crossentropy.Evaluate", "crossentropy", func(s, y []float64) error { _, err := crossentropy.Evaluate(s, y, crossentropy.Config{}); return err }),
		bin("crossentropy.Gradient", "crossentropy", func(s, y []float64) error {
			_, _, err := crossentropy.Gradient(s, y, crossentropy.Config{})
			return err
		}),
		bin("crossentropy.GradientInto", "crossentropy", func(s, y []float64) error {
			_, err := crossentropy.GradientInto(make([]float64, len(s)), s, y, crossentropy.Config{})
			return err
		}),
		{name: "crossentropy.Loss", kind: rocops.Binary, prefix: "crossentropy", graph: true, call: func(in input) error {
			return runGraph(ceLoss, in.scores, in.labels)
		}},
		{name: "train.CrossEntropy", kind: rocops.Binary, prefix: "crossentropy", graph: true, call: func(in input) error {
			return runGraph(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				return train.CrossEntropy{}.Build(f, l, rocops.Task{})
			}, in.scores, in.labels)
		}},
	} {
		e.oneOK = true
		out = append(out, e)
	}
	return append(append(out, multiclassEntries()...), multilabelEntries()...)
}

// multiclassEntries are the entry points of k classes.
func multiclassEntries() []entry {
	var out []entry
	add := func(e entry) { e.kind = rocops.Multiclass; out = append(out, e) }
	for _, m := range []metrics.Method{metrics.OvR, metrics.OvO} {
		avgs := []metrics.Average{metrics.Macro, metrics.Weighted}
		if m == metrics.OvR {
			avgs = append(avgs, metrics.Micro)
		}
		for _, avg := range avgs {
			add(entry{name: "metrics.TaskAUC, classes, " + m.String() + ", " + avg.String(), prefix: "metrics", task: true,
				call: func(in input) error {
					_, err := metrics.TaskAUC(in.scores, in.labels, in.task(), m, avg)
					return err
				}})
		}
		name := ", " + m.String()
		cmp := func(in input) diagnose.Comparisons {
			return diagnose.Comparisons{Task: in.task(), OvO: m == metrics.OvO}
		}
		for _, e := range []entry{
			{name: "diagnose.Comparisons.Misranking, classes" + name, call: func(in input) error {
				_, _, err := cmp(in).Misranking(in.scores, in.labels)
				return err
			}},
			{name: "diagnose.Comparisons.SevereMass, classes" + name, call: func(in input) error {
				_, _, err := cmp(in).SevereMass(in.scores, in.labels, 1)
				return err
			}},
			{name: "diagnose.Comparisons.CEBound, classes" + name, call: func(in input) error {
				_, _, err := cmp(in).CEBound(in.scores, in.labels, 1)
				return err
			}},
			{name: "diagnose.Comparisons.WeightShares, classes" + name, call: func(in input) error {
				_, _, err := cmp(in).WeightShares(in.scores, in.labels, pcfg, edges)
				return err
			}},
			{name: "diagnose.Comparisons.Project, classes" + name, call: func(in input) error {
				_, err := cmp(in).Project(in.scores, in.labels, make([]float64, len(in.scores)), pcfg)
				return err
			}},
			{name: "diagnose.Comparisons.SevereDirection, classes" + name, model: true, call: func(in input) error {
				model, x, err := scoresModel(in.scores, in.k)
				if err != nil {
					return err
				}
				_, err = cmp(in).SevereDirection(model, x, in.labels, pcfg, severityM)
				return err
			}},
		} {
			e.prefix, e.task = "diagnose", true
			add(e)
		}
	}
	add(entry{name: "metrics.ClassAUCs, classes", prefix: "metrics", task: true, call: func(in input) error {
		_, err := metrics.ClassAUCs(in.scores, in.labels, in.task())
		return err
	}})
	for _, c := range []struct {
		name string
		cfg  pairwise.Config
	}{
		{"ovr", pcfg},
		{"ovo", withOvO(pcfg)},
		{"ovr, sampled pairs", pcfgPairs},
		{"ovo, MaxFPR and MinTPR", withOvO(pcfgCut)},
		{"ovr, MaxFPR and MinTPR", pcfgCut},
	} {
		add(entry{name: "pairwise.Gradient, classes, " + c.name, prefix: "pairwise", task: true, call: func(in input) error {
			cfg := c.cfg
			cfg.Task = in.task()
			_, _, err := pairwise.Gradient(in.scores, in.labels, cfg)
			return err
		}})
		add(entry{name: "pairwise.Loss, classes, " + c.name, prefix: "pairwise", graph: true, task: true, call: func(in input) error {
			return runRows(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				cfg := c.cfg
				cfg.Task = rocops.Classes(f.Shape()[1])
				return pairwise.Loss(f, l, cfg)
			}, in)
		}})
	}
	add(entry{name: "pairwise.Evaluate, classes", prefix: "pairwise", task: true, call: func(in input) error {
		_, err := pairwise.Evaluate(in.scores, in.labels, pairwise.Config{Task: in.task()})
		return err
	}})
	return append(out, columnEntries(rocops.Multiclass)...)
}

// multilabelEntries are the entry points of k labels.
func multilabelEntries() []entry {
	var out []entry
	add := func(e entry) { e.kind = rocops.Multilabel; out = append(out, e) }
	for _, avg := range []metrics.Average{metrics.Macro, metrics.Weighted, metrics.Micro} {
		add(entry{name: "metrics.TaskAUC, labels, " + avg.String(), prefix: "metrics", task: true,
			oneOK: avg == metrics.Micro, // one AUC over all n·k labels: a column of one class is fine
			call: func(in input) error {
				_, err := metrics.TaskAUC(in.scores, in.labels, in.task(), metrics.OvR, avg)
				return err
			}})
	}
	for _, c := range []struct {
		name string
		cfg  pairwise.Config
	}{{"", pcfg}, {", sampled pairs", pcfgPairs}, {", MaxFPR and MinTPR", pcfgCut}} {
		add(entry{name: "pairwise.Gradient, labels" + c.name, prefix: "pairwise", task: true, call: func(in input) error {
			cfg := c.cfg
			cfg.Task = in.task()
			_, _, err := pairwise.Gradient(in.scores, in.labels, cfg)
			return err
		}})
		add(entry{name: "pairwise.Loss, labels" + c.name, prefix: "pairwise", graph: true, task: true, call: func(in input) error {
			return runRows(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				cfg := c.cfg
				cfg.Task = rocops.Labels(f.Shape()[1])
				return pairwise.Loss(f, l, cfg)
			}, in)
		}})
	}
	for _, e := range []entry{
		{name: "diagnose.Comparisons.Misranking, labels", call: func(in input) error {
			_, _, err := (diagnose.Comparisons{Task: in.task()}).Misranking(in.scores, in.labels)
			return err
		}},
		{name: "diagnose.Comparisons.SevereMass, labels", call: func(in input) error {
			_, _, err := (diagnose.Comparisons{Task: in.task()}).SevereMass(in.scores, in.labels, 1)
			return err
		}},
		{name: "diagnose.Comparisons.CEBound, labels", call: func(in input) error {
			_, _, err := (diagnose.Comparisons{Task: in.task()}).CEBound(in.scores, in.labels, 1)
			return err
		}},
		{name: "diagnose.Comparisons.WeightShares, labels", call: func(in input) error {
			_, _, err := (diagnose.Comparisons{Task: in.task()}).WeightShares(in.scores, in.labels, pcfg, edges)
			return err
		}},
		{name: "diagnose.Comparisons.Project, labels", call: func(in input) error {
			_, err := (diagnose.Comparisons{Task: in.task()}).Project(in.scores, in.labels, make([]float64, len(in.scores)), pcfg)
			return err
		}},
		{name: "diagnose.Comparisons.SevereDirection, labels", model: true, call: func(in input) error {
			model, x, err := scoresModel(in.scores, in.k)
			if err != nil {
				return err
			}
			_, err = (diagnose.Comparisons{Task: in.task()}).SevereDirection(model, x, in.labels, pcfg, severityM)
			return err
		}},
	} {
		e.prefix, e.task = "diagnose", true
		add(e)
	}
	add(entry{name: "metrics.ClassAUCs, labels", prefix: "metrics", task: true, call: func(in input) error {
		_, err := metrics.ClassAUCs(in.scores, in.labels, in.task())
		return err
	}})
	return append(out, columnEntries(rocops.Multilabel)...)
}

// columnEntries are the entry points of aucm and crossentropy on tasks of k classes or labels.
func columnEntries(kind rocops.Kind) []entry {
	aux, alpha := []float64{0.5, 0.5, 0.5}, []float64{0.1, 0.1, 0.1}
	task := rocops.Classes
	if kind == rocops.Multilabel {
		task = rocops.Labels
	}
	out := []entry{
		{name: "aucm.Gradient, " + kind.String(), kind: kind, prefix: "aucm", task: true, call: func(in input) error {
			_, _, _, _, _, err := aucm.Gradient(in.scores, in.labels, aux, aux, alpha, aucm.Config{Task: in.task()})
			return err
		}},
		{name: "aucm.Optimum, " + kind.String(), kind: kind, prefix: "aucm", task: true, call: func(in input) error {
			_, err := aucm.Optimum(in.scores, in.labels, aucm.Config{Task: in.task()})
			return err
		}},
		{name: "aucm.Loss, " + kind.String(), kind: kind, prefix: "aucm", graph: true, task: true, call: func(in input) error {
			return runRows(aucmRows(task), in)
		}},
		{name: "crossentropy.Gradient, " + kind.String(), kind: kind, prefix: "crossentropy", oneOK: true, anyClasses: true, task: true, call: func(in input) error {
			_, _, err := crossentropy.Gradient(in.scores, in.labels, crossentropy.Config{Task: in.task()})
			return err
		}},
		{name: "crossentropy.Loss, " + kind.String(), kind: kind, prefix: "crossentropy", oneOK: true, anyClasses: true, graph: true, task: true,
			call: func(in input) error {
				return runRows(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
					return crossentropy.Loss(f, l, crossentropy.Config{Task: task(f.Shape()[1])})
				}, in)
			}},
	}
	if kind == rocops.Multiclass {
		out = append(out, entry{name: "crossentropy.Softmax", kind: kind, prefix: "crossentropy", oneOK: true, noLabels: true,
			call: func(in input) error {
				_, err := crossentropy.Softmax(in.scores, in.k)
				return err
			}})
	}
	return out
}

func withOvO(c pairwise.Config) pairwise.Config { c.OvO = true; return c }

// ceLoss is the binary crossentropy.Loss.
func ceLoss(f, l *gorgonia.Node) (*gorgonia.Node, error) {
	return crossentropy.Loss(f, l, crossentropy.Config{})
}

// graphOp returns the binary entry of a graph op: op built on input nodes holding s and y and
// run (see runGraph).
func graphOp(op func(f, l *gorgonia.Node) (*gorgonia.Node, error)) func(s, y []float64) error {
	return func(s, y []float64) error { return runGraph(op, s, y) }
}

// scalarNode returns a float64 scalar input node of g holding x.
func scalarNode(g *gorgonia.ExprGraph, name string, x float64) *gorgonia.Node {
	n, err := graph.Input(g, tensor.Float64, name, []float64{x}, []int{}...)
	if err != nil {
		panic(err)
	}
	return n
}

// runGraph builds op on input nodes holding s and y, runs it on a TapeMachine and returns the
// first error, from building or running. Empty input cannot be given a value; it is built as
// a vector of length 0, which the op must reject.
func runGraph(op func(f, l *gorgonia.Node) (*gorgonia.Node, error), s, y []float64) error {
	g := gorgonia.NewGraph()
	if _, err := op(vectorNode(g, "f", s), vectorNode(g, "l", y)); err != nil {
		return err
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	return graph.RunAll(vm)
}

func vectorNode(g *gorgonia.ExprGraph, name string, xs []float64) *gorgonia.Node {
	if len(xs) == 0 {
		return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(0), gorgonia.WithName(name))
	}
	return mustInput(g, name, xs)
}

// runRows is runGraph for ops on k columns: the scores an (n, k) matrix node, the labels an
// (n) vector of class indices or an (n, k) indicator matrix, in float64. No rows is a (0, k)
// matrix, which the op must reject.
func runRows(op func(f, l *gorgonia.Node) (*gorgonia.Node, error), in input) error {
	g := gorgonia.NewGraph()
	n := len(in.scores) / in.k
	var f, l *gorgonia.Node
	if n == 0 {
		f = gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(0, in.k), gorgonia.WithName("f"))
	} else {
		f = mustInput(g, "f", in.scores, n, in.k)
	}
	switch {
	case len(in.labels) == 0:
		l = gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(0), gorgonia.WithName("l"))
	case in.kind == rocops.Multilabel:
		l = mustInput(g, "l", in.labels, len(in.labels)/in.k, in.k)
	default:
		l = mustInput(g, "l", in.labels)
	}
	if _, err := op(f, l); err != nil {
		return err
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	return graph.RunAll(vm)
}

// aucmRows adapts aucm's loss on a task of k columns to runRows, with a, b and α (k) input
// vectors.
func aucmRows(task func(k int) rocops.Task) func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
	return func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
		g, k := f.Graph(), f.Shape()[1]
		vec := func(name string, x float64) *gorgonia.Node {
			xs := make([]float64, k)
			for i := range xs {
				xs[i] = x
			}
			return mustInput(g, name, xs)
		}
		return aucm.Loss(f, l, vec("a", 0.5), vec("b", 0.5), vec("alpha", 0.1), aucm.Config{Task: task(k)})
	}
}

func mustInput(g *gorgonia.ExprGraph, name string, xs []float64, shape ...int) *gorgonia.Node {
	n, err := graph.Input(g, tensor.Float64, name, xs, shape...)
	if err != nil {
		panic(err)
	}
	return n
}

// scoresModel returns a linear model of k outputs and its input x whose scores are s: x is the
// r×r identity for the r = len(s)/k rows, the weights the r×k matrix s and the biases 0. A
// non-finite weight makes its column's scores non-finite (∞·0 is NaN). With no rows it returns
// a model of one input and no x.
func scoresModel(s []float64, k int) (nn.Model, []float64, error) {
	r := len(s) / k
	m, err := nn.NewMLP(nn.MLPConfig{In: max(r, 1), Outputs: k})
	if err != nil || r == 0 {
		return m, nil, err
	}
	for _, p := range m.Params() {
		w := p.Value.Data().([]float64)
		switch p.Name {
		case "layer0.weight":
			copy(w, s)
		default:
			clear(w)
		}
	}
	x := make([]float64, r*r)
	for i := range r {
		x[i*r+i] = 1
	}
	return m, x, nil
}

// TestScoresModel: the model the severe-direction entries are run on gives back the scores.
func TestScoresModel(t *testing.T) {
	m, x, err := scoresModel(kScores, kCols)
	require.NoError(t, err)
	got, err := nn.Scores(m, x, len(kScores)/kCols)
	require.NoError(t, err)
	for i, s := range kScores {
		require.Equal(t, s, got[i], "score %d: %v, want %v", i, got[i], s)
	}
}
