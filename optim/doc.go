// Package optim holds the module's optimisers: the update rules of the trainer's steps (Adam,
// SGD, momentum, RMSProp, each a [Stepper] that writes the parameters in place with Gorgonia's
// order of operations, allocation-free after its first step, and [Decay], decoupled weight
// decay), and PESG, the optimiser LibAUC trains the AUC-M loss with ([PESG] settings, a
// [PESGRun] over a model's parameters and the loss's a, b and α, and its [PESGState] with a
// versioned, checksummed file format). Package train runs them; they depend on nothing of
// train.
package optim
