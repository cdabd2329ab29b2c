package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/train"
)

// sameScores reports whether r and o scored the test rows bit for bit alike (their
// ScoresHash) and deployed the same point, so that a plot draws them once.
func sameScores(r, o *seedResult) bool {
	return r.ScoresHash == o.ScoresHash && r.DeployedTestFPR == o.DeployedTestFPR &&
		r.DeployedTestTPR == o.DeployedTestTPR
}

// merge groups results whose test scores are bit for bit the same (sameScores), in order of
// each group's first member.
func merge(results []seedResult) [][]seedResult {
	var groups [][]seedResult
next:
	for _, r := range results {
		for g := range groups {
			if sameScores(&groups[g][0], &r) {
				groups[g] = append(groups[g], r)
				continue next
			}
		}
		groups = append(groups, []seedResult{r})
	}
	return groups
}

// sameAs lists the names of the runs of results whose every seed scored the test rows bit for
// bit like s's on that seed (sameScores), s itself left out: runs that are one model.
func sameAs(s *experiment.Summary, results []experiment.Summary) []string {
	var names []string
	for k := range results {
		o := &results[k]
		if o.Name == s.Name || len(o.PerSeed) != len(s.PerSeed) {
			continue
		}
		same := true
		for i := range s.PerSeed {
			same = same && s.PerSeed[i].Seed == o.PerSeed[i].Seed && sameScores(&s.PerSeed[i], &o.PerSeed[i])
		}
		if same {
			names = append(names, o.Name)
		}
	}
	return names
}

// mostFinished returns the results of the seed, of seeds in order, that the most runs
// finished (the first such seed), one per run that finished it.
func mostFinished(results []experiment.Summary, seeds []uint64) ([]seedResult, uint64) {
	var best []seedResult
	var bestSeed uint64
	for _, seed := range seeds {
		var runs []seedResult
		for _, r := range results {
			for _, s := range r.PerSeed {
				if s.Seed == seed {
					runs = append(runs, s)
				}
			}
		}
		if len(runs) > len(best) {
			best, bestSeed = runs, seed
		}
	}
	return best, bestSeed
}

// series is the diagnoses of one run, drawn once for every run named in names: the runs of a
// group of merge whose diagnoses begin its longest run's.
type series struct {
	names  []string
	result seedResult // the run with the longest diagnoses
}

// mergeDiagnoses returns the diagnoses to draw for groups of runs with equal test scores
// (merge): within a group, a run whose diagnoses equal the first epochs of the group's
// longest run's bit for bit (whatever their phase labels: a ce run's main epochs are the
// warm-up of a kde run that kept them) is drawn as part of it; the others, and runs without
// diagnoses, are drawn apart or not at all.
func mergeDiagnoses(groups [][]seedResult) []series {
	var out []series
	for _, group := range groups {
		g := slices.Clone(group)
		slices.SortStableFunc(g, func(a, b seedResult) int { return len(b.Diagnostics) - len(a.Diagnostics) })
		if len(g[0].Diagnostics) == 0 {
			continue
		}
		same := map[string]bool{g[0].Name: true}
		for _, r := range g[1:] {
			if n := len(r.Diagnostics); n > 0 && sameDiagnoses(r.Diagnostics, g[0].Diagnostics[:n]) {
				same[r.Name] = true
			} else if n > 0 {
				out = append(out, series{names: []string{r.Name}, result: r})
			}
		}
		main := series{result: g[0]}
		for _, r := range group { // in the group's order, as the ROC plot names them
			if same[r.Name] {
				main.names = append(main.names, r.Name)
			}
		}
		out = append(out, main)
	}
	return out
}

// sameDiagnoses reports whether a and b hold the same diagnoses bit for bit, phases aside.
// %v writes each float as the shortest text that reads back to it, and NaN as "NaN".
func sameDiagnoses(a, b []experiment.Diagnosis) bool {
	text := func(ds []experiment.Diagnosis) string {
		ds = slices.Clone(ds)
		for k := range ds {
			ds[k].Phase = ""
		}
		return fmt.Sprint(ds)
	}
	return text(a) == text(b)
}

// nextPhase is the epoch at which r's main phase follows its warm-up (or a recipe's
// cross-entropy phase) in its diagnoses, 0 when it has none.
func nextPhase(r *seedResult) int {
	d := r.Diagnostics
	for k := 1; k < len(d); k++ {
		if d[k-1].Phase == train.Warmup.String() && d[k].Phase == train.Main.String() {
			return d[k].Epoch
		}
	}
	return 0
}

// label names a group of runs, such as one of merge: their names joined by " = ".
func label(g []seedResult) string {
	names := make([]string, len(g))
	for k, r := range g {
		names[k] = r.Name
	}
	return strings.Join(names, " = ")
}
