package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"strings"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
)

// The sidecar's format name and the version Save writes. Load reads versions 1 and 2.
const (
	Format  = "rocops-operating-point"
	Version = 2
)

// fileV2 is the sidecar, format version 2, as JSON.
type fileV2 struct {
	Format  string   `json:"format"`  // Format
	Version int      `json:"version"` // 2
	Model   modelRef `json:"model"`
	pointJSON
	Run runInfo `json:"run"`
	// Checksum is the hex SHA-256 of the sidecar's canonical encoding (json.MarshalIndent
	// with two spaces) with this field empty: it covers the values, not the layout.
	Checksum string `json:"sidecar_sha256"`
}

// modelRef names the model file beside the sidecar and describes it.
type modelRef struct {
	File         string `json:"file"`   // <name>.<first 16 hex digits of SHA256>.params
	SHA256       string `json:"sha256"` // of the whole file, hex
	Bytes        int64  `json:"bytes"`  // the file's size
	Architecture string `json:"architecture"`
	Dtype        string `json:"dtype"` // "float64" or "float32"
}

// pointJSON is what both versions hold of the operating point, the features and the
// standardisation, with the same keys.
type pointJSON struct {
	// The operating point: flag score ≥ threshold (null: no threshold kept the validation FPR
	// at most alpha, and nothing is flagged), and the rates that gave on validation and test.
	Alpha         float64  `json:"alpha"`
	Threshold     *float64 `json:"threshold"`
	ValidationFPR float64  `json:"validation_fpr"`
	ValidationTPR float64  `json:"validation_tpr"`
	TestFPR       float64  `json:"test_fpr"`
	TestTPR       float64  `json:"test_tpr"`
	// The model's input columns in order, each standardised as (x − mean)/std, and the
	// training data's label column ("" for none).
	Features []string  `json:"features"`
	Label    string    `json:"label"`
	Mean     []float64 `json:"mean"`
	Std      []float64 `json:"std"`
}

// newPoint is the JSON of an operating point, features and standardisation.
func newPoint(op OperatingPoint, features []string, st data.Standardizer) pointJSON {
	p := pointJSON{Alpha: op.Alpha, ValidationFPR: op.ValFPR, ValidationTPR: op.ValTPR, TestFPR: op.TestFPR,
		TestTPR: op.TestTPR, Features: features, Label: op.Label, Mean: st.Mean, Std: st.Std}
	if !math.IsInf(op.Threshold, 1) {
		t := op.Threshold
		p.Threshold = &t
	}
	return p
}

// sidecar returns the checked sidecar of p with the given version, model and run.
func (p *pointJSON) sidecar(version int, model modelRef, spec ModelSpec, run Run) (*sidecar, error) {
	threshold := math.Inf(1) // null
	if p.Threshold != nil {
		threshold = *p.Threshold
	}
	sc := &sidecar{version: version, model: model, spec: spec, features: p.Features,
		st: data.Standardizer{Mean: p.Mean, Std: p.Std},
		op: OperatingPoint{Alpha: p.Alpha, Threshold: threshold, ValFPR: p.ValidationFPR, ValTPR: p.ValidationTPR,
			TestFPR: p.TestFPR, TestTPR: p.TestTPR, Label: p.Label, Run: run}}
	return sc, sc.check()
}

type runInfo struct {
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Seed         uint64  `json:"seed"`
	LearningRate float64 `json:"learning_rate"`
}

// fileV1 is the sidecar roctrain -out wrote before this package, format version 1: an MLP
// beside <run>.params.
type fileV1 struct {
	Format       string  `json:"format"`
	Version      int     `json:"version"`
	Model        string  `json:"model"`
	ModelSHA256  string  `json:"model_sha256"`
	Architecture archV1  `json:"architecture"`
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Seed         uint64  `json:"seed"`
	LearningRate float64 `json:"learning_rate"`
	pointJSON
}

type archV1 struct {
	In         int    `json:"in"`
	Hidden     []int  `json:"hidden"`
	Activation string `json:"activation"`
}

// sidecar is a decoded sidecar of either version, checked.
type sidecar struct {
	version  int
	model    modelRef // Bytes is 0 for version 1, which does not record it
	spec     ModelSpec
	net      layers
	op       OperatingPoint
	features []string
	st       data.Standardizer
}

// encode returns the version-2 JSON of sc, with its checksum.
func (sc *sidecar) encode() ([]byte, error) {
	r := sc.op.Run
	f := fileV2{Format: Format, Version: Version, Model: sc.model, pointJSON: newPoint(sc.op, sc.features, sc.st),
		Run: runInfo{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate}}
	sum, err := f.checksum()
	if err != nil {
		return nil, err
	}
	f.Checksum = sum
	js, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("deploy: encoding the sidecar: %w", err)
	}
	return append(js, '\n'), nil
}

// checksum is the hex SHA-256 of f's canonical encoding with Checksum empty.
func (f fileV2) checksum() (string, error) {
	f.Checksum = ""
	js, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return "", fmt.Errorf("deploy: encoding the sidecar: %w", err)
	}
	sum := sha256.Sum256(js)
	return hex.EncodeToString(sum[:]), nil
}

// decodeSidecar parses and checks a sidecar of either version. Its errors wrap ErrSidecar or,
// for a version it does not read, ErrVersion.
func decodeSidecar(b []byte) (*sidecar, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrSidecar)
	}
	var head struct {
		Format  *string `json:"format"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	switch {
	case head.Format == nil || head.Version == nil:
		return nil, fmt.Errorf("%w: no \"format\" or \"version\"", ErrSidecar)
	case *head.Format != Format:
		return nil, fmt.Errorf("%w: format %q, want %q", ErrSidecar, *head.Format, Format)
	}
	switch *head.Version {
	case 1:
		var f fileV1
		if err := strictUnmarshal(raw, &f); err != nil {
			return nil, err
		}
		return f.sidecar()
	case 2:
		var f fileV2
		if err := strictUnmarshal(raw, &f); err != nil {
			return nil, err
		}
		return f.sidecar()
	}
	return nil, fmt.Errorf("%w: version %d; this package reads versions 1 and %d", ErrVersion, *head.Version, Version)
}

// strictUnmarshal decodes the JSON object raw into the struct *v, requiring every key of it
// and of its nested structs to be present and no other.
func strictUnmarshal(raw []byte, v any) error {
	if err := checkKeys(raw, reflect.TypeOf(v).Elem(), ""); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	return nil
}

var errUnknownKey = errors.New("unknown key")

// checkKeys reports a key of the struct type t missing from the JSON object raw, or one
// that t does not have; at names the object for messages.
func checkKeys(raw []byte, t reflect.Type, at string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fmt.Errorf("%w: %s is not a JSON object", ErrSidecar, strings.TrimPrefix(at+" value", " "))
	}
	want := map[string]bool{}
	for i := range t.NumField() {
		field := t.Field(i)
		if field.Anonymous { // its keys are the object's own
			if err := checkKeys(raw, field.Type, at); err != nil && !errors.Is(err, errUnknownKey) {
				return err
			}
			for j := range field.Type.NumField() {
				key, _, _ := strings.Cut(field.Type.Field(j).Tag.Get("json"), ",")
				want[key] = true
			}
			continue
		}
		key, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		want[key] = true
		v, ok := obj[key]
		if !ok {
			return fmt.Errorf("%w: key %q missing", ErrSidecar, at+key)
		}
		if field.Type.Kind() == reflect.Struct {
			if err := checkKeys(v, field.Type, at+key+"."); err != nil {
				return err
			}
		}
	}
	for key := range obj {
		if !want[key] {
			return fmt.Errorf("%w: %w %q", ErrSidecar, errUnknownKey, at+key)
		}
	}
	return nil
}

func (f *fileV2) sidecar() (*sidecar, error) {
	sum, err := f.checksum()
	if err != nil {
		return nil, err
	}
	if sum != f.Checksum {
		return nil, fmt.Errorf("%w: its checksum %q does not match its content (%s): edited or damaged", ErrSidecar, f.Checksum, sum)
	}
	dt, err := parseDtype(f.Model.Dtype)
	if err != nil {
		return nil, err
	}
	if f.Model.Bytes < 1 || f.Model.Bytes > maxModelBytes {
		return nil, fmt.Errorf("%w: model size %d bytes (want 1 to %d)", ErrSidecar, f.Model.Bytes, int64(maxModelBytes))
	}
	r := f.Run
	return f.pointJSON.sidecar(2, f.Model, ModelSpec{Architecture: f.Model.Architecture, Dtype: dt},
		Run{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate})
}

func (f *fileV1) sidecar() (*sidecar, error) {
	// Version 1 described an MLP by its sizes and activation; its checkpoint records the same
	// network as nn describes it today.
	var arch string
	if len(f.Architecture.Hidden) == 0 {
		arch = fmt.Sprintf("Linear(in=%d)", f.Architecture.In)
	} else {
		act := f.Architecture.Activation
		if act == "" {
			act = "relu"
		}
		arch = fmt.Sprintf("MLP(in=%d, hidden=%v, activation=%s)", f.Architecture.In, f.Architecture.Hidden, act)
	}
	return f.pointJSON.sidecar(1, modelRef{File: f.Model, SHA256: f.ModelSHA256, Architecture: arch, Dtype: "float64"},
		ModelSpec{Architecture: arch, Dtype: tensor.Float64},
		Run{Loss: f.Loss, WarmupEpochs: f.WarmupEpochs, Seed: f.Seed, LearningRate: f.LearningRate})
}

func parseDtype(s string) (tensor.Dtype, error) {
	switch s {
	case "float64":
		return tensor.Float64, nil
	case "float32":
		return tensor.Float32, nil
	}
	return tensor.Dtype{}, fmt.Errorf("%w: model dtype %q (want float64 or float32)", ErrSidecar, s)
}

// check validates everything a sidecar holds but the model file's content; its errors wrap
// ErrSidecar. Save runs it on what it is about to write, Load on what it read.
func (sc *sidecar) check() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrSidecar, fmt.Sprintf(format, a...))
	}
	var err error
	if sc.net, err = sc.spec.parse(); err != nil {
		return fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	if _, ok := sc.net.params(maxParams); !ok {
		return bad("architecture %q has more than %d parameters", sc.spec.Architecture, maxParams)
	}
	m := sc.model
	switch {
	case m.File == "" || filepath.Base(m.File) != m.File || m.File == "." || m.File == ".." ||
		strings.ContainsAny(m.File, `/\`) || !strings.HasSuffix(m.File, ".params"):
		return bad("model file %q is not the name of a .params file beside the sidecar", m.File)
	case len(m.SHA256) != sha256.Size*2 || strings.Trim(m.SHA256, "0123456789abcdef") != "":
		return bad("model_sha256 %q is not 64 lowercase hex digits", m.SHA256)
	}
	op := sc.op
	switch {
	case !(op.Alpha > 0 && op.Alpha < 1):
		return bad("alpha %v is not in (0, 1)", op.Alpha)
	case math.IsNaN(op.Threshold) || math.IsInf(op.Threshold, -1):
		return bad("threshold %v is neither finite nor null", op.Threshold)
	case op.Run.WarmupEpochs < 0 || !(op.Run.LearningRate >= 0) || math.IsInf(op.Run.LearningRate, 1):
		return bad("warm-up epochs %d or learning rate %v out of range", op.Run.WarmupEpochs, op.Run.LearningRate)
	}
	for _, r := range []struct {
		name string
		v    float64
	}{{"validation_fpr", op.ValFPR}, {"validation_tpr", op.ValTPR}, {"test_fpr", op.TestFPR}, {"test_tpr", op.TestTPR}} {
		if !(r.v >= 0 && r.v <= 1) {
			return bad("%s %v is not in [0, 1]", r.name, r.v)
		}
	}
	in := sc.net.in
	if len(sc.features) != in || len(sc.st.Mean) != in || len(sc.st.Std) != in {
		return bad("%d features, %d means and %d deviations for a model of %d inputs",
			len(sc.features), len(sc.st.Mean), len(sc.st.Std), in)
	}
	seen := make(map[string]bool, in)
	for j, name := range sc.features {
		switch {
		case name == "" || strings.TrimSpace(name) != name:
			return bad("feature %d has the name %q (empty or padded with spaces)", j+1, name)
		case seen[name]:
			return bad("feature %q is listed twice", name)
		case math.IsNaN(sc.st.Mean[j]) || math.IsInf(sc.st.Mean[j], 0):
			return bad("feature %q has mean %v", name, sc.st.Mean[j])
		case !(sc.st.Std[j] > 0) || math.IsInf(sc.st.Std[j], 1):
			return bad("feature %q has standard deviation %v (want positive and finite)", name, sc.st.Std[j])
		}
		seen[name] = true
	}
	if op.Label != "" && (seen[op.Label] || strings.TrimSpace(op.Label) != op.Label) {
		return bad("label %q is a feature or padded with spaces", op.Label)
	}
	return nil
}
