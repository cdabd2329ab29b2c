package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
)

// classTables are the tables of a comparison on multi-class or multi-label data, for a
// terminal.
type classTables struct {
	// Names are the classes or label columns, Multilabel says which.
	Names      []string
	Multilabel bool
	// Alpha is the false-positive rate α of the TPR and the deployed thresholds.
	Alpha float64
	// Seeds and FirstSeed are the number of seeds and the first.
	Seeds     int
	FirstSeed uint64
	// Boot is the number of resamples of the paired bootstrap with one seed (0: none, and no
	// comparison with the first run is shown).
	Boot int
	// Confidence is -confidence: 1 − δ of the Neyman–Pearson thresholds deployed, 0 for the
	// plain rule.
	Confidence float64
	// Repeat says what each seed repeats.
	Repeat string
}

// newClassTables returns the tables of ds at α over seeds seeds from firstSeed, nil when ds
// is nil or binary.
func newClassTables(ds *data.Dataset, alpha float64, seeds int, firstSeed uint64) *classTables {
	if ds == nil || ds.Classes == nil && ds.Labels == nil {
		return nil
	}
	t := &classTables{Names: ds.Classes, Alpha: alpha, Seeds: seeds, FirstSeed: firstSeed}
	if ds.Labels != nil {
		t.Names, t.Multilabel = ds.Labels, true
	}
	return t
}

// describe returns what a table's heading says of the data and the selection: the number of
// classes or labels, the validation metric, and arch, a model's description ending in its one
// output ("MLP 18→64→1"), with the k outputs instead.
func (t classTables) describe(arch string) (rows, selected, archK string) {
	archK = strings.TrimSuffix(arch, "→1") + fmt.Sprintf("→%d", len(t.Names))
	if t.Multilabel {
		return fmt.Sprintf("%d labels", len(t.Names)), "macro AUC of the labels", archK
	}
	return fmt.Sprintf("%d classes", len(t.Names)), "macro AUC (OvO for the ovo runs, else OvR)", archK
}

// write prints the macro figures of every run — the one-vs-rest AUC (label-wise for
// multi-label data), Hand and Till's one-vs-one AUC (multi-class), the partial AUC and TPR at
// FPR α and the deployed rates, each the mean over the classes of its one-vs-rest figure —
// with one seed as they are followed by each run's paired bootstrap difference from the first
// run in macro one-vs-rest AUC on the same test rows (with Boot resamples), with several as
// mean ± sd over the seeds followed by each run's paired difference from the first run; then
// the per-class AUC of every run (the mean over the seeds).
func (t classTables) write(w io.Writer, results []experiment.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ovr, ovo := "test macro AUC (OvR)", "test macro AUC (OvO)\t"
	if t.Multilabel {
		ovr, ovo = "test macro AUC (labels)", ""
	}
	seeds, cell := "lr\t", func(x float64, sd *float64) string { return fmt.Sprintf("%.4f", x) }
	if t.Seeds > 1 {
		fmt.Fprintf(w, "seeds %d…%d: %s\n", t.FirstSeed, t.FirstSeed+uint64(t.Seeds)-1, t.Repeat)
		seeds = "seeds\t"
		cell = func(x float64, sd *float64) string {
			if sd == nil {
				return fmt.Sprintf("%.4f ± –", x)
			}
			return fmt.Sprintf("%.4f ± %.4f", x, *sd)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(tw, "run\t%s%s\t%stest macro pAUC@%g\ttest macro TPR@FPR=%g\tdeployed FPR\tdeployed TPR\ttrain s\t\n", seeds, ovr, ovo, t.Alpha, t.Alpha)
	for k := range results {
		r := &results[k]
		sd := orZero(r.SD)
		line := runCell(*r) + "\t"
		if t.Seeds > 1 {
			line += fmt.Sprintf("%d\t", r.Seeds)
		} else {
			line += fmt.Sprintf("%g\t", r.LearningRate)
		}
		ovr, ovo := cell(r.TestAUC, orNil(r.SD != nil, sd.TestAUCOvR)), cell(value(r.TestAUCOvO), orNil(r.SD != nil, sd.TestAUCOvO))
		if t.Seeds == 1 { // with the intervals of the macro AUCs
			ovr, ovo = withCI(r.TestAUC, r.TestAUCCI), withCI(value(r.TestAUCOvO), r.TestAUCOvOCI)
		}
		line += ovr + "\t"
		if !t.Multilabel {
			line += ovo + "\t"
		}
		line += fmt.Sprintf("%s\t%s\t%s\t%s\t%.1f\t", cell(r.TestPAUC, orNil(r.SD != nil, &sd.TestPAUC)),
			cell(r.TestTPR, orNil(r.SD != nil, &sd.TestTPR)), cell(r.DeployedTestFPR, orNil(r.SD != nil, &sd.DeployedTestFPR)),
			cell(r.DeployedTestTPR, orNil(r.SD != nil, &sd.DeployedTestTPR)), r.TrainSeconds)
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	what := "classes of each class's one-vs-rest figure"
	if t.Multilabel {
		what = "labels of each label's figure"
	}
	rule := "the lowest threshold whose validation FPR for c is ≤ α"
	if t.Confidence > 0 {
		rule = fmt.Sprintf("its Neyman–Pearson threshold of the validation part, whose FPR for c on fresh rows is ≤ α with probability ≥ %g", t.Confidence)
	}
	fmt.Fprintf(w, "\nmacro: the mean over the %d %s; deployed: flag class c when its score ≥ %s (the rates: macro means).\n", len(t.Names), what, rule)
	if t.Seeds > 1 {
		fmt.Fprintln(w, "mean ± sd over the seeds.")
		t.writeDiffs(w, results)
	} else {
		if t.Boot > 0 {
			fmt.Fprintf(w, "[lo, hi]: 95%% interval of the macro AUC on this test part (stratified bootstrap, %d resamples of rows drawn within each %s).\n",
				t.Boot, map[bool]string{true: "set of labels", false: "class"}[t.Multilabel])
		}
		t.writeVsFirst(w, results)
	}
	t.writePerClass(w, results)
	t.writeDeployed(w, results)
}

// writeDeployed is, with one seed and -confidence, the table of each run's deployed test FPR
// and TPR of every class with their 95% Clopper–Pearson intervals on the test part
// (experiment.Figures' DeployedClassTestFPR … DeployedClassTestTPRCI); nothing otherwise.
func (t classTables) writeDeployed(w io.Writer, results []experiment.Summary) {
	if t.Seeds > 1 || t.Confidence == 0 {
		return
	}
	what := "class on this test part, one-vs-rest"
	if t.Multilabel {
		what = "label on this test part"
	}
	fmt.Fprintf(w, "\ndeployed FPR and TPR of each %s [95%% Clopper–Pearson interval]:\n\n", what)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "run\t%s\tdeployed FPR\tdeployed TPR\t\n", map[bool]string{true: "label", false: "class"}[t.Multilabel])
	for k := range results {
		r := &results[k]
		if len(r.DeployedClassTestFPRCI) != len(t.Names) || len(r.DeployedClassTestFPR) != len(t.Names) {
			continue
		}
		for c, name := range t.Names {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", runCell(*r), name,
				withCI(r.DeployedClassTestFPR[c], &r.DeployedClassTestFPRCI[c]), withCI(r.DeployedClassTestTPR[c], &r.DeployedClassTestTPRCI[c]))
		}
	}
	tw.Flush()
}

// writeVsFirst is the table of each run's paired bootstrap difference from the first on the
// one seed's test rows (the figure test_auc_ovr of experiment.Figures.TestVsFirst), nothing when no run has one.
func (t classTables) writeVsFirst(w io.Writer, results []experiment.Summary) {
	var rows []*experiment.Summary
	for k := 1; k < len(results); k++ {
		if _, ok := results[k].TestVsFirst[keyAUCOvR]; ok {
			rows = append(rows, &results[k])
		}
	}
	if len(rows) == 0 {
		return
	}
	within := "class"
	if t.Multilabel {
		within = "set of labels"
	}
	fmt.Fprintf(w, "\neach run minus %s on the same test rows: difference [95%% interval], paired stratified bootstrap, "+
		"the same %d resamples of rows (drawn within each %s) for both; * where the interval excludes 0\n\n", results[0].Name, t.Boot, within)
	keys, header := t.diffColumns()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		line := runCell(*r)
		for _, key := range keys {
			line += "\t" + cellOf(r.TestVsFirst, key)
		}
		fmt.Fprintln(tw, line+"\t")
	}
	tw.Flush()
}

// diffColumns are the figures of the tables of paired differences, with their header: the
// macro AUCs (OvR, OvO for multi-class data), the macro pAUC and TPR at FPR α, and the deployed
// TPR and FPR.
func (t classTables) diffColumns() (keys []string, header string) {
	keys, header = []string{keyAUCOvR, keyAUCOvO}, "run\tΔ test macro AUC (OvR)\tΔ test macro AUC (OvO)\t"
	if t.Multilabel {
		keys, header = []string{keyAUCOvR}, "run\tΔ test macro AUC (labels)\t"
	}
	keys = append(keys, keyPAUC, keyTPR, keyDeployedTPR, keyDeployedFPR)
	header += fmt.Sprintf("Δ test macro pAUC@%g\tΔ test macro TPR@FPR=%g\tΔ deployed TPR\tΔ deployed FPR\t", t.Alpha, t.Alpha)
	return keys, header
}

// writeDiffs is the table of each run's paired difference from the first over the seeds.
func (t classTables) writeDiffs(w io.Writer, results []experiment.Summary) {
	if len(results) < 2 {
		return
	}
	fmt.Fprintf(w, "\ndifference from %s on the same seeds: mean [95%% paired-t interval]; * where the interval excludes 0\n\n", results[0].Name)
	keys, header := t.diffColumns()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	for k := range results[1:] {
		r := &results[k+1]
		line := runCell(*r)
		for _, key := range keys {
			line += "\t" + cellOf(r.PairedVsFirst, key)
		}
		fmt.Fprintln(tw, line+"\t")
	}
	tw.Flush()
}

// writePerClass is the table of every class's test AUC by run.
func (t classTables) writePerClass(w io.Writer, results []experiment.Summary) {
	what := "test AUC of each class, one-vs-rest"
	if t.Multilabel {
		what = "test AUC of each label"
	}
	if t.Seeds > 1 {
		what += ", mean over the seeds"
	}
	fmt.Fprintf(w, "\n%s:\n\n", what)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	names := make([]string, len(results))
	for k := range results {
		names[k] = runCell(results[k])
	}
	fmt.Fprintf(tw, "%s\t%s\t\n", map[bool]string{true: "label", false: "class"}[t.Multilabel], strings.Join(names, "\t"))
	for c, name := range t.Names {
		line := name
		for k := range results {
			if a := results[k].TestClassAUC; c < len(a) {
				line += fmt.Sprintf("\t%.4f", a[c])
			} else {
				line += "\t–"
			}
		}
		fmt.Fprintln(tw, line+"\t")
	}
	tw.Flush()
}

// orNil is p when ok, else nil.
func orNil(ok bool, p *float64) *float64 {
	if ok {
		return p
	}
	return nil
}

// value is *p, or NaN for nil.
func value(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
