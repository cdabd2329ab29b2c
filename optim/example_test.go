package optim_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
)

// dense returns a float64 tensor of the given values and shape.
func dense(values []float64, shape ...int) *tensor.Dense {
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(values))
}

// One step of each rule on w = (1, 2) with gradient g = (0.5, −1) and η = 0.1. SGD and the
// first step of momentum move w by −η·g = (−0.05, 0.1); RMSProp's first step divides by
// √((1 − ρ)·g²) = √0.001·|g|, moving each weight by η/√0.001 ≈ 3.162 against its gradient's
// sign; Adam's first step, its moments bias-corrected to g and g², by η against it.
func ExampleNewStepper() {
	for _, rule := range []optim.Rule{optim.SGD, optim.Momentum, optim.RMSProp, optim.Adam} {
		w := dense([]float64{1, 2}, 2)
		s, err := optim.NewStepper(rule, 0.1)
		if err != nil {
			log.Fatal(err)
		}
		if err := s.Step([]*tensor.Dense{w}, []*tensor.Dense{dense([]float64{0.5, -1}, 2)}); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-8v %.4f\n", rule, w.Data())
	}
	// Output:
	// sgd      [0.9500 2.1000]
	// momentum [0.9500 2.1000]
	// rmsprop  [-2.1622 5.1623]
	// adam     [0.9000 2.1000]
}

// ParseRule reads a rule's name in any case; a Rule reads and writes itself by name in JSON
// (and, through flag.TextVar, as a flag).
func ExampleParseRule() {
	r, err := optim.ParseRule("RMSProp")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r, r.DefaultRate())
	_, err = optim.ParseRule("adamw")
	fmt.Println(errors.Is(err, rocops.ErrConfig))

	var cfg struct{ Optimizer optim.Rule }
	if err := json.Unmarshal([]byte(`{"Optimizer": "momentum"}`), &cfg); err != nil {
		log.Fatal(err)
	}
	out, err := json.Marshal(cfg)
	fmt.Println(cfg.Optimizer == optim.Momentum, string(out), err)
	// Output:
	// rmsprop 0.005
	// true
	// true {"Optimizer":"momentum"} <nil>
}

// Decoupled weight decay with η = 0.1 and λ = 0.5 scales a weight matrix by 1 − η·λ = 0.95
// and leaves a bias vector as it is.
func ExampleDecay() {
	w := dense([]float64{1, -2, 3, 4}, 2, 2)
	b := dense([]float64{1, -2}, 2)
	optim.Decay([]*tensor.Dense{w, b}, 0.1, 0.5)
	fmt.Printf("%.4f %.4f\n", w.Data(), b.Data())
	// Output:
	// [0.9500 -1.9000 2.8500 3.8000] [1.0000 -2.0000]
}

// LibAUC's settings, the learning rate left to the run.
func ExampleDefaultPESG() {
	p := optim.DefaultPESG()
	fmt.Printf("%+v\n", p)
	fmt.Println(p.Validate())
	// Output:
	// {LearningRate:0 Clip:1 WeightDecay:1e-05 EpochDecay:0.002 Momentum:0.9 DecayEpochs:[] DecayFactor:0}
	// <nil>
}

// One PESG step without clipping, decay or momentum, η = 0.1, margin m = 1, on a parameter
// θ = (1, 2) with gradient (0.5, −1) and a = b = α = 0 with ∂f/∂a = ∂f/∂b = −1 (the values of
// aucm's ExampleGradient): θ ← θ − η·g = (0.95, 2.1), a = b = 0 + 0.1 = 0.1, and α ← α +
// η·(2(m + b − a) − 2α) = 0.1·2 = 0.2.
func ExampleNewPESGRun() {
	run := optim.NewPESGRun(optim.PESG{}, 0.1, 1, []int{2}, 1, 1)
	theta := dense([]float64{1, 2}, 2)
	err := run.Step([]*tensor.Dense{theta}, []*tensor.Dense{dense([]float64{0.5, -1}, 2)}, []float64{-1}, []float64{-1})
	if err != nil {
		log.Fatal(err)
	}
	st := run.State()
	fmt.Printf("θ %.4f, a %.4f, b %.4f, α %.4f after %d step\n", theta.Data(), run.A, run.B, run.Alpha, st.Steps)
	// Output:
	// θ [0.9500 2.1000], a [0.1000], b [0.1000], α [0.2000] after 1 step
}

// pesgState returns the state of a run after one step, as in ExampleNewPESGRun.
func pesgState() optim.PESGState {
	run := optim.NewPESGRun(optim.PESG{}, 0.1, 1, []int{2}, 1, 1)
	theta := dense([]float64{1, 2}, 2)
	if err := run.Step([]*tensor.Dense{theta}, []*tensor.Dense{dense([]float64{0.5, -1}, 2)}, []float64{-1}, []float64{-1}); err != nil {
		log.Fatal(err)
	}
	return run.State()
}

// SavePESGState writes the state beside the model's checkpoint, so that a later run resumes
// it (train.AUCM.Resume); LoadPESGState reads it back bit for bit.
func ExampleSavePESGState() {
	dir, err := os.MkdirTemp("", "pesg")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.pesg")
	if err := optim.SavePESGState(path, pesgState()); err != nil {
		log.Fatal(err)
	}
	st, err := optim.LoadPESGState(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.A, st.B, st.Alpha, st.Steps, st.LearningRate)
	// Output:
	// [0.1] [0.1] [0.2] 1 0.1
}

// LoadPESGState refuses a file of another kind, such as the model's own checkpoint.
func ExampleLoadPESGState() {
	dir, err := os.MkdirTemp("", "pesg")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.ckpt")
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := nn.Save(path, m); err != nil {
		log.Fatal(err)
	}
	_, err = optim.LoadPESGState(path)
	fmt.Println(errors.Is(err, nn.ErrNotCheckpoint))
	// Output:
	// true
}
