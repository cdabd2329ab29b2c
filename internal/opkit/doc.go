// Package opkit holds the boilerplate shared by the module's Gorgonia ops: turning a scalar
// function of a score vector and its 0/1 labels into a differentiable graph node, reading and
// writing Gorgonia values as float64 whatever the graph's dtype, and checking input nodes.
//
// An op package describes its function once, as a [Kernel] computing the value and the gradient
// together on []float64, and calls [Apply]. Apply builds a forward node, which computes both and
// keeps the gradient for its backward node, that supports both of Gorgonia's differentiation modes:
// symbolic ([gorgonia.Grad] with a TapeMachine, through SymDiff) and automatic (LispMachine,
// through DoDiff). Every reduction happens in float64; values go back to the graph in its dtype,
// float32 or float64, range-checked: a finite result that does not fit in float32 is an error
// ([rocops.ErrRange]), never a silent ±Inf.
//
// [ApplyRows] does the same for an (n, k) score matrix with (n) or (n, k) labels, the input of
// the losses of k classes and k labels; the kernel sees both row-major. [ApplyTask] picks one or
// the other for a rocops.Task after [CheckTask] has checked the nodes' shapes against it: the one
// entry point of a task-general loss op.
package opkit
