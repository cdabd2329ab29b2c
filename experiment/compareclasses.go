package experiment

import (
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
)

// keyAUCOvR is the key of Figures.TestVsFirst for multi-class and multi-label runs: the
// macro one-vs-rest AUC (label-wise for multi-label data), test_auc_ovr.
const keyAUCOvR = "test_auc_ovr"

// compareClasses sets r.TestVsFirst[keyAUCOvR] for two multi-class or multi-label runs on
// the same test rows, whose labels are labels (class indices, or the row-major n×k 0/1
// label matrix): A(r) − A(first), A the macro one-vs-rest AUC of classMeasurement.OvR of
// the run's test scores, and the 95% percentile interval of metrics.BootstrapRows over
// boot resamples, each drawing the rows within each of the test rows' strata (data.Strata:
// each class; multi-label, each set of labels a row has, so that every label column keeps
// its positives) and scoring both runs on the same drawn rows. Two runs that score every row
// alike get 0 and [0, 0]. r.TestAUCVsFirst stays nil: DeLong's paired test is a binary one.
func compareClasses(r, first *Result, labels []float64, boot int, seed uint64) error {
	m := r.Classes
	k := len(m.Names)
	test := &data.Dataset{Y: labels, Rows: len(labels), Classes: m.Names} // the test rows' labels alone
	if m.Multilabel {
		test.Rows, test.Classes, test.Labels = len(labels)/k, nil, m.Names
	}
	rows, err := test.Strata()
	if err != nil {
		return err
	}
	strata := rows.PerRow()
	a, b := r.TestScores, first.TestScores
	task, w := classTask(k, m.Multilabel), 1 // the task and its labels per row
	if m.Multilabel {
		w = k
	}
	diff := func(rows []int) (float64, error) {
		sa, sb := make([]float64, len(rows)*k), make([]float64, len(rows)*k)
		y := make([]float64, len(rows)*w) // the drawn rows' labels, once for both runs
		for i, from := range rows {
			copy(sa[i*k:(i+1)*k], a[from*k:(from+1)*k])
			copy(sb[i*k:(i+1)*k], b[from*k:(from+1)*k])
			copy(y[i*w:(i+1)*w], labels[from*w:(from+1)*w])
		}
		va, err := metrics.TaskAUC(sa, y, task, metrics.OvR, metrics.Macro)
		if err != nil {
			return 0, err
		}
		vb, err := metrics.TaskAUC(sb, y, task, metrics.OvR, metrics.Macro)
		return va - vb, err
	}
	d, lo, hi, err := metrics.BootstrapRows(strata, diff, boot, 0.95, seed)
	if err != nil {
		return err
	}
	r.TestVsFirst = map[string]Paired{keyAUCOvR: {Diff: d, CI95: Interval{lo, hi}}}
	return nil
}
