package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
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
		arch = fmt.Sprintf("MLP %d→%s→1", ds.width(), strings.ReplaceAll(strings.Trim(fmt.Sprint(o.hiddenSizes), "[]"), " ", "→"))
	}
	rows, selected := fmt.Sprintf("%d positive", ds.positives()), "pAUC@α"
	if t := classTablesOf(o, ds); t != nil {
		rows, selected, arch = t.describe(arch)
	}
	if o.arm.active() {
		arch += o.arm.describe()
	}
	fmt.Fprintf(w, "data: %s, %d rows (%s), %s; %s\n", ds.name, ds.allRows(), rows, ds.describe(), ds.describeSplit())
	if o.lossesChosen != "" {
		fmt.Fprintf(w, "runs: %s, chosen for %s data (-losses to choose others)\n", strings.ReplaceAll(o.losses, ",", ", "), o.lossesChosen)
	}
	if o.recall > 0 {
		selected = o.metric().String()
	}
	fmt.Fprintf(w, "model: %s; α = %g; the learning rate and epoch of each run maximise validation %s\n", arch, o.alpha, selected)
	if t := classTablesOf(o, ds); t != nil {
		t.write(w, results)
		printFallbacks(w, results)
	} else if o.seeds == 1 {
		printSingle(w, o, results)
	} else {
		printSeeds(w, o, results)
	}
	f := plotted(o, results)
	note := ""
	if f.note != "" {
		note = " (" + f.note + ")"
	}
	same := slices.ContainsFunc(f.groups, func(g []seedResult) bool { return len(g) > 1 })
	switch {
	case o.plot != "":
		fmt.Fprintf(w, "\nROC curves%s: %s\n", note, o.plot)
	case same:
		fmt.Fprintln(w)
	}
	for _, g := range f.groups {
		switch {
		case len(g) < 2:
		case o.plot != "":
			fmt.Fprintf(w, "drawn once, the same test scores bit for bit: %s\n", label(g))
		default: // no plot: said all the same, of the seed a plot would draw
			fmt.Fprintf(w, "the same test scores bit for bit%s: %s\n", note, label(g))
		}
	}
	if o.plot != "" && o.diagnose {
		fmt.Fprintf(w, "diagnostics%s: %s (misranking and first-order share per epoch; docs/diagnostics.md)\n", note, diagnosticsPath(o.plot))
	}
	if o.out != "" {
		fmt.Fprintf(w, "models: %s\n", o.out)
	}
	if o.data == "" {
		fmt.Fprintf(w, "\ndata credit: %s\n", data.WDBCCredit)
	}
}

// classTablesOf are the tables of multi-class or multi-label data, nil for binary data.
func classTablesOf(o *options, ds *dataset) *classTables {
	t := newClassTables(ds.all, o.alpha, o.seeds, o.seed)
	if t != nil {
		t.Boot, t.Confidence, t.Repeat = o.boot, o.confidence, seedsRepeat(o)
	}
	return t
}

// seedsRepeat says what each seed repeats.
func seedsRepeat(o *options) string {
	if o.valid != "" {
		return "each repeats the initialisation and the batches, on the one split -data, -valid and -test give"
	}
	return "each repeats the split, the initialisation and the batches"
}

// width is the number of features the models take: the encoded ones for raw data.
func (ds *dataset) width() int {
	switch {
	case ds.encoded > 0:
		return ds.encoded
	case ds.all == nil:
		return 0
	}
	return ds.all.Cols
}

// allRows is the number of rows of all the data given.
func (ds *dataset) allRows() int {
	if ds.rows == 0 && ds.all != nil {
		return ds.all.Rows
	}
	return ds.rows
}

// positives is the number of positive rows of all the data given.
func (ds *dataset) positives() int {
	n := ds.all.Positives()
	if ds.val != nil {
		n += ds.val.Positives() + ds.test.Positives()
	}
	return n
}

// describe names the label column, how it was chosen, and the features, with their encoded
// width for raw data.
func (ds *dataset) describe() string {
	label := fmt.Sprintf("label %q", ds.all.LabelName)
	if ds.labelWhy != "" {
		label += " (" + ds.labelWhy + ")"
	}
	if ds.all.Labels != nil {
		label = fmt.Sprintf("labels %s (-label)", strings.Join(ds.all.Labels, ", "))
	}
	if ds.all.LabelValues != nil {
		label += fmt.Sprintf(", positive %q", ds.all.LabelValues[1])
	}
	features := fmt.Sprintf("%d features", ds.all.Cols)
	if ds.enc != nil {
		var kinds []string
		for _, k := range []struct {
			what string
			is   func(data.EncodedColumn) bool
		}{
			{"text", func(c data.EncodedColumn) bool { return c.Text && !c.Empty }},
			{"with missing values", func(c data.EncodedColumn) bool { return c.Missing }},
			{"without a value in training, unused", func(c data.EncodedColumn) bool { return c.Empty }},
		} {
			if n := len(slices.DeleteFunc(slices.Clone(ds.enc.Columns), func(c data.EncodedColumn) bool { return !k.is(c) })); n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s", n, k.what))
			}
		}
		if len(kinds) > 0 {
			features += " (" + strings.Join(kinds, ", ") + ")"
		}
		features += fmt.Sprintf(", %d after encoding", ds.encoded)
	}
	return label + ", " + features
}

// describeSplit says how the rows were split.
func (ds *dataset) describeSplit() string {
	if ds.val != nil {
		return fmt.Sprintf("split %d/%d/%d (train/validation/test: -data, -valid, -test)", ds.parts[0], ds.parts[1], ds.parts[2])
	}
	return fmt.Sprintf("split %d/%d/%d (train/validation/test)", ds.parts[0], ds.parts[1], ds.parts[2])
}

// The JSON keys of the figures the tables compare, those of experiment.Figures.
const (
	keyAUC         = "test_auc"
	keyPAUC        = "test_pauc"
	keyTPR         = "test_tpr_at_fpr"
	keyDeployedTPR = "deployed_test_tpr"
	keyDeployedFPR = "deployed_test_fpr"
	keyRecall      = "test_fpr_at_tpr"
	keyAUCOvR      = "test_auc_ovr"
	keyAUCOvO      = "test_auc_ovo"
)

// mark is "*" for an interval that lies wholly on one side of 0, else "".
func mark(ci experiment.Interval) string {
	if ci[0] > 0 || ci[1] < 0 {
		return "*"
	}
	return ""
}

// orZero is p, or a pointer to a zero T for nil (such as the standard deviations of a run
// that finished one seed).
func orZero[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

// printSingle is the table of one seed, with each figure's 95% interval on the test part.
func printSingle(w io.Writer, o *options, results []experiment.Summary) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "run\tlr\ttest AUC\ttest pAUC@%g\ttest TPR@FPR=%g\t%sdeployed FPR\tdeployed TPR\ttrain s\t\n", o.alpha, o.alpha, recallHeader(o))
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%g\t%s\t%s\t%s\t%s%s\t%s\t%.1f\t\n", runCell(r), r.LearningRate,
			withCI(r.TestAUC, r.TestAUCCI), withCI(r.TestPAUC, r.TestPAUCCI), withCI(r.TestTPR, r.TestTPRCI),
			recallCell(r.TestFPRAtTPR, nil), withCI(r.DeployedTestFPR, r.DeployedTestFPRCI),
			withCI(r.DeployedTestTPR, r.DeployedTestTPRCI), r.TrainSeconds)
	}
	tw.Flush()
	boot := "not computed (-boot 0)"
	if o.boot > 0 {
		boot = fmt.Sprintf("stratified bootstrap, %d resamples", o.boot)
	}
	if o.confidence > 0 {
		boot += "; deployed FPR and TPR: Clopper–Pearson"
	}
	fmt.Fprintf(w, "\n[lo, hi]: 95%% interval on this test part (AUC: DeLong; pAUC and TPR: %s).\n", boot)
	fmt.Fprintf(w, "deployed: flag score ≥ %s; the test FPR and TPR it gives.\n", deployedRule(o))
	printFallbacks(w, results)
	printVsFirst(w, o, results)
}

// runCell is a run's name in the tables, marked "†" when it fell back to its earlier phase
// on some seed (printFallbacks says how often).
func runCell(r experiment.Summary) string {
	if r.LaterPhaseKept != nil && *r.LaterPhaseKept < r.Seeds {
		return r.Name + "†"
	}
	return r.Name
}

// printFallbacks is the footnote of the runs marked by runCell: on how many seeds validation
// kept their later phase, and which runs they equal bit for bit.
func printFallbacks(w io.Writer, results []experiment.Summary) {
	for k := range results {
		r := &results[k]
		if r.LaterPhaseKept == nil || *r.LaterPhaseKept == r.Seeds {
			continue
		}
		later := "fine-tuning"
		if r.WarmupEpochs > 0 {
			later = r.Loss + " after the warm-up"
		}
		line := fmt.Sprintf("† %s: %s kept on %d of %d seeds, the cross-entropy weights on the other %d",
			r.Name, later, *r.LaterPhaseKept, r.Seeds, r.Seeds-*r.LaterPhaseKept)
		if r.Seeds == 1 {
			line = fmt.Sprintf("† %s: validation kept the cross-entropy weights, not %s", r.Name, later)
		}
		if same := sameAs(r, results); len(same) > 0 {
			line += "; = " + strings.Join(same, ", ") + " bit for bit"
		}
		fmt.Fprintln(w, line)
	}
}

// printVsFirst lists each run's paired comparisons with the first run on the same test rows
// (experiment.Figures' TestAUCVsFirst and TestVsFirst), the figure its loss targets
// (experiment.Target) first.
func printVsFirst(w io.Writer, o *options, results []experiment.Summary) {
	var rows []experiment.Summary
	for _, r := range results[1:] {
		if r.TestAUCVsFirst != nil {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return
	}
	boot := ""
	if o.boot > 0 {
		boot = fmt.Sprintf("; the others: paired bootstrap, the same %d resamples of rows for both", o.boot)
	}
	fmt.Fprintf(w, "\neach run minus %s on the same test rows: difference [95%% interval], first on the figure its loss targets; "+
		"AUC: DeLong's paired test%s; * where the interval excludes 0\n\n", results[0].Name, boot)
	names := map[string]string{keyAUC: "AUC", keyPAUC: fmt.Sprintf("pAUC@%g", o.alpha),
		keyTPR: fmt.Sprintf("TPR@%g", o.alpha), keyRecall: fmt.Sprintf("FPR@TPR=%g", o.recall)}
	keys := []string{keyPAUC, keyTPR, keyDeployedTPR, keyDeployedFPR}
	header := fmt.Sprintf("run\ttarget\tΔ target\tΔ AUC\tp\tΔ pAUC@%g\tΔ TPR@%g\tΔ deployed TPR\tΔ deployed FPR\t", o.alpha, o.alpha)
	if o.recall > 0 {
		keys = append(keys, keyRecall)
		header += fmt.Sprintf("Δ FPR@TPR=%g\t", o.recall)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		d, m := r.TestAUCVsFirst, maps.Clone(r.TestVsFirst)
		if m == nil {
			m = map[string]experiment.Paired{}
		}
		m[keyAUC] = experiment.Paired{Diff: d.Diff, CI95: d.CI95}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%.3g", runCell(r), names[r.Target], cellOf(m, r.Target), cellOf(m, keyAUC), d.P)
		for _, key := range keys {
			line += "\t" + cellOf(m, key)
		}
		fmt.Fprintln(tw, line+"\t")
	}
	tw.Flush()
}

// cellOf formats m's paired difference for key as "+0.0120 [-0.004, +0.028]", with "*" when
// its interval excludes 0, or "–" for a figure not compared.
func cellOf(m map[string]experiment.Paired, key string) string {
	p, ok := m[key]
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%+.4f [%+.3f, %+.3f]%s", p.Diff, p.CI95[0], p.CI95[1], mark(p.CI95))
}

// printSeeds is the table of means ± standard deviations over the seeds, then each run's
// paired difference from the first.
func printSeeds(w io.Writer, o *options, results []experiment.Summary) {
	fmt.Fprintf(w, "seeds %d…%d: %s\n\n", o.seed, o.seed+uint64(o.seeds)-1, seedsRepeat(o))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "run\tseeds\ttest AUC\ttest pAUC@%g\ttest TPR@FPR=%g\t%sdeployed FPR\tdeployed TPR\ttrain s\t\n", o.alpha, o.alpha, recallHeader(o))
	for _, r := range results {
		sd := orZero(r.SD) // zero for a run that finished one seed only
		fmt.Fprintf(tw, "%s\t%d\t%.4f ± %.4f\t%.4f ± %.4f\t%.4f ± %.4f\t%s%.4f ± %.4f\t%.4f ± %.4f\t%.1f\t\n",
			runCell(r), r.Seeds, r.TestAUC, sd.TestAUC, r.TestPAUC, sd.TestPAUC, r.TestTPR, sd.TestTPR,
			recallCell(r.TestFPRAtTPR, sd.TestFPRAtTPR), r.DeployedTestFPR, sd.DeployedTestFPR, r.DeployedTestTPR, sd.DeployedTestTPR, r.TrainSeconds)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmean ± sd over the seeds; deployed: flag score ≥ %s.\n", deployedRule(o))
	printFallbacks(w, results)
	if len(results) < 2 {
		return
	}
	fmt.Fprintf(w, "\ndifference from %s on the same seeds: mean [95%% paired-t interval]; * where the interval excludes 0\n\n", results[0].Name)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	keys := []string{keyAUC, keyPAUC, keyTPR, keyDeployedTPR, keyDeployedFPR}
	header := fmt.Sprintf("run\tΔ test AUC\tΔ test pAUC@%g\tΔ test TPR@FPR=%g\tΔ deployed TPR\tΔ deployed FPR\t", o.alpha, o.alpha)
	if o.recall > 0 {
		keys = append(keys, keyRecall)
		header += fmt.Sprintf("Δ test FPR@TPR=%g\t", o.recall)
	}
	fmt.Fprintln(tw, header)
	for _, r := range results[1:] {
		line := runCell(r)
		for _, key := range keys {
			line += "\t" + cellOf(r.PairedVsFirst, key)
		}
		fmt.Fprintln(tw, line+"\t")
	}
	tw.Flush()
}

// deployedRule says which threshold the tables' deployed rates flag score ≥ at: the plain
// rule's, or with -confidence the Neyman–Pearson threshold and its guarantee.
func deployedRule(o *options) string {
	switch {
	case o.confidence == 0:
		return "the lowest threshold whose validation FPR is ≤ α"
	case o.recall > 0:
		return fmt.Sprintf("the Neyman–Pearson threshold of the validation positives, whose TPR on fresh positives is ≥ %g with probability ≥ %g", o.recall, o.confidence)
	}
	return fmt.Sprintf("the Neyman–Pearson threshold of the validation negatives, whose FPR on fresh negatives is ≤ α with probability ≥ %g", o.confidence)
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
