package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
)

// point is a row of the binary table: a task at one operating point.
type point struct {
	task          string
	alpha, recall float64
}

// bySeed are the rows of one recipe on one task and point, by seed.
type bySeed map[uint64]row

// tableOptions are the flags of "results table".
type tableOptions struct {
	recipes      []string
	base, figure string
	groups       string
	files        []string
}

// parseTable reads the flags of "results table".
func parseTable(args []string, stderr io.Writer) (*tableOptions, error) {
	o := &tableOptions{}
	fs := flag.NewFlagSet("results table", flag.ContinueOnError)
	recipes := fs.String("recipes", "ce,kde,kde-plain", "comma-separated recipes, the table's columns in order")
	fs.StringVar(&o.base, "base", "ce", "the recipe the paired differences are taken from")
	fs.StringVar(&o.figure, "figure", "tpr", "the figure: tpr (the test TPR at FPR α), pauc (the test partial AUC up to α) or auc")
	fs.StringVar(&o.groups, "groups", "", `columns that select among recipes on validation, "name=a|b|c;…": on every row and seed the member with the best validation figure`)
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if o.figure != "tpr" && o.figure != "pauc" && o.figure != "auc" {
		return nil, usageError{fmt.Errorf("-figure: want tpr, pauc or auc, got %q", o.figure)}
	}
	o.recipes, o.files = list(*recipes), fs.Args()
	if len(o.files) == 0 {
		o.files = []string{"rows.jsonl"}
	}
	return o, nil
}

// tableBinary is "results table": the lines of the logs as one Markdown table, a row per task
// and operating point, with for each recipe the mean ± sample sd of the figure over the seeds
// (with a recall r, "TPR r: FPR", the test FPR at TPR r: lower is better) and for each recipe
// but the baseline -base its paired difference from the baseline on the same seeds with the
// 95% paired-t interval d̄ ± t_{0.975, k−1}·s_d/√k over the k common seeds (* where it
// excludes 0). A second table sums each recipe's differences up over the rows, with its wall
// time of training relative to the baseline's (mean and range over the rows; the rows'
// "secs", so only as steady as the machine was).
func tableBinary(_ context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseTable(args, stderr)
	if err != nil {
		return err
	}
	runs := map[point]map[string]bySeed{}
	var order []point
	err = readLines(o.files, func(r row) {
		k := point{r.Task, r.Alpha, r.Recall}
		if runs[k] == nil {
			runs[k] = map[string]bySeed{}
			order = append(order, k)
		}
		if runs[k][r.Recipe] == nil {
			runs[k][r.Recipe] = bySeed{}
		}
		runs[k][r.Recipe][r.Seed] = r
	})
	if err != nil {
		return err
	}
	addGroups(o.groups, runs, order)
	slices.SortStableFunc(order, func(a, b point) int {
		return cmp.Or(cmp.Compare(a.task, b.task), cmp.Compare(a.alpha, b.alpha), cmp.Compare(a.recall, b.recall))
	})
	diffs := o.rows(stdout, runs, order)
	o.overRows(stdout, diffs)
	return nil
}

// addGroups adds the columns of -groups ("name=a|b|c;…") to every point: on every seed, the
// member recipe with the best validation figure (the selection a user makes among them).
func addGroups(groups string, runs map[point]map[string]bySeed, order []point) {
	if groups == "" {
		return
	}
	for _, spec := range strings.Split(groups, ";") {
		name, members, _ := strings.Cut(spec, "=")
		for _, k := range order {
			sel := bySeed{}
			for _, m := range strings.Split(members, "|") {
				for seed, r := range runs[k][m] {
					if c, ok := sel[seed]; !ok || r.Val > c.Val {
						sel[seed] = r
					}
				}
			}
			runs[k][name] = sel
		}
	}
}

// diff is one row's paired difference of a recipe from the baseline.
type diff struct {
	mean, lo, hi float64
	where        string
	time         float64 // the recipe's mean training seconds over the base's, on this row
}

// rows prints the first table and returns each recipe's paired differences, one per row of
// the table where it has one.
func (o *tableOptions) rows(w io.Writer, runs map[point]map[string]bySeed, order []point) map[string][]diff {
	head, rule := "| task | α | test negatives (fewest) | seeds |", "|---|---:|---:|---:|"
	for _, rn := range o.recipes {
		head += " " + rn + " |"
		rule += "---:|"
		if rn != o.base {
			head += " " + rn + " − " + o.base + " |"
			rule += "---:|"
		}
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	diffs := map[string][]diff{} // per recipe, one per row
	for _, k := range order {
		fmt.Fprintln(w, o.row(k, runs[k], diffs))
	}
	return diffs
}

// row is the table's row of point k, whose recipes' runs are runs; it adds each recipe's
// paired difference to diffs.
func (o *tableOptions) row(k point, runs map[string]bySeed, diffs map[string][]diff) string {
	ref := runs[o.base]
	negTest := math.MaxInt // the fewest over the seeds: synthetic tasks draw a test part per seed
	for _, r := range ref {
		negTest = min(negTest, r.NegTest)
	}
	where, figure := o.figureOf(k)
	line := fmt.Sprintf("| %s | %s | %d | %d |", k.task, where, negTest, len(ref))
	for _, rn := range o.recipes {
		var xs, ds []float64
		for _, seed := range slices.Sorted(maps.Keys(runs[rn])) {
			r := runs[rn][seed]
			xs = append(xs, figure(r))
			if c, ok := ref[seed]; ok {
				ds = append(ds, figure(r)-figure(c))
			}
		}
		cell := "–"
		if len(xs) > 0 {
			m, s := meanSD(xs)
			cell = fmt.Sprintf("%.3f ± %.3f", m, s)
		}
		line += " " + cell + " |"
		if rn == o.base {
			continue
		}
		cell = "–"
		if len(ds) > 1 {
			m, h := pairedT(ds)
			cell = fmt.Sprintf("%+.3f [%+.3f, %+.3f]%s", m, m-h, m+h, star(m, h))
			diffs[rn] = append(diffs[rn], diff{m, m - h, m + h, k.task + " " + where, meanSecs(runs[rn]) / meanSecs(ref)})
		}
		line += " " + cell + " |"
	}
	return line
}

// figureOf returns how the table names point k's operating point and the figure it shows
// there: -figure at α, or with a recall r the test FPR at TPR r.
func (o *tableOptions) figureOf(k point) (string, func(row) float64) {
	if k.recall != 0 {
		return fmt.Sprintf("TPR %g: FPR", k.recall), func(r row) float64 { return r.FPR }
	}
	where := fmt.Sprintf("%g", k.alpha)
	switch o.figure {
	case "pauc":
		return where, func(r row) float64 { return r.PAUC }
	case "auc":
		return where, func(r row) float64 { return r.AUC }
	}
	return where, func(r row) float64 { return r.TPR }
}

// overRows prints each recipe's mean difference over the rows, the rows whose interval lies
// above or below 0, the lowest lower end with its row, and the training time relative to the
// baseline's.
func (o *tableOptions) overRows(w io.Writer, diffs map[string][]diff) {
	fmt.Fprintln(w)
	fmt.Fprintf(w, "| recipe | rows | mean − %s | above 0 | below 0 | lowest lower end | training time / %s |\n", o.base, o.base)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---|---|")
	for _, rn := range o.recipes {
		ds := diffs[rn]
		if len(ds) == 0 {
			continue
		}
		var sum float64
		var above, below int
		lowest := ds[0]
		tMin, tMax, tSum := math.Inf(1), math.Inf(-1), 0.0
		for _, d := range ds {
			sum += d.mean
			tMin, tMax, tSum = min(tMin, d.time), max(tMax, d.time), tSum+d.time
			if d.lo > 0 {
				above++
			}
			if d.hi < 0 {
				below++
			}
			if d.lo < lowest.lo {
				lowest = d
			}
		}
		fmt.Fprintf(w, "| %s | %d | %+.3f | %d | %d | %+.3f (%s) | %.1f [%.1f, %.1f] |\n", rn, len(ds), sum/float64(len(ds)), above, below,
			lowest.lo, lowest.where, tSum/float64(len(ds)), tMin, tMax)
	}
}

// meanSecs is the mean wall time of the runs (all learning rates of one recipe, task,
// operating point and seed each).
func meanSecs(runs bySeed) float64 {
	var s float64
	for _, seed := range slices.Sorted(maps.Keys(runs)) {
		s += runs[seed].Secs
	}
	return s / float64(len(runs))
}
