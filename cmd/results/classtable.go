package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// classKey names the runs of one run name on one task.
type classKey struct{ task, run string }

// classSeeds are the rows of one run on one task, by seed.
type classSeeds map[uint64]classRow

// classLogs are the lines of multi-class results logs: the runs by task and name, the tasks
// and each task's run names in the order read, and which tasks are multi-label.
type classLogs struct {
	runs       map[classKey]classSeeds
	tasks      []string
	taskRuns   map[string][]string
	multilabel map[string]bool
}

// classTableOptions are the flags of "results classes-table".
type classTableOptions struct {
	bases        []string
	groups, show string
	files        []string
}

// parseClassTable reads the flags of "results classes-table".
func parseClassTable(args []string, stderr io.Writer) (*classTableOptions, error) {
	o := &classTableOptions{}
	fs := flag.NewFlagSet("results classes-table", flag.ContinueOnError)
	bases := fs.String("base", "ce", "comma-separated baselines the paired differences are taken from (a baseline a task lacks has no column)")
	fs.StringVar(&o.groups, "groups", "", `runs that select among runs on validation, "name=a|b|c;…": on every seed the member with the best validation figure`)
	fs.StringVar(&o.show, "show", "", "comma-separated runs to print, in this order; default all, as read")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	o.bases, o.files = list(*bases), fs.Args()
	if len(o.files) == 0 {
		o.files = []string{"mc.jsonl"}
	}
	return o, nil
}

// tableClasses is "results classes-table": the lines of the logs as Markdown tables, two per
// task. The first has a row per run and, for each figure (test macro OvO and OvR AUC;
// multi-label tasks: the macro label-wise AUC), the mean ± sample sd over the seeds and the
// paired difference from each baseline of -base on the same seeds with the 95% paired-t
// interval d̄ ± t_{0.975, k−1}·s_d/√k (* where it excludes 0), then the learning rates
// validation chose. The second holds the comparisons of the corrective-power paper's appendix
// B.6: each warmed-up run against its direct run, each squared-hinge run against its hinge run.
func tableClasses(_ context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseClassTable(args, stderr)
	if err != nil {
		return err
	}
	l, err := readClassLogs(o.files)
	if err != nil {
		return err
	}
	l.addGroups(o.groups)
	l.keep(o.show)
	for _, task := range l.tasks {
		l.runTable(stdout, task, o.bases)
		l.pairTable(stdout, task)
	}
	return nil
}

// readClassLogs reads the lines of the files.
func readClassLogs(files []string) (*classLogs, error) {
	l := &classLogs{runs: map[classKey]classSeeds{}, taskRuns: map[string][]string{}, multilabel: map[string]bool{}}
	err := readLines(files, func(r classRow) {
		if r.Task == "" {
			return // another JSON line
		}
		k := classKey{r.Task, r.Run}
		if !slices.Contains(l.tasks, r.Task) {
			l.tasks = append(l.tasks, r.Task)
			l.multilabel[r.Task] = true
		}
		if r.OvO != 0 {
			l.multilabel[r.Task] = false
		}
		if l.runs[k] == nil {
			l.runs[k] = classSeeds{}
			l.taskRuns[r.Task] = append(l.taskRuns[r.Task], r.Run)
		}
		l.runs[k][r.Seed] = r
	})
	return l, err
}

// addGroups adds the runs of -groups ("name=a|b|c;…") to every task holding a member: on
// every seed the member run with the best validation figure (the selection a user makes among
// them; the members should share a validation metric).
func (l *classLogs) addGroups(groups string) {
	if groups == "" {
		return
	}
	for _, spec := range strings.Split(groups, ";") {
		name, members, _ := strings.Cut(spec, "=")
		for _, task := range l.tasks {
			sel := classSeeds{}
			for _, m := range strings.Split(members, "|") {
				for seed, r := range l.runs[classKey{task, m}] {
					if c, ok := sel[seed]; !ok || r.Val > c.Val {
						r.Run = m
						sel[seed] = r
					}
				}
			}
			if len(sel) > 0 {
				l.runs[classKey{task, name}] = sel
				l.taskRuns[task] = append(l.taskRuns[task], name)
			}
		}
	}
}

// keep leaves each task the runs of -show that it has, in that order (all of them for "").
func (l *classLogs) keep(show string) {
	if show == "" {
		return
	}
	for _, task := range l.tasks {
		var keep []string
		for _, rn := range strings.Split(show, ",") {
			if l.runs[classKey{task, rn}] != nil {
				keep = append(keep, rn)
			}
		}
		l.taskRuns[task] = keep
	}
}

// classFigure is a figure of the class tables.
type classFigure struct {
	name string
	get  func(classRow) float64
}

// figures are task's figures: the macro OvO and OvR AUC, or the macro label-wise AUC.
func (l *classLogs) figures(task string) []classFigure {
	if l.multilabel[task] {
		return []classFigure{{"label-wise", func(r classRow) float64 { return r.OvR }}}
	}
	return []classFigure{{"OvO", func(r classRow) float64 { return r.OvO }}, {"OvR", func(r classRow) float64 { return r.OvR }}}
}

// runTable prints task's table of runs against the baselines of allBases it has.
func (l *classLogs) runTable(w io.Writer, task string, allBases []string) {
	figs := l.figures(task)
	var bases []string // the baselines the task has
	for _, b := range allBases {
		if l.runs[classKey{task, b}] != nil {
			bases = append(bases, b)
		}
	}
	head, rule := "| run | seeds |", "|---|---:|"
	for _, f := range figs {
		head += " " + f.name + " |"
		rule += "---:|"
		for _, b := range bases {
			head += fmt.Sprintf(" %s − %s [95%%] |", f.name, b)
			rule += "---:|"
		}
	}
	fmt.Fprintf(w, "\n%s: test macro AUC\n\n%s learning rates |\n%s---|\n", task, head, rule)
	for _, rn := range l.taskRuns[task] {
		rs := l.runs[classKey{task, rn}]
		line := fmt.Sprintf("| %s | %d |", rn, len(rs))
		for _, f := range figs {
			var xs []float64
			for _, seed := range slices.Sorted(maps.Keys(rs)) {
				xs = append(xs, f.get(rs[seed]))
			}
			m, s := meanSD(xs)
			line += fmt.Sprintf(" %.4f ± %.4f |", m, s)
			for _, b := range bases {
				cell := "–"
				if rn != b {
					cell = pairedCell(rs, l.runs[classKey{task, b}], f.get)
				}
				line += " " + cell + " |"
			}
		}
		fmt.Fprintln(w, line, learningRates(rn, rs), "|")
	}
}

// learningRates lists the learning rates validation chose for run rn over the seeds of rs,
// "0.01: 3, 0.001: 2"; a group's cells name the member run too.
func learningRates(rn string, rs classSeeds) string {
	lrs := map[string]int{}
	for _, r := range rs {
		cell := fmt.Sprintf("%g", r.LR)
		if r.Run != rn {
			cell = r.Run + " " + cell
		}
		lrs[cell]++
	}
	var lr []string
	for _, v := range slices.Sorted(maps.Keys(lrs)) {
		lr = append(lr, fmt.Sprintf("%s: %d", v, lrs[v]))
	}
	return strings.Join(lr, ", ")
}

// pairTable prints the comparisons of appendix B.6 on task, when it has any: each "+wu" run
// against its direct run, then each squared-hinge run against its hinge run.
func (l *classLogs) pairTable(w io.Writer, task string) {
	figs := l.figures(task)
	head, rule := "| comparison |", "|---|"
	for _, f := range figs {
		head += " " + f.name + " [95%] |"
		rule += "---:|"
	}
	var rows []string
	compare := func(a, b string) {
		if l.runs[classKey{task, a}] == nil || l.runs[classKey{task, b}] == nil {
			return
		}
		line := fmt.Sprintf("| %s − %s |", a, b)
		for _, f := range figs {
			line += " " + pairedCell(l.runs[classKey{task, a}], l.runs[classKey{task, b}], f.get) + " |"
		}
		rows = append(rows, line)
	}
	for _, rn := range l.taskRuns[task] {
		if direct, ok := strings.CutSuffix(rn, "+wu"); ok {
			compare(rn, direct)
		}
	}
	for _, rn := range l.taskRuns[task] {
		if rest, ok := strings.CutPrefix(rn, "sqhinge:"); ok {
			compare(rn, "hinge:"+rest)
		}
	}
	if len(rows) > 0 {
		fmt.Fprintf(w, "\n%s: paired differences\n\n%s\n%s\n%s\n", task, head, rule, strings.Join(rows, "\n"))
	}
}

// pairedCell formats the paired difference of the figure get between the runs a and b over
// their common seeds as "d̄ [lo, hi]" with the 95% paired-t interval, * where it excludes 0;
// "–" with fewer than two common seeds.
func pairedCell(a, b classSeeds, get func(classRow) float64) string {
	var ds []float64
	for _, seed := range slices.Sorted(maps.Keys(a)) {
		if c, ok := b[seed]; ok {
			ds = append(ds, get(a[seed])-get(c))
		}
	}
	if len(ds) < 2 {
		return "–"
	}
	d, h := pairedT(ds)
	return fmt.Sprintf("%+.4f [%+.4f, %+.4f]%s", d, d-h, d+h, star(d, h))
}
