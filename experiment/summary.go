package experiment

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Summary is one run summarised over its seeds: an entry of "results" in roctrain's JSON
// output.
//
// The figures of a single-seed result keep their meaning as means over the seeds. With one
// seed they are that seed's figures, and sd and paired_vs_first are null; with several,
// the single-split intervals, the deployed threshold and the DeLong comparison with the first
// run, which belong to one split and one model, are null here and given in per_seed.
type Summary struct {
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Alpha        float64 `json:"alpha"`
	Seeds        int     `json:"seeds"`
	Figures              // means over the seeds of Result's
	BestEpoch    float64 `json:"best_epoch"`
	// LaterPhaseKept counts the seeds on which the kept weights went through every phase the
	// run trained (Result.KeptPhases = Result.Phases); null for a run of one phase. A count
	// below Seeds means the run fell back to its earlier phase on the other seeds.
	LaterPhaseKept *int `json:"later_phase_kept"`
	// SD holds the sample standard deviations over the seeds (divided by N − 1) of TestAUC,
	// TestPAUC, TestTPR, DeployedTestFPR and DeployedTestTPR, and of TestFPRAtTPR,
	// TestAUCOvR and TestAUCOvO where every seed has them; null with one seed.
	SD *spread `json:"sd"`
	// PairedVsFirst holds, for every run but the first, the mean over the seeds of this run's
	// figure minus the first run's on the same seed, with its 95% paired-t interval.
	PairedVsFirst map[string]Paired `json:"paired_vs_first"`
	PerSeed       []Result          `json:"per_seed"`
	// Diagnostics is the single seed's (-diagnose); with several seeds see per_seed.
	Diagnostics []Diagnosis `json:"diagnostics,omitempty"`

	Name   string `json:"name"`   // the run's name, as Result.Name
	Target string `json:"target"` // as Result.Target
}

// spread is the "sd" object: one standard deviation per figure.
type spread struct {
	TestAUC         float64  `json:"test_auc"`
	TestPAUC        float64  `json:"test_pauc"`
	TestTPR         float64  `json:"test_tpr_at_fpr"`
	TestFPRAtTPR    *float64 `json:"test_fpr_at_tpr,omitempty"`
	TestAUCOvR      *float64 `json:"test_auc_ovr,omitempty"` // multi-class and multi-label data
	TestAUCOvO      *float64 `json:"test_auc_ovo,omitempty"` // multi-class data
	DeployedTestFPR float64  `json:"deployed_test_fpr"`
	DeployedTestTPR float64  `json:"deployed_test_tpr"`
}

// Paired is one figure's paired difference from the first run.
type Paired struct {
	Diff float64  `json:"diff"`
	CI95 Interval `json:"ci95"`
}

// The per-seed figures that are averaged, spread and compared.
var (
	testAUC         = func(r *Result) float64 { return r.TestAUC }
	testPAUC        = func(r *Result) float64 { return r.TestPAUC }
	testTPR         = func(r *Result) float64 { return r.TestTPR }
	deployedTestFPR = func(r *Result) float64 { return r.DeployedTestFPR }
	deployedTestTPR = func(r *Result) float64 { return r.DeployedTestTPR }
)

// figures lists them by JSON key, for the paired differences.
var figures = []struct {
	key string
	get func(*Result) float64
}{
	{"test_auc", testAUC},
	{"test_pauc", testPAUC},
	{"test_tpr_at_fpr", testTPR},
	{"deployed_test_fpr", deployedTestFPR},
	{"deployed_test_tpr", deployedTestTPR},
}

// recallKey is the JSON key of the figure of runs measured at a recall.
const recallKey = "test_fpr_at_tpr"

// recallFigure is the figure of runs measured at a recall, compared like the others when every seed
// has it.
var recallFigure = struct {
	key string
	get func(*Result) float64
}{recallKey, func(r *Result) float64 { return *r.TestFPRAtTPR }}

// The figures of multi-class (OvO) and multi-label data (OvR), compared like the others when
// every seed has them.
var macroFigures = []struct {
	key string
	get func(*Result) float64
}{
	{"test_auc_ovr", func(r *Result) float64 { return *r.TestAUCOvR }},
	{"test_auc_ovo", func(r *Result) float64 { return *r.TestAUCOvO }},
}

// hasClassFigure reports whether every seed result holds class figure k of macroFigures.
func hasClassFigure(rs []*Result, k int) bool {
	for _, p := range rs {
		if k == 0 && p.TestAUCOvR == nil || k == 1 && p.TestAUCOvO == nil {
			return false
		}
	}
	return len(rs) > 0
}

// meanLists is the element-wise mean of the lists get returns for the seeds, nil when a
// seed's list is missing or of another length.
func meanLists(seeds []Result, get func(*Result) []float64) []float64 {
	first := get(&seeds[0])
	if first == nil {
		return nil
	}
	out := make([]float64, len(first))
	for k := range seeds {
		l := get(&seeds[k])
		if len(l) != len(out) {
			return nil
		}
		for c, v := range l {
			out[c] += v / float64(len(seeds))
		}
	}
	return out
}

// hasRecall reports whether every seed result holds the -recall figure.
func hasRecall(rs []Result) bool {
	for k := range rs {
		if rs[k].TestFPRAtTPR == nil {
			return false
		}
	}
	return len(rs) > 0
}

// ptr returns a pointer to x.
func ptr(x float64) *float64 { return &x }

// Summarise turns each run's per-seed results into its summary; runs without any are left
// out. perRun[r] lists run r's seeds in order, and every run but the first is compared with
// the first on the seeds both finished.
func Summarise(perRun [][]Result) []Summary {
	var out []Summary
	var first []Result
	for _, seeds := range perRun {
		if len(seeds) == 0 {
			continue
		}
		s := summariseRun(seeds)
		if first == nil {
			first = seeds
		} else {
			s.PairedVsFirst = pairedDiffs(seeds, first)
		}
		out = append(out, s)
	}
	return out
}

// summariseRun is the summary of one run's seeds, without the paired differences.
func summariseRun(seeds []Result) Summary {
	r0 := seeds[0]
	s := Summary{
		Loss: r0.Loss, WarmupEpochs: r0.WarmupEpochs, Alpha: r0.Alpha, Seeds: len(seeds),
		Figures: Figures{Recall: r0.Recall, DeployedConfidence: r0.DeployedConfidence},
		PerSeed: seeds, Name: r0.Name, Target: r0.Target,
	}
	col := func(get func(*Result) float64) []float64 {
		xs := make([]float64, len(seeds))
		for k := range seeds {
			xs[k] = get(&seeds[k])
		}
		return xs
	}
	s.TestAUC = stat.Mean(col(testAUC), nil)
	s.TestPAUC = stat.Mean(col(testPAUC), nil)
	s.TestTPR = stat.Mean(col(testTPR), nil)
	s.DeployedTestFPR = stat.Mean(col(deployedTestFPR), nil)
	s.DeployedTestTPR = stat.Mean(col(deployedTestTPR), nil)
	s.TrainSeconds = stat.Mean(col(func(r *Result) float64 { return r.TrainSeconds }), nil)
	s.LearningRate = stat.Mean(col(func(r *Result) float64 { return r.LearningRate }), nil)
	s.BestEpoch = stat.Mean(col(func(r *Result) float64 { return float64(r.BestEpoch) }), nil)
	for k := range seeds {
		if seeds[k].Phases > 1 {
			if s.LaterPhaseKept == nil {
				s.LaterPhaseKept = new(int)
			}
			if !seeds[k].fallback() {
				*s.LaterPhaseKept++
			}
		}
	}
	recall := hasRecall(seeds)
	if recall {
		s.TestFPRAtTPR = ptr(stat.Mean(col(recallFigure.get), nil))
	}
	ptrs := make([]*Result, len(seeds))
	for k := range seeds {
		ptrs[k] = &seeds[k]
	}
	hasClass := [2]bool{hasClassFigure(ptrs, 0), hasClassFigure(ptrs, 1)}
	for k, dst := range []**float64{&s.TestAUCOvR, &s.TestAUCOvO} {
		if hasClass[k] {
			*dst = ptr(stat.Mean(col(macroFigures[k].get), nil))
		}
	}
	s.TestClassAUC = meanLists(seeds, func(r *Result) []float64 { return r.TestClassAUC })
	s.TestClassTPR = meanLists(seeds, func(r *Result) []float64 { return r.TestClassTPR })
	s.DeployedClassTestFPR = meanLists(seeds, func(r *Result) []float64 { return r.DeployedClassTestFPR })
	s.DeployedClassTestTPR = meanLists(seeds, func(r *Result) []float64 { return r.DeployedClassTestTPR })
	if len(seeds) == 1 {
		s.TestAUCCI, s.TestPAUCCI, s.TestTPRCI = r0.TestAUCCI, r0.TestPAUCCI, r0.TestTPRCI
		s.DeployedTestFPRCI, s.DeployedTestTPRCI = r0.DeployedTestFPRCI, r0.DeployedTestTPRCI
		s.DeployedClassTestFPRCI, s.DeployedClassTestTPRCI = r0.DeployedClassTestFPRCI, r0.DeployedClassTestTPRCI
		s.DeployedThreshold, s.DeployedThresholds = r0.DeployedThreshold, r0.DeployedThresholds
		s.TestAUCVsFirst, s.TestVsFirst = r0.TestAUCVsFirst, r0.TestVsFirst
		s.Diagnostics = r0.Diagnostics
		return s
	}
	s.SD = &spread{
		TestAUC:         stat.StdDev(col(testAUC), nil),
		TestPAUC:        stat.StdDev(col(testPAUC), nil),
		TestTPR:         stat.StdDev(col(testTPR), nil),
		DeployedTestFPR: stat.StdDev(col(deployedTestFPR), nil),
		DeployedTestTPR: stat.StdDev(col(deployedTestTPR), nil),
	}
	if recall {
		s.SD.TestFPRAtTPR = ptr(stat.StdDev(col(recallFigure.get), nil))
	}
	for k, dst := range []**float64{&s.SD.TestAUCOvR, &s.SD.TestAUCOvO} {
		if hasClass[k] {
			*dst = ptr(stat.StdDev(col(macroFigures[k].get), nil))
		}
	}
	return s
}

// pairedDiffs compares run with first on the seeds both finished: for each figure, the mean
// difference d̄ over the k common seeds and the paired-t interval
//
//	d̄ ± t_{0.975, k−1} · s_d/√k
//
// where s_d is the sample standard deviation of the differences. It is nil with fewer than
// two common seeds.
func pairedDiffs(run, first []Result) map[string]Paired {
	bySeed := make(map[uint64]*Result, len(first))
	for k := range first {
		bySeed[first[k].Seed] = &first[k]
	}
	var mine, theirs []*Result
	for k := range run {
		if f, ok := bySeed[run[k].Seed]; ok {
			mine, theirs = append(mine, &run[k]), append(theirs, f)
		}
	}
	n := len(mine)
	if n < 2 {
		return nil
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	out := make(map[string]Paired, len(figures)+1)
	compared := figures
	if hasRecall(run) && hasRecall(first) {
		compared = append(compared[:len(compared):len(compared)], recallFigure)
	}
	for k, f := range macroFigures {
		if hasClassFigure(mine, k) && hasClassFigure(theirs, k) {
			compared = append(compared[:len(compared):len(compared)], f)
		}
	}
	for _, f := range compared {
		d := make([]float64, n)
		for k := range d {
			d[k] = f.get(mine[k]) - f.get(theirs[k])
		}
		m, half := stat.Mean(d, nil), t*stat.StdDev(d, nil)/math.Sqrt(float64(n))
		out[f.key] = Paired{Diff: m, CI95: Interval{m - half, m + half}}
	}
	return out
}
