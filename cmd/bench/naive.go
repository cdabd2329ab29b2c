package main

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/ops/pairwise"
)

// The naive baselines are what a Go user would write without the fused ops: the losses'
// textbook forms, composed of Gorgonia's own element-wise and broadcast ops, differentiated by
// gorgonia.Grad and run by a TapeMachine. They compute the same values and gradients as the
// fused ops (naive_test.go checks it), so that the benchmark compares like with like.

// naiveKDE is the KDE-quantile loss at false-positive rate α with the batch's bandwidths.
// Outside the graph, in plain Go, it chooses the inverse bandwidths v0, v1 by the rule of
// kdequantile.Config, and finds the threshold τ0 by bisection on
//
//	G(t) = Σ_{j∈B0} σ(v0·(t − f_j)) − |B0|·(1 − α),
//
// one pass of |B0| sigmoids per halving of the bracket, until the bracket cannot shrink. In
// the graph it takes one Newton step from τ0 with the slope D = G′(τ0) held constant,
//
//	τ = τ0 − G(τ0)/D,
//	L = (1/|B1|) Σ_{i∈B1} σ(v1·(τ − f_i)),
//
// so that backpropagation through the sigmoids of G gives the implicit derivative
// ∂τ/∂f_j = σ′(τ0 − f_j; v0)/D of the threshold, and through the sigmoids of L the rest of the
// gradient. Here σ is the logistic function, σ′(u; v) = v·σ(vu)·(1 − σ(vu)), B0 and B1 are the
// negatives and positives, f the scores.
type naiveKDE struct {
	alpha                          float64
	f, pos, neg                    *tensor.Dense // inputs: scores and the 0/1 masks of the classes
	tau0, invD, v0, v1, c, invNPos *gorgonia.Node
	loss, grad                     *gorgonia.Node
	vm                             gorgonia.VM
}

func newNaiveKDE(n int, alpha float64) (*naiveKDE, error) {
	k := &naiveKDE{alpha: alpha}
	g := gorgonia.NewGraph()
	vec := func(name string) (*gorgonia.Node, *tensor.Dense) {
		t := tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(n))
		return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName(name), gorgonia.WithValue(t)), t
	}
	scalar := func(name string) *gorgonia.Node {
		return gorgonia.NewScalar(g, tensor.Float64, gorgonia.WithName(name), gorgonia.WithValue(0.0))
	}
	var f, pos, neg *gorgonia.Node
	f, k.f = vec("f")
	pos, k.pos = vec("pos")
	neg, k.neg = vec("neg")
	k.tau0, k.invD, k.v0, k.v1, k.c, k.invNPos = scalar("tau0"), scalar("invD"), scalar("v0"), scalar("v1"), scalar("c"), scalar("invNPos")

	var err error
	// try keeps the first error of a chain of node constructors.
	try := func(n *gorgonia.Node, e error) *gorgonia.Node {
		if err == nil && e != nil {
			err = e
		}
		return n
	}
	// σ(z) = 1/(1 + e^(−z)) from Gorgonia's exponential: gorgonia.Sigmoid returns exactly 1
	// for z > 19, an error of up to e^(−19) ≈ 5.6e-9 that the loss would inherit.
	one := gorgonia.NewConstant(1.0, gorgonia.WithName("one"))
	sigmoidNode := func(z *gorgonia.Node) *gorgonia.Node {
		return try(gorgonia.Inverse(try(gorgonia.Add(one, try(gorgonia.Exp(try(gorgonia.Neg(z))))))))
	}
	// G(τ0) and the Newton step.
	s0 := sigmoidNode(try(gorgonia.Mul(k.v0, try(gorgonia.Sub(k.tau0, f)))))
	gval := try(gorgonia.Sub(try(gorgonia.Sum(try(gorgonia.HadamardProd(neg, s0)))), k.c))
	tau := try(gorgonia.Sub(k.tau0, try(gorgonia.Mul(gval, k.invD))))
	// L at τ.
	s1 := sigmoidNode(try(gorgonia.Mul(k.v1, try(gorgonia.Sub(tau, f)))))
	k.loss = try(gorgonia.Mul(try(gorgonia.Sum(try(gorgonia.HadamardProd(pos, s1)))), k.invNPos))
	if err != nil {
		return nil, fmt.Errorf("naive KDE graph: %w", err)
	}
	grads, err := gorgonia.Grad(k.loss, f)
	if err != nil {
		return nil, fmt.Errorf("naive KDE graph: %w", err)
	}
	k.grad = grads[0]
	k.vm = gorgonia.NewTapeMachine(g)
	return k, nil
}

// run returns L and ∂L/∂f for the batch.
func (k *naiveKDE) run(scores, labels []float64) (float64, []float64, error) {
	f, pos, neg := k.f.Float64s(), k.pos.Float64s(), k.neg.Float64s()
	nPos, nNeg, err := check.Batch("bench", scores, labels)
	if err != nil {
		return 0, nil, err
	}
	if len(scores) != len(f) {
		return 0, nil, fmt.Errorf("bench: naive KDE built for %d scores, got %d", len(f), len(scores))
	}
	copy(f, scores)
	negs, posScores := make([]float64, 0, nNeg), make([]float64, 0, nPos)
	for i, y := range labels {
		pos[i], neg[i] = y, 1-y
		if y == 1 {
			posScores = append(posScores, scores[i])
		} else {
			negs = append(negs, scores[i])
		}
	}
	v0, v1 := ruleV(negs, scores), ruleV(posScores, scores)
	c := float64(len(negs)) * (1 - k.alpha)
	tau0 := bisect(negs, v0, c, k.alpha)
	var d float64
	for _, x := range negs {
		s := sigmoid(v0 * (tau0 - x))
		d += v0 * s * (1 - s)
	}
	for node, v := range map[*gorgonia.Node]float64{
		k.tau0: tau0, k.invD: 1 / d, k.v0: v0, k.v1: v1, k.c: c, k.invNPos: 1 / float64(nPos),
	} {
		if err := gorgonia.Let(node, v); err != nil {
			return 0, nil, err
		}
	}
	k.vm.Reset()
	if err := graph.RunAll(k.vm); err != nil {
		return 0, nil, err
	}
	loss := k.loss.Value().Data().(float64)
	grad := append([]float64(nil), k.grad.Value().Data().([]float64)...)
	return loss, grad, nil
}

// bisect returns the root of Σ_j σ(v0·(t − f_j)) = c for the negatives' scores f, halving a
// bracket until it cannot shrink.
func bisect(negs []float64, v0, c, alpha float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range negs {
		lo, hi = min(lo, x), max(hi, x)
	}
	// At t = min f − |logit α|/v0 every σ is at most α, and at max f + |logit α|/v0 at least
	// 1 − α: the root lies between.
	w := math.Abs(math.Log(alpha/(1-alpha))) / v0
	lo, hi = lo-w, hi+w
	for {
		mid := lo + (hi-lo)/2
		if !(mid > lo && mid < hi) {
			return mid
		}
		var g float64
		for _, x := range negs {
			g += sigmoid(v0 * (mid - x))
		}
		if g < c {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// ruleV is the bandwidth rule of kdequantile.Config for a batch of normal-looking scores:
// v = π/(√3·h), h = 1.06·s·n^(−1/5), s the class's sample standard deviation, falling back to
// that of the whole batch for a class of one score.
func ruleV(class, all []float64) float64 {
	xs := class
	if len(xs) < 2 {
		xs = all
	}
	h := 1.06 * stat.StdDev(xs, nil) * math.Pow(float64(len(class)), -0.2)
	return math.Pi / (math.Sqrt(3) * h)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// naivePairwise is the mean of ℓ(f_i − f_j) over every positive i and negative j computed as
// a |B1|×|B0| matrix: the positives' scores as a column and the negatives' as a row, their
// broadcast difference X, Gorgonia's element-wise form of ℓ on X (Softplus(−X), Exp(−X),
// Square(m − X), Rectify(m − X) and its square, m = 1), and the mean of the matrix.
type naivePairwise struct {
	pos, neg       *tensor.Dense // inputs: the scores of each class, in batch order
	loss           *gorgonia.Node
	gradPos, gradN *gorgonia.Node
	vm             gorgonia.VM
}

// newNaivePairwise builds the graph of surrogate s for batches with the class sizes of labels.
func newNaivePairwise(s pairwise.Surrogate, labels []float64) (*naivePairwise, error) {
	var nPos int
	for _, y := range labels {
		if y == 1 {
			nPos++
		}
	}
	nNeg := len(labels) - nPos
	if err := check.Classes("bench", nPos, nNeg); err != nil {
		return nil, err
	}
	p := &naivePairwise{
		pos: tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(nPos, 1)),
		neg: tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(1, nNeg)),
	}
	g := gorgonia.NewGraph()
	pos := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithName("pos"), gorgonia.WithValue(p.pos))
	neg := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithName("neg"), gorgonia.WithValue(p.neg))
	m := gorgonia.NewConstant(1.0, gorgonia.WithName("m"))
	var err error
	// try keeps the first error of a chain of node constructors.
	try := func(n *gorgonia.Node, e error) *gorgonia.Node {
		if err == nil && e != nil {
			err = e
		}
		return n
	}
	x := try(gorgonia.BroadcastSub(pos, neg, []byte{1}, []byte{0}))
	var l *gorgonia.Node
	switch s {
	case pairwise.Logistic:
		l = try(gorgonia.Softplus(try(gorgonia.Neg(x))))
	case pairwise.Exponential:
		l = try(gorgonia.Exp(try(gorgonia.Neg(x))))
	case pairwise.Square:
		l = try(gorgonia.Square(try(gorgonia.Sub(m, x))))
	case pairwise.Hinge:
		l = try(gorgonia.Rectify(try(gorgonia.Sub(m, x))))
	case pairwise.SquaredHinge:
		l = try(gorgonia.Square(try(gorgonia.Rectify(try(gorgonia.Sub(m, x))))))
	default:
		return nil, fmt.Errorf("bench: naive pairwise loss: unknown surrogate %v", s)
	}
	p.loss = try(gorgonia.Mean(l))
	if err != nil {
		return nil, fmt.Errorf("naive pairwise graph: %w", err)
	}
	grads, err := gorgonia.Grad(p.loss, pos, neg)
	if err != nil {
		return nil, fmt.Errorf("naive pairwise graph: %w", err)
	}
	p.gradPos, p.gradN = grads[0], grads[1]
	p.vm = gorgonia.NewTapeMachine(g)
	return p, nil
}

// run returns L and ∂L/∂f for the batch, whose class sizes must be those it was built for.
func (p *naivePairwise) run(scores, labels []float64) (float64, []float64, error) {
	pos, neg := p.pos.Float64s(), p.neg.Float64s()
	nPos, nNeg, err := check.Batch("bench", scores, labels)
	if err != nil {
		return 0, nil, err
	}
	if nPos != len(pos) || nNeg != len(neg) {
		return 0, nil, fmt.Errorf("bench: naive pairwise loss built for %d positives and %d negatives, got %d and %d",
			len(pos), len(neg), nPos, nNeg)
	}
	var a, b int
	for i, y := range labels {
		if y == 1 {
			pos[a] = scores[i]
			a++
		} else {
			neg[b] = scores[i]
			b++
		}
	}
	p.vm.Reset()
	if err := graph.RunAll(p.vm); err != nil {
		return 0, nil, err
	}
	gp, gn := p.gradPos.Value().Data().([]float64), p.gradN.Value().Data().([]float64)
	grad := make([]float64, len(scores))
	a, b = 0, 0
	for i, y := range labels {
		if y == 1 {
			grad[i] = gp[a]
			a++
		} else {
			grad[i] = gn[b]
			b++
		}
	}
	return p.loss.Value().Data().(float64), grad, nil
}
