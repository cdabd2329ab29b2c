// Package crossentropy is the cross-entropy of scores read as logits, binary, softmax or per
// label, as graph-free functions on slices and as a Gorgonia op beside the module's ROC losses.
//
// A batch has scores z_i (logits) and 0/1 labels y_i, i = 1 … n. The loss is the mean
// negative log-likelihood of the labels under p_i = σ(z_i) = 1/(1 + e^{−z_i}),
//
//	L = (1/n) Σ_i softplus(z_i) − y_i·z_i,   softplus(z) = log(1 + e^z),
//
// whose gradient is (Bishop, Pattern Recognition and Machine Learning, §4.3.2)
//
//	∂L/∂z_i = (σ(z_i) − y_i)/n.
//
// Both are computed in the form that neither overflows nor loses precision,
// softplus(z) = max(z, 0) + log1p(e^{−|z|}), from one exponential per score. Unlike the ROC
// losses, cross-entropy is defined on a batch of one class.
//
// The same loss for k columns is a Config field: with Config.Task = Classes(k) it is the softmax
// cross-entropy of row-major n×k logits against class indices, with its log-sum-exp taken from
// each row's largest logit; with Labels(k) the binary cross-entropy of every cell of n×k logits
// against n×k 0/1 labels, averaged over the n·k cells. [Softmax] gives a softmax model's class
// probabilities.
//
// [Evaluate], [Gradient] and [GradientInto] work on slices; [Loss] puts the same computation in
// a graph.
package crossentropy
