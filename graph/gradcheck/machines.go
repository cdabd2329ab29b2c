package gradcheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocops/rocops/internal/opkit"
	"gorgonia.org/gorgonia"
)

// safely runs f, turning its error or a panic inside Gorgonia into an ErrRun error.
func safely(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %s panicked: %v", ErrRun, what, p)
		}
	}()
	if err := f(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrRun, what, err)
	}
	return nil
}

// children returns the inputs of n, in order.
func children(n *gorgonia.Node) []*gorgonia.Node {
	var cs []*gorgonia.Node
	for it := n.Graph().From(n.ID()); it.Next(); {
		cs = append(cs, it.Node().(*gorgonia.Node))
	}
	return cs
}

// ancestors returns cost and every node it depends on, each after its inputs (cost last).
func ancestors(cost *gorgonia.Node) []*gorgonia.Node {
	var order []*gorgonia.Node
	seen := make(map[*gorgonia.Node]bool)
	var visit func(n *gorgonia.Node)
	visit = func(n *gorgonia.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, c := range children(n) {
			visit(c)
		}
		order = append(order, n)
	}
	visit(cost)
	return order
}

// replica is a copy of the cost's subgraph in a graph of its own.
type replica struct {
	g    *gorgonia.ExprGraph
	cost *gorgonia.Node
	wrt  gorgonia.Nodes
}

// replicate rebuilds the nodes of order (as returned by ancestors) in a new graph: input nodes
// with a copy of their value, op nodes without inputs (constants, random nodes) as constants
// holding their current value, every other node by applying its op to the copies of its
// inputs. The copy has no gradient nodes and no dual values, whatever state the caller's graph
// is in.
func replicate(order []*gorgonia.Node, wrt gorgonia.Nodes) (*replica, error) {
	r := &replica{g: gorgonia.NewGraph()}
	copies := make(map[*gorgonia.Node]*gorgonia.Node, len(order))
	err := safely("copying the graph", func() error {
		for _, n := range order {
			var c *gorgonia.Node
			cs := children(n)
			switch {
			case n.Op() == nil:
				v, err := gorgonia.CloneValue(n.Value())
				if err != nil {
					return fmt.Errorf("value of %q: %w", n.Name(), err)
				}
				c = gorgonia.NewTensor(r.g, n.Dtype(), n.Dims(), gorgonia.WithShape(n.Shape()...),
					gorgonia.WithName(n.Name()), gorgonia.WithValue(v))
			case len(cs) == 0:
				if n.Value() == nil {
					return fmt.Errorf("node %q has no inputs and no value", n.Name())
				}
				c = gorgonia.NewConstant(n.Value(), gorgonia.WithName(n.Name()))
			default:
				in := make(gorgonia.Nodes, len(cs))
				for i, child := range cs {
					in[i] = copies[child]
				}
				var err error
				if c, err = gorgonia.ApplyOp(n.Op(), in...); err != nil {
					return fmt.Errorf("applying %v: %w", n.Op(), err)
				}
			}
			copies[n] = c
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.cost = copies[order[len(order)-1]]
	for _, w := range wrt {
		r.wrt = append(r.wrt, copies[w])
	}
	return r, nil
}

// tapeGradients differentiates a replica with gorgonia.Grad, runs it once on a TapeMachine and
// returns the gradient of each wrt node.
func tapeGradients(order []*gorgonia.Node, wrt gorgonia.Nodes) ([][]float64, error) {
	r, err := replicate(order, wrt)
	if err != nil {
		return nil, err
	}
	grads := make([][]float64, len(wrt))
	err = safely("tape machine", func() error {
		derivs, err := gorgonia.Grad(r.cost, r.wrt...)
		if err != nil {
			return fmt.Errorf("gorgonia.Grad: %w", err)
		}
		m := gorgonia.NewTapeMachine(r.g)
		defer m.Close()
		if err := m.RunAll(); err != nil {
			return err
		}
		for i, d := range derivs {
			if grads[i], err = floatsOf(d.Value()); err != nil {
				return fmt.Errorf("gradient of %q: %w", wrt[i].Name(), err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return grads, nil
}

// lispGradients runs a LispMachine once on a replica and returns the gradient of each wrt node.
func lispGradients(order []*gorgonia.Node, wrt gorgonia.Nodes) ([][]float64, error) {
	r, err := replicate(order, wrt)
	if err != nil {
		return nil, err
	}
	grads := make([][]float64, len(wrt))
	err = safely("lisp machine", func() error {
		m := gorgonia.NewLispMachine(r.g)
		defer m.Close()
		if err := m.RunAll(); err != nil {
			return err
		}
		for i, w := range r.wrt {
			d, err := w.Grad()
			if err == nil {
				grads[i], err = floatsOf(d)
			}
			if err != nil {
				return fmt.Errorf("gradient of %q: %w", wrt[i].Name(), err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return grads, nil
}

// forward evaluates the cost of a replica without gradients, for the numerical derivatives;
// wrt gives in-place access to the replica's wrt values.
type forward struct {
	m    gorgonia.VM
	cost *gorgonia.Node
	wrt  []elements
}

func newForward(order []*gorgonia.Node, wrt gorgonia.Nodes) (*forward, error) {
	r, err := replicate(order, wrt)
	if err != nil {
		return nil, err
	}
	f := &forward{cost: r.cost}
	for i, w := range r.wrt {
		x, err := elementsOf(w.Value())
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %w", ErrWRT, wrt[i].Name(), err)
		}
		f.wrt = append(f.wrt, x)
	}
	err = safely("forward tape machine", func() error {
		f.m = gorgonia.NewTapeMachine(r.g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// eval runs the cost once on the current values. A TapeMachine runs again only after Reset.
func (f *forward) eval() (float64, error) {
	var c float64
	err := safely("forward tape machine", func() error {
		f.m.Reset()
		if err := f.m.RunAll(); err != nil {
			return err
		}
		var err error
		c, err = opkit.Scalar(f.cost.Value())
		return err
	})
	return c, err
}

func (f *forward) close() { f.m.Close() }

// lispBlocker returns why a LispMachine cannot differentiate the cost (the last node of order)
// with respect to wrt, or "" if it can. A LispMachine propagates no gradient through an op
// without a DoDiff method, so every op through which the cost differentiably depends on a wrt
// node must have one. An input of a node counts as differentiable unless the op is a
// gorgonia.SDOp whose DiffWRT says otherwise (as for the size node inside gorgonia.Mean).
func lispBlocker(order []*gorgonia.Node, wrt gorgonia.Nodes) string {
	onPath := make(map[*gorgonia.Node]bool) // depends differentiably on a wrt node
	for _, w := range wrt {
		onPath[w] = true
	}
	var blockers []string
	for _, n := range order {
		if n.Op() == nil {
			continue
		}
		cs := children(n)
		var diff []bool
		if sd, ok := n.Op().(gorgonia.SDOp); ok {
			diff = sd.DiffWRT(len(cs))
		}
		for i, c := range cs {
			if onPath[c] && (diff == nil || i < len(diff) && diff[i]) {
				onPath[n] = true
			}
		}
		if _, ok := n.Op().(gorgonia.ADOp); onPath[n] && !ok {
			blockers = append(blockers, fmt.Sprintf("%q (op %v)", n.Name(), n.Op()))
		}
	}
	if len(blockers) == 0 {
		return ""
	}
	sort.Strings(blockers)
	return fmt.Sprintf("no DoDiff method (gorgonia.ADOp) for node %s", strings.Join(blockers, ", node "))
}
