package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/atomicfile"
	"github.com/rocops/rocops/nn"
)

// The operating-point file that -out writes beside each model, <run>.json beside
// <run>.params: everything -predict needs to turn raw CSV rows into flags.
const (
	sidecarFormat  = "rocops-operating-point"
	sidecarVersion = 1
)

// sidecar is the operating-point file, format version 1.
type sidecar struct {
	Format  string `json:"format"`  // always "rocops-operating-point"
	Version int    `json:"version"` // 1
	// Model is the file name of the checkpoint, in the same directory, and ModelSHA256 the
	// hex SHA-256 of its bytes, so that a sidecar is never applied to another model.
	Model        string       `json:"model"`
	ModelSHA256  string       `json:"model_sha256"`
	Architecture architecture `json:"architecture"`
	Loss         string       `json:"loss"`
	WarmupEpochs int          `json:"warmup_epochs"`
	Seed         uint64       `json:"seed"`
	LearningRate float64      `json:"learning_rate"`
	// Alpha is the target false-positive rate; Threshold the lowest model score whose
	// false-positive rate on the validation part is at most Alpha, null when none is (then
	// nothing is flagged). A row is flagged when its score is ≥ Threshold.
	Alpha     float64  `json:"alpha"`
	Threshold *float64 `json:"threshold"`
	// The rates flagging score ≥ Threshold gave on the validation and test parts.
	ValidationFPR float64 `json:"validation_fpr"`
	ValidationTPR float64 `json:"validation_tpr"`
	TestFPR       float64 `json:"test_fpr"`
	TestTPR       float64 `json:"test_tpr"`
	// Features names the model's input columns in order; each is standardised as
	// (x − Mean)/Std with the training part's statistics before scoring. Label is the label
	// column of the training data, which -predict ignores if present.
	Features []string  `json:"features"`
	Label    string    `json:"label"`
	Mean     []float64 `json:"mean"`
	Std      []float64 `json:"std"`
}

// architecture is what rebuilds the model before its parameters are loaded.
type architecture struct {
	In         int           `json:"in"`
	Hidden     []int         `json:"hidden"`
	Activation nn.Activation `json:"activation"`
}

// ErrSidecar reports an operating-point file that cannot be used.
var ErrSidecar = errors.New("roctrain: bad operating-point file")

// sidecarPath is the operating-point file of the model at modelPath: the same name with
// .json for .params.
func sidecarPath(modelPath string) string {
	return strings.TrimSuffix(modelPath, ".params") + ".json"
}

// saveDeployment writes the model to path and its operating point beside it, each
// atomically; the sidecar is written last, so a sidecar always describes the model beside it.
func saveDeployment(path string, m nn.Model, sc sidecar) error {
	var buf bytes.Buffer
	if err := nn.Write(&buf, m); err != nil {
		return err
	}
	sum := sha256.Sum256(buf.Bytes())
	sc.Format, sc.Version = sidecarFormat, sidecarVersion
	sc.Model, sc.ModelSHA256 = filepath.Base(path), hex.EncodeToString(sum[:])
	js, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return err
	}
	js = append(js, '\n')
	for _, f := range []struct {
		path string
		b    []byte
	}{{path, buf.Bytes()}, {sidecarPath(path), js}} {
		err := atomicfile.Write(f.path, func(w io.Writer) error {
			_, err := w.Write(f.b)
			return err
		})
		if err != nil {
			return fmt.Errorf("saving %s: %w", f.path, err)
		}
	}
	return nil
}

// newSidecar describes run r of split sp, trained with the given options.
func newSidecar(o *options, sp *split, r *seedResult) sidecar {
	return sidecar{
		Architecture:  architecture{In: sp.train.Cols, Hidden: o.hiddenSizes},
		Loss:          r.Loss,
		WarmupEpochs:  r.WarmupEpochs,
		Seed:          r.Seed,
		LearningRate:  r.LearningRate,
		Alpha:         r.Alpha,
		Threshold:     r.DeployedThreshold,
		ValidationFPR: r.ValFPR,
		ValidationTPR: r.ValTPR,
		TestFPR:       r.DeployedTestFPR,
		TestTPR:       r.DeployedTestTPR,
		Features:      sp.train.FeatureNames,
		Label:         sp.train.LabelName,
		Mean:          sp.std.Mean,
		Std:           sp.std.Std,
	}
}

// loadDeployment reads the model at path and its operating-point file, checking that they
// belong together.
func loadDeployment(path string) (nn.Model, sidecar, error) {
	var sc sidecar
	side := sidecarPath(path)
	js, err := os.ReadFile(side)
	if err != nil {
		return nil, sc, fmt.Errorf("%w: %w (-out writes it beside the model)", ErrSidecar, err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, sc, fmt.Errorf("%w: %s: %w", ErrSidecar, side, err)
	}
	switch {
	case sc.Format != sidecarFormat:
		return nil, sc, fmt.Errorf("%w: %s: format %q, want %q", ErrSidecar, side, sc.Format, sidecarFormat)
	case sc.Version != sidecarVersion:
		return nil, sc, fmt.Errorf("%w: %s: version %d; this roctrain reads version %d", ErrSidecar, side, sc.Version, sidecarVersion)
	case len(sc.Features) != sc.Architecture.In || len(sc.Mean) != sc.Architecture.In || len(sc.Std) != sc.Architecture.In:
		return nil, sc, fmt.Errorf("%w: %s: %d features, %d means and %d deviations for a model of %d inputs",
			ErrSidecar, side, len(sc.Features), len(sc.Mean), len(sc.Std), sc.Architecture.In)
	}
	ckpt, err := os.ReadFile(path)
	if err != nil {
		return nil, sc, err
	}
	if sum := sha256.Sum256(ckpt); hex.EncodeToString(sum[:]) != sc.ModelSHA256 {
		return nil, sc, fmt.Errorf("%w: %s describes another model than %s (SHA-256 differs)", ErrSidecar, side, path)
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: sc.Architecture.In, Hidden: sc.Architecture.Hidden, Activation: sc.Architecture.Activation})
	if err != nil {
		return nil, sc, fmt.Errorf("%w: %s: %w", ErrSidecar, side, err)
	}
	if err := nn.Read(bytes.NewReader(ckpt), m); err != nil {
		return nil, sc, fmt.Errorf("%s: %w", path, err)
	}
	return m, sc, nil
}

// standardizer is the sidecar's standardisation.
func (sc sidecar) standardizer() data.Standardizer {
	return data.Standardizer{Mean: sc.Mean, Std: sc.Std}
}
