package diagnose

import (
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// Direction is a unit vector in a model's parameter space: the model's parameters
// concatenated in Params order, each row-major (the layout of nn.Directional).
type Direction struct {
	V      []float64 // the unit vector
	Norm   float64   // the norm of the gradient V was normalised from
	Severe int       // the number of severe pairs that defined it
}

// binarySevereDirection is Comparisons.SevereDirection for the binary task: x holds len(labels)
// rows, S the pairs (i, j), i positive and j negative, of margin f_i − f_j below −M, and
//
//	L_M(θ) = (1/|S|) Σ_{(i,j)∈S} ℓ(f_i(θ) − f_j(θ)).
//
// Its errors are those of Comparisons.SevereDirection.
func binarySevereDirection(model nn.Model, x, labels []float64, cfg pairwise.Config, m float64) (Direction, error) {
	if err := checkSeverity(m); err != nil {
		return Direction{}, err
	}
	mg, err := margin(cfg)
	if err != nil {
		return Direction{}, err
	}
	if model == nil {
		return Direction{}, fmt.Errorf("%w: nil model", nn.ErrInput)
	}
	rows := len(labels)
	if rows == 0 {
		return Direction{}, check.Errorf(pkg, rocops.ErrEmpty, "no rows")
	}
	scores, err := nn.Scores(model, x, rows)
	if err != nil {
		return Direction{}, err
	}
	if _, err := split(scores, labels); err != nil {
		return Direction{}, err
	}
	c, severe := severeScoreGradient(scores, labels, cfg.Surrogate, mg, m)
	if severe == 0 {
		return Direction{}, fmt.Errorf("%w: no pair of the %d rows has margin below −%v", ErrNoSevere, rows, m)
	}
	g, err := weightedScoreGradient(model, x, rows, c)
	if err != nil {
		return Direction{}, err
	}
	return unitDirection(g, severe)
}

// unitDirection returns the Direction −g/‖g‖ of a severe-pair gradient g over severe pairs.
func unitDirection(g []float64, severe int) (Direction, error) {
	// ‖g‖ = 2^k·‖g/2^k‖ with 2^k near the largest |g_k|, so that no square overflows (or
	// underflows) before the norm itself would.
	var big float64
	for k, e := range g {
		a := math.Abs(e)
		if !(a <= math.MaxFloat64) {
			return Direction{}, check.Errorf(pkg, rocops.ErrRange, "entry %d of the severe-pair gradient is %v", k, e)
		}
		big = max(big, a)
	}
	if big == 0 {
		return Direction{}, fmt.Errorf("%w: the severe-pair gradient is zero", ErrNoSevere)
	}
	scale := math.Ldexp(1, log2Scale(big))
	var sum float64
	for k := range g {
		g[k] /= scale
		sum += g[k] * g[k]
	}
	unit := math.Sqrt(sum) // ‖g‖/scale, in [1, 2·sqrt(len(g)))
	norm := unit * scale
	if math.IsInf(norm, 0) {
		return Direction{}, check.Errorf(pkg, rocops.ErrRange, "the norm of the severe-pair gradient exceeds %g", math.MaxFloat64)
	}
	for k := range g {
		g[k] /= -unit
	}
	return Direction{V: g, Norm: norm, Severe: severe}, nil
}

// severeLoss returns L_M of binarySevereDirection for the scores f and the fixed pair set S given
// by the scores s0 (the pairs with margin below −m at s0), and |S|. It is the function whose
// descent binarySevereDirection measures; with f = s0 it is the severe-pair loss at θ.
func severeLoss(scores, s0, labels []float64, cfg pairwise.Config, m float64) (float64, int, error) {
	if err := checkSeverity(m); err != nil {
		return 0, 0, err
	}
	mg, err := margin(cfg)
	if err != nil {
		return 0, 0, err
	}
	if len(s0) != len(scores) {
		return 0, 0, check.Errorf(pkg, rocops.ErrLength, "%d scores, %d reference scores", len(scores), len(s0))
	}
	if _, err := split(scores, labels); err != nil {
		return 0, 0, err
	}
	if _, err := split(s0, labels); err != nil {
		return 0, 0, err
	}
	var sum float64
	n := 0
	eachSevere(s0, labels, m, func(i, j int) {
		sum += pairwise.PairLoss(cfg.Surrogate, mg, scores[i]-scores[j])
		n++
	})
	if n == 0 {
		return 0, 0, fmt.Errorf("%w: no pair has margin below −%v", ErrNoSevere, m)
	}
	return sum / float64(n), n, nil
}

// eachSevere calls f for every positive i and negative j (indices into scores) with
// scores[i] − scores[j] < −m.
func eachSevere(scores, labels []float64, m float64, f func(i, j int)) {
	for i, yi := range labels {
		if yi != 1 {
			continue
		}
		for j, yj := range labels {
			if yj == 0 && scores[i]-scores[j] < -m {
				f(i, j)
			}
		}
	}
}

// severeScoreGradient returns c_k = ∂L_M/∂f_k for every row and |S|.
func severeScoreGradient(scores, labels []float64, s pairwise.Surrogate, mg, m float64) ([]float64, int) {
	c := make([]float64, len(scores))
	n := 0
	eachSevere(scores, labels, m, func(i, j int) {
		w := pairwise.Weight(s, mg, scores[i]-scores[j])
		c[i] -= w
		c[j] += w
		n++
	})
	for k := range c {
		c[k] /= float64(max(n, 1))
	}
	return c, n
}

// weightedScoreGradient returns ∇θ Σ_k c_k·f_k(θ), concatenated in Params order; for a model
// of k ≥ 2 outputs c and the scores f are row-major rows×k.
func weightedScoreGradient(model nn.Model, x []float64, rows int, c []float64) ([]float64, error) {
	dt := model.Dtype()
	g := gorgonia.NewGraph()
	xn, err := graph.Input(g, dt, "x", x, rows, model.InputSize())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", nn.ErrInput, err)
	}
	var shape []int
	if k := nn.Outputs(model); k > 1 {
		shape = []int{rows, k}
	}
	cn, err := graph.Input(g, dt, "c", c, shape...)
	if err != nil {
		return nil, err
	}
	scores, learnables, err := model.Build(g, xn)
	if err != nil {
		return nil, err
	}
	prod, err := gorgonia.HadamardProd(scores, cn)
	if err != nil {
		return nil, fmt.Errorf("diagnose: weighting the scores: %w", err)
	}
	cost, err := gorgonia.Sum(prod)
	if err != nil {
		return nil, fmt.Errorf("diagnose: summing the weighted scores: %w", err)
	}
	if _, err := gorgonia.Grad(cost, learnables...); err != nil {
		return nil, fmt.Errorf("diagnose: differentiating the severe-pair loss: %w", err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
	defer vm.Close()
	if err := graph.RunAll(vm); err != nil {
		return nil, fmt.Errorf("diagnose: running the severe-pair gradient: %w", err)
	}
	var out []float64
	for _, l := range learnables {
		gv, err := l.Grad()
		if err != nil {
			return nil, fmt.Errorf("diagnose: gradient of %s: %w", l.Name(), err)
		}
		fs, err := opkit.Floats(gv)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// ScoreTangents returns p_r = ⟨∇θ f(x_r), v⟩ for every row r of x (rows rows, row-major),
// the derivative of each score along v in parameter space (layout of [Direction]). Models that
// implement nn.Directional (nn.MLP, the linear scorer included) give it exactly by forward-mode
// differentiation at about five times the cost of scoring (nn's BenchmarkScoresAlong); for
// other models it is the central difference
//
//	p_r ≈ (f_r(θ + εu) − f_r(θ − εu)) / (2ε)·‖v‖,   u = v/‖v‖,   ε = h·max(1, ‖θ‖₂),
//
// with h = 6e-6 ≈ (float64 ε)^{1/3} for float64 models and h = 5e-3 for float32 ones; its
// error is O(ε²) times the third derivative (zero for ReLU networks between kinks). The
// parameters are restored exactly afterwards, also on error.
//
// Errors: rocops.ErrLength when v's length is not the model's number of parameters,
// rocops.ErrNonFinite when v is not finite; nn.ErrInput for bad rows.
func ScoreTangents(model nn.Model, x []float64, rows int, v []float64) ([]float64, error) {
	n, err := nn.NumParams(model)
	if err != nil {
		return nil, err
	}
	if len(v) != n {
		return nil, check.Errorf(pkg, rocops.ErrLength, "direction of %d values for a model of %d parameters", len(v), n)
	}
	for k, e := range v {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return nil, check.Errorf(pkg, rocops.ErrNonFinite, "direction v[%d] = %v", k, e)
		}
	}
	if d, ok := model.(nn.Directional); ok {
		_, t, err := d.ScoresAlong(x, rows, v)
		return t, err
	}
	return centralTangents(model, x, rows, v)
}

// centralTangents is ScoreTangents by central differences.
func centralTangents(model nn.Model, x []float64, rows int, v []float64) (_ []float64, err error) {
	saved, err := nn.Snapshot(model)
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := nn.Restore(model, saved); rerr != nil {
			err = errors.Join(err, fmt.Errorf("diagnose: restoring the parameters: %w", rerr))
		}
	}()
	var vn, tn float64
	for _, e := range v {
		vn += e * e
	}
	vn = math.Sqrt(vn)
	theta := make([][]float64, len(saved))
	for i, p := range saved {
		if theta[i], err = opkit.Floats(p.Value); err != nil {
			return nil, err
		}
		for _, e := range theta[i] {
			tn += e * e
		}
	}
	out := make([]float64, rows)
	if vn == 0 {
		return out, nil
	}
	h := 6e-6
	if model.Dtype().Name() == "float32" {
		h = 5e-3
	}
	eps := h * max(1, math.Sqrt(tn))
	var plus, minus []float64
	for _, sign := range []float64{1, -1} {
		off := 0
		for i, p := range model.Params() {
			switch d := p.Value.Data().(type) {
			case []float64:
				for k := range d {
					d[k] = theta[i][k] + sign*eps*v[off+k]/vn
				}
			case []float32:
				for k := range d {
					d[k] = float32(theta[i][k] + sign*eps*v[off+k]/vn)
				}
			}
			off += len(theta[i])
		}
		s, err := nn.Scores(model, x, rows)
		if err != nil {
			return nil, err
		}
		if sign > 0 {
			plus = s
		} else {
			minus = s
		}
	}
	for r := range out {
		out[r] = (plus[r] - minus[r]) / (2 * eps) * vn
	}
	return out, nil
}
