package train_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// Focal is the binary focal loss −(1−p_t)^γ·log p_t on logits (Lin et al., "Focal loss for
// dense object detection", ICCV 2017), p_t = σ(z) for a positive and 1 − σ(z) for a negative:
// the example loss of docs/adding-a-loss.md, a loss of one's own with a form on slices only.
type Focal struct{ Gamma float64 }

func (f Focal) Check(t rocops.Task) error {
	if t.Kind() != rocops.Binary {
		return fmt.Errorf("%w: focal loss on %v", train.ErrTask, t)
	}
	if !(f.Gamma >= 0) {
		return fmt.Errorf("focal: %w: Gamma = %v", rocops.ErrConfig, f.Gamma)
	}
	return nil
}

func (f Focal) ValueGradInto(grad, scores, labels []float64, _ rocops.Task) (float64, error) {
	if len(scores) == 0 {
		return 0, rocops.ErrEmpty
	}
	var sum float64
	n := float64(len(scores))
	for i, z := range scores {
		s := 1 / (1 + math.Exp(-z))
		p, dp := s, s*(1-s) // p_t and dp_t/dz
		if labels[i] == 0 {
			p, dp = 1-s, -s*(1-s)
		}
		w := math.Pow(1-p, f.Gamma)
		sum -= w * math.Log(p)
		// d/dz of −(1−p)^γ·log p = [γ(1−p)^(γ−1)·log p − (1−p)^γ/p]·dp/dz
		grad[i] = (f.Gamma*math.Pow(1-p, f.Gamma-1)*math.Log(p) - w/p) * dp / n
	}
	return sum / n, nil
}

func (f Focal) Build(_, _ *gorgonia.Node, _ rocops.Task) (*gorgonia.Node, error) {
	return nil, errors.New("focal: no graph form")
}

func (f Focal) String() string { return fmt.Sprintf("focal(gamma=%g)", f.Gamma) }

// A loss of one's own: the focal loss above, its gradient checked against finite differences,
// refused on multi-class data, and trained on the embedded WDBC data by the direct step.
func ExampleLoss() {
	loss := Focal{Gamma: 2}
	scores, labels := []float64{0.3, -1.2, 2.5, 0.1, -0.4}, []float64{1, 0, 1, 0, 0}
	grad := make([]float64, len(scores))
	if _, err := loss.ValueGradInto(grad, scores, labels, rocops.Task{}); err != nil {
		panic(err)
	}
	num, err := gradcheck.Numeric(func(s []float64) (float64, error) {
		return loss.ValueGradInto(make([]float64, len(s)), s, labels, rocops.Task{})
	}, scores, 1e-6)
	if err != nil {
		panic(err)
	}
	worst := 0.0
	for i := range grad {
		worst = max(worst, math.Abs(grad[i]-num[i]))
	}
	fmt.Println("gradient within 1e-8 of finite differences:", worst < 1e-8)
	fmt.Println("refused on 3 classes:", errors.Is(loss.Check(rocops.Classes(3)), train.ErrTask))

	ds, err := data.WDBC()
	if err != nil {
		panic(err)
	}
	tr, val, _, _, err := data.SplitStandardized(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		panic(err)
	}
	model, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		panic(err)
	}
	t, err := train.New(model, train.Config{Loss: loss, Epochs: 10, LearningRate: 0.05, Seed: 1, Progress: io.Discard})
	if err != nil {
		panic(err)
	}
	if _, err := t.Fit(context.Background(), tr, val); err != nil {
		panic(err)
	}
	s, err := nn.Scores(model, val.X, val.Rows)
	if err != nil {
		panic(err)
	}
	auc, err := metrics.AUC(s, val.Y)
	if err != nil {
		panic(err)
	}
	fmt.Println("validation AUC above 0.95:", auc > 0.95)
	// Output:
	// gradient within 1e-8 of finite differences: true
	// refused on 3 classes: true
	// validation AUC above 0.95: true
}
