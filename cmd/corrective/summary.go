package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// summarise writes the markdown tables of docs/results.md from the records.
func summarise(o *options, recs []record) string {
	var b strings.Builder
	datasets := presentDatasets(o, recs)
	runs := specs(o)
	byKey := map[string][]record{} // dataset/run → records in seed order
	for _, r := range recs {
		k := r.Dataset + "/" + r.Run
		byKey[k] = append(byKey[k], r)
	}

	fmt.Fprintf(&b, "### Test AUC, mean ± sd over seeds\n\n| run |")
	for _, d := range datasets {
		fmt.Fprintf(&b, " %s |", d)
	}
	fmt.Fprintf(&b, "\n|---|%s\n", strings.Repeat("---:|", len(datasets)))
	for _, s := range runs {
		fmt.Fprintf(&b, "| %s |", s.name())
		for _, d := range datasets {
			rs := byKey[d+"/"+s.name()]
			if len(rs) == 0 {
				b.WriteString(" – |")
				continue
			}
			xs := aucs(rs)
			fmt.Fprintf(&b, " %.4f ± %.4f (%d) |", stat.Mean(xs, nil), stat.StdDev(xs, nil), len(xs))
		}
		b.WriteString("\n")
	}

	// Claim 1: rank of each surrogate's mean test AUC per data set, direct and warm-started.
	fmt.Fprintf(&b, "\n### Claim 1: rank of each surrogate by mean test AUC (1 = best of the five)\n\n| surrogate | direct ranks | direct mean rank | +wu ranks | +wu mean rank |\n|---|---|---:|---|---:|\n")
	for _, sur := range pairwise.Surrogates() {
		var line [2][]int
		for w, suffix := range []string{"", "+wu"} {
			for _, d := range datasets {
				type entry struct {
					s   pairwise.Surrogate
					auc float64
				}
				var es []entry
				for _, t := range pairwise.Surrogates() {
					if rs := byKey[d+"/"+t.String()+suffix]; len(rs) > 0 {
						es = append(es, entry{t, stat.Mean(aucs(rs), nil)})
					}
				}
				sort.SliceStable(es, func(i, j int) bool { return es[i].auc > es[j].auc })
				for k, e := range es {
					if e.s == sur {
						line[w] = append(line[w], k+1)
					}
				}
			}
		}
		fmt.Fprintf(&b, "| %v | %v | %.2f | %v | %.2f |\n", sur, line[0], meanInts(line[0]), line[1], meanInts(line[1]))
	}

	// Claim 2: paired warm-up gains.
	fmt.Fprintf(&b, "\n### Claim 2: warm-up gain, test AUC(+wu) − AUC(direct), paired by data set and seed\n\n| surrogate | mean gain | sd of gain | pairs | per data set (mean) |\n|---|---:|---:|---:|---|\n")
	for _, sur := range pairwise.Surrogates() {
		var all []float64
		var per []string
		for _, d := range datasets {
			direct, wu := bySeed(byKey[d+"/"+sur.String()]), bySeed(byKey[d+"/"+sur.String()+"+wu"])
			var gains []float64
			for seed, a := range direct {
				if w, ok := wu[seed]; ok {
					gains = append(gains, w-a)
				}
			}
			if len(gains) > 0 {
				per = append(per, fmt.Sprintf("%s %+.4f", d, stat.Mean(gains, nil)))
				all = append(all, gains...)
			}
		}
		fmt.Fprintf(&b, "| %v | %+.4f | %.4f | %d | %s |\n", sur, stat.Mean(all, nil), stat.StdDev(all, nil), len(all), strings.Join(per, ", "))
	}

	if o.intervene {
		fmt.Fprintf(&b, "\n### The intervention rule: test AUC(+iv) − AUC(direct), paired by data set and seed\n\n| surrogate | runs that intervened | interventions | mean gain | sd of gain | mean gain where it intervened |\n|---|---:|---:|---:|---:|---:|\n")
		for _, sur := range pairwise.Surrogates() {
			var gains, fired []float64
			runsFired, total := 0, 0
			for _, d := range datasets {
				direct := bySeed(byKey[d+"/"+sur.String()])
				for _, r := range byKey[d+"/"+sur.String()+"+iv"] {
					a, ok := direct[r.Seed]
					if !ok {
						continue
					}
					gains = append(gains, r.TestAUC-a)
					total += r.Interventions
					if r.Interventions > 0 {
						runsFired++
						fired = append(fired, r.TestAUC-a)
					}
				}
			}
			fmt.Fprintf(&b, "| %v | %d of %d | %d | %+.4f | %.4f | %+.4f |\n", sur, runsFired, len(gains), total, stat.Mean(gains, nil), stat.StdDev(gains, nil), stat.Mean(fired, nil))
		}
	}

	b.WriteString(stalledRuns(datasets, byKey))

	// Claim 3: early misranking of direct runs.
	fmt.Fprintf(&b, "\n### Claim 3: misranking on the training pool after main epochs 1, 3 and the last, direct runs (mean over data sets and seeds)\n\n| run | epoch 1 | epoch 3 | last | mean rank at epoch 3 (1 = lowest) |\n|---|---:|---:|---:|---:|\n")
	rank3 := map[string][]int{}
	for _, d := range datasets {
		for seed := uint64(1); seed <= uint64(o.seeds); seed++ {
			type entry struct {
				run string
				mis float64
			}
			var es []entry
			for _, s := range runs {
				if s.warmup > 0 || s.intervene {
					continue
				}
				for _, r := range byKey[d+"/"+s.name()] {
					if r.Seed == seed {
						if v, ok := misAt(r, 3); ok {
							es = append(es, entry{s.name(), v})
						}
					}
				}
			}
			sort.SliceStable(es, func(i, j int) bool { return es[i].mis < es[j].mis })
			for k, e := range es {
				rank3[e.run] = append(rank3[e.run], k+1)
			}
		}
	}
	for _, s := range runs {
		if s.warmup > 0 || s.intervene {
			continue
		}
		var e1, e3, last []float64
		for _, d := range datasets {
			for _, r := range byKey[d+"/"+s.name()] {
				if v, ok := misAt(r, 1); ok {
					e1 = append(e1, v)
				}
				if v, ok := misAt(r, 3); ok {
					e3 = append(e3, v)
				}
				if v, ok := misAt(r, -1); ok {
					last = append(last, v)
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %.4f | %.4f | %.4f | %.2f |\n", s.name(), stat.Mean(e1, nil), stat.Mean(e3, nil), stat.Mean(last, nil), meanInts(rank3[s.name()]))
	}

	// Claim 4: batch-size slope by corrective state.
	var cps []checkpoint
	for _, r := range recs {
		cps = append(cps, r.Checkpoints...)
	}
	fmt.Fprintf(&b, "\n### Claim 4: batch-size scaling of the severe-direction noise by corrective state\n\n")
	if len(cps) < 6 {
		fmt.Fprintf(&b, "too few checkpoints (%d)\n", len(cps))
		return b.String()
	}
	slices.SortFunc(cps, func(a, c checkpoint) int { return cmp.Compare(a.DriftZ, c.DriftZ) })
	third := len(cps) / 3
	fmt.Fprintf(&b, "%d checkpoints (pairwise runs, after the first and the last main epoch), split into terciles of the standardised drift z = drift/sd(batch mean at B = 16).\n\n", len(cps))
	fmt.Fprintf(&b, "| state | checkpoints | z range | severe mass | first-order share (B=16) | exact split slope | resampled slope |\n|---|---:|---|---:|---:|---:|---:|\n")
	for _, g := range []struct {
		name string
		cs   []checkpoint
	}{{"weakest drift (lower third)", cps[:third]}, {"middle third", cps[third : len(cps)-third]}, {"most corrective (upper third)", cps[len(cps)-third:]}} {
		var sev, share, ss, sl []float64
		for _, c := range g.cs {
			sev, share, ss, sl = append(sev, c.SevereMass), append(share, c.FirstOrder), append(ss, c.SplitSlope), append(sl, c.Slope)
		}
		fmt.Fprintf(&b, "| %s | %d | [%.3g, %.3g] | %.4f | %.4f ± %.4f | %.3f ± %.3f | %.3f ± %.3f |\n", g.name, len(g.cs),
			g.cs[0].DriftZ, g.cs[len(g.cs)-1].DriftZ, stat.Mean(sev, nil), stat.Mean(share, nil), stat.StdDev(share, nil), stat.Mean(ss, nil), stat.StdDev(ss, nil), stat.Mean(sl, nil), stat.StdDev(sl, nil))
	}
	minShare, minSlope := math.Inf(1), math.Inf(1)
	for _, c := range cps {
		minShare, minSlope = math.Min(minShare, c.FirstOrder), math.Min(minSlope, c.Slope)
	}
	fmt.Fprintf(&b, "\nSmallest first-order share of any checkpoint: %.4f; steepest resampled slope: %.3f.\n", minShare, minSlope)
	return b.String()
}

func presentDatasets(o *options, recs []record) []string {
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Dataset] = true
	}
	var out []string
	for _, d := range append(append([]string(nil), panelFiles...), "wdbc", "teacher") {
		if seen[d] {
			out = append(out, d)
		}
	}
	return out
}

// misAt returns the misranking after the k-th main-phase epoch of r (every epoch is
// diagnosed; warm-up and intervention epochs do not count), or after its last for k < 0.
func misAt(r record, k int) (float64, bool) {
	var main []diag
	for _, d := range r.Diagnoses {
		if d.Phase == train.Main.String() {
			main = append(main, d)
		}
	}
	if k < 0 {
		k = len(main)
	}
	if k < 1 || k > len(main) {
		return 0, false
	}
	return main[k-1].Misranking, true
}

func aucs(rs []record) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.TestAUC
	}
	return out
}

func bySeed(rs []record) map[uint64]float64 {
	out := map[uint64]float64{}
	for _, r := range rs {
		out[r.Seed] = r.TestAUC
	}
	return out
}

func meanInts(xs []int) float64 {
	f := make([]float64, len(xs))
	for i, x := range xs {
		f[i] = float64(x)
	}
	return stat.Mean(f, nil)
}

// stalledBy is how far, in test AUC, a direct run must fall behind its warm-started twin to be
// listed by stalledRuns.
const stalledBy = 0.03

// stalledRuns lists every direct pairwise run more than stalledBy test AUC behind the same
// surrogate after the warm-up, on the same data set and seed, with its diagnostics from the
// first to the last main epoch and, where the experiment ran it, the "+iv" twin's test AUC and
// the epoch after which it first intervened.
func stalledRuns(datasets []string, byKey map[string][]record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Direct runs more than %g test AUC behind their warm-started twin\n\n", stalledBy)
	b.WriteString("| data set, seed | run | direct | +wu | +iv | misranking, first → last main epoch | π_M | drift | lowest first-order share | +iv intervened after epoch |\n|---|---|---:|---:|---:|---|---|---|---:|---:|\n")
	n := 0
	for _, d := range datasets {
		for _, sur := range pairwise.Surrogates() {
			wu := byKey[d+"/"+sur.String()+"+wu"]
			iv := byKey[d+"/"+sur.String()+"+iv"]
			for _, r := range byKey[d+"/"+sur.String()] {
				w, ok := recordOf(wu, r.Seed)
				if !ok || r.TestAUC >= w.TestAUC-stalledBy {
					continue
				}
				n++
				var main []diag
				for _, dg := range r.Diagnoses {
					if dg.Phase == train.Main.String() {
						main = append(main, dg)
					}
				}
				first, last := main[0], main[len(main)-1]
				lowShare := math.Inf(1)
				for _, dg := range main {
					if dg.FirstOrder != nil {
						lowShare = min(lowShare, *dg.FirstOrder)
					}
				}
				ivAUC, ivAt := "–", "–"
				if v, ok := recordOf(iv, r.Seed); ok {
					ivAUC = fmt.Sprintf("%.3f", v.TestAUC)
					for k, dg := range v.Diagnoses {
						if dg.Phase == train.Intervention.String() && k > 0 {
							ivAt = strconv.Itoa(v.Diagnoses[k-1].Epoch - v.Warmup)
							break
						}
					}
				}
				fmt.Fprintf(&b, "| %s, %d | %v | %.3f | %.3f | %s | %.3f → %.3f | %.3f → %.3f | %s → %s | %.2f | %s |\n",
					d, r.Seed, sur, r.TestAUC, w.TestAUC, ivAUC, first.Misranking, last.Misranking,
					first.SevereMass, last.SevereMass, orDash(first.Drift), orDash(last.Drift), lowShare, ivAt)
			}
		}
	}
	if n == 0 {
		b.WriteString("| none | | | | | | | | | |\n")
	}
	return b.String()
}

// recordOf returns the record of seed among rs.
func recordOf(rs []record, seed uint64) (record, bool) {
	for _, r := range rs {
		if r.Seed == seed {
			return r, true
		}
	}
	return record{}, false
}

// orDash formats a diagnostic that may be missing (no severe pair).
func orDash(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.3g", *v)
}
