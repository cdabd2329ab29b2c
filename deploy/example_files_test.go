package deploy_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
)

// linear returns the scorer of Example, s = 2·a′ − b′ + 0.5 on a′ = (a − 10)/2 and b′ = b, its
// operating point (threshold 1) and standardizer.
func linear() (nn.Model, deploy.OperatingPoint, data.Standardizer) {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	if err != nil {
		log.Fatal(err)
	}
	copy(m.Params()[0].Value.Data().([]float64), []float64{2, -1}) // layer0.weight
	copy(m.Params()[1].Value.Data().([]float64), []float64{0.5})   // layer0.bias
	op := deploy.OperatingPoint{Alpha: 0.1, Threshold: 1, ValFPR: 0.1, ValTPR: 0.8, TestFPR: 0.09, TestTPR: 0.75, Label: "y"}
	return m, op, data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}
}

// tempDir returns a new directory; the caller removes it.
func tempDir() string {
	dir, err := os.MkdirTemp("", "deploy-example")
	if err != nil {
		log.Fatal(err)
	}
	return dir
}

// Save writes the model file <name>.<h>.params (h: 16 hex digits of its content's hash) and the
// sidecar <name>.json, which records the operating point and how the model was trained.
func ExampleSave() {
	dir := tempDir()
	defer os.RemoveAll(dir)
	m, op, st := linear()
	op.Run = deploy.Run{Loss: "kde", Seed: 7, LearningRate: 0.01}
	path, err := deploy.Save(dir, "linear", m, op, st, []string{"a", "b"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(regexp.MustCompile(`^linear\.[0-9a-f]{16}\.params$`).MatchString(filepath.Base(path)))
	sidecar, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	fmt.Println(filepath.Base(sidecar[0]))
	_, err = deploy.Save(dir, "bad", m, op, st, []string{"a"}) // two inputs, one name
	fmt.Println(errors.Is(err, deploy.ErrSidecar))
	// Output:
	// true
	// linear.json
	// true
}

// Load reads the sidecar and the model file it names; the Scorer standardises raw rows and
// flags scores at or above the threshold: (12, 1) gives s = 2·1 − 1 + 0.5 = 1.5 ≥ 1, flagged;
// (10, 3) gives −2.5.
func ExampleLoad() {
	dir := tempDir()
	defer os.RemoveAll(dir)
	m, op, st := linear()
	op.Run = deploy.Run{Loss: "kde", Seed: 7, LearningRate: 0.01}
	if _, err := deploy.Save(dir, "linear", m, op, st, []string{"a", "b"}); err != nil {
		fmt.Println(err)
		return
	}
	s, err := deploy.Load(filepath.Join(dir, "linear.params"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	scores, err := s.Score([]float64{12, 1, 10, 3}, 2)
	fmt.Println(scores, err, s.Flag(scores[0]), s.Flag(scores[1]))
	fmt.Printf("%+v %v\n", s.OperatingPoint().Run, s.Spec().Architecture)
	// Output:
	// [1.5 -2.5] <nil> true false
	// {Loss:kde WarmupEpochs:0 Seed:7 LearningRate:0.01 FirstPhaseKept:false InitSHA256:} Linear(in=2)
}

// The architecture and dtype a loaded model was rebuilt from.
func ExampleModelSpec() {
	dir := tempDir()
	defer os.RemoveAll(dir)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{3}, Outputs: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, op, st := linear()
	if _, err := deploy.Save(dir, "mlp", m, op, st, []string{"a", "b"}); err != nil {
		fmt.Println(err)
		return
	}
	s, err := deploy.Load(filepath.Join(dir, "mlp.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	spec := s.Spec()
	fmt.Println(spec.Architecture, spec.Dtype)
	// Output: MLP(in=2, hidden=[3], activation=relu) float64
}

// SaveWith writes a file of its own beside the pair while it holds the name's lock, given the
// model file's path and SHA-256.
func ExampleSaveWith() {
	dir := tempDir()
	defer os.RemoveAll(dir)
	m, op, st := linear()
	note := filepath.Join(dir, "linear.note")
	path, err := deploy.SaveWith(dir, "linear", m, op, st, []string{"a", "b"},
		func(modelPath string, sum [32]byte) error {
			return os.WriteFile(note, []byte(fmt.Sprintf("%x", sum)), 0o644)
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	model, _ := os.ReadFile(path)
	written, _ := os.ReadFile(note)
	fmt.Println(string(written) == fmt.Sprintf("%x", sha256.Sum256(model)))
	// Output: true
}

func ExampleSafeName() {
	fmt.Println(deploy.SafeName("kde:pool=1024"), deploy.SafeName("ce+kde_v1.2"))
	// Output: kde_pool_1024 ce+kde_v1.2
}

// Load's error for a missing sidecar, made actionable: it points to Save, or, once the run is
// saved per seed, to those models (the temporary directory printed as runs/).
func ExampleExplainLoad() {
	dir := tempDir()
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "kde.params")
	explain := func() {
		_, err := deploy.Load(path)
		err = deploy.ExplainLoad(path, err)
		fmt.Println(errors.Is(err, fs.ErrNotExist), strings.ReplaceAll(err.Error(), dir, "runs"))
	}
	explain()
	m, op, st := linear()
	if _, err := deploy.Save(dir, "kde.seed1", m, op, st, []string{"a", "b"}); err != nil {
		fmt.Println(err)
		return
	}
	explain()
	// Output:
	// true no operating-point file runs/kde.json (the operating point is saved beside the model): deploy: bad operating-point file: stat runs/kde.json: no such file or directory
	// true no operating-point file runs/kde.json; one model was saved per seed: runs/kde.seed1.params: deploy: bad operating-point file: stat runs/kde.json: no such file or directory
}
