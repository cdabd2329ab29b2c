package gradcheck

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/enum"
)

// Errors returned by Check, wrapped with details; test them with errors.Is. A negative or
// non-finite Step or Tol, an unknown LispMode, or a step too small for the precision of an
// element is the module's [rocops.ErrConfig].
var (
	// ErrCost: the cost is nil, not a float32/float64 scalar node, or depends on an input
	// without a value.
	ErrCost = errors.New("gradcheck: bad cost node")
	// ErrWRT: a node to check is nil, repeated, not an input, without a value, of another dtype
	// or graph than the cost, or one the cost does not depend on.
	ErrWRT = errors.New("gradcheck: bad wrt node")
	// ErrLispUnsupported: Config.Lisp is LispRequire but an op between the wrt nodes and the
	// cost has no DoDiff method (it is not a gorgonia.ADOp).
	ErrLispUnsupported = errors.New("gradcheck: the LispMachine cannot differentiate this graph")
	// ErrRun: copying the graph, gorgonia.Grad, building a machine or running it failed, or
	// panicked while building. (Machines run ops on goroutines of their own, where a panic in
	// an op's Do or DoDiff cannot be recovered: ops should return errors.)
	ErrRun = errors.New("gradcheck: differentiating or running the graph failed")
)

// The default steps and tolerances, chosen by the cost's dtype when Config leaves them zero;
// the package documentation ("Defaults") gives the reasoning.
const (
	defaultStep64 = 1e-3
	defaultTol64  = 1e-6
	defaultStep32 = 1e-2
	defaultTol32  = 1e-3
)

// LispMode chooses whether Check also runs the LispMachine. The zero value is LispAuto.
type LispMode int

const (
	// LispAuto checks the LispMachine gradient when every op between the wrt nodes and the
	// cost has a DoDiff method, and otherwise skips it, giving the reason in Report.LispSkipped.
	LispAuto LispMode = iota
	// LispRequire checks the LispMachine gradient and fails with ErrLispUnsupported when an op
	// on the path has no DoDiff method.
	LispRequire
	// LispOff checks only the TapeMachine gradient.
	LispOff
)

var lispModes = enum.New[LispMode]("LispMode", rocops.ErrConfig, "LispAuto", "LispRequire", "LispOff")

// String returns the mode's name: "LispAuto", "LispRequire" or "LispOff".
func (m LispMode) String() string { return lispModes.String(m) }

// Config sets up Check. The zero value is ready to use.
type Config struct {
	// Step is the relative finite-difference step: element x_i moves by
	// h_i = Step·max(1, |x_i|). 0 means 1e-3 for float64 graphs and 1e-2 for float32 graphs.
	Step float64
	// Tol is the largest relative error (see Comparison.MaxRel) Assert accepts. 0 means 1e-6
	// for float64 graphs and 1e-3 for float32 graphs.
	Tol float64
	// Lisp chooses whether the LispMachine gradient is checked too; see LispMode.
	Lisp LispMode
}

// withDefaults validates c and fills in the defaults for dtype dt.
func (c Config) withDefaults(dt tensor.Dtype) (Config, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Step", c.Step}, {"Tol", c.Tol}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return c, check.Errorf("gradcheck", rocops.ErrConfig, "%s = %g; want a finite number ≥ 0", f.name, f.v)
		}
	}
	if c.Lisp < LispAuto || c.Lisp > LispOff {
		return c, check.Errorf("gradcheck", rocops.ErrConfig, "unknown %v", c.Lisp)
	}
	step, tol := defaultStep64, defaultTol64
	if dt == tensor.Float32 {
		step, tol = defaultStep32, defaultTol32
	}
	if c.Step == 0 {
		c.Step = step
	}
	if c.Tol == 0 {
		c.Tol = tol
	}
	return c, nil
}

// Machine names a Gorgonia virtual machine whose gradient Check compares.
type Machine string

const (
	// Tape is gorgonia.Grad's symbolic gradient run by a TapeMachine (ops need SymDiff).
	Tape Machine = "tape"
	// Lisp is the automatic gradient of a LispMachine (ops need DoDiff).
	Lisp Machine = "lisp"
)

// Comparison is one machine's gradient of one node next to the numeric gradient n.
type Comparison struct {
	// Grad is the machine's gradient a, flattened in row-major order; nil when the machine was
	// not checked.
	Grad []float64
	// MaxAbs is max_i |a_i − n_i|.
	MaxAbs float64
	// MaxRel is MaxAbs / max(‖n‖∞, ‖a‖∞, 2⁻¹⁰²²): the largest error on the scale of the node's
	// gradient, so that components near zero are not judged on their own tiny scale. MaxAbs and
	// MaxRel are +Inf when an element of either gradient is NaN or infinite.
	MaxRel float64
	// Worst is the (row-major) index i attaining MaxAbs.
	Worst int
}

// NodeReport compares the gradients of the cost with respect to one wrt node.
type NodeReport struct {
	Name  string
	Shape tensor.Shape
	// Numeric is the central-difference gradient, flattened in row-major order.
	Numeric []float64
	// Tape compares the TapeMachine gradient with Numeric.
	Tape Comparison
	// Lisp compares the LispMachine gradient with Numeric; its zero value (Grad == nil) when the
	// LispMachine was not checked.
	Lisp Comparison
}

// Report is the result of Check.
type Report struct {
	Dtype tensor.Dtype
	// Cost is the cost at the unperturbed inputs.
	Cost float64
	// Step and Tol are the values used, after defaults.
	Step, Tol float64
	// Machines lists the machines whose gradients were compared: Tape, then Lisp if it ran.
	Machines []Machine
	// LispSkipped says why the LispMachine was not checked; empty when it was.
	LispSkipped string
	// Nodes holds one report per wrt node, in the order given to Check.
	Nodes []NodeReport
}

// MaxRel returns the largest Comparison.MaxRel over all nodes and machines checked.
func (r *Report) MaxRel() float64 {
	worst := 0.0
	r.each(func(_ NodeReport, _ Machine, c Comparison) { worst = math.Max(worst, c.MaxRel) })
	return worst
}

// Check compares the gradients Gorgonia computes for cost with respect to each wrt node with a
// numerical gradient; see the package documentation for the method and the definitions.
//
// cost must be a float32 or float64 scalar node and wrt distinct input nodes of the same graph
// and dtype that the cost depends on; every input the cost depends on must have a value (bound
// with gorgonia.WithValue or gorgonia.Let). Check rebuilds the cost's subgraph in graphs of its
// own, one per machine, with copies of the values: the caller's graph, its values, gradient
// nodes and dual values are left as they were, on success and on error, and gradient nodes
// the caller made with gorgonia.Grad are neither needed nor used. Ops are shared with the
// caller's graph (see the package documentation).
func Check(cost *gorgonia.Node, wrt gorgonia.Nodes, cfg Config) (*Report, error) {
	dt, order, err := validate(cost, wrt)
	if err != nil {
		return nil, err
	}
	if cfg, err = cfg.withDefaults(dt); err != nil {
		return nil, err
	}
	r := &Report{Dtype: dt, Step: cfg.Step, Tol: cfg.Tol, Machines: []Machine{Tape}}
	runLisp := cfg.Lisp != LispOff
	if cfg.Lisp == LispOff {
		r.LispSkipped = "turned off by Config.Lisp"
	} else if why := lispBlocker(order, wrt); why != "" {
		if cfg.Lisp == LispRequire {
			return nil, fmt.Errorf("%w: %s", ErrLispUnsupported, why)
		}
		runLisp, r.LispSkipped = false, why
	}

	tape, err := tapeGradients(order, wrt)
	if err != nil {
		return nil, err
	}
	var lisp [][]float64
	if runLisp {
		if lisp, err = lispGradients(order, wrt); err != nil {
			return nil, err
		}
		r.Machines = append(r.Machines, Lisp)
	}
	fwd, err := newForward(order, wrt)
	if err != nil {
		return nil, err
	}
	defer fwd.close()
	if r.Cost, err = fwd.eval(); err != nil {
		return nil, err
	}
	for k, w := range wrt {
		numeric, err := numericGrad(fwd.wrt[k], cfg.Step, r.Cost, fwd.eval)
		if err != nil {
			return nil, fmt.Errorf("%w (node %q)", err, w.Name())
		}
		n := NodeReport{Name: w.Name(), Shape: w.Shape(), Numeric: numeric}
		if n.Tape, err = compare(numeric, tape[k]); err != nil {
			return nil, fmt.Errorf("%w (tape gradient of %q)", err, w.Name())
		}
		if lisp != nil {
			if n.Lisp, err = compare(numeric, lisp[k]); err != nil {
				return nil, fmt.Errorf("%w (lisp gradient of %q)", err, w.Name())
			}
		}
		r.Nodes = append(r.Nodes, n)
	}
	return r, nil
}

// validate checks the arguments of Check and returns the graph's dtype and the cost's
// ancestors (see ancestors).
func validate(cost *gorgonia.Node, wrt gorgonia.Nodes) (tensor.Dtype, []*gorgonia.Node, error) {
	dt := tensor.Float64
	switch {
	case cost == nil:
		return dt, nil, fmt.Errorf("%w: cost is nil", ErrCost)
	case !cost.IsScalar():
		return dt, nil, fmt.Errorf("%w: cost %q has shape %v; want a scalar", ErrCost, cost.Name(), cost.Shape())
	case cost.Graph() == nil:
		return dt, nil, fmt.Errorf("%w: cost %q belongs to no graph", ErrCost, cost.Name())
	}
	if dt = cost.Dtype(); dt != tensor.Float64 && dt != tensor.Float32 {
		return dt, nil, fmt.Errorf("%w: cost %q is %v; want float32 or float64", ErrCost, cost.Name(), dt)
	}
	order := ancestors(cost)
	inputs := make(map[*gorgonia.Node]bool)
	for _, n := range order {
		if n.Op() == nil {
			inputs[n] = true
		}
	}
	if len(wrt) == 0 {
		return dt, nil, fmt.Errorf("%w: no nodes to check", ErrWRT)
	}
	seen := make(map[*gorgonia.Node]bool, len(wrt))
	for i, w := range wrt {
		switch {
		case w == nil:
			return dt, nil, fmt.Errorf("%w: wrt[%d] is nil", ErrWRT, i)
		case w.Graph() != cost.Graph():
			return dt, nil, fmt.Errorf("%w: %q belongs to another graph than the cost", ErrWRT, w.Name())
		case seen[w]:
			return dt, nil, fmt.Errorf("%w: %q is listed twice", ErrWRT, w.Name())
		case !w.IsVar():
			return dt, nil, fmt.Errorf("%w: %q is not an input node (it is computed by an op or constant)", ErrWRT, w.Name())
		case w.Value() == nil:
			return dt, nil, fmt.Errorf("%w: %q has no value; bind one with gorgonia.WithValue or gorgonia.Let", ErrWRT, w.Name())
		case w.Value().Dtype() != dt:
			return dt, nil, fmt.Errorf("%w: %q is %v but the cost is %v", ErrWRT, w.Name(), w.Value().Dtype(), dt)
		case !inputs[w]:
			return dt, nil, fmt.Errorf("%w: the cost does not depend on %q", ErrWRT, w.Name())
		}
		if _, err := elementsOf(w.Value()); err != nil {
			return dt, nil, fmt.Errorf("%w: %q: %w", ErrWRT, w.Name(), err)
		}
		seen[w] = true
	}
	for _, n := range order {
		if inputs[n] && n.Value() == nil {
			return dt, nil, fmt.Errorf("%w: the cost depends on input %q, which has no value; bind one with gorgonia.WithValue or gorgonia.Let", ErrCost, n.Name())
		}
	}
	return dt, order, nil
}

// Assert runs Check and reports through tb: tb.Fatalf if Check fails, tb.Errorf with the report
// and a table of the worst elements if a relative error exceeds the tolerance (Config.Tol or
// its default). It returns the report, or nil after tb.Fatalf.
func Assert(tb testing.TB, cost *gorgonia.Node, wrt gorgonia.Nodes, cfg Config) *Report {
	tb.Helper()
	r, err := Check(cost, wrt, cfg)
	if err != nil {
		tb.Fatalf("%v", err)
		return nil
	}
	if worst := r.MaxRel(); !(worst <= r.Tol) {
		tb.Errorf("gradcheck: max relative error %.3g exceeds tolerance %.3g\n%v\n%s", worst, r.Tol, r, r.worstElements(worstShown))
	}
	return r
}
