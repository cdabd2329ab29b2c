package check_test

import (
	"math"
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
	"github.com/rocops/rocops/ops/pairwise"
)

// kIn is the input of a k-class or k-label entry point: scores row-major n×k, and either class
// indices (multi-class) or a row-major n×k 0/1 indicator (multi-label).
type kIn struct {
	scores  []float64
	k       int
	classes []int
	labels  []float64
}

// The k-class test batch: n = 6 rows of k = 3 scores, every class with rows and every label
// column with both values, and misranked pairs in every comparison (for the severe directions).
var (
	kScores = []float64{
		0.2, -1, 2,
		0.5, 1.5, -0.3,
		-0.7, 0.9, 1.1,
		1.3, -0.4, 0.6,
		-1.2, 0.3, -0.8,
		0.8, -0.6, 0.1,
	}
	kClasses   = []int{0, 1, 2, 0, 1, 2}
	kIndicator = []float64{
		1, 0, 1,
		0, 1, 0,
		1, 1, 0,
		0, 0, 1,
		1, 0, 0,
		0, 1, 1,
	}
)

const kCols = 3

// with returns a copy of xs with xs[i] = v.
func with[T any](xs []T, i int, v T) []T {
	out := append([]T(nil), xs...)
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

var (
	nan, inf   = math.NaN(), math.Inf(1)
	extraRow   = append(append([]float64(nil), kScores...), 0.4, -0.2, 0.9)
	pcfg       = pairwise.Config{Surrogate: pairwise.SquaredHinge}
	pcfgCut    = pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.5, MinTPR: 0.4}
	pcfgPairs  = pairwise.Config{Surrogate: pairwise.Logistic, Pairs: 8, Seed: 3}
	edges      = []float64{-10, 0, 10}
	aux3       = []float64{0.5, 0.5, 0.5}
	alpha3     = []float64{0.1, 0.1, 0.1}
	severityM  = 0.1
	zeroCopies = func(s []float64) []float64 { return make([]float64, len(s)) }
)

// multiclassCases are the bad multi-class inputs of the shared list.
func multiclassCases() []vocabCase[kIn] {
	in := func(s []float64, k int, y []int) kIn { return kIn{scores: s, k: k, classes: y} }
	return []vocabCase[kIn]{
		{name: "no rows", in: in(nil, kCols, nil), want: rocops.ErrEmpty},
		{name: "labels short", in: in(kScores, kCols, kClasses[:5]), want: rocops.ErrLength, labels: true},
		{name: "scores of an extra row", in: in(extraRow, kCols, kClasses), want: rocops.ErrLength, labels: true},
		{name: "ragged scores", in: in(kScores[:17], kCols, kClasses), want: rocops.ErrLength, shape: true},
		{name: "k = 0", in: in(kScores, 0, kClasses), want: rocops.ErrLength, shape: true, fewK: true},
		{name: "NaN score", in: in(with(kScores, 4, nan), kCols, kClasses), want: rocops.ErrNonFinite},
		{name: "+Inf score", in: in(with(kScores, 8, inf), kCols, kClasses), want: rocops.ErrNonFinite},
		{name: "-Inf score", in: in(with(kScores, 0, -inf), kCols, kClasses), want: rocops.ErrNonFinite},
		{name: "label k", in: in(kScores, kCols, with(kClasses, 2, kCols)), want: rocops.ErrLabel, labels: true},
		{name: "label -1", in: in(kScores, kCols, with(kClasses, 5, -1)), want: rocops.ErrLabel, labels: true},
		{name: "class without rows", in: in(kScores, kCols, []int{0, 2, 0, 0, 2, 2}), want: rocops.ErrOneClass,
			oneClass: true, labels: true},
		{name: "k = 1", in: in(kScores[:6], 1, make([]int, 6)), want: rocops.ErrOneClass, oneClass: true, labels: true, fewK: true},
	}
}

// multilabelCases are the bad multi-label inputs of the shared list.
func multilabelCases() []vocabCase[kIn] {
	in := func(s []float64, k int, y []float64) kIn { return kIn{scores: s, k: k, labels: y} }
	return []vocabCase[kIn]{
		{name: "no rows", in: in(nil, kCols, nil), want: rocops.ErrEmpty},
		{name: "labels short", in: in(kScores, kCols, kIndicator[:15]), want: rocops.ErrLength, labels: true},
		{name: "scores of an extra row", in: in(extraRow, kCols, kIndicator), want: rocops.ErrLength, labels: true},
		{name: "ragged labels", in: in(kScores, kCols, kIndicator[:17]), want: rocops.ErrLength, shape: true},
		{name: "ragged scores", in: in(kScores[:17], kCols, kIndicator), want: rocops.ErrLength, shape: true},
		{name: "k = 0", in: in(kScores, 0, kIndicator), want: rocops.ErrLength, shape: true, fewK: true},
		{name: "NaN score", in: in(with(kScores, 4, nan), kCols, kIndicator), want: rocops.ErrNonFinite},
		{name: "+Inf score", in: in(with(kScores, 8, inf), kCols, kIndicator), want: rocops.ErrNonFinite},
		{name: "-Inf score", in: in(with(kScores, 0, -inf), kCols, kIndicator), want: rocops.ErrNonFinite},
		{name: "label 2", in: in(kScores, kCols, with(kIndicator, 7, 2)), want: rocops.ErrLabel, labels: true},
		{name: "label 0.5", in: in(kScores, kCols, with(kIndicator, 3, 0.5)), want: rocops.ErrLabel, labels: true},
		{name: "label NaN", in: in(kScores, kCols, with(kIndicator, 11, nan)), want: rocops.ErrLabel, labels: true},
		{name: "column of 0s", in: in(kScores, kCols, column(1, 0)), want: rocops.ErrNoPositives, oneClass: true, labels: true},
		{name: "column of 1s", in: in(kScores, kCols, column(2, 1)), want: rocops.ErrNoNegatives, oneClass: true, labels: true},
		// Valid for no multi-label entry: even the micro average needs both classes somewhere.
		{name: "every label 0", in: in(kScores, kCols, make([]float64, 18)), want: rocops.ErrNoPositives, labels: true},
	}
}

func multiclassEntries() []entry[kIn] {
	var out []entry[kIn]
	for _, m := range []metrics.Method{metrics.OvR, metrics.OvO} {
		avgs := []metrics.Average{metrics.Macro, metrics.Weighted}
		if m == metrics.OvR {
			avgs = append(avgs, metrics.Micro)
		}
		for _, avg := range avgs {
			out = append(out, entry[kIn]{name: "metrics.MulticlassAUC, " + m.String() + ", " + avg.String(),
				prefix: "metrics", call: func(in kIn) error {
					_, err := metrics.MulticlassAUC(in.scores, in.k, in.classes, m, avg)
					return err
				}})
		}
		name := ", " + m.String()
		out = append(out,
			entry[kIn]{name: "diagnose.MulticlassMisranking" + name, prefix: "diagnose", call: func(in kIn) error {
				_, _, err := diagnose.MulticlassMisranking(in.scores, in.k, in.classes, m)
				return err
			}},
			entry[kIn]{name: "diagnose.MulticlassSevereMass" + name, prefix: "diagnose", call: func(in kIn) error {
				_, _, err := diagnose.MulticlassSevereMass(in.scores, in.k, in.classes, m, 1)
				return err
			}},
			entry[kIn]{name: "diagnose.MulticlassCEBound" + name, prefix: "diagnose", call: func(in kIn) error {
				_, _, err := diagnose.MulticlassCEBound(in.scores, in.k, in.classes, m, 1)
				return err
			}},
			entry[kIn]{name: "diagnose.MulticlassWeightShares" + name, prefix: "diagnose", call: func(in kIn) error {
				_, _, err := diagnose.MulticlassWeightShares(in.scores, in.k, in.classes, m, pcfg, edges)
				return err
			}},
			entry[kIn]{name: "diagnose.MulticlassProject" + name, prefix: "diagnose", call: func(in kIn) error {
				_, err := diagnose.MulticlassProject(in.scores, in.k, in.classes, zeroCopies(in.scores), m, pcfg)
				return err
			}},
			entry[kIn]{name: "diagnose.MulticlassSevereDirection" + name, prefix: "diagnose", model: true,
				call: func(in kIn) error {
					model, x, err := scoresModel(in.scores, in.k)
					if err != nil {
						return err
					}
					_, err = diagnose.MulticlassSevereDirection(model, x, in.k, in.classes, m, pcfg, severityM)
					return err
				}},
		)
	}
	ovo := func(c pairwise.Config) pairwise.Config { c.OvO = true; return c }
	for _, c := range []struct {
		name string
		cfg  pairwise.Config
	}{
		{"ovr", pcfg},
		{"ovo", ovo(pcfg)},
		{"ovr, sampled pairs", pcfgPairs},
		{"ovo, MaxFPR and MinTPR", ovo(pcfgCut)},
		{"ovr, MaxFPR and MinTPR", pcfgCut},
	} {
		out = append(out,
			entry[kIn]{name: "pairwise.Gradient, classes, " + c.name, prefix: "pairwise", task: true, call: func(in kIn) error {
				cfg := c.cfg
				cfg.Task = rocops.Classes(in.k)
				_, _, err := pairwise.Gradient(in.scores, floatClasses(in.classes), cfg)
				return err
			}},
			entry[kIn]{name: "pairwise.Loss, classes, " + c.name, prefix: "pairwise", graph: true, task: true, call: func(in kIn) error {
				return runRows(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
					cfg := c.cfg
					cfg.Task = rocops.Classes(f.Shape()[1])
					return pairwise.Loss(f, l, cfg)
				}, in)
			}},
		)
	}
	return append(out,
		entry[kIn]{name: "metrics.ClassAUCs", prefix: "metrics", call: func(in kIn) error {
			_, err := metrics.ClassAUCs(in.scores, in.k, in.classes)
			return err
		}},
		entry[kIn]{name: "crossentropy.Gradient, classes", prefix: "crossentropy", oneOK: true, task: true, call: func(in kIn) error {
			_, _, err := crossentropy.Gradient(in.scores, floatClasses(in.classes), crossentropy.Config{Task: rocops.Classes(in.k)})
			return err
		}},
		entry[kIn]{name: "crossentropy.Loss, classes", prefix: "crossentropy", oneOK: true, graph: true, task: true, call: func(in kIn) error {
			return runRows(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				return crossentropy.Loss(f, l, crossentropy.Config{Task: rocops.Classes(f.Shape()[1])})
			}, in)
		}},
		entry[kIn]{name: "crossentropy.Softmax", prefix: "crossentropy", oneOK: true, noLabels: true, call: func(in kIn) error {
			_, err := crossentropy.Softmax(in.scores, in.k)
			return err
		}},
		entry[kIn]{name: "aucm.Gradient, classes", prefix: "aucm", task: true, call: func(in kIn) error {
			_, _, _, _, _, err := aucm.Gradient(in.scores, floatClasses(in.classes), aux3, aux3, alpha3, aucm.Config{Task: rocops.Classes(in.k)})
			return err
		}},
		entry[kIn]{name: "aucm.Loss, classes", prefix: "aucm", graph: true, task: true, call: func(in kIn) error {
			return runRows(aucmRows(rocops.Classes), in)
		}},
	)
}

func multilabelEntries() []entry[kIn] {
	var out []entry[kIn]
	for _, avg := range []metrics.Average{metrics.Macro, metrics.Weighted, metrics.Micro} {
		out = append(out, entry[kIn]{name: "metrics.MultilabelAUC, " + avg.String(), prefix: "metrics",
			oneOK: avg == metrics.Micro, // one AUC over all n·k labels: a column of one class is fine
			call: func(in kIn) error {
				_, err := metrics.MultilabelAUC(in.scores, in.k, in.labels, avg)
				return err
			}})
	}
	for _, c := range []struct {
		name string
		cfg  pairwise.Config
	}{{"", pcfg}, {", sampled pairs", pcfgPairs}, {", MaxFPR and MinTPR", pcfgCut}} {
		out = append(out,
			entry[kIn]{name: "pairwise.Gradient, labels" + c.name, prefix: "pairwise", task: true, call: func(in kIn) error {
				cfg := c.cfg
				cfg.Task = rocops.Labels(in.k)
				_, _, err := pairwise.Gradient(in.scores, in.labels, cfg)
				return err
			}},
			entry[kIn]{name: "pairwise.Loss, labels" + c.name, prefix: "pairwise", graph: true, task: true, call: func(in kIn) error {
				return runRows(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
					cfg := c.cfg
					cfg.Task = rocops.Labels(f.Shape()[1])
					return pairwise.Loss(f, l, cfg)
				}, in)
			}},
		)
	}
	return append(out,
		entry[kIn]{name: "aucm.Gradient, labels", prefix: "aucm", task: true, call: func(in kIn) error {
			_, _, _, _, _, err := aucm.Gradient(in.scores, in.labels, aux3, aux3, alpha3, aucm.Config{Task: rocops.Labels(in.k)})
			return err
		}},
		entry[kIn]{name: "aucm.Loss, labels", prefix: "aucm", graph: true, task: true, call: func(in kIn) error {
			return runRows(aucmRows(rocops.Labels), in)
		}},
		entry[kIn]{name: "diagnose.MultilabelMisranking", prefix: "diagnose", call: func(in kIn) error {
			_, _, err := diagnose.MultilabelMisranking(in.scores, in.k, in.labels)
			return err
		}},
		entry[kIn]{name: "diagnose.MultilabelSevereMass", prefix: "diagnose", call: func(in kIn) error {
			_, _, err := diagnose.MultilabelSevereMass(in.scores, in.k, in.labels, 1)
			return err
		}},
		entry[kIn]{name: "diagnose.MultilabelCEBound", prefix: "diagnose", call: func(in kIn) error {
			_, _, err := diagnose.MultilabelCEBound(in.scores, in.k, in.labels, 1)
			return err
		}},
		entry[kIn]{name: "diagnose.MultilabelWeightShares", prefix: "diagnose", call: func(in kIn) error {
			_, _, err := diagnose.MultilabelWeightShares(in.scores, in.k, in.labels, pcfg, edges)
			return err
		}},
		entry[kIn]{name: "diagnose.MultilabelProject", prefix: "diagnose", call: func(in kIn) error {
			_, err := diagnose.MultilabelProject(in.scores, in.k, in.labels, zeroCopies(in.scores), pcfg)
			return err
		}},
		entry[kIn]{name: "diagnose.MultilabelSevereDirection", prefix: "diagnose", model: true, call: func(in kIn) error {
			model, x, err := scoresModel(in.scores, in.k)
			if err != nil {
				return err
			}
			_, err = diagnose.MultilabelSevereDirection(model, x, in.k, in.labels, pcfg, severityM)
			return err
		}},
	)
}

// TestVocabularyKClass runs every bad k-class and k-label input of the shared list through
// every multi-class and multi-label entry point, with the driver of TestVocabulary.
func TestVocabularyKClass(t *testing.T) {
	checkVocabulary(t, multiclassEntries(), kIn{scores: kScores, k: kCols, classes: kClasses}, multiclassCases())
	checkVocabulary(t, multilabelEntries(), kIn{scores: kScores, k: kCols, labels: kIndicator}, multilabelCases())
}

// TestScoresModel: the model the severe-direction entries are run on gives back the scores.
func TestScoresModel(t *testing.T) {
	m, x, err := scoresModel(kScores, kCols)
	if err != nil {
		t.Fatal(err)
	}
	got, err := nn.Scores(m, x, len(kScores)/kCols)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range kScores {
		if got[i] != s {
			t.Fatalf("score %d: %v, want %v", i, got[i], s)
		}
	}
}

// scoresModel returns a linear model of k outputs and its input x whose scores are s: x is the
// r×r identity for the r = len(s)/k rows, the weights the r×k matrix s and the biases 0. A
// non-finite weight makes its column's scores non-finite (∞·0 is NaN). With no rows it returns
// a model of one input and no x.
func scoresModel(s []float64, k int) (nn.Model, []float64, error) {
	r := len(s) / k
	m, err := nn.NewLinear(nn.LinearConfig{In: max(r, 1), Outputs: k})
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

// floatClasses returns class indices in float64, as the task-general losses take them.
func floatClasses(classes []int) []float64 {
	out := make([]float64, len(classes))
	for i, y := range classes {
		out[i] = float64(y)
	}
	return out
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
			n, err := graph.Input(g, tensor.Float64, name, xs)
			if err != nil {
				panic(err)
			}
			return n
		}
		return aucm.Loss(f, l, vec("a", 0.5), vec("b", 0.5), vec("alpha", 0.1), aucm.Config{Task: task(k)})
	}
}

// runRows is runGraph for k-column ops: the scores an (n, k) matrix node, the labels an (n)
// vector of class indices or an (n, k) indicator matrix, in float64. No rows is a (0, k)
// matrix, which the op must reject.
func runRows(op func(f, l *gorgonia.Node) (*gorgonia.Node, error), in kIn) error {
	g := gorgonia.NewGraph()
	n := len(in.scores) / in.k
	var f, l *gorgonia.Node
	if n == 0 {
		f = gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(0, in.k), gorgonia.WithName("f"))
	} else {
		f = mustInput(g, "f", in.scores, n, in.k)
	}
	switch {
	case in.labels != nil:
		l = mustInput(g, "l", in.labels, len(in.labels)/in.k, in.k)
	case len(in.classes) > 0:
		ys := make([]float64, len(in.classes))
		for i, y := range in.classes {
			ys[i] = float64(y)
		}
		l = mustInput(g, "l", ys)
	default:
		l = gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(0), gorgonia.WithName("l"))
	}
	if _, err := op(f, l); err != nil {
		return err
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	return graph.RunAll(vm)
}

func mustInput(g *gorgonia.ExprGraph, name string, xs []float64, shape ...int) *gorgonia.Node {
	n, err := graph.Input(g, tensor.Float64, name, xs, shape...)
	if err != nil {
		panic(err)
	}
	return n
}
