// Command mnist runs the pretrained-start experiment of the corrective-power paper (Chen et
// al., arXiv 2610.21743, its claim that a cross-entropy warm-up matters less before pairwise
// training from a pretrained start) on MNIST, with package nn's frozen parameters and LoRA
// adapters: a body pretrained on digits 0–4, then the task "9 against 5–8" from a random
// start, from the frozen body under a new head, and from the body with LoRA adapters under a
// new head, each trained on cross-entropy, on the squared-hinge AUC surrogate, and on the
// squared hinge after a cross-entropy warm-up. README.md gives the protocol and the figures.
//
//	go run . -seeds 5         # a table
//	go run . -json -seeds 5   # the figures as JSON
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rocops/rocops/experiment"
)

func main() {
	seeds := flag.Int("seeds", 5, "number of seeds, 1 … N: each pretrains its own body and draws its own downstream parts")
	asJSON := flag.Bool("json", false, "print the figures as JSON")
	dir := flag.String("data", "", "the folder of MNIST's four .gz files (default: the GoMNIST module's data/ in the module cache)")
	flag.Parse()
	if err := run(context.Background(), *seeds, *asJSON, *dir, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mnist:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, seeds int, asJSON bool, dir string, out, log io.Writer) error {
	if seeds < 1 {
		return fmt.Errorf("-seeds %d: want at least 1", seeds)
	}
	tr, te, err := loadMNIST(dir)
	if err != nil {
		return err
	}
	p := paperProtocol()
	res, err := p.run(ctx, tr, te, seeds, log)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return res.table(out, p.Alpha)
}

// report is the JSON output.
type report struct {
	// Arms holds one entry per arm and loss, in the protocol's order: the summary over the
	// seeds, as roctrain's "results" hold it, whose paired_vs_first compares the loss with the
	// arm's first loss (cross-entropy) on the same seeds.
	Arms []armSummary `json:"arms"`
	// WarmupGain is, per arm, the mean over the seeds of "sqhinge+wu" minus "sqhinge" (and of
	// any other loss with and without the warm-up) with its 95% paired-t interval.
	WarmupGain []gain `json:"warmup_gain"`
	// WarmupGainVsRandom is, per pretrained arm, the mean of its warm-up gain minus the random
	// arm's on the same seed, with its 95% paired-t interval: negative when the warm-up gains
	// less from the pretrained start.
	WarmupGainVsRandom []gain `json:"warmup_gain_vs_random"`
}

// armSummary is one arm and loss over the seeds.
type armSummary struct {
	Arm             string `json:"arm"`
	Loss            string `json:"loss"` // the run's name, "sqhinge+wu" for the warm-up run
	TrainableParams int    `json:"trainable_params"`
	experiment.Summary
}

// gain is a paired difference of test figures over the seeds.
type gain struct {
	Arm     string             `json:"arm"`
	Loss    string             `json:"loss"`
	TestAUC *experiment.Paired `json:"test_auc"`
	TestTPR *experiment.Paired `json:"test_tpr_at_fpr"`
}

// run runs the seeds 1 … seeds and summarises them.
func (p *protocol) run(ctx context.Context, tr, te *digits, seeds int, log io.Writer) (*report, error) {
	byCell := map[[2]string][]experiment.Result{}
	params := map[string]int{}
	for s := 1; s <= seeds; s++ {
		cells, err := p.runSeed(ctx, tr, te, uint64(s), log)
		if err != nil {
			return nil, err
		}
		for _, c := range cells {
			k := [2]string{c.Arm, c.Loss}
			byCell[k] = append(byCell[k], c.Result)
			params[c.Arm] = c.Trainable
		}
	}
	rep := &report{}
	// gains[arm][loss] is the per-seed warm-up gain of loss (a "+wu" run) in arm: TestAUC, TestTPR.
	gains := map[string]map[string][2][]float64{}
	for _, arm := range p.Arms {
		var runs [][]experiment.Result
		for _, loss := range p.Losses {
			runs = append(runs, byCell[[2]string{arm, loss}])
		}
		for k, s := range experiment.Summarise(runs) {
			rep.Arms = append(rep.Arms, armSummary{Arm: arm, Loss: p.Losses[k], TrainableParams: params[arm], Summary: s})
		}
		gains[arm] = map[string][2][]float64{}
		for _, loss := range p.Losses {
			plain, ok := cutWarmup(loss)
			if !ok {
				continue
			}
			with, without := byCell[[2]string{arm, loss}], byCell[[2]string{arm, plain}]
			if len(without) != len(with) {
				continue
			}
			var d [2][]float64
			for s := range with {
				d[0] = append(d[0], with[s].TestAUC-without[s].TestAUC)
				d[1] = append(d[1], with[s].TestTPR-without[s].TestTPR)
			}
			gains[arm][loss] = d
			rep.WarmupGain = append(rep.WarmupGain, gain{Arm: arm, Loss: loss, TestAUC: pairedT(d[0]), TestTPR: pairedT(d[1])})
		}
	}
	for _, arm := range p.Arms[1:] {
		for _, loss := range p.Losses {
			mine, ok := gains[arm][loss]
			random, rok := gains[p.Arms[0]][loss]
			if !ok || !rok {
				continue
			}
			var d [2][]float64
			for k := range 2 {
				for s := range mine[k] {
					d[k] = append(d[k], mine[k][s]-random[k][s])
				}
			}
			rep.WarmupGainVsRandom = append(rep.WarmupGainVsRandom, gain{Arm: arm, Loss: loss, TestAUC: pairedT(d[0]), TestTPR: pairedT(d[1])})
		}
	}
	return rep, nil
}

// table prints the report for a reader.
func (r *report) table(w io.Writer, alpha float64) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-11s %10s  %-17s %-17s %-8s %s\n", "arm", "loss", "trainable", "test AUC",
		fmt.Sprintf("TPR at FPR %g", alpha), "lr", "epoch")
	for _, a := range r.Arms {
		fmt.Fprintf(&b, "%-7s %-11s %10d  %-17s %-17s %-8.3g %.1f\n", a.Arm, a.Loss, a.TrainableParams,
			meanSD(a.TestAUC, a.SD != nil, func() float64 { return a.SD.TestAUC }),
			meanSD(a.TestTPR, a.SD != nil, func() float64 { return a.SD.TestTPR }),
			a.LearningRate, a.BestEpoch)
	}
	if len(r.WarmupGain) > 0 {
		fmt.Fprintf(&b, "\nwarm-up gain (with minus without, mean over seeds, 95%% paired interval)\n")
		for _, g := range r.WarmupGain {
			fmt.Fprintf(&b, "%-7s %-11s AUC %s   TPR %s\n", g.Arm, g.Loss, interval(g.TestAUC), interval(g.TestTPR))
		}
	}
	if len(r.WarmupGainVsRandom) > 0 {
		fmt.Fprintf(&b, "\nwarm-up gain minus the random arm's\n")
		for _, g := range r.WarmupGainVsRandom {
			fmt.Fprintf(&b, "%-7s %-11s AUC %s   TPR %s\n", g.Arm, g.Loss, interval(g.TestAUC), interval(g.TestTPR))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// meanSD prints a mean, with ± its standard deviation over the seeds when there are several.
func meanSD(mean float64, several bool, sd func() float64) string {
	if !several {
		return fmt.Sprintf("%.4f", mean)
	}
	return fmt.Sprintf("%.4f ± %.4f", mean, sd())
}

// interval prints a paired difference and its interval, or "—" with one seed.
func interval(p *experiment.Paired) string {
	if p == nil {
		return fmt.Sprintf("%-28s", "— (one seed)")
	}
	return fmt.Sprintf("%+.4f [%+.4f, %+.4f]", p.Diff, p.CI95[0], p.CI95[1])
}
