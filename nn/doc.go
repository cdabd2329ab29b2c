// Package nn provides the scoring models of rocops — multilayer perceptrons (MLP), the linear
// scorer among them —, their seeded initialisation, frozen parameters and LoRA adapters for
// fine-tuning a trained model, and parameter checkpoints.
//
// A model maps a batch of B rows of n features to one real score (a logit) per row. The MLP
// with L hidden layers computes
//
//	h⁰ = x
//	hˡ = φ(hˡ⁻¹·Wˡ + bˡ)        l = 1, …, L
//	s  = hᴸ·Wᴸ⁺¹ + bᴸ⁺¹
//
// where x ∈ ℝ^(B×n) is the batch, one example per row; Wˡ ∈ ℝ^(nₗ₋₁×nₗ) and bˡ ∈ ℝ^(nₗ) are
// the weights and biases of layer l (the bias is added to every row), n₀ = n, n₁ … n_L are the
// hidden sizes and n_(L+1) = 1; φ is the activation ([ReLU], [Tanh] or [Identity]) applied
// element by element; and s ∈ ℝ^B is the score vector. The linear scorer s = x·W¹ + b¹
// (logistic regression when trained with cross-entropy) is the case L = 0:
// NewMLP(MLPConfig{In: n}).
// A model of k outputs (MLPConfig.Outputs = k ≥ 2, for k classes or labels) has
// n_(L+1) = k and scores s ∈ ℝ^(B×k), row i holding example i's k scores.
//
// # Graphs and shared parameters
//
// Gorgonia graphs are static and sized per batch, so a program builds one graph per batch
// size — for example one for training batches and one for evaluation — with [Model.Build].
// Every graph built from a model binds the model's own parameter tensors (not copies), and
// Gorgonia's solvers update those tensors in place: a solver step taken on one graph changes
// the model in every graph. [Scores] evaluates a model on plain rows, a [Scorer] does so
// again and again (validation every epoch, serving) reusing what it built, and [Snapshot]
// and [Restore] keep and bring back a copy of its parameters (for example the best epoch's).
// An MLP's graph holds ops of this package, one per affine map and one per activation, which
// compute the scores and gradients of the same network written with Gorgonia's own ops (Mul,
// BroadcastAdd, Rectify, Tanh) bit for bit, and a [Pass]'s to rounding; each node writes into
// a tensor of its own that the next run of the graph reuses, so a machine run again allocates
// no value of the batch's size, and a node's value holds until then.
//
// # Direct passes
//
// For this package's own networks a [Pass] computes the scores and the parameter gradients
// without a graph: BLAS matrix products into buffers allocated once, and no gradient for the
// input rows. The trainer's step and the Scorer use it; other models go through their
// graphs. [BLAS] names the matrix-product library: pure-Go gonum by default, the system's
// OpenBLAS with the build tag openblas.
//
// # Initialisation
//
// Weights are drawn from a PCG generator (math/rand/v2) seeded with the config's Seed, layer
// by layer and row by row, so that the same config always gives the same parameters; biases
// start at zero. [Glorot] initialisation (Glorot and Bengio, 2010) draws
//
//	Wᵢⱼ ~ U(−a, a),  a = √(6/(n_in + n_out))
//
// and [He] initialisation (He et al., 2015) draws
//
//	Wᵢⱼ ~ N(0, σ²),  σ = √(2/n_in)
//
// where n_in and n_out are the number of rows and columns of the layer's weight matrix.
// Float32 models hold the float32 rounding of the float64 model with the same config.
//
// # Transfer and parameter-efficient fine-tuning
//
// [Transfer] builds a model from a trained MLP, the base: it keeps the base's first layers
// (its body, every layer but the output layer by default), copied, and puts a new head above
// them, of another width or another number of outputs. Any kept layer may be frozen, and any
// kept layer may carry a LoRA adapter (Hu et al., "LoRA: low-rank adaptation of large language
// models", arXiv 2106.09685), with which the layer computes
//
//	z = h·W + b + s·(h·Aᵀ)·Bᵀ,   s = α/r,
//
// where h ∈ ℝ^(B×n_in) is the layer's input, W ∈ ℝ^(n_in×n_out) and b ∈ ℝ^(n_out) its weight
// and bias, frozen, A ∈ ℝ^(r×n_in) and B ∈ ℝ^(n_out×r) the adapter's trainable matrices of rank
// r (B zero at the start, so the adapted layer starts as its base layer, bit for bit), and α
// the scale's numerator (r by default). Three ways to start from a pretrained body follow:
// the whole model trained (TransferConfig{}), the body frozen under a new head
// (TransferConfig{Freeze: L}) and adapters on the body with a new head (TransferConfig{Rank:
// r}).
//
// A frozen parameter ([Param].Frozen) is kept bit for bit by training: a trainer takes
// m.Params() and hands to its optimiser only the parameters that are not frozen, with the
// gradients of the same indices in [Pass.Grads] or of the same learnables of [Model.Build]
// (which gorgonia.Grad then computes for those alone). A Pass computes no gradient of a frozen
// parameter (its gradient stays zero) and stops its backward pass at the lowest layer with a
// trainable parameter: with the body frozen, a step costs the forward pass and the head's
// backward work. Freezing is not recorded in checkpoints, which hold values; adapters are, as
// parameters and in the architecture line.
//
// # Checkpoints
//
// [Save] and [Load] store and restore a model's parameters in a versioned binary file with
// checksums. Save replaces the file atomically, so an interrupted save leaves the previous
// checkpoint intact (and its temporary file, which the next Save of the same path removes);
// Load validates the whole file and its fit to the model before changing
// any parameter. The errors a caller may meet are exported sentinels for [errors.Is].
package nn
