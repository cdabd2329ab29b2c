package deploy

import (
	"bytes"
	"cmp"
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

// The sidecar's format name and the versions Save writes: versionBinary for a binary model, the
// same bytes as before multi-class models, and versionClasses for a multi-class or
// multi-label one (OperatingPoint.Classes set); an operating point chosen with a confidence
// (OperatingPoint.Confidence set) or a model with an encoder (OperatingPoint.Encoder) gets
// version 4, either's keys and the group of each. Load reads versions 1 to 4.
const (
	formatName     = "rocops-operating-point"
	versionBinary  = 2
	versionClasses = 3
)

// versionGroups is the version of a sidecar with one or both of two optional groups, the
// guarantee (guaranteeJSON: thresholds chosen with a confidence) and "encoding" (encodingJSON:
// a model of raw columns): version 2's keys for a binary model, version 3's (those with
// "classes") for a multi-class or multi-label one, and the groups.
const versionGroups = 4

// fileV2 is the sidecar, format version 2, as JSON.
type fileV2 struct {
	Format  string   `json:"format"`  // Format
	Version int      `json:"version"` // 2
	Model   modelRef `json:"model"`
	pointJSON
	// The groups of version 4, each present or absent as a whole (absent before version 4):
	// the guarantee the thresholds were chosen with, and how raw input columns become the
	// features.
	guaranteeJSON
	Encoding *encodingJSON `json:"encoding,omitempty"`
	Run      runInfo       `json:"run"`
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

// sidecar returns the checked sidecar of p with the given version, model, run and groups
// (none before version 4).
func (p *pointJSON) sidecar(version int, model modelRef, spec ModelSpec, run Run, g groups) (*sidecar, error) {
	threshold := math.Inf(1) // null
	if p.Threshold != nil {
		threshold = *p.Threshold
	}
	sc := &sidecar{version: version, model: model, spec: spec, features: p.Features,
		st: data.Standardizer{Mean: p.Mean, Std: p.Std},
		op: OperatingPoint{Alpha: p.Alpha, Threshold: threshold, ValFPR: p.ValidationFPR, ValTPR: p.ValidationTPR,
			TestFPR: p.TestFPR, TestTPR: p.TestTPR, Label: p.Label, Run: run,
			Confidence: g.confidence, Recall: g.recall, Encoder: g.encoder}}
	return sc, sc.check()
}

// guaranteeJSON is the guarantee group of version 4, present or absent as a whole: the
// Neyman–Pearson umbrella rule the threshold or thresholds were chosen with on the validation
// part (metrics.ThresholdNP; per class one-vs-rest for a model of classes). Both nil without
// it.
type guaranteeJSON struct {
	// Confidence is 1 − δ, in (0, 1): the guarded rate holds on fresh rows with probability at
	// least Confidence.
	Confidence *float64 `json:"deployed_confidence,omitempty"`
	// Recall is r of the mirror, in (0, 1): the threshold keeps a true-positive rate of at least
	// r (metrics.ThresholdNPRecall). 0 when the guarded rate is the false-positive rate, at most
	// alpha.
	Recall *float64 `json:"deployed_recall,omitempty"`
}

// newGuarantee is the guarantee group of op: none without a confidence.
func newGuarantee(op OperatingPoint) guaranteeJSON {
	if op.Confidence == 0 {
		return guaranteeJSON{}
	}
	confidence, recall := op.Confidence, op.Recall
	return guaranteeJSON{Confidence: &confidence, Recall: &recall}
}

// groups is what the optional groups of a version-4 sidecar hold: the guarantee's confidence
// and recall (0 without it) and the encoder (nil without "encoding").
type groups struct {
	confidence, recall float64
	encoder            *data.Encoder
}

// decodeGroups checks the optional groups g and e of a sidecar of the given version, each
// whole, in version 4 only, and at least one of them there, and returns what they hold;
// classes are those of a multi-class model, which its encoder maps labels by (nil for a
// binary or multi-label model). Its errors wrap ErrSidecar.
func decodeGroups(version int, g guaranteeJSON, e *encodingJSON, classes []string) (groups, error) {
	guarantee := g.Confidence != nil || g.Recall != nil
	switch {
	case version != versionGroups && guarantee:
		return groups{}, fmt.Errorf("%w: unknown key \"deployed_confidence\" or \"deployed_recall\" in a version-%d sidecar (a group of version %d)",
			ErrSidecar, version, versionGroups)
	case version != versionGroups && e != nil:
		return groups{}, fmt.Errorf("%w: unknown key \"encoding\" in a version-%d sidecar (a group of version %d)", ErrSidecar, version, versionGroups)
	case version == versionGroups && !guarantee && e == nil:
		return groups{}, fmt.Errorf("%w: version %d with neither of its groups (key \"deployed_confidence\" missing, key \"encoding\" missing)",
			ErrSidecar, versionGroups)
	case guarantee && g.Confidence == nil:
		return groups{}, fmt.Errorf("%w: key %q missing", ErrSidecar, "deployed_confidence")
	case guarantee && g.Recall == nil:
		return groups{}, fmt.Errorf("%w: key %q missing", ErrSidecar, "deployed_recall")
	case guarantee && *g.Confidence == 0:
		return groups{}, fmt.Errorf("%w: deployed_confidence 0 (want it in (0, 1))", ErrSidecar)
	}
	var out groups
	if guarantee {
		out.confidence, out.recall = *g.Confidence, *g.Recall
	}
	if e != nil {
		var err error
		if out.encoder, err = e.encoder(classes); err != nil {
			return groups{}, err
		}
	}
	return out, nil
}

// fileV3 is the sidecar of a multi-class or multi-label model, format version 3: version 2's
// keys, but the one threshold, and the classes with their thresholds and rates.
type fileV3 struct {
	Format  string   `json:"format"`  // Format
	Version int      `json:"version"` // 3
	Model   modelRef `json:"model"`
	classesJSON
	guaranteeJSON               // version 4 only, as in fileV2
	Encoding      *encodingJSON `json:"encoding,omitempty"` // version 4 only, as in fileV2
	Run           runInfo       `json:"run"`
	Checksum      string        `json:"sidecar_sha256"` // as in version 2
}

// classesJSON is what version 3 holds of the operating point, the features and the
// standardisation.
type classesJSON struct {
	Alpha float64 `json:"alpha"`
	// The k class names (or label columns, for multi-label), in the model's output order, and
	// what the outputs are.
	Classes       []string `json:"classes"`
	Multilabel    bool     `json:"multilabel"`
	Probabilities bool     `json:"probabilities"`
	// Flag class c when s_c ≥ thresholds[c] (null: never), and the per-class rates that gave
	// on validation and test, in class order; then their macro means.
	Thresholds         []*float64 `json:"thresholds"`
	ClassValidationFPR []float64  `json:"class_validation_fpr"`
	ClassValidationTPR []float64  `json:"class_validation_tpr"`
	ClassTestFPR       []float64  `json:"class_test_fpr"`
	ClassTestTPR       []float64  `json:"class_test_tpr"`
	ValidationFPR      float64    `json:"validation_fpr"`
	ValidationTPR      float64    `json:"validation_tpr"`
	TestFPR            float64    `json:"test_fpr"`
	TestTPR            float64    `json:"test_tpr"`
	// As in version 2.
	Features []string  `json:"features"`
	Label    string    `json:"label"`
	Mean     []float64 `json:"mean"`
	Std      []float64 `json:"std"`
}

// newClasses is the version-3 JSON of an operating point, features and standardisation.
func newClasses(op OperatingPoint, features []string, st data.Standardizer) classesJSON {
	c := classesJSON{Alpha: op.Alpha, Classes: op.Classes, Multilabel: op.Multilabel, Probabilities: op.Probabilities,
		Thresholds: make([]*float64, len(op.Thresholds)), ClassValidationFPR: op.ClassValFPR,
		ClassValidationTPR: op.ClassValTPR, ClassTestFPR: op.ClassTestFPR, ClassTestTPR: op.ClassTestTPR,
		ValidationFPR: op.ValFPR, ValidationTPR: op.ValTPR, TestFPR: op.TestFPR, TestTPR: op.TestTPR,
		Features: features, Label: op.Label, Mean: st.Mean, Std: st.Std}
	for j, t := range op.Thresholds {
		if !math.IsInf(t, 1) {
			c.Thresholds[j] = &t
		}
	}
	return c
}

type runInfo struct {
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Seed         uint64  `json:"seed"`
	LearningRate float64 `json:"learning_rate"`
	// FirstPhaseKept is written only when true (Run.FirstPhaseKept), in every version.
	FirstPhaseKept bool `json:"first_phase_kept,omitempty"`
	// InitSHA256 is written only when set (Run.InitSHA256), in every version: the hex SHA-256
	// of the model file the training started from. Present, it must be 64 lowercase hex digits.
	InitSHA256 *string `json:"init_sha256,omitempty"`
}

// newRunInfo is the "run" object of r.
func newRunInfo(r Run) runInfo {
	run := runInfo{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate, FirstPhaseKept: r.FirstPhaseKept}
	if r.InitSHA256 != "" {
		sum := r.InitSHA256
		run.InitSHA256 = &sum
	}
	return run
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

// encode returns the JSON of sc, with its checksum: version 2 for a binary model, 3 for a
// multi-class or multi-label one, 4 for either with a confidence or an encoder.
func (sc *sidecar) encode() ([]byte, error) {
	run := newRunInfo(sc.op.Run)
	var js []byte
	var err error
	if sc.op.Classes != nil {
		f := fileV3{Format: formatName, Version: sc.version, Model: sc.model, classesJSON: newClasses(sc.op, sc.features, sc.st),
			guaranteeJSON: newGuarantee(sc.op), Encoding: newEncoding(sc.op.Encoder), Run: run}
		if f.Checksum, err = f.checksum(); err != nil {
			return nil, err
		}
		js, err = json.MarshalIndent(f, "", "  ")
	} else {
		f := fileV2{Format: formatName, Version: sc.version, Model: sc.model, pointJSON: newPoint(sc.op, sc.features, sc.st),
			guaranteeJSON: newGuarantee(sc.op), Encoding: newEncoding(sc.op.Encoder), Run: run}
		if f.Checksum, err = f.checksum(); err != nil {
			return nil, err
		}
		js, err = json.MarshalIndent(f, "", "  ")
	}
	if err != nil {
		return nil, fmt.Errorf("deploy: encoding the sidecar: %w", err)
	}
	return append(js, '\n'), nil
}

// checksum is the hex SHA-256 of f's canonical encoding with Checksum empty.
func (f fileV2) checksum() (string, error) {
	f.Checksum = ""
	return canonicalSum(f)
}

// checksum is the hex SHA-256 of f's canonical encoding with Checksum empty.
func (f fileV3) checksum() (string, error) {
	f.Checksum = ""
	return canonicalSum(f)
}

// canonicalSum is the hex SHA-256 of v's canonical encoding, json.MarshalIndent with two spaces.
func canonicalSum(v any) (string, error) {
	js, err := json.MarshalIndent(v, "", "  ")
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
	case *head.Format != formatName:
		return nil, fmt.Errorf("%w: format %q, want %q", ErrSidecar, *head.Format, formatName)
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
	case 3:
		var f fileV3
		if err := strictUnmarshal(raw, &f); err != nil {
			return nil, err
		}
		return f.sidecar()
	case versionGroups: // version 3's keys when it has "classes", else version 2's
		if hasKey(raw, "classes") {
			var f fileV3
			if err := strictUnmarshal(raw, &f); err != nil {
				return nil, err
			}
			return f.sidecar()
		}
		var f fileV2
		if err := strictUnmarshal(raw, &f); err != nil {
			return nil, err
		}
		return f.sidecar()
	}
	return nil, fmt.Errorf("%w: version %d; this package reads versions 1 to %d", ErrVersion, *head.Version, versionGroups)
}

// hasKey reports whether the JSON object raw has the key.
func hasKey(raw []byte, key string) bool {
	var obj map[string]json.RawMessage
	if json.NewDecoder(bytes.NewReader(raw)).Decode(&obj) != nil {
		return false
	}
	_, ok := obj[key]
	return ok
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
		key, opts, _ := strings.Cut(field.Tag.Get("json"), ",")
		want[key] = true
		v, ok := obj[key]
		if !ok && opts == "omitempty" { // present or absent by version: the caller checks which
			continue
		}
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
	spec, err := checkSigned(f.Model, f.Checksum, sum)
	if err != nil {
		return nil, err
	}
	g, err := decodeGroups(f.Version, f.guaranteeJSON, f.Encoding, nil)
	if err != nil {
		return nil, err
	}
	return f.pointJSON.sidecar(f.Version, f.Model, spec, f.Run.run(), g)
}

func (f *fileV3) sidecar() (*sidecar, error) {
	sum, err := f.checksum()
	if err != nil {
		return nil, err
	}
	spec, err := checkSigned(f.Model, f.Checksum, sum)
	if err != nil {
		return nil, err
	}
	var classes []string // what the encoder of a multi-class model maps labels by
	if !f.Multilabel {
		classes = f.Classes
	}
	g, err := decodeGroups(f.Version, f.guaranteeJSON, f.Encoding, classes)
	if err != nil {
		return nil, err
	}
	return f.classesJSON.sidecar(f.Version, f.Model, spec, f.Run.run(), g)
}

// sidecar returns the checked sidecar of p with the given version, model, run and groups
// (none before version 4).
func (p *classesJSON) sidecar(version int, model modelRef, spec ModelSpec, run Run, g groups) (*sidecar, error) {
	op := OperatingPoint{Alpha: p.Alpha, Threshold: math.Inf(1), ValFPR: p.ValidationFPR, ValTPR: p.ValidationTPR,
		TestFPR: p.TestFPR, TestTPR: p.TestTPR, Label: p.Label, Run: run,
		Confidence: g.confidence, Recall: g.recall, Encoder: g.encoder,
		Classes: p.Classes, Multilabel: p.Multilabel, Probabilities: p.Probabilities,
		Thresholds: make([]float64, len(p.Thresholds)), ClassValFPR: p.ClassValidationFPR,
		ClassValTPR: p.ClassValidationTPR, ClassTestFPR: p.ClassTestFPR, ClassTestTPR: p.ClassTestTPR}
	for c, t := range p.Thresholds {
		op.Thresholds[c] = math.Inf(1) // null
		if t != nil {
			op.Thresholds[c] = *t
		}
	}
	if op.Classes == nil { // "classes": null; check() refuses a version-3 sidecar without classes
		op.Classes = []string{}
	}
	sc := &sidecar{version: version, model: model, spec: spec, features: p.Features,
		st: data.Standardizer{Mean: p.Mean, Std: p.Std}, op: op}
	return sc, sc.check()
}

// checkSigned checks what versions 2 and 3 record beyond version 1: the sidecar's checksum
// (recorded, and sum computed), the model's dtype and size. It returns the model's spec.
func checkSigned(m modelRef, recorded, sum string) (ModelSpec, error) {
	if sum != recorded {
		return ModelSpec{}, fmt.Errorf("%w: its checksum %q does not match its content (%s): edited or damaged", ErrSidecar, recorded, sum)
	}
	dt, err := parseDtype(m.Dtype)
	if err != nil {
		return ModelSpec{}, err
	}
	if m.Bytes < 1 || m.Bytes > maxModelBytes {
		return ModelSpec{}, fmt.Errorf("%w: model size %d bytes (want 1 to %d)", ErrSidecar, m.Bytes, int64(maxModelBytes))
	}
	return ModelSpec{Architecture: m.Architecture, Dtype: dt}, nil
}

// run is the Run of r; a present init_sha256 that is empty reads as "(empty)", which check
// refuses as not 64 hex digits.
func (r runInfo) run() Run {
	run := Run{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate, FirstPhaseKept: r.FirstPhaseKept}
	if r.InitSHA256 != nil {
		run.InitSHA256 = cmp.Or(*r.InitSHA256, "(empty)")
	}
	return run
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
		Run{Loss: f.Loss, WarmupEpochs: f.WarmupEpochs, Seed: f.Seed, LearningRate: f.LearningRate}, groups{})
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
	case !isSHA256(m.SHA256):
		return bad("model_sha256 %q is not 64 lowercase hex digits", m.SHA256)
	case sc.op.Run.InitSHA256 != "" && !isSHA256(sc.op.Run.InitSHA256):
		return bad("init_sha256 %q is not 64 lowercase hex digits", sc.op.Run.InitSHA256)
	}
	op := sc.op
	switch {
	case !(op.Alpha > 0 && op.Alpha < 1):
		return bad("alpha %v is not in (0, 1)", op.Alpha)
	case math.IsNaN(op.Threshold) || math.IsInf(op.Threshold, -1):
		return bad("threshold %v is neither finite nor null", op.Threshold)
	case op.Run.WarmupEpochs < 0 || !(op.Run.LearningRate >= 0) || math.IsInf(op.Run.LearningRate, 1):
		return bad("warm-up epochs %d or learning rate %v out of range", op.Run.WarmupEpochs, op.Run.LearningRate)
	case op.Confidence != 0 && !(op.Confidence < 1 && op.Confidence > 0):
		return bad("deployed_confidence %v (want it in (0, 1), or 0 for none)", op.Confidence)
	case (op.Confidence != 0 || op.Encoder != nil) != (sc.version == versionGroups):
		return bad("version %d with deployed_confidence %v and an encoder %t (want version %d exactly with either)",
			sc.version, op.Confidence, op.Encoder != nil, versionGroups)
	case op.Recall != 0 && (op.Confidence == 0 || !(op.Recall > 0 && op.Recall < 1)):
		return bad("deployed_recall %v (want it in (0, 1) with a confidence, or 0 for none)", op.Recall)
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
	if err := sc.checkEncoding(); err != nil {
		return err
	}
	return sc.checkClasses(seen)
}

// isSHA256 reports whether s is a SHA-256 in 64 lowercase hex digits.
func isSHA256(s string) bool {
	return len(s) == sha256.Size*2 && strings.Trim(s, "0123456789abcdef") == ""
}

// checkClasses validates the classes, thresholds and per-class rates of a multi-class or
// multi-label operating point against the model's outputs, and their absence from a binary
// one; feature holds the feature names. Its errors wrap ErrSidecar.
func (sc *sidecar) checkClasses(feature map[string]bool) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrSidecar, fmt.Sprintf(format, a...))
	}
	op, out := sc.op, sc.net.out
	rates := []struct {
		name string
		v    []float64
	}{{"class_validation_fpr", op.ClassValFPR}, {"class_validation_tpr", op.ClassValTPR},
		{"class_test_fpr", op.ClassTestFPR}, {"class_test_tpr", op.ClassTestTPR}}
	if op.Classes == nil {
		switch {
		case out != 1:
			return bad("a model of %d outputs needs its classes (OperatingPoint.Classes)", out)
		case op.Multilabel || op.Probabilities || op.Thresholds != nil:
			return bad("multilabel, probabilities or per-class thresholds without classes")
		}
		for _, r := range rates {
			if r.v != nil {
				return bad("%s without classes", r.name)
			}
		}
		return nil
	}
	k := len(op.Classes)
	kind, least := "multi-class", 2
	if op.Multilabel {
		kind, least = "multi-label", 1
	}
	switch {
	case k < least || k > data.MaxClasses:
		return bad("%d classes for a %s model (want %d to %d)", k, kind, least, data.MaxClasses)
	case k != out:
		return bad("%d classes for a model of %d outputs", k, out)
	case len(op.Thresholds) != k:
		return bad("%d thresholds for %d classes", len(op.Thresholds), k)
	case op.Multilabel && op.Probabilities:
		return bad("probabilities (a softmax over the outputs) for a multi-label model, whose labels are scored each on its own")
	case op.Multilabel && op.Label != "":
		return bad("label %q for a multi-label model, whose label columns are its classes", op.Label)
	}
	for _, r := range rates {
		if len(r.v) != k {
			return bad("%d values of %s for %d classes", len(r.v), r.name, k)
		}
		for c, v := range r.v {
			if !(v >= 0 && v <= 1) {
				return bad("%s of class %q is %v, not in [0, 1]", r.name, op.Classes[c], v)
			}
		}
	}
	seen := make(map[string]bool, k)
	for c, name := range op.Classes {
		switch t := op.Thresholds[c]; {
		case name == "" || strings.TrimSpace(name) != name:
			return bad("class %d has the name %q (empty or padded with spaces)", c+1, name)
		case seen[name]:
			return bad("class %q is listed twice", name)
		case op.Multilabel && feature[name]:
			return bad("label column %q is a feature", name)
		case math.IsNaN(t) || math.IsInf(t, -1):
			return bad("threshold %v of class %q is neither finite nor null", t, name)
		}
		seen[name] = true
	}
	return nil
}
