// Package deploy carries a trained scorer out of training: the model and its operating point
// saved as one unit, loaded back with every part checked, and rows scored in a stream.
//
// # The artifact
//
// [Save] writes two files into a directory for a run called name:
//
//	<name>.<h>.params   the model's checkpoint (package nn), h the first 16 hex digits of its SHA-256
//	<name>.json         the sidecar: the operating point and everything needed to use the model
//
// The sidecar (JSON, format "rocops-operating-point", version 2) holds the threshold τ and
// the target false-positive rate α it was chosen for, the false- and true-positive rates
// flagging score ≥ τ gave on the validation and test parts, the feature names in the model's
// input order, the training part's standardisation (x − Mean)/Std of each feature, the label
// column, how the model was trained, and the model file's name, size, SHA-256 and
// [ModelSpec] (its architecture line and dtype), and the SHA-256 of the sidecar's own values.
// A row is flagged when its score s satisfies s ≥ τ; a null threshold (τ = +Inf) flags
// nothing.
//
// # Models of classes
//
// A multi-class model (k ≥ 2 classes, the values of one label column) or a multi-label one
// (k ≥ 1 label columns of 0/1) has k outputs, and its scores s_c, c = 0…k−1, are those
// outputs, or their softmax s_c = e^{z_c}/Σ_d e^{z_d} of the outputs z when
// [OperatingPoint.Probabilities] (a model trained by the softmax cross-entropy). Its operating
// point holds a threshold τ_c per class, chosen one-vs-rest on validation at α, and a row is
// flagged for class c when s_c ≥ τ_c (null, +Inf: never). Its sidecar is version 3: version
// 2's keys without "threshold", and "classes" (the class names or label columns, in output
// order), "multilabel", "probabilities", "thresholds", and the per-class rates
// "class_validation_fpr", "class_validation_tpr", "class_test_fpr" and "class_test_tpr", with
// the scalar rates their macro means. Binary models still get version 2, byte for byte as
// before. [Scorer.Score] returns k scores a row, [Scorer.FlagClass] flags one, and
// [Scorer.ScoreCSV] writes "row,<label>,score_<class>…,flag_<class>…" (see there).
//
// # Thresholds with a guarantee
//
// Thresholds chosen by the Neyman–Pearson umbrella rule on the validation part (roctrain
// -confidence: metrics.ThresholdNP, per class one-vs-rest for a model of classes) keep the
// false-positive rate on fresh rows at or below α with probability at least 1 − δ, or with
// the mirror (metrics.ThresholdNPRecall) the true-positive rate at or above a recall r. Their
// sidecar is version 4 (below) with the guarantee group: "deployed_confidence" (1 − δ,
// [OperatingPoint.Confidence]) and "deployed_recall" (r, or 0 when the rate guarded is the
// false-positive rate, [OperatingPoint.Recall]).
//
// # Models of raw tables
//
// A model trained on raw columns — text (categorical) columns, missing values — has an
// encoder ([OperatingPoint.Encoder], a [data.Encoder] fitted on the training part) that turns
// a row's raw columns into its features: the training median for a missing number and a 0/1
// "was missing" feature, one-hot features of the levels seen in training, rare and new levels
// in one "(other)" feature. Its sidecar is version 4 (below) with the group "encoding":
// "columns", each with "name", "kind" (number, text or empty), "median", "levels", "other" and
// "missing", and "label_values", the negative and positive label values of a binary model of
// text labels (null for 0/1 labels). Its "features", "mean" and "std" are the encoded
// features'. ScoreCSV and ScoreParquet then read the raw columns by name and encode each row,
// so that a blank cell or a level first seen now still gets a finite score; a value of a
// numeric column that is not a number, and a label value not seen in training, are errors
// naming the line (or row) and the column.
//
// # Models started from another
//
// A model whose training started from a saved model (roctrain -init) records that model file's
// SHA-256 in its sidecar's "run" group as "init_sha256" ([Run].InitSHA256), a key of every
// version written only when set, so that a sidecar without it keeps its bytes; when present,
// Load requires 64 lowercase hex digits. A model with LoRA adapters (nn.Transfer) is saved with
// its adapters merged into its weights, as the plain MLP of the same layers (see [Save]).
//
// # Version 4
//
// A version-4 sidecar holds version 2's keys (a binary model) or version 3's (a model of
// classes) and one or both of two groups, each present or absent as a whole: the guarantee
// ("deployed_confidence", "deployed_recall") when the thresholds were chosen with a
// confidence, and "encoding" when the model has an encoder. Save writes version 4 exactly when
// the operating point has a confidence or an encoder, and otherwise version 2 or 3, byte for
// byte as before either; Load refuses a version-4 sidecar with neither group, and either group
// in a sidecar of version 2 or 3.
//
// # One unit on disk
//
// The sidecar is the commit point. Save writes the model file first under its
// content-addressed name, which no other content can have, then replaces the sidecar by one
// atomic rename (each file is written to a temporary file, synced, renamed and its directory
// synced). So a reader sees either the previous sidecar, which still names the previous model
// file, or the new one, whichever system call the writer was killed after: never a sidecar
// without its model or with another model. Saves of the same name in one directory take a
// lock (the file .<name>.lock, flock on Unix), so concurrent writers follow one another and
// the last to commit wins; under the lock Save removes the model files of name that its new
// sidecar supersedes (checkpoints named <name>.<h>.params, or <name>.params of a version-1
// pair), and the temporaries of killed writers, and never a file the committed sidecar
// names. (Without flock, on Windows, superseded model files are kept.) A reader that
// finds its sidecar's model file removed by such a clean-up reads the sidecar again.
// [SaveWith] writes files that belong with the pair (roctrain's PESG state) under the same
// lock, once the pair is committed, given the model file's SHA-256 to record.
//
// # Loading
//
// [Load] takes the sidecar's path, the run's <name>.params or a <name>.<h>.params, and resolves
// them through the sidecar <name>.json. It reads version 1 sidecars as well (the earlier
// roctrain's <run>.json beside <run>.params, an MLP). Everything is checked before it is used:
// both files must be regular files (a FIFO or a device is refused before it is opened), reads
// are bounded by the size each should have (the model file's recorded size, or for a version-1
// sidecar, which records none, what its architecture's parameters take; at most 64 MiB for a
// sidecar), the sidecar's keys and values must be complete and valid (α in (0, 1), a finite or
// null threshold, rates in [0, 1], distinct feature names, finite means, positive finite
// deviations, nothing after the JSON object, a matching checksum; for version 3, as many
// classes as the model has outputs, named, distinct and not padded, each with a finite or null
// threshold and its four rates; for version 4, its groups whole, a confidence in (0, 1) and a
// recall in (0, 1) or 0, an encoder whose features are the model's, in order, none of its
// columns the label), the model file's SHA-256
// must match, and the architecture the sidecar describes must be the one the checkpoint
// records, with no more parameters than the file holds, before the model is allocated. Errors
// wrap [ErrSidecar], [ErrVersion], [ErrModel] or [ErrHash].
//
// # Scoring
//
// A [Scorer] scores CSV text ([Scorer.ScoreCSV], [Scorer.ScoreCSVContext]) through package
// data's [data.TableReader], with the limits, header checks and number rules of
// [data.ReadCSV], or batches of raw feature rows ([Scorer.Score]) for other programs: a
// pipeline loads one Scorer per worker, reads [Scorer.Features] to order its columns, passes
// rows of raw values to Score, and flags a score s when s ≥ the threshold of
// [Scorer.OperatingPoint] (or calls [Scorer.Flag]; for a model of classes, the operating
// point's Classes and Thresholds, and [Scorer.FlagClass]). Score and ScoreCSV standardise and score a row the same way. A Scorer
// is safe for concurrent use, its scoring calls taking turns.
package deploy
