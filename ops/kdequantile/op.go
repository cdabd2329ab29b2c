package kdequantile

import (
	"fmt"

	"github.com/rocops/rocops/internal/opkit"
	"gorgonia.org/gorgonia"
)

// Threshold returns the scalar node τ = F̂_0⁻¹(1 − α) of the scores (a float32 or float64
// vector) and their 0/1 labels (a vector of the same dtype and length). Its gradient with
// respect to the scores is ∂τ/∂f_i = w_i, the softmax weights of the package documentation,
// on the negatives and zero on the positives; the labels get no gradient. With Config.Recall
// the roles of the classes swap: τ is where the smoothed TPR equals the recall, and the
// weights sit on the positives (see [Config]). The node works with
// gorgonia.Grad and a TapeMachine, and with a LispMachine.
//
// Invalid configurations are reported here; invalid batches (NaN scores, one class, labels not
// 0/1) by the machine's RunAll, as the package's Err values. A TapeMachine wraps them in an
// error that hides them from errors.Is; run it with graph.RunAll (package
// github.com/rocops/rocops/graph) to test them with errors.Is(err, rocops.ErrNonFinite) and so on.
// The op computes in float64; a τ or gradient that does not fit in the graph's dtype
// (float32: beyond about 3.4e38) fails the run with rocops.ErrRange.
func Threshold(scores, labels *gorgonia.Node, cfg Config) (*gorgonia.Node, error) {
	return apply(&thresholdKernel{kernel: kernel{cfg: cfg}}, cfg, scores, labels)
}

// Loss returns the scalar node L = F̂_1(τ), the KDE-quantile loss of the scores (a float32 or
// float64 vector (n), or an (n, 1) or (1, n) matrix) with their 0/1 labels (of the same dtype and
// length), or with Config.Recall the smoothed FPR at its τ, and with Config.Tail the upper bound
// (see [Config]). Its gradient with respect to the scores is that of [Gradient], in the scores'
// shape; the labels get no gradient. The node works with gorgonia.Grad and a TapeMachine, and with
// a LispMachine:
//
//	loss, err := kdequantile.Loss(scores, labels, kdequantile.Config{Alpha: 0.05})
//
// Errors are reported as by [Threshold].
func Loss(scores, labels *gorgonia.Node, cfg Config) (*gorgonia.Node, error) {
	return apply(&lossKernel{kernel: kernel{cfg: cfg}}, cfg, scores, labels)
}

// apply checks the configuration, then builds k's node; opkit.Apply checks the nodes.
func apply(k opkit.Kernel, cfg Config, scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return opkit.Apply(k, scores, labels)
}

// kernel holds what the two ops share: the configuration. Each node computes its value and
// gradient in one call, and its backward pass reuses that gradient (opkit.Apply), so τ is
// solved once per step.
type kernel struct{ cfg Config }

func (k *kernel) Package() string { return pkg }

func (k *kernel) params() string {
	return fmt.Sprintf("%+v", k.cfg) // every field: the op's hash
}

// thresholdKernel is the opkit.Kernel of Threshold.
type thresholdKernel struct{ kernel }

func (k *thresholdKernel) String() string { return "KDEQuantileThreshold" + k.params() }

func (k *thresholdKernel) ValueGrad(scores, labels []float64) (float64, []float64, error) {
	g, tau, err := thresholdGradient(scores, labels, k.cfg)
	return tau, g, err
}

// lossKernel is the opkit.Kernel of Loss.
type lossKernel struct{ kernel }

func (k *lossKernel) String() string { return "KDEQuantileLoss" + k.params() }

func (k *lossKernel) ValueGrad(scores, labels []float64) (float64, []float64, error) {
	g, r, err := Gradient(scores, labels, k.cfg)
	return r.Loss, g, err
}
