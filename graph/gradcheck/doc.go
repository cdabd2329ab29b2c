// Package gradcheck checks the gradients of a Gorgonia graph against numerical derivatives.
//
// Gorgonia differentiates a graph in two ways: gorgonia.Grad builds gradient nodes from each
// op's SymDiff and a TapeMachine runs them; a LispMachine calls each op's DoDiff as it runs.
// An op with a wrong backward pass, or with only one of the two, trains on a wrong or zero
// gradient without any error. Check computes the gradient of a scalar cost with respect to
// chosen input nodes by finite differences and compares it with both machines' gradients;
// Assert does the same inside a test.
//
// # Usage
//
// Build the graph as for training, with values bound to its inputs, and check the nodes whose
// gradients matter (for an op's test, its inputs; for a model, its learnables):
//
//	func TestMyLossGradient(t *testing.T) {
//		g := gorgonia.NewGraph()
//		scores, _ := graph.Input(g, tensor.Float64, "scores", []float64{0.3, -1.2, 2.5, 0.1})
//		labels, _ := graph.Input(g, tensor.Float64, "labels", []float64{1, 0, 1, 0})
//		cost, err := mylosses.Loss(scores, labels) // the op under test
//		if err != nil {
//			t.Fatal(err)
//		}
//		gradcheck.Assert(t, cost, gorgonia.Nodes{scores}, gradcheck.Config{})
//	}
//
// Assert fails the test with a table of the worst elements when the relative error exceeds
// the tolerance. Check returns the same information as a Report for custom handling. Custom
// ops should be checked on random inputs of several sizes, on both dtypes, and at the
// inputs where their formulas change regime (saturation, ties, tiny denominators).
//
// Check never changes the caller's graph. It rebuilds the cost and the nodes it depends on in
// graphs of its own (one per machine, each input holding a copy of its value) and calls
// gorgonia.Grad there, so it may be called before or after the caller's own gorgonia.Grad or
// machine runs, and the graph's values, gradient nodes and dual values are the same
// afterwards. Nodes computed by an op without inputs (constants, random nodes) are copied as
// constants holding their current value, so the checked function is deterministic. The ops
// themselves are shared, not copied: an op with a training mode (gorgonia.TrainModeOp) is put
// in training mode by the machines Check builds, as by any new machine.
//
// # The numerical gradient
//
// Write f(x_i) for the cost as a function of one element x_i of a wrt node, the others fixed.
// Each element, one at a time, is moved in place (in Check's copy of the values) to x_i + t for
// t ∈ {−2h, −h, h, 2h} with
//
//	h = Step·max(1, |x_i|),
//
// the cost is evaluated by a TapeMachine running the forward pass only, and the element is
// restored exactly. The numerical derivative is the five-point central difference
//
//	n_i = (f(x_i−2h) − 8·f(x_i−h) + 8·f(x_i+h) − f(x_i+2h)) / (12h),
//
// computed in float64 arithmetic; its truncation error is h⁴·f⁽⁵⁾/30, against h²·f‴/6 for the
// two-point central difference, so costs with large higher derivatives still reach 1e-6
// relative accuracy. In a float32 graph x_i ± h is rounded to float32; the weights are then
// computed from the displacements actually stored (the derivative of the interpolating
// quartic), which keeps the same order.
//
// # Errors
//
// For each node and machine with gradient a, Comparison reports
//
//	MaxAbs = max_i |a_i − n_i|,
//	MaxRel = MaxAbs / max(‖n‖∞, ‖a‖∞, 2⁻¹⁰²²),
//
// a normwise relative error: every component is judged on the scale of the node's whole
// gradient, so components that are zero or nearly so do not produce huge ratios from rounding
// noise. A NaN or infinite element makes both errors +Inf. Assert fails when MaxRel exceeds Tol
// for any node and machine.
//
// # Defaults
//
// Config's zero value selects, by the cost's dtype: Step 1e-3 and Tol 1e-6 for float64 graphs,
// Step 1e-2 and Tol 1e-3 for float32 graphs, whose forward pass rounds to float32. The
// five-point stencil has a truncation error h⁴·f⁽⁵⁾/30, which for f(x) = e^{kx} is (hk)⁴/30
// relative, and a rounding error about 1.5·δ/h when the forward pass computes the cost to
// within δ.
//
// In float64, δ ≈ ε·|cost| with ε ≈ 1.1e-16. At h = 1e-3 the rounding error is about
// 2e-13·|cost|, and the truncation error stays below 1e-6 up to k ≈ 70 (features 1/70 wide).
// A tolerance of 1e-6 thus leaves a wide margin on smooth costs, while a wrong factor, sign or
// missing term larger than a millionth of the gradient fails.
//
// In float32 the forward pass rounds to ε ≈ 6e-8, so rounding dominates; h = 1e-2 brings it to
// about 1e-5·|cost| and keeps truncation below 1e-4 up to k ≈ 20. The machine gradients are
// float32 too (about 1e-6 relative). A tolerance of 1e-3 leaves a margin of ~100 when the
// gradient's largest entry is comparable to the cost, and still catches errors above a
// thousandth of the gradient scale. Costs much larger than their gradients (a mean over a
// large batch has entries of order |cost|/n) need a float64 graph or a larger Tol.
//
// The LispMachine gradient is checked when every op between
// the wrt nodes and the cost has a DoDiff method; otherwise it is skipped and
// Report.LispSkipped says which ops lack one. Config.Lisp can require it or turn it off.
//
// The cost must be smooth within 2h of the point: keep the inputs away from kinks (a hinge at
// its margin, ties of a max or a sort), where no derivative exists and the stencil straddles
// the kink.
//
// # Running time
//
// Check runs 4 forward passes per checked element plus one forward and backward pass per
// machine, so it is meant for small graphs: tens to hundreds of checked elements.
package gradcheck
