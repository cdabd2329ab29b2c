package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/atomicfile"
	"github.com/rocops/rocops/nn"
)

// Errors of Save and Load, each wrapped with the details.
var (
	// ErrSidecar: the sidecar is missing, unreadable, malformed, incomplete or holds a bad
	// value; or Save was given one.
	ErrSidecar = errors.New("deploy: bad operating-point file")
	// ErrVersion: the sidecar's format version is not one this package reads.
	ErrVersion = errors.New("deploy: unsupported operating-point file version")
	// ErrModel: the model file is missing, not a regular file, of the wrong size, or not a
	// valid checkpoint of the model the sidecar describes; or Save was given a model it cannot
	// describe.
	ErrModel = errors.New("deploy: bad model file")
	// ErrHash: the model file's SHA-256 is not the one the sidecar records.
	ErrHash = errors.New("deploy: model file does not match its operating-point file")
)

// OperatingPoint is how a deployed model is used and what it achieved. A binary model (Classes
// nil) has one output, the score s, and flags a row when s ≥ Threshold. A multi-class or
// multi-label model has k = len(Classes) outputs, the scores s_c of classes c = 0…k−1, and
// flags a row for class c when s_c ≥ Thresholds[c]: one-vs-rest, each class on its own.
type OperatingPoint struct {
	Alpha float64 // the target false-positive rate α the thresholds were chosen for, 0 < α < 1
	// Threshold is τ of a binary model: finite, or +Inf when no threshold met α on validation
	// (nothing is flagged). A multi-class or multi-label model does not use it: Save ignores
	// it and Load returns +Inf.
	Threshold float64
	// The false- and true-positive rates of flagging s ≥ τ on the validation and test parts,
	// each in [0, 1]; for a multi-class or multi-label model, the macro means over the classes
	// of the per-class rates ClassValFPR… (recorded as given, not recomputed).
	ValFPR, ValTPR, TestFPR, TestTPR float64
	// Label is the training data's label column; ScoreCSV copies it when the input has it. ""
	// for none, and always "" for a multi-label model, whose label columns are Classes.
	Label string
	Run   Run // how the model was trained, for the record

	// Confidence is 1 − δ, in (0, 1), for thresholds chosen by the Neyman–Pearson umbrella rule
	// on the validation part (metrics.ThresholdNP; per class one-vs-rest for a model of
	// classes): the rate they guard holds on fresh rows with probability at least Confidence,
	// the false-positive rate at most Alpha, or with Recall the true-positive rate at least
	// Recall (metrics.ThresholdNPRecall). 0 for thresholds that kept α on validation, as before
	// confidences; a confidence makes the sidecar version 4, holding it in its guarantee group.
	Confidence float64
	// Recall is r of the umbrella rule's mirror, in (0, 1), with Confidence only; 0 when the
	// guarded rate is the false-positive rate.
	Recall float64

	// Classes names the k outputs of a multi-class or multi-label model, in output order: the
	// class names of the label column Label (multi-class, k ≥ 2), or the label columns
	// themselves (multi-label, with Multilabel set, k ≥ 1); at most data.MaxClasses, each
	// non-empty, not padded with spaces and distinct. nil for a binary model, which has one
	// output and uses Threshold.
	Classes []string
	// Multilabel marks a multi-label model: Classes are k 0/1 label columns, not the values of
	// one label column. false for a binary or multi-class model.
	Multilabel bool
	// Thresholds are the k per-class thresholds τ_c at Alpha, each chosen one-vs-rest on
	// validation as Threshold is in the binary case (finite, or +Inf when none met α: that
	// class is never flagged). Set exactly when Classes is; Threshold is then unused.
	Thresholds []float64
	// Probabilities says the scores are the softmax of the model's outputs z_c,
	// s_c = e^{z_c} / Σ_d e^{z_d} ([crossentropy.Softmax]): a multi-class model trained by the
	// softmax cross-entropy. Otherwise (always for a binary or multi-label model) the outputs
	// are the scores.
	Probabilities bool
	// The per-class rates of flagging s_c ≥ τ_c one-vs-rest (class c the positives, every
	// other row the negatives; for multi-label, label c's 1s and 0s) on the validation and test
	// parts, in class order, each in [0, 1]. Set exactly when Classes is, each of length k.
	ClassValFPR, ClassValTPR, ClassTestFPR, ClassTestTPR []float64

	// Encoder, when not nil, encodes the raw input columns of a model trained on text columns
	// or missing values into its features (data.FitEncoder, on the training part): the
	// features are then the encoder's (its Names), and the sidecar is version 4, holding it in
	// its group "encoding". For a multi-class model its Classes are Classes; for a
	// binary model of text labels its LabelValues are the negative and positive label values.
	// nil = the features are the input columns, as before.
	Encoder *data.Encoder
}

// clone returns op with its slices copied.
func (op OperatingPoint) clone() OperatingPoint {
	op.Classes, op.Thresholds = slices.Clone(op.Classes), slices.Clone(op.Thresholds)
	op.ClassValFPR, op.ClassValTPR = slices.Clone(op.ClassValFPR), slices.Clone(op.ClassValTPR)
	op.ClassTestFPR, op.ClassTestTPR = slices.Clone(op.ClassTestFPR), slices.Clone(op.ClassTestTPR)
	return op
}

// Run records how a deployed model was trained; Load returns it and nothing depends on it.
type Run struct {
	Loss         string  // the loss or recipe name, such as "kde"
	WarmupEpochs int     // cross-entropy warm-up epochs before it, ≥ 0
	Seed         uint64  // the seed of the split, initialisation and batches
	LearningRate float64 // the learning rate validation chose, ≥ 0
	// FirstPhaseKept says validation kept the weights of the recipe's first phase (its
	// cross-entropy warm-up, or the training before fine-tuning) over the later one's: the
	// model is that phase's. Recorded in the sidecar only when true.
	FirstPhaseKept bool
	// InitSHA256 is the SHA-256, 64 lowercase hex digits, of the model file the training
	// started from (roctrain -init), "" for a model trained from random weights. Recorded in
	// the sidecar only when set.
	InitSHA256 string
}

// Limits of what Load reads.
const (
	maxSidecarBytes = 64 << 20 // 64 MiB: about 200,000 features with long names
	maxModelBytes   = 16 << 30 // 16 GiB: nn's models stay far below
)

// validName matches the run names Save takes: a file name of letters, digits and "+._-" not
// starting with a dot.
var validName = regexp.MustCompile(`^[A-Za-z0-9+_-][A-Za-z0-9+._-]{0,199}$`)

// Save writes the model m and its operating point into dir for the run called name, as
// <name>.<h>.params and the sidecar <name>.json (see the package documentation), and returns
// the model file's path. features names m's input columns in order, and st is the
// standardisation m was trained on, one mean and standard deviation per feature.
//
// Save validates everything first (name, m, op, st and features as Load would) and writes
// nothing when any is bad; its errors then wrap ErrSidecar or ErrModel. A failure while
// writing leaves the previous sidecar and its model in place. m must be a model Load can
// rebuild (see [ModelSpec]), of one output for a binary op, of k = len(op.Classes) outputs
// ([nn.Outputs]) for a multi-class or multi-label one, whose sidecar is then version 3
// (VersionClasses); a binary one's is version 2, as before models of classes. An operating
// point chosen with a confidence (op.Confidence), or a model with an encoder (op.Encoder, whose
// Names features must then be, in order), is version 4 for either, with the group of each.
//
// A model with LoRA adapters ([nn.Transfer]) is saved with its adapters merged into its
// weights, W' = W + s·(B·A)ᵀ for each adapted layer (the transpose in nn's n_in × n_out layout),
// as the plain MLP of the same layers, which scores as the adapted model does to rounding and
// which Load rebuilds; frozen flags, which checkpoints do not record, play no part.
func Save(dir, name string, m nn.Model, op OperatingPoint, st data.Standardizer, features []string) (modelPath string, err error) {
	return SaveWith(dir, name, m, op, st, features, nil)
}

// SaveWith is [Save] that, once the pair is committed and while it still holds name's lock,
// calls with (when not nil) with the model file's path and SHA-256, to write files that belong
// with the pair (roctrain writes an aucm run's PESG state, recording the SHA-256): saves of
// name that run at once then leave the last one's pair and files together. An error of with
// is returned, with the pair committed.
func SaveWith(dir, name string, m nn.Model, op OperatingPoint, st data.Standardizer, features []string,
	with func(modelPath string, sha256 [32]byte) error) (modelPath string, err error) {
	if !validName.MatchString(name) || strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".params") {
		return "", fmt.Errorf("%w: run name %q (want letters, digits and +._-, not starting with a dot or ending in .json or .params)", ErrSidecar, name)
	}
	if m == nil {
		return "", fmt.Errorf("%w: nil model", ErrModel)
	}
	if m, err = mergeAdapters(m); err != nil {
		return "", err
	}
	spec, err := specOf(m)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := nn.Write(&buf, m); err != nil {
		return "", fmt.Errorf("%w: %w", ErrModel, err)
	}
	sum := sha256.Sum256(buf.Bytes())
	sc, js, err := newSidecar(name, m, spec, hex.EncodeToString(sum[:]), int64(buf.Len()), op, st, features)
	if err != nil {
		return "", err
	}

	unlock, locked, err := lock(dir, name)
	if err != nil {
		return "", fmt.Errorf("deploy: locking %s in %s: %w", name, dir, err)
	}
	defer unlock()
	modelPath = filepath.Join(dir, sc.model.File)
	if err := writeFile(modelPath, buf.Bytes()); err != nil {
		return "", err
	}
	if err := hook("model written"); err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(dir, name+".json"), js); err != nil {
		return "", err
	}
	if err := hook("sidecar written"); err != nil {
		return "", err
	}
	if with != nil {
		if err := with(modelPath, sum); err != nil {
			return modelPath, err
		}
	}
	if locked {
		removeSuperseded(dir, name, sc.model.File)
	}
	return modelPath, nil
}

// newSidecar returns the checked sidecar of model m, of spec spec, saved as run name with
// parameters of SHA-256 hash (hexadecimal) and size bytes, and its JSON encoding; a sidecar
// that does not check, or a model whose inputs or parameters are not the spec's, is an error.
func newSidecar(name string, m nn.Model, spec ModelSpec, hash string, size int64, op OperatingPoint,
	st data.Standardizer, features []string) (*sidecar, []byte, error) {
	version := versionBinary
	switch {
	case op.Confidence != 0 || op.Encoder != nil:
		version = versionGroups
	case op.Classes != nil:
		version = versionClasses
	}
	sc := &sidecar{
		version: version,
		model: modelRef{File: name + "." + hash[:16] + ".params", SHA256: hash, Bytes: size,
			Architecture: spec.Architecture, Dtype: spec.Dtype.String()},
		spec: spec, op: op.clone(), features: features, st: st,
	}
	if op.Classes != nil {
		sc.op.Threshold = math.Inf(1) // unused, as Load returns it
	}
	if err := sc.check(); err != nil {
		return nil, nil, err
	}
	count, err := nn.NumParams(m)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	if want, _ := sc.net.params(maxParams); sc.net.in != m.InputSize() || want != count {
		return nil, nil, fmt.Errorf("%w: %s has %d inputs and %d parameters, the model %d and %d",
			ErrModel, spec.Architecture, sc.net.in, want, m.InputSize(), count)
	}
	js, err := sc.encode()
	if err != nil {
		return nil, nil, err
	}
	return sc, js, nil
}

func writeFile(path string, b []byte) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("deploy: saving %s: %w", path, err)
	}
	return nil
}

// hook, when tests set testHook, is called after each file Save commits; an error stops Save
// there, as a crash would.
func hook(step string) error {
	if testHook != nil {
		return testHook(step)
	}
	return nil
}

var testHook func(step string) error

// removeSuperseded removes, best effort, the files of run name in dir that no sidecar names
// once name's sidecar names keep: its other model files <name>.<h>.params and the
// <name>.params of a version-1 pair (each only if it is a checkpoint, so that no other file
// of that name is lost), and the temporaries that killed saves of these files left. It runs
// under name's lock, so no save of name is in progress and every such temporary is stale.
func removeSuperseded(dir, name, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	q := regexp.QuoteMeta(name)
	model := regexp.MustCompile(`^` + q + `(\.[0-9a-f]{16})?\.params$`)
	temp := regexp.MustCompile(`^\.` + q + `\.(json|[0-9a-f]{16}\.params)\.tmp-[^/\\]+$`)
	for _, e := range entries {
		n := e.Name()
		if n == keep || !e.Type().IsRegular() {
			continue
		}
		if temp.MatchString(n) || model.MatchString(n) && isCheckpoint(filepath.Join(dir, n)) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// isCheckpoint reports whether the file at path starts as package nn's checkpoints do.
func isCheckpoint(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(checkpointMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == checkpointMagic
}

// checkpointMagic is how nn's checkpoints begin (nn.Write).
const checkpointMagic = "ROCOPS-PARAMS"

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
