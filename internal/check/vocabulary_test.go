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
)

// sliceEntry is a public function of (scores, labels) that validates its input.
type sliceEntry struct {
	name   string
	prefix string // the package name its messages start with
	oneOK  bool   // defined on a batch of one class (cross-entropy)
	graph  bool   // a graph op: an empty input is a zero-length node, ErrNode
	call   func(scores, labels []float64) error
}

var kdeCfg = kdequantile.Config{Alpha: 0.25}

func sliceEntries() []sliceEntry {
	return []sliceEntry{
		{"kdequantile.Evaluate", "kdequantile", false, false, func(s, y []float64) error {
			_, err := kdequantile.Evaluate(s, y, kdeCfg)
			return err
		}},
		{"kdequantile.Gradient", "kdequantile", false, false, func(s, y []float64) error {
			_, _, err := kdequantile.Gradient(s, y, kdeCfg)
			return err
		}},
		{"pairwise.Evaluate", "pairwise", false, false, func(s, y []float64) error {
			_, err := pairwise.Evaluate(s, y, pairwise.Config{Surrogate: pairwise.SquaredHinge})
			return err
		}},
		{"pairwise.Gradient", "pairwise", false, false, func(s, y []float64) error {
			_, _, err := pairwise.Gradient(s, y, pairwise.Config{Surrogate: pairwise.Logistic, Pairs: 8})
			return err
		}},
		{"pairwise.Evaluate, MaxFPR", "pairwise", false, false, func(s, y []float64) error {
			_, err := pairwise.Evaluate(s, y, pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.5})
			return err
		}},
		{"pairwise.Gradient, MaxFPR and MinTPR", "pairwise", false, false, func(s, y []float64) error {
			_, _, err := pairwise.Gradient(s, y, pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.5, MinTPR: 0.4})
			return err
		}},
		{"pairwise.GradientInto, MinTPR", "pairwise", false, false, func(s, y []float64) error {
			_, err := pairwise.GradientInto(make([]float64, len(s)), s, y,
				pairwise.Config{Surrogate: pairwise.Logistic, MinTPR: 0.4})
			return err
		}},
		{"aucm.Evaluate", "aucm", false, false, func(s, y []float64) error {
			_, err := aucm.Evaluate(s, y, []float64{0.5}, []float64{0.5}, []float64{0.1}, aucm.Config{})
			return err
		}},
		{"aucm.Gradient", "aucm", false, false, func(s, y []float64) error {
			_, _, _, _, _, err := aucm.Gradient(s, y, []float64{0.5}, []float64{0.5}, []float64{0.1}, aucm.Config{})
			return err
		}},
		{"aucm.Optimum", "aucm", false, false, func(s, y []float64) error {
			_, err := aucm.Optimum(s, y, aucm.Config{})
			return err
		}},
		{"metrics.AUC", "metrics", false, false, func(s, y []float64) error {
			_, err := metrics.AUC(s, y)
			return err
		}},
		{"metrics.PartialAUC", "metrics", false, false, func(s, y []float64) error {
			_, err := metrics.PartialAUC(s, y, 0.5)
			return err
		}},
		{"metrics.TPRAtFPR", "metrics", false, false, func(s, y []float64) error {
			_, err := metrics.TPRAtFPR(s, y, 0.5)
			return err
		}},
		{"metrics.ROC", "metrics", false, false, func(s, y []float64) error {
			_, _, _, err := metrics.ROC(s, y)
			return err
		}},
		{"metrics.DeLong", "metrics", false, false, func(s, y []float64) error {
			_, _, err := metrics.DeLong(s, y)
			return err
		}},
		{"metrics.DeLongPaired", "metrics", false, false, func(s, y []float64) error {
			_, _, _, err := metrics.DeLongPaired(s, s, y)
			return err
		}},
		{"metrics.ThresholdAtFPR", "metrics", false, false, func(s, y []float64) error {
			_, _, _, err := metrics.ThresholdAtFPR(s, y, 0.5)
			return err
		}},
		{"metrics.FPRAtTPR", "metrics", false, false, func(s, y []float64) error {
			_, err := metrics.FPRAtTPR(s, y, 0.5)
			return err
		}},
		{"metrics.Bootstrap", "metrics", false, false, func(s, y []float64) error {
			_, _, err := metrics.Bootstrap(s, y, metrics.AUC, 10, 0.9, 1)
			return err
		}},
		{"diagnose.Misranking", "diagnose", false, false, func(s, y []float64) error {
			_, err := diagnose.Misranking(s, y)
			return err
		}},
		{"diagnose.SevereMass", "diagnose", false, false, func(s, y []float64) error {
			_, err := diagnose.SevereMass(s, y, 1)
			return err
		}},
		{"diagnose.CEBound", "diagnose", false, false, func(s, y []float64) error {
			_, err := diagnose.CEBound(s, y, 1)
			return err
		}},
		{"diagnose.WeightShares", "diagnose", false, false, func(s, y []float64) error {
			_, err := diagnose.WeightShares(s, y, pairwise.Config{Surrogate: pairwise.SquaredHinge}, []float64{-10, 0, 10})
			return err
		}},
		{"diagnose.Project", "diagnose", false, false, func(s, y []float64) error {
			_, err := diagnose.Project(s, y, s, pairwise.Config{Surrogate: pairwise.Logistic})
			return err
		}},
		{"crossentropy.Evaluate", "crossentropy", true, false, func(s, y []float64) error {
			_, err := crossentropy.Evaluate(s, y, crossentropy.Config{})
			return err
		}},
		{"crossentropy.Gradient", "crossentropy", true, false, func(s, y []float64) error {
			_, _, err := crossentropy.Gradient(s, y, crossentropy.Config{})
			return err
		}},
		{"crossentropy.GradientInto", "crossentropy", true, false, func(s, y []float64) error {
			_, err := crossentropy.GradientInto(make([]float64, len(s)), s, y, crossentropy.Config{})
			return err
		}},
		{"crossentropy.Loss", "crossentropy", true, true, func(s, y []float64) error {
			return runGraph(ceLoss, s, y)
		}},
		{"train.CrossEntropy", "crossentropy", true, true, func(s, y []float64) error {
			return runGraph(train.CrossEntropy{}.Build, s, y)
		}},
		{"kdequantile.Loss", "kdequantile", false, true, func(s, y []float64) error {
			return runGraph(func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, l, kdeCfg) }, s, y)
		}},
		{"kdequantile.Threshold", "kdequantile", false, true, func(s, y []float64) error {
			return runGraph(func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Threshold(f, l, kdeCfg) }, s, y)
		}},
		{"pairwise.Loss", "pairwise", false, true, func(s, y []float64) error {
			return runGraph(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				return pairwise.Loss(f, l, pairwise.Config{Surrogate: pairwise.Hinge})
			}, s, y)
		}},
		{"pairwise.Loss, MaxFPR and MinTPR", "pairwise", false, true, func(s, y []float64) error {
			return runGraph(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				return pairwise.Loss(f, l, pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.5, MinTPR: 0.4})
			}, s, y)
		}},
		{"aucm.Loss", "aucm", false, true, func(s, y []float64) error {
			return runGraph(func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
				g := f.Graph()
				return aucm.Loss(f, l, scalarNode(g, "a", 0.5), scalarNode(g, "b", 0.5), scalarNode(g, "alpha", 0.1), aucm.Config{})
			}, s, y)
		}},
	}
}

// ceLoss is the binary crossentropy.Loss.
func ceLoss(f, l *gorgonia.Node) (*gorgonia.Node, error) {
	return crossentropy.Loss(f, l, crossentropy.Config{})
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
	f, l := vectorNode(g, "f", s), vectorNode(g, "l", y)
	out, err := op(f, l)
	if err != nil {
		return err
	}
	_ = out
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	return graph.RunAll(vm)
}

func vectorNode(g *gorgonia.ExprGraph, name string, xs []float64) *gorgonia.Node {
	if len(xs) == 0 {
		return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(0), gorgonia.WithName(name))
	}
	n, err := graph.Input(g, tensor.Float64, name, xs)
	if err != nil {
		panic(err)
	}
	return n
}

// binaryIn is the input of a binary entry point: scores and their 0/1 labels.
type binaryIn struct{ scores, labels []float64 }

// vocabCase is one bad input of the shared list and the sentinel it must give.
type vocabCase[In any] struct {
	name     string
	in       In
	want     error
	oneClass bool // bad only in lacking a class: valid for an entry that is oneOK
	labels   bool // bad only in its labels or in how they pair with the scores: valid for an entry without labels
	shape    bool // a shape a matrix node or a model's outputs cannot have (ragged, k = 0): not run on those
	fewK     bool // fewer than two columns: for an entry whose task has k, a setting error (rocops.ErrConfig)
}

// entry is one public function of (scores, labels) input and what the vocabulary asks of it.
type entry[In any] struct {
	name   string
	prefix string // the package name its messages start with
	oneOK  bool   // defined on a batch that lacks a class (the cross-entropies)
	graph  bool   // a graph op: an empty input is a node of zero rows, ErrNode
	// model: the scores are a model's outputs on the rows of x (the severe directions). A score
	// the model gives as NaN or ±Inf is nn.ErrRange, and x not of the labels' rows nn.ErrInput,
	// both checked by package nn as for diagnose.SevereDirection.
	model    bool
	noLabels bool // takes no labels (crossentropy.Softmax)
	task     bool // takes k as a rocops.Task, which cannot have fewer than two classes or labels
	call     func(In) error
}

// checkVocabulary runs every case through every entry: the valid input gives no error, and
// each bad one the exact sentinel (or, for a case the entry is defined on, no error), with a
// message that starts with the entry's package name.
func checkVocabulary[In any](t *testing.T, entries []entry[In], valid In, cases []vocabCase[In]) {
	t.Helper()
	for _, e := range entries {
		if err := e.call(valid); err != nil {
			t.Errorf("%s on valid input: %v", e.name, err)
			continue
		}
		for _, c := range cases {
			if c.shape && (e.graph || e.model) {
				continue
			}
			err := e.call(c.in)
			if c.fewK && e.task {
				if !errors.Is(err, rocops.ErrConfig) || !strings.HasPrefix(err.Error(), e.prefix+": ") {
					t.Errorf("%s, %s: %v; want %s's ErrConfig", e.name, c.name, err, e.prefix)
				}
				continue
			}
			if (c.oneClass && e.oneOK) || (c.labels && e.noLabels) {
				if err != nil {
					t.Errorf("%s, %s: %v; want no error", e.name, c.name, err)
				}
				continue
			}
			want, prefix := c.want, e.prefix
			switch {
			case e.graph && want == rocops.ErrEmpty:
				want = rocops.ErrNode
			case e.model && want == rocops.ErrLength && c.labels:
				want, prefix = nn.ErrInput, "nn"
			case e.model && want == rocops.ErrNonFinite:
				want, prefix = nn.ErrRange, "nn"
			}
			if !errors.Is(err, want) {
				t.Errorf("%s, %s: %v; want %v", e.name, c.name, err, want)
				continue
			}
			if c.oneClass && !errors.Is(err, rocops.ErrOneClass) {
				t.Errorf("%s, %s: %v does not match ErrOneClass", e.name, c.name, err)
			}
			// A graph op's error from a run is the op's own inside the machine's RunError.
			var run *graph.RunError
			if errors.As(err, &run) {
				err = run.Err
			}
			if msg := err.Error(); !strings.HasPrefix(msg, prefix+": ") {
				t.Errorf("%s, %s: message %q does not start with package %s", e.name, c.name, msg, prefix)
			}
		}
	}
}

// TestVocabulary runs every bad input of the shared list through every binary entry point
// and checks the exact sentinel, and that it is the same value in every package.
func TestVocabulary(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := []float64{0.2, -1, 2, 0.5}
	labels := []float64{1, 0, 0, 1}
	bad := []vocabCase[binaryIn]{
		{name: "empty", want: rocops.ErrEmpty},
		{name: "length", in: binaryIn{ok, labels[:3]}, want: rocops.ErrLength},
		{name: "NaN score", in: binaryIn{[]float64{0.2, nan, 2, 0.5}, labels}, want: rocops.ErrNonFinite},
		{name: "+Inf score", in: binaryIn{[]float64{0.2, -1, inf, 0.5}, labels}, want: rocops.ErrNonFinite},
		{name: "-Inf score", in: binaryIn{[]float64{-inf, -1, 2, 0.5}, labels}, want: rocops.ErrNonFinite},
		{name: "label 2", in: binaryIn{ok, []float64{1, 0, 2, 1}}, want: rocops.ErrLabel},
		{name: "label 0.5", in: binaryIn{ok, []float64{1, 0.5, 0, 1}}, want: rocops.ErrLabel},
		{name: "label NaN", in: binaryIn{ok, []float64{1, 0, nan, 1}}, want: rocops.ErrLabel},
		{name: "no positives", in: binaryIn{ok, []float64{0, 0, 0, 0}}, want: rocops.ErrNoPositives, oneClass: true},
		{name: "no negatives", in: binaryIn{ok, []float64{1, 1, 1, 1}}, want: rocops.ErrNoNegatives, oneClass: true},
	}
	var entries []entry[binaryIn]
	for _, e := range sliceEntries() {
		entries = append(entries, entry[binaryIn]{name: e.name, prefix: e.prefix, oneOK: e.oneOK, graph: e.graph,
			call: func(in binaryIn) error { return e.call(in.scores, in.labels) }})
	}
	checkVocabulary(t, entries, binaryIn{ok, labels}, bad)
	same := []struct {
		name      string
		got, want error
	}{
		{"rocops.ErrLength", rocops.ErrLength, rocops.ErrLength},
		{"rocops.ErrLength", rocops.ErrLength, rocops.ErrLength},
		{"rocops.ErrLength", rocops.ErrLength, rocops.ErrLength},
		{"rocops.ErrOneClass", rocops.ErrOneClass, rocops.ErrOneClass},
		{"rocops.ErrNoPositives", rocops.ErrNoPositives, rocops.ErrNoPositives},
		{"rocops.ErrNoNegatives", rocops.ErrNoNegatives, rocops.ErrNoNegatives},
		{"rocops.ErrNonFinite", rocops.ErrNonFinite, rocops.ErrNonFinite},
		{"rocops.ErrLabel", rocops.ErrLabel, rocops.ErrLabel},
		{"rocops.ErrEmpty", rocops.ErrEmpty, rocops.ErrEmpty},
		{"rocops.ErrNode", rocops.ErrNode, rocops.ErrNode},
		{"rocops.ErrLength", rocops.ErrLength, rocops.ErrLength},
		{"rocops.ErrOneClass", rocops.ErrOneClass, rocops.ErrOneClass},
		{"rocops.ErrLabel", rocops.ErrLabel, rocops.ErrLabel},
		{"rocops.ErrNode", rocops.ErrNode, rocops.ErrNode},
		{"rocops.ErrNonFinite", rocops.ErrNonFinite, rocops.ErrNonFinite},
		{"rocops.ErrEmpty", rocops.ErrEmpty, rocops.ErrEmpty},
	}
	for _, s := range same {
		if s.got != s.want {
			t.Errorf("%s is not the shared value", s.name)
		}
	}
}

// TestNodeErrors builds every graph entry point on nodes that cannot feed it.
func TestNodeErrors(t *testing.T) {
	builders := []struct {
		name string
		op   func(f, l *gorgonia.Node) (*gorgonia.Node, error)
	}{
		{"kdequantile.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, l, kdeCfg) }},
		{"kdequantile.Threshold", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Threshold(f, l, kdeCfg) }},
		{"pairwise.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return pairwise.Loss(f, l, pairwise.Config{}) }},
		{"crossentropy.Loss", ceLoss},
		{"train.CrossEntropy", train.CrossEntropy{}.Build},
	}
	g, other := gorgonia.NewGraph(), gorgonia.NewGraph()
	vec := func(g *gorgonia.ExprGraph, dt tensor.Dtype, name string, n int) *gorgonia.Node {
		return gorgonia.NewVector(g, dt, gorgonia.WithShape(n), gorgonia.WithName(name))
	}
	f64 := vec(g, tensor.Float64, "f64", 4)
	cases := []struct {
		name           string
		scores, labels *gorgonia.Node
		want           error
	}{
		{"nil scores", nil, f64, rocops.ErrNode},
		{"nil labels", f64, nil, rocops.ErrNode},
		{"two graphs", f64, vec(other, tensor.Float64, "far", 4), rocops.ErrNode},
		{"int dtype", vec(g, tensor.Int, "ints", 4), vec(g, tensor.Int, "ints2", 4), rocops.ErrNode},
		{"mixed dtypes", f64, vec(g, tensor.Float32, "f32", 4), rocops.ErrNode},
		{"matrix", gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4, 2), gorgonia.WithName("m")), f64, rocops.ErrNode},
		{"no shape", gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("noshape")), f64, rocops.ErrNode},
		{"zero length", vec(g, tensor.Float64, "zero", 0), vec(g, tensor.Float64, "zero2", 0), rocops.ErrNode},
		{"lengths", f64, vec(g, tensor.Float64, "short", 3), rocops.ErrLength},
	}
	for _, b := range builders {
		for _, c := range cases {
			_, err := b.op(c.scores, c.labels)
			if !errors.Is(err, c.want) {
				t.Errorf("%s, %s: %v; want %v", b.name, c.name, err, c.want)
			}
		}
	}
}

// TestReusedLispMachine: every loss op fails with its package's ErrMachineReused (the one value
// of internal/opkit) when a LispMachine runs it again after Reset, which would add its
// gradient a second time; a new machine per run works.
func TestReusedLispMachine(t *testing.T) {
	ops := []struct {
		name   string
		build  func(f, l *gorgonia.Node) (*gorgonia.Node, error)
		reused error
	}{
		{"kdequantile.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, l, kdeCfg) }, graph.ErrMachineReused},
		{"pairwise.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
			return pairwise.Loss(f, l, pairwise.Config{Surrogate: pairwise.SquaredHinge})
		}, graph.ErrMachineReused},
		{"crossentropy.Loss", ceLoss, graph.ErrMachineReused},
	}
	for _, o := range ops {
		g := gorgonia.NewGraph()
		if _, err := o.build(vectorNode(g, "f", []float64{0.2, -1, 2, 0.5}), vectorNode(g, "l", []float64{1, 0, 0, 1})); err != nil {
			t.Fatal(err)
		}
		vm := gorgonia.NewLispMachine(g)
		if err := graph.RunAll(vm); err != nil {
			t.Fatalf("%s: first run: %v", o.name, err)
		}
		vm.Reset()
		if err := graph.RunAll(vm); !errors.Is(err, o.reused) {
			t.Errorf("%s: second run of one LispMachine: %v, want ErrMachineReused", o.name, err)
		}
		vm.Close()
		fresh := gorgonia.NewLispMachine(g)
		if err := graph.RunAll(fresh); err != nil {
			t.Errorf("%s: a new LispMachine: %v", o.name, err)
		}
		fresh.Close()
	}
}
