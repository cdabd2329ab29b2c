// Package kdequantile is the KDE-quantile loss: the smoothed false-negative rate of a scorer at
// the threshold where its smoothed false-positive rate equals a target α, with an exact,
// numerically stable gradient. It trains a classifier for the ROC operating point it will be
// deployed at.
//
// For scores f_i with labels y_i ∈ {0, 1}, B0 the negatives and B1 the positives of the batch,
// the class CDFs are smoothed with a logistic kernel of inverse bandwidth v_c:
//
//	σ(u; v)  = 1 / (1 + exp(−v·u))
//	F̂_c(t)  = (1/|B_c|) Σ_{j∈B_c} σ(t − f_j; v_c)
//	τ        = F̂_0⁻¹(1 − α),  the unique root of  Σ_{j∈B0} σ(τ − f_j; v0) = |B0|·(1 − α)
//	L        = F̂_1(τ)
//
// τ is the threshold at which the smoothed false-positive rate 1 − F̂_0(τ) equals α, and L is
// the smoothed false-negative rate there: minimising L maximises the smoothed true-positive rate
// at false-positive rate α.
//
// The gradient (derived in docs/kde-quantile.md) is
//
//	∂L/∂f_i = −σ′(τ − f_i; v1) / |B1|          for i ∈ B1
//	∂L/∂f_i = (dF̂_1/dτ) · w_i                  for i ∈ B0
//	dF̂_1/dτ = (1/|B1|) Σ_{j∈B1} σ′(τ − f_j; v1)
//	w_i      = ∂τ/∂f_i = exp(ℓ_i − logsumexp_{j∈B0} ℓ_j),  ℓ_i = −|z_i| − 2·log(1 + e^{−|z_i|})
//
// where σ′(u; v) = v·σ(u; v)·(1 − σ(u; v)) and z_i = v0·(τ − f_i). The weights w_i are the
// normalised kernel derivatives σ′(z_i)/Σσ′(z_j), computed in the log domain so that they stay
// finite and sum to one even when every σ(1 − σ) product underflows. They are positive and sum
// to one over B0, so the negatives' gradients add up to dF̂_1/dτ and the positives' to
// −dF̂_1/dτ (gradient balance, docs/kde-quantile.md).
//
// The mirrored loss, Config.Recall = r instead of Alpha, fixes the true-positive rate instead:
// τ is where the smoothed true-positive rate equals r and L is the smoothed false-positive
// rate there. It is computed as the loss above of the mirrored batch (−f, 1 − y) at α = 1 − r,
// with τ and the gradient mapped back to the scores given (see [Config]).
//
// [Evaluate] and [Gradient] work on slices; [Threshold] (the scalar τ) and [Loss] (the scalar
// L) are Gorgonia ops that work with gorgonia.Grad and a TapeMachine, with a LispMachine, and
// on float32 and float64 graphs (reductions are done in float64).
//
// The bandwidths V0 and V1 of [Config] are used as given when positive; zero chooses each from
// the batch by a normal-reference rule described at [Config]. A batch-chosen bandwidth is a
// constant of the backward pass: the gradient is that of L with v0 and v1 fixed at the values
// reported in [Result].
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
package kdequantile
