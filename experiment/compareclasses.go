package experiment

import (
	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
)

// keyAUCOvR is the key of Figures.TestVsFirst for multi-class and multi-label runs: the
// macro one-vs-rest AUC (label-wise for multi-label data), test_auc_ovr.
const keyAUCOvR = "test_auc_ovr"

// The keys of the paired comparisons of multi-class and multi-label runs beyond keyAUCOvR.
const (
	keyAUCOvO      = "test_auc_ovo"
	keyDeployedFPR = "deployed_test_fpr"
)

// classStat is a figure of a multi-class or multi-label run read on drawn rows: scores n×k,
// labels y (class indices, or n×k 0/1), and m the run's measurement (its thresholds).
type classStat func(m *classMeasurement, scores, y []float64) (float64, error)

// classStats are the figures compareClasses compares, by key: the macro one-vs-rest AUC, the
// macro one-vs-one AUC (multi-class only), and the macro means over the classes of the
// one-vs-rest partial AUC and TPR at FPR α and of the deployed TPR and FPR, each class's
// threshold held fixed at the one chosen on validation.
func classStats(k int, multilabel bool, alpha float64) []struct {
	key  string
	stat classStat
} {
	task := classTask(k, multilabel)
	auc := func(ctype metrics.Method) classStat {
		return func(_ *classMeasurement, s, y []float64) (float64, error) {
			return metrics.TaskAUC(s, y, task, ctype, metrics.Macro)
		}
	}
	perClass := func(f func(c *classFigures, s, y []float64) (float64, error)) classStat {
		return func(m *classMeasurement, s, y []float64) (float64, error) {
			ds := &data.Dataset{Y: y, Rows: len(s) / k, Classes: m.Names}
			if multilabel {
				ds.Classes, ds.Labels = nil, m.Names
			}
			var sum float64
			for c := range k {
				v, err := f(&m.Class[c], column(s, k, c), indicator(ds, c))
				if err != nil {
					return 0, err
				}
				sum += v
			}
			return sum / float64(k), nil
		}
	}
	rates := func(fpr bool) classStat {
		return perClass(func(c *classFigures, s, y []float64) (float64, error) {
			var flagged, n float64
			want := 1.0
			if fpr {
				want = 0
			}
			for i, v := range s {
				if y[i] == want {
					n++
					if v >= c.Threshold {
						flagged++
					}
				}
			}
			if n == 0 {
				return 0, rocops.ErrOneClass
			}
			return flagged / n, nil
		})
	}
	stats := []struct {
		key  string
		stat classStat
	}{{keyAUCOvR, auc(metrics.OvR)}}
	if !multilabel {
		stats = append(stats, struct {
			key  string
			stat classStat
		}{keyAUCOvO, auc(metrics.OvO)})
	}
	if alpha > 0 {
		stats = append(stats, []struct {
			key  string
			stat classStat
		}{
			{keyPAUC, perClass(func(_ *classFigures, s, y []float64) (float64, error) { return metrics.PartialAUC(s, y, alpha) })},
			{keyTPR, perClass(func(_ *classFigures, s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, alpha) })},
			{keyDeployedTPR, rates(false)},
			{keyDeployedFPR, rates(true)},
		}...)
	}
	return stats
}

// drawn returns the scores (k a row) and labels (w a row) of the rows drawn.
func drawn(scores, labels []float64, k, w int, rows []int) (s, y []float64) {
	s, y = make([]float64, len(rows)*k), make([]float64, len(rows)*w)
	for i, from := range rows {
		copy(s[i*k:(i+1)*k], scores[from*k:(from+1)*k])
		copy(y[i*w:(i+1)*w], labels[from*w:(from+1)*w])
	}
	return s, y
}

// testStrata are the strata of the test rows whose labels are labels, for a measurement of
// the names (data.Strata: each class; multi-label, each set of labels a row has, so that every
// label column keeps its positives).
func testStrata(labels []float64, names []string, multilabel bool) ([]int, error) {
	test := &data.Dataset{Y: labels, Rows: len(labels), Classes: names} // the test rows' labels alone
	if multilabel {
		test.Rows, test.Classes, test.Labels = len(labels)/len(names), nil, names
	}
	rows, err := test.Strata()
	if err != nil {
		return nil, err
	}
	return rows.PerRow(), nil
}

// compareClasses sets r.TestVsFirst for two multi-class or multi-label runs on the same test
// rows, whose labels are labels (class indices, or the row-major n×k 0/1 label matrix): for
// each figure of classStats, F(r) − F(first) and the 95% percentile interval of
// metrics.BootstrapRows over boot resamples, each drawing the rows within each of the test
// rows' strata and scoring both runs on the same drawn rows (the same resamples for every
// figure). Two runs that score every row alike get 0 and [0, 0]. r.TestAUCVsFirst stays nil:
// DeLong's paired test is a binary one.
func compareClasses(r, first *Result, labels []float64, alpha float64, boot int, seed uint64) error {
	m := r.Classes
	k := len(m.Names)
	strata, err := testStrata(labels, m.Names, m.Multilabel)
	if err != nil {
		return err
	}
	w := 1 // labels per row
	if m.Multilabel {
		w = k
	}
	r.TestVsFirst = map[string]Paired{}
	for _, f := range classStats(k, m.Multilabel, alpha) {
		diff := func(rows []int) (float64, error) {
			sa, y := drawn(r.TestScores, labels, k, w, rows)
			sb, _ := drawn(first.TestScores, labels, k, w, rows)
			va, err := f.stat(m, sa, y)
			if err != nil {
				return 0, err
			}
			vb, err := f.stat(first.Classes, sb, y)
			return va - vb, err
		}
		d, lo, hi, err := metrics.BootstrapRows(strata, diff, boot, 0.95, seed)
		if err != nil {
			return err
		}
		r.TestVsFirst[f.key] = Paired{Diff: d, CI95: Interval{lo, hi}}
	}
	return nil
}

// aucIntervals sets the 95% percentile bootstrap intervals of m's macro AUCs (one-vs-rest,
// and one-vs-one for multi-class data) on the test rows whose labels are labels: boot
// resamples drawn within the test rows' strata, as compareClasses draws them.
func (m *classMeasurement) aucIntervals(labels []float64, boot int, seed uint64) error {
	k := len(m.Names)
	strata, err := testStrata(labels, m.Names, m.Multilabel)
	if err != nil {
		return err
	}
	w := 1
	if m.Multilabel {
		w = k
	}
	stats := classStats(k, m.Multilabel, 0)
	dst := []**Interval{&m.OvRCI, &m.OvOCI}
	for j, f := range stats {
		stat := func(rows []int) (float64, error) {
			s, y := drawn(m.TestScores, labels, k, w, rows)
			return f.stat(m, s, y)
		}
		_, lo, hi, err := metrics.BootstrapRows(strata, stat, boot, 0.95, seed)
		if err != nil {
			return err
		}
		*dst[j] = &Interval{lo, hi}
	}
	return nil
}
