package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
)

// printTable prints the results for a terminal: one table with -seeds 1, a table of means ±
// standard deviations and one of paired differences otherwise.
func printTable(w io.Writer, o *options, ds *dataset, results []experiment.Summary) {
	arch := "linear scorer"
	if len(o.hiddenSizes) > 0 {
		arch = fmt.Sprintf("MLP %d→%s→1", ds.all.Cols, strings.ReplaceAll(strings.Trim(fmt.Sprint(o.hiddenSizes), "[]"), " ", "→"))
	}
	fmt.Fprintf(w, "data: %s, %d rows (%d positive), %d features; split %d/%d/%d (train/validation/test)\n",
		ds.name, ds.all.Rows, ds.all.Positives(), ds.all.Cols, ds.parts[0], ds.parts[1], ds.parts[2])
	selected := "pAUC@α"
	if o.recall > 0 {
		selected = o.metric().String()
	}
	fmt.Fprintf(w, "model: %s; α = %g; the learning rate and epoch of each run maximise validation %s\n", arch, o.alpha, selected)
	if o.seeds == 1 {
		printSingle(w, o, results)
	} else {
		printSeeds(w, o, results)
	}
	if o.plot != "" {
		note := ""
		if _, n := plotted(o, results); n != "" {
			note = " (" + n + ")"
		}
		fmt.Fprintf(w, "\nROC curves%s: %s\n", note, o.plot)
		if o.diagnose {
			fmt.Fprintf(w, "diagnostics%s: %s (misranking and first-order share per epoch; docs/diagnostics.md)\n", note, diagnosticsPath(o.plot))
		}
	}
	if o.out != "" {
		fmt.Fprintf(w, "models: %s\n", o.out)
	}
	if o.data == "" {
		fmt.Fprintf(w, "\ndata credit: %s\n", data.WDBCCredit)
	}
}

// printSingle is the table of one seed, with each figure's 95% interval on the test part.
func printSingle(w io.Writer, o *options, results []experiment.Summary) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "loss\twarm-up\tlr\ttest AUC\ttest pAUC@%g\ttest TPR@FPR=%g\t%sdeployed FPR\tdeployed TPR\ttrain s\t\n", o.alpha, o.alpha, recallHeader(o))
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%g\t%s\t%s\t%s\t%s%.4f\t%.4f\t%.1f\t\n", r.Loss, r.WarmupEpochs, r.LearningRate,
			withCI(r.TestAUC, r.TestAUCCI), withCI(r.TestPAUC, r.TestPAUCCI), withCI(r.TestTPR, r.TestTPRCI),
			recallCell(r.TestFPRAtTPR, nil), r.DeployedTestFPR, r.DeployedTestTPR, r.TrainSeconds)
	}
	tw.Flush()
	boot := "not computed (-boot 0)"
	if o.boot > 0 {
		boot = fmt.Sprintf("stratified bootstrap, %d resamples", o.boot)
	}
	fmt.Fprintf(w, "\n[lo, hi]: 95%% interval on this test part (AUC: DeLong; pAUC and TPR: %s).\n", boot)
	fmt.Fprintf(w, "deployed: flag score ≥ the lowest threshold whose validation FPR is ≤ α; the test FPR and TPR it gives.\n")
	printAUCVsFirst(w, results)
}

// printAUCVsFirst lists each run's DeLong paired comparison of its test AUC with the first
// run's, when there is any.
func printAUCVsFirst(w io.Writer, results []experiment.Summary) {
	var rows []experiment.Summary
	for _, r := range results[1:] {
		if r.TestAUCVsFirst != nil {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\ntest AUC minus %s's on the same test rows (DeLong's paired test): difference [95%% interval], p; * where the interval excludes 0\n\n", results[0].Name)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range rows {
		d := r.TestAUCVsFirst
		mark := ""
		if d.CI95.Excludes0() {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%d\t%+.4f [%+.3f, %+.3f]%s\tp = %.3g\t\n", r.Loss, r.WarmupEpochs, d.Diff, d.CI95[0], d.CI95[1], mark, d.P)
	}
	tw.Flush()
}

// printSeeds is the table of means ± standard deviations over the seeds, then each run's
// paired difference from the first.
func printSeeds(w io.Writer, o *options, results []experiment.Summary) {
	fmt.Fprintf(w, "seeds %d…%d: each repeats the split, the initialisation and the batches\n\n", o.seed, o.seed+uint64(o.seeds)-1)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "loss\twarm-up\tseeds\ttest AUC\ttest pAUC@%g\ttest TPR@FPR=%g\t%sdeployed FPR\tdeployed TPR\ttrain s\t\n", o.alpha, o.alpha, recallHeader(o))
	for _, r := range results {
		sd := r.SD
		if sd == nil {
			sd = &experiment.Spread{} // a run that finished one seed only
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f ± %.4f\t%.4f ± %.4f\t%.4f ± %.4f\t%s%.4f ± %.4f\t%.4f ± %.4f\t%.1f\t\n",
			r.Loss, r.WarmupEpochs, r.Seeds, r.TestAUC, sd.TestAUC, r.TestPAUC, sd.TestPAUC, r.TestTPR, sd.TestTPR,
			recallCell(r.TestFPRAtTPR, sd.TestFPRAtTPR), r.DeployedTestFPR, sd.DeployedTestFPR, r.DeployedTestTPR, sd.DeployedTestTPR, r.TrainSeconds)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nmean ± sd over the seeds; deployed: flag score ≥ the lowest threshold whose validation FPR is ≤ α.")
	if len(results) < 2 {
		return
	}
	fmt.Fprintf(w, "\ndifference from %s on the same seeds: mean [95%% paired-t interval]; * where the interval excludes 0\n\n", results[0].Name)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	keys := []string{"test_auc", "test_pauc", "test_tpr_at_fpr", "deployed_test_tpr"}
	header := fmt.Sprintf("loss\twarm-up\tΔ test AUC\tΔ test pAUC@%g\tΔ test TPR@FPR=%g\tΔ deployed TPR\t", o.alpha, o.alpha)
	if o.recall > 0 {
		keys = append(keys, experiment.RecallKey)
		header += fmt.Sprintf("Δ test FPR@TPR=%g\t", o.recall)
	}
	fmt.Fprintln(tw, header)
	for _, r := range results[1:] {
		cells := make([]string, 0, len(keys))
		for _, key := range keys {
			p, ok := r.PairedVsFirst[key]
			if !ok {
				cells = append(cells, "–")
				continue
			}
			mark := ""
			if p.Excludes0() {
				mark = "*"
			}
			cells = append(cells, fmt.Sprintf("%+.4f [%+.3f, %+.3f]%s", p.Diff, p.CI95[0], p.CI95[1], mark))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", r.Loss, r.WarmupEpochs, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

// recallHeader is the header cell of the -recall column ("" without -recall).
func recallHeader(o *options) string {
	if o.recall == 0 {
		return ""
	}
	return fmt.Sprintf("test FPR@TPR=%g\t", o.recall)
}

// recallCell is the -recall column's cell for a figure and its standard deviation (nil for
// none), or "" without the figure.
func recallCell(x, sd *float64) string {
	switch {
	case x == nil:
		return ""
	case sd == nil:
		return fmt.Sprintf("%.4f\t", *x)
	}
	return fmt.Sprintf("%.4f ± %.4f\t", *x, *sd)
}

// withCI formats a figure and its interval as "0.9912 [0.981, 1.000]", or the figure alone.
func withCI(x float64, ci *experiment.Interval) string {
	if ci == nil {
		return fmt.Sprintf("%.4f", x)
	}
	return fmt.Sprintf("%.4f [%.3f, %.3f]", x, ci[0], ci[1])
}
