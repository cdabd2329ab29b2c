package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/internal/runname"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// protocol is the experiment: pretraining, the downstream task, the arms, the losses and the
// search.
type protocol struct {
	Hidden []int // the body's hidden layers

	PretrainDigits []int   // the pretraining task's classes
	PretrainEpochs int     // of cross-entropy
	PretrainBatch  int     // rows per step
	PretrainRate   float64 // Adam's learning rate

	Positive  int   // the downstream task's positive digit
	Negatives []int // and its negative ones
	// The rows drawn from the training file for the downstream training and validation parts.
	TrainPos, TrainNeg, ValPos, ValNeg int

	Arms   []string  // random, frozen, lora
	Losses []string  // run names of train.Names
	Warmup int       // cross-entropy epochs of a "+wu" loss
	Epochs int       // epochs after any warm-up
	Batch  int       // rows per step
	MinPos int       // positives in every batch, at least
	Rates  []float64 // Adam's learning rates searched
	Rank   int       // of the LoRA adapters
	Alpha  float64   // the false-positive rate of the test TPR
}

// paperProtocol is the protocol of this example's README.
func paperProtocol() protocol {
	return protocol{
		Hidden:         []int{256, 128},
		PretrainDigits: []int{0, 1, 2, 3, 4}, PretrainEpochs: 3, PretrainBatch: 256, PretrainRate: 1e-3,
		Positive: 9, Negatives: []int{5, 6, 7, 8},
		TrainPos: 80, TrainNeg: 3920, ValPos: 40, ValNeg: 1960,
		Arms:   []string{"random", "frozen", "lora"},
		Losses: []string{"ce", "sqhinge", "sqhinge+wu"},
		Warmup: 3, Epochs: 15, Batch: 128, MinPos: 4,
		Rates: []float64{1e-3, 3e-3, 1e-2},
		Rank:  4, Alpha: 0.01,
	}
}

// newModel returns arm's model for the seed: an MLP of random weights with everything
// trained, or the pretrained body under a new head of one score, frozen or with LoRA adapters
// on every body layer. The new head is drawn from the seed alike in both pretrained arms.
func (p *protocol) newModel(arm string, cols int, pretrained *nn.MLP, seed uint64) (*nn.MLP, error) {
	switch arm {
	case "random":
		return nn.NewMLP(nn.MLPConfig{In: cols, Hidden: p.Hidden, Seed: seed, Dtype: tensor.Float32})
	case "frozen":
		return nn.Transfer(pretrained, nn.TransferConfig{Freeze: len(p.Hidden), Seed: seed})
	case "lora":
		return nn.Transfer(pretrained, nn.TransferConfig{Rank: p.Rank, Seed: seed})
	}
	return nil, fmt.Errorf("unknown arm %q (want random, frozen or lora)", arm)
}

// trainable returns the number of scalars of m's parameters that are not frozen.
func trainable(m nn.Model) int {
	n := 0
	for _, q := range m.Params() {
		if !q.Frozen {
			n += q.Value.Len()
		}
	}
	return n
}

// pretrain trains the body with a softmax head on the pretraining digits.
func (p *protocol) pretrain(ctx context.Context, train_ *data.Dataset, seed uint64) (*nn.MLP, error) {
	m, err := nn.NewMLP(nn.MLPConfig{In: train_.Cols, Hidden: p.Hidden, Outputs: len(p.PretrainDigits), Seed: seed,
		Dtype: tensor.Float32})
	if err != nil {
		return nil, err
	}
	t, err := train.New(m, train.Config{Epochs: p.PretrainEpochs, BatchSize: p.PretrainBatch,
		LearningRate: p.PretrainRate, Seed: seed, Progress: io.Discard})
	if err != nil {
		return nil, err
	}
	if _, err := t.Fit(ctx, train_, nil); err != nil {
		return nil, fmt.Errorf("pretraining: %w", err)
	}
	return m, nil
}

// cell is one arm and loss on one seed: the candidate validation kept, measured.
type cell struct {
	Arm       string
	Loss      string
	Trainable int
	Result    experiment.Result
	Model     nn.Model // the kept candidate's, at its best epoch
}

// runSeed runs every arm and loss on one seed. log receives a line per cell.
func (p *protocol) runSeed(ctx context.Context, train_, test *digits, seed uint64, log io.Writer) ([]cell, error) {
	start := time.Now()
	pretrained, err := p.pretrain(ctx, p.pretraining(train_), seed)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "seed %d: pretrained in %.1fs\n", seed, time.Since(start).Seconds())
	tr, val, te, err := p.downstream(train_, test, seed)
	if err != nil {
		return nil, err
	}
	sp := &experiment.Split{Seed: seed, Train: tr, Val: val, Test: te}
	var cells []cell
	for _, arm := range p.Arms {
		for _, loss := range p.Losses {
			c, err := p.runCell(ctx, sp, arm, loss, pretrained)
			if err != nil {
				return nil, fmt.Errorf("seed %d, %s, %s: %w", seed, arm, loss, err)
			}
			fmt.Fprintf(log, "seed %d: %-6s %-10s test AUC %.4f, TPR at FPR %g %.4f (lr %g, epoch %d, %.1fs)\n",
				seed, arm, loss, c.Result.TestAUC, p.Alpha, c.Result.TestTPR, c.Result.LearningRate,
				c.Result.BestEpoch, c.Result.TrainSeconds)
			cells = append(cells, c)
		}
	}
	return cells, nil
}

// runCell trains arm's model on loss at every learning rate, each from the same initial
// weights and on the same batches, keeps the candidate whose best validation epoch has the
// highest AUC (the first on ties; the trainer keeps each candidate's best epoch), and measures
// it on the test part.
func (p *protocol) runCell(ctx context.Context, sp *experiment.Split, arm, loss string, pretrained *nn.MLP) (cell, error) {
	recipe, warmup, label, target, err := p.runName(loss)
	if err != nil {
		return cell{}, err
	}
	var (
		best      nn.Model
		bestH     *train.History
		bestRate  float64
		bestScore = math.Inf(-1)
		seconds   float64
		params    int
	)
	for _, lr := range p.Rates {
		m, err := p.newModel(arm, sp.Train.Cols, pretrained, sp.Seed)
		if err != nil {
			return cell{}, err
		}
		params = trainable(m)
		cfg := train.Config{Epochs: p.Epochs, BatchSize: p.Batch, PositiveFraction: float64(p.MinPos) / float64(p.Batch),
			LearningRate: lr, Seed: sp.Seed, Progress: io.Discard}
		start := time.Now()
		h, err := recipe.Fit(ctx, m, cfg, sp.Train, sp.Val)
		seconds += time.Since(start).Seconds()
		if err != nil {
			return cell{}, fmt.Errorf("learning rate %g: %w", lr, err)
		}
		if score := h.Epochs[h.Best].Metric; score > bestScore {
			best, bestH, bestRate, bestScore = m, h, lr, score
		}
	}
	if best == nil {
		return cell{}, fmt.Errorf("no candidate has a finite validation AUC")
	}
	ms, err := experiment.Measure(best, sp, experiment.MeasureConfig{Alpha: p.Alpha})
	if err != nil {
		return cell{}, err
	}
	r := experiment.Result{
		Loss: loss, WarmupEpochs: warmup, Alpha: p.Alpha, Seed: sp.Seed,
		Figures: experiment.Figures{TestAUC: ms.AUC, TestPAUC: ms.PartialAUC, TestTPR: ms.TPR,
			DeployedTestFPR: ms.TestFPR, DeployedTestTPR: ms.TestTPR, TrainSeconds: seconds, LearningRate: bestRate},
		BestEpoch: bestH.Epochs[bestH.Best].Index, Phases: 1, KeptPhases: 1,
		Name: label, Target: target,
	}
	if loss, ok := cutWarmup(loss); ok {
		r.Loss = loss
	}
	if warmup > 0 { // the trainer keeps the best epoch of the main phase, after the warm-up
		r.Phases, r.KeptPhases = 2, 2
	}
	if ms.DeLong != nil {
		r.TestAUC, r.TestAUCCI = ms.DeLong.AUC, &ms.DeLong.CI
	}
	if !math.IsInf(ms.Threshold, 1) {
		r.DeployedThreshold = &ms.Threshold
	}
	return cell{Arm: arm, Loss: loss, Trainable: params, Result: r, Model: best}, nil
}

// runName reads a run name of roctrain's -losses (train.Names) into its one recipe, its
// warm-up epochs (p.Warmup for a name with runname.WarmupSuffix, else 0), its label in the
// reports and the JSON key of the figure it optimises.
func (p *protocol) runName(loss string) (recipe train.Recipe, warmup int, label, target string, err error) {
	names := train.Names{Point: train.Point{Alpha: p.Alpha}, Warmup: p.Warmup, Epochs: p.Epochs}
	recipes, warmup, err := names.Parse(loss)
	if err != nil {
		return nil, 0, "", "", err
	}
	if len(recipes) != 1 {
		return nil, 0, "", "", fmt.Errorf("%s stands for %d recipes, want one", loss, len(recipes))
	}
	return recipes[0], warmup, names.Label(loss), experiment.Target(recipes, false), nil
}

// cutWarmup returns the plain loss of a run name with runname.WarmupSuffix.
func cutWarmup(name string) (string, bool) {
	n := len(name) - len(runname.WarmupSuffix)
	if n > 0 && name[n:] == runname.WarmupSuffix {
		return name[:n], true
	}
	return name, false
}

// pairedT is the mean of d and its 95% paired-t interval, as experiment.Summarise computes
// paired differences; nil with fewer than two values.
func pairedT(d []float64) *experiment.Paired {
	n := len(d)
	if n < 2 {
		return nil
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	m, half := stat.Mean(d, nil), t*stat.StdDev(d, nil)/math.Sqrt(float64(n))
	return &experiment.Paired{Diff: m, CI95: experiment.Interval{m - half, m + half}}
}
