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

// summarise writes the markdown tables of docs/results.md from the records: the test AUC of
// every run, then one section per claim of the paper.
func summarise(o *options, recs []record) string {
	s := newSummary(o, recs)
	var b strings.Builder
	s.testAUC(&b)
	s.surrogateRanks(&b)
	s.warmupGains(&b)
	if o.intervene {
		s.interventionGains(&b)
	}
	s.stalledRuns(&b)
	s.earlyMisranking(&b)
	batchScaling(&b, recs)
	return b.String()
}

// summary is what the sections of the summary read: the data sets that have records, the
// runs of the experiment, and the records by data set and run.
type summary struct {
	o        *options
	datasets []string
	runs     []spec
	byKey    map[string][]record // dataset/run → records in seed order
}

func newSummary(o *options, recs []record) *summary {
	s := &summary{o: o, datasets: presentDatasets(o, recs), runs: specs(o), byKey: map[string][]record{}}
	for _, r := range recs {
		k := r.Dataset + "/" + r.Run
		s.byKey[k] = append(s.byKey[k], r)
	}
	return s
}

// of returns the records of run on data set d, in seed order.
func (s *summary) of(d, run string) []record { return s.byKey[d+"/"+run] }

// testAUC is the table of every run's test AUC on every data set, mean ± sd over the seeds.
func (s *summary) testAUC(b *strings.Builder) {
	fmt.Fprintf(b, "### Test AUC, mean ± sd over seeds\n\n| run |")
	for _, d := range s.datasets {
		fmt.Fprintf(b, " %s |", d)
	}
	fmt.Fprintf(b, "\n|---|%s\n", strings.Repeat("---:|", len(s.datasets)))
	for _, r := range s.runs {
		fmt.Fprintf(b, "| %s |", r.name())
		for _, d := range s.datasets {
			rs := s.of(d, r.name())
			if len(rs) == 0 {
				b.WriteString(" – |")
				continue
			}
			xs := aucs(rs)
			fmt.Fprintf(b, " %.4f ± %.4f (%d) |", stat.Mean(xs, nil), stat.StdDev(xs, nil), len(xs))
		}
		b.WriteString("\n")
	}
}

// surrogateRanks is claim 1: the rank of each surrogate's mean test AUC per data set among the
// five, direct and warm-started.
func (s *summary) surrogateRanks(b *strings.Builder) {
	fmt.Fprintf(b, "\n### Claim 1: rank of each surrogate by mean test AUC (1 = best of the five)\n\n| surrogate | direct ranks | direct mean rank | +wu ranks | +wu mean rank |\n|---|---|---:|---|---:|\n")
	for _, sur := range pairwise.Surrogates() {
		direct, wu := s.ranks(sur, ""), s.ranks(sur, "+wu")
		fmt.Fprintf(b, "| %v | %v | %.2f | %v | %.2f |\n", sur, direct, meanInts(direct), wu, meanInts(wu))
	}
}

// ranks lists, for every data set where it ran, the rank of surrogate sur's mean test AUC among
// the surrogates' runs of the suffix ("" direct, "+wu" after the warm-up), 1 the highest.
func (s *summary) ranks(sur pairwise.Surrogate, suffix string) []int {
	var out []int
	for _, d := range s.datasets {
		type entry struct {
			s   pairwise.Surrogate
			auc float64
		}
		var es []entry
		for _, t := range pairwise.Surrogates() {
			if rs := s.of(d, t.String()+suffix); len(rs) > 0 {
				es = append(es, entry{t, stat.Mean(aucs(rs), nil)})
			}
		}
		sort.SliceStable(es, func(i, j int) bool { return es[i].auc > es[j].auc })
		for k, e := range es {
			if e.s == sur {
				out = append(out, k+1)
			}
		}
	}
	return out
}

// warmupGains is claim 2: each surrogate's test AUC after the warm-up minus directly, paired by
// data set and seed.
func (s *summary) warmupGains(b *strings.Builder) {
	fmt.Fprintf(b, "\n### Claim 2: warm-up gain, test AUC(+wu) − AUC(direct), paired by data set and seed\n\n| surrogate | mean gain | sd of gain | pairs | per data set (mean) |\n|---|---:|---:|---:|---|\n")
	for _, sur := range pairwise.Surrogates() {
		var all []float64
		var per []string
		for _, d := range s.datasets {
			direct, wu := bySeed(s.of(d, sur.String())), bySeed(s.of(d, sur.String()+"+wu"))
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
		fmt.Fprintf(b, "| %v | %+.4f | %.4f | %d | %s |\n", sur, stat.Mean(all, nil), stat.StdDev(all, nil), len(all), strings.Join(per, ", "))
	}
}

// interventionGains is the intervention rule's test AUC(+iv) − AUC(direct), paired by data set
// and seed, over every run and over the runs that intervened.
func (s *summary) interventionGains(b *strings.Builder) {
	fmt.Fprintf(b, "\n### The intervention rule: test AUC(+iv) − AUC(direct), paired by data set and seed\n\n| surrogate | runs that intervened | interventions | mean gain | sd of gain | mean gain where it intervened |\n|---|---:|---:|---:|---:|---:|\n")
	for _, sur := range pairwise.Surrogates() {
		var gains, fired []float64
		runsFired, total := 0, 0
		for _, d := range s.datasets {
			direct := bySeed(s.of(d, sur.String()))
			for _, r := range s.of(d, sur.String()+"+iv") {
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
		fmt.Fprintf(b, "| %v | %d of %d | %d | %+.4f | %.4f | %+.4f |\n", sur, runsFired, len(gains), total, stat.Mean(gains, nil), stat.StdDev(gains, nil), stat.Mean(fired, nil))
	}
}

// earlyMisranking is claim 3: the misranking on the training pool after main epochs 1, 3 and
// the last of the direct runs, with their mean rank at epoch 3.
func (s *summary) earlyMisranking(b *strings.Builder) {
	fmt.Fprintf(b, "\n### Claim 3: misranking on the training pool after main epochs 1, 3 and the last, direct runs (mean over data sets and seeds)\n\n| run | epoch 1 | epoch 3 | last | mean rank at epoch 3 (1 = lowest) |\n|---|---:|---:|---:|---:|\n")
	rank3 := s.misrankingRanks(3)
	for _, r := range s.direct() {
		var e1, e3, last []float64
		for _, d := range s.datasets {
			for _, rec := range s.of(d, r.name()) {
				if v, ok := misAt(rec, 1); ok {
					e1 = append(e1, v)
				}
				if v, ok := misAt(rec, 3); ok {
					e3 = append(e3, v)
				}
				if v, ok := misAt(rec, -1); ok {
					last = append(last, v)
				}
			}
		}
		fmt.Fprintf(b, "| %s | %.4f | %.4f | %.4f | %.2f |\n", r.name(), stat.Mean(e1, nil), stat.Mean(e3, nil), stat.Mean(last, nil), meanInts(rank3[r.name()]))
	}
}

// direct lists the runs trained directly: neither after a warm-up nor under the intervention
// rule.
func (s *summary) direct() []spec {
	var out []spec
	for _, r := range s.runs {
		if r.warmup == 0 && !r.intervene {
			out = append(out, r)
		}
	}
	return out
}

// misrankingRanks ranks the direct runs by their misranking after main epoch k on every data
// set and seed (1 = lowest), the ranks listed by run.
func (s *summary) misrankingRanks(k int) map[string][]int {
	ranks := map[string][]int{}
	for _, d := range s.datasets {
		for seed := uint64(1); seed <= uint64(s.o.seeds); seed++ {
			type entry struct {
				run string
				mis float64
			}
			var es []entry
			for _, r := range s.direct() {
				for _, rec := range s.of(d, r.name()) {
					if rec.Seed == seed {
						if v, ok := misAt(rec, k); ok {
							es = append(es, entry{r.name(), v})
						}
					}
				}
			}
			sort.SliceStable(es, func(i, j int) bool { return es[i].mis < es[j].mis })
			for i, e := range es {
				ranks[e.run] = append(ranks[e.run], i+1)
			}
		}
	}
	return ranks
}

// batchScaling is claim 4: the batch-size scaling of the severe-direction noise at every
// checkpoint of recs, by tercile of the standardised drift.
func batchScaling(b *strings.Builder, recs []record) {
	var cps []checkpoint
	for _, r := range recs {
		cps = append(cps, r.Checkpoints...)
	}
	fmt.Fprintf(b, "\n### Claim 4: batch-size scaling of the severe-direction noise by corrective state\n\n")
	if len(cps) < 6 {
		fmt.Fprintf(b, "too few checkpoints (%d)\n", len(cps))
		return
	}
	slices.SortFunc(cps, func(a, c checkpoint) int { return cmp.Compare(a.DriftZ, c.DriftZ) })
	third := len(cps) / 3
	fmt.Fprintf(b, "%d checkpoints (pairwise runs, after the first and the last main epoch), split into terciles of the standardised drift z = drift/sd(batch mean at B = 16).\n\n", len(cps))
	fmt.Fprintf(b, "| state | checkpoints | z range | severe mass | first-order share (B=16) | exact split slope | resampled slope |\n|---|---:|---|---:|---:|---:|---:|\n")
	for _, g := range []struct {
		name string
		cs   []checkpoint
	}{{"weakest drift (lower third)", cps[:third]}, {"middle third", cps[third : len(cps)-third]}, {"most corrective (upper third)", cps[len(cps)-third:]}} {
		tercileRow(b, g.name, g.cs)
	}
	minShare, minSlope := math.Inf(1), math.Inf(1)
	for _, c := range cps {
		minShare, minSlope = math.Min(minShare, c.FirstOrder), math.Min(minSlope, c.Slope)
	}
	fmt.Fprintf(b, "\nSmallest first-order share of any checkpoint: %.4f; steepest resampled slope: %.3f.\n", minShare, minSlope)
}

// tercileRow is the row of claim 4's table of the checkpoints cs, sorted by drift z.
func tercileRow(b *strings.Builder, name string, cs []checkpoint) {
	var sev, share, ss, sl []float64
	for _, c := range cs {
		sev, share, ss, sl = append(sev, c.SevereMass), append(share, c.FirstOrder), append(ss, c.SplitSlope), append(sl, c.Slope)
	}
	fmt.Fprintf(b, "| %s | %d | [%.3g, %.3g] | %.4f | %.4f ± %.4f | %.3f ± %.3f | %.3f ± %.3f |\n", name, len(cs),
		cs[0].DriftZ, cs[len(cs)-1].DriftZ, stat.Mean(sev, nil), stat.Mean(share, nil), stat.StdDev(share, nil), stat.Mean(ss, nil), stat.StdDev(ss, nil), stat.Mean(sl, nil), stat.StdDev(sl, nil))
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
	main := mainDiagnoses(r)
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
func (s *summary) stalledRuns(b *strings.Builder) {
	fmt.Fprintf(b, "\n### Direct runs more than %g test AUC behind their warm-started twin\n\n", stalledBy)
	b.WriteString("| data set, seed | run | direct | +wu | +iv | misranking, first → last main epoch | π_M | drift | lowest first-order share | +iv intervened after epoch |\n|---|---|---:|---:|---:|---|---|---|---:|---:|\n")
	n := 0
	for _, d := range s.datasets {
		for _, sur := range pairwise.Surrogates() {
			wu, iv := s.of(d, sur.String()+"+wu"), s.of(d, sur.String()+"+iv")
			for _, r := range s.of(d, sur.String()) {
				w, ok := recordOf(wu, r.Seed)
				if !ok || r.TestAUC >= w.TestAUC-stalledBy {
					continue
				}
				n++
				stalledRow(b, d, sur, r, w, iv)
			}
		}
	}
	if n == 0 {
		b.WriteString("| none | | | | | | | | | |\n")
	}
}

// stalledRow is stalledRuns' row of the direct run r of surrogate sur on data set d, whose
// warm-started twin is w and whose "+iv" twins are among iv.
func stalledRow(b *strings.Builder, d string, sur pairwise.Surrogate, r, w record, iv []record) {
	main := mainDiagnoses(r)
	first, last := main[0], main[len(main)-1]
	lowShare := math.Inf(1)
	for _, dg := range main {
		if dg.FirstOrder != nil {
			lowShare = min(lowShare, *dg.FirstOrder)
		}
	}
	ivAUC, ivAt := "–", "–"
	if v, ok := recordOf(iv, r.Seed); ok {
		ivAUC, ivAt = fmt.Sprintf("%.3f", v.TestAUC), intervenedAfter(v)
	}
	fmt.Fprintf(b, "| %s, %d | %v | %.3f | %.3f | %s | %.3f → %.3f | %.3f → %.3f | %s → %s | %.2f | %s |\n",
		d, r.Seed, sur, r.TestAUC, w.TestAUC, ivAUC, first.Misranking, last.Misranking,
		first.SevereMass, last.SevereMass, orDash(first.Drift), orDash(last.Drift), lowShare, ivAt)
}

// intervenedAfter is the main epoch after which the "+iv" run v first intervened, "–" when it
// never did.
func intervenedAfter(v record) string {
	for k, dg := range v.Diagnoses {
		if dg.Phase == train.Intervention.String() && k > 0 {
			return strconv.Itoa(v.Diagnoses[k-1].Epoch - v.Warmup)
		}
	}
	return "–"
}

// mainDiagnoses are r's diagnoses of main-phase epochs: neither warm-up nor intervention ones.
func mainDiagnoses(r record) []diag {
	var main []diag
	for _, d := range r.Diagnoses {
		if d.Phase == train.Main.String() {
			main = append(main, d)
		}
	}
	return main
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
