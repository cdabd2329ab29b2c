// Package pairwise implements the pairwise AUC surrogate losses compared by Chen et al.,
// "Pairwise AUC Optimization Needs Corrective Power", arXiv 2610.21743, as graph-free
// functions on slices and as a Gorgonia op.
//
// A batch has scores f_i and 0/1 labels y_i; B1 = {i : y_i = 1} are its positives and
// B0 = {j : y_j = 0} its negatives. Each positive–negative pair has the margin
// x = f_i − f_j, which is positive when the pair is ranked correctly. The loss is the mean
// of a surrogate ℓ over the pairs,
//
//	L = (1/(|B1|·|B0|)) Σ_{i∈B1} Σ_{j∈B0} ℓ(f_i − f_j),
//
// a smooth or convex stand-in for 1 − AUC, with ℓ one of the five surrogates of [Surrogate]:
// logistic, exponential, square, hinge and squared hinge. [Weight] returns w = −ℓ′, the weight
// each pair gets in the gradient, which is how Chen et al. compare the surrogates.
//
// The exact loss and its gradient never build the |B1|×|B0| margin matrix: the square and
// exponential losses take O(n), the hinge and squared hinge O(n log n) (one sort), and the
// logistic loss, which has no shortcut, O(|B1|·|B0|) spread over all cores. With
// Config.Pairs = k the loss is instead the mean over k uniformly drawn pairs, an unbiased
// estimate of the value and the gradient (docs/pairwise.md). docs/pairwise.md derives the
// algorithms and compares the surrogates.
//
// Config.MaxFPR = β and Config.MinTPR = γ restrict the loss to the partial AUC: the pairs of
// the ⌈β·|B0|⌉ highest-scored negatives (one-way, FPR ≤ β) and, with MinTPR, of the
// ⌈(1−γ)·|B1|⌉ lowest-scored positives (two-way, TPR ≥ γ as well), with ties at a cut sharing
// its places; each surrogate keeps its exact algorithm on the kept examples (see [Evaluate]).
//
// [Evaluate], [Gradient] and [GradientInto] work on slices; [Loss] puts the same computation in
// a graph.
//
// Binary data is the task of one column. With Config.Task = Classes(k) the scores are row-major
// n×k and the loss averages the binary loss over the one-vs-rest comparisons (column c against
// the rest) or, with Config.OvO, over the ordered class pairs (column a over the rows of classes
// a and b); with Labels(k) over the label columns of an n×k 0/1 indicator. Each comparison runs
// the binary algorithm on its own rows, so the cost stays sub-quadratic (docs/multiclass.md).
//
// # Gorgonia's machines: the safe pattern
//
// Train with gorgonia.Grad and one TapeMachine, calling Reset before every RunAll and the
// solver's Step after it (Step also clears the gradients, which both machines add to until
// then). A LispMachine has two traps this package cannot remove:
//
//   - Build a new LispMachine for every run. One run again after Reset recomputes only the
//     graph's last node: when that is this loss, the op recognises the machine and the run
//     fails with [graph.ErrMachineReused] rather than add the loss's gradient again (2×, 3×, …)
//     from values not recomputed; when it is not, the loss is not run at all and the
//     gradients stay those of the first run, which nothing can detect.
//   - Every RunAll of a LispMachine that fails (a NaN score, a batch with one class) leaks a
//     goroutine inside Gorgonia, blocked forever and holding the machine and its graph; the
//     same path holds a data race that go test -race reports. Check a batch before running it
//     on a LispMachine (for instance with [Evaluate] on the slices), or use a TapeMachine,
//     which neither leaks nor races when a run fails.
package pairwise
