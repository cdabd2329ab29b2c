package rocbeam

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
)

func init() {
	register.DoFn4x1[context.Context, []byte, func(*int64, *Block) bool, func(*string, *string) bool, error](&classReportFn{})
}

// The scores of a multi-class model of k classes are counted in k×k tables: table (i, l)
// counts, per distinct score, the rows of class l by their score of class i (in Block.Pos).
// Class i's one-vs-rest curve takes table (i, i) as its positives and the tables (i, l), l ≠ i,
// as its negatives; Hand and Till's one-vs-one A(i | j) takes (i, i) against (i, j). So every
// per-class, macro one-vs-rest and one-vs-one figure comes from the tables exactly, as from the
// rows. A table's blocks are keyed by table·2^bucketBits + bucket.

// classTally counts a multi-class model's scored rows into its k×k tables.
type classTally struct {
	classes []string
	index   map[string]int
	tables  []tally // tables[i·k + l]
	scores  []float64
}

func newClassTally(classes []string) *classTally {
	c := &classTally{classes: classes, index: make(map[string]int, len(classes)), tables: make([]tally, len(classes)*len(classes))}
	for i, name := range classes {
		c.index[name] = i
	}
	return c
}

// header checks the scored header row,<label>,score_c…,flag_c… and sets *labelCol to the
// label's column, −1 when the rows have no label.
func (c *classTally) header(names []string, labelCol *int) error {
	k := len(c.classes)
	want := []string{"row"}
	for _, p := range []string{"score_", "flag_"} {
		for _, name := range c.classes {
			want = append(want, p+name)
		}
	}
	switch {
	case slices.Equal(names, want):
		*labelCol = -1
	case len(names) == 2+2*k && slices.Equal(append([]string{names[0]}, names[2:]...), want):
		*labelCol = 1
	default:
		return fmt.Errorf("rocbeam: the scored header %q is not row,<label>,score_<class>…,flag_<class>…", strings.Join(names, ","))
	}
	return nil
}

// line counts one scored line: its class (column labelCol) and its k scores.
func (c *classTally) line(l []byte, labelCol int) error {
	rec, err := csv.NewReader(bytes.NewReader(l)).Read()
	k := len(c.classes)
	if err != nil || len(rec) != 2+2*k {
		return fmt.Errorf("rocbeam: scored line %q: not %d fields", l, 2+2*k)
	}
	class, ok := c.index[rec[labelCol]]
	if !ok {
		return fmt.Errorf("%w: scored line %q: %q is not a class of the model", rocops.ErrLabel, l, rec[labelCol])
	}
	c.scores = c.scores[:0]
	for _, f := range rec[2 : 2+k] {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return fmt.Errorf("rocbeam: scored line %q: %w", l, err)
		}
		c.scores = append(c.scores, x)
	}
	for i, x := range c.scores {
		c.tables[i*k+class].add(x, 1)
	}
	return nil
}

// full reports whether a table should be flushed.
func (c *classTally) full() bool {
	return slices.ContainsFunc(c.tables, func(t tally) bool { return t.full() })
}

// flush emits every table's blocks, keyed by table.
func (c *classTally) flush(emit func(int64, Block)) {
	for t := range c.tables {
		c.tables[t].flush(func(key int64, b Block) { emit(int64(t)<<bucketBits|key, b) })
	}
}

// reportClasses merges the blocks of a multi-class model's tables and writes metrics.json.
func reportClasses(s beam.Scope, cfg Config, blocks, headers beam.PCollection, classes []string, thresholds []float64) {
	merged := beam.CombinePerKey(s, &mergeFn{}, blocks)
	fn := &classReportFn{Glob: cfg.Scores, Output: cfg.Output, Alpha: cfg.Alpha, Label: cfg.Label, Classes: classes}
	for _, t := range thresholds {
		fn.Thresholds = append(fn.Thresholds, strconv.FormatFloat(t, 'g', -1, 64)) // JSON has no +Inf
	}
	beam.ParDo0(s, fn, beam.Impulse(s), beam.SideInput{Input: merged}, beam.SideInput{Input: headers})
}

// classReportFn is reportFn for a multi-class model.
type classReportFn struct {
	Glob, Output, Label string
	Alpha               float64
	Classes, Thresholds []string
}

// ProcessElement runs once, on the impulse.
func (f *classReportFn) ProcessElement(ctx context.Context, _ []byte, blocks func(*int64, *Block) bool, headers func(*string, *string) bool) error {
	r := &reportFn{OptionalLabel: f.Label}
	firstHeader, first, err := r.sameHeaders(headers)
	if err != nil {
		return err
	}
	if !slices.Contains(strings.Split(firstHeader, ","), f.Label) {
		logger.Printf("rocbeam: %s has no label column %q: rows scored, not evaluated (no metrics.json)", first, f.Label)
		return nil
	}
	k := len(f.Classes)
	tables := make([][]metrics.ScoreCount, k*k)
	var key int64
	var b Block
	for blocks(&key, &b) {
		t := int(key >> bucketBits)
		for j, x := range b.Scores {
			tables[t] = append(tables[t], metrics.ScoreCount{Score: x, Pos: b.Pos[j]})
		}
	}
	alpha := f.Alpha
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	thresholds := make([]float64, k)
	for c, s := range f.Thresholds {
		if thresholds[c], err = strconv.ParseFloat(s, 64); err != nil {
			return fmt.Errorf("rocbeam: threshold %q: %w", s, err)
		}
	}
	rep, err := SummarizeClasses(f.Classes, tables, alpha, thresholds)
	if errors.Is(err, rocops.ErrEmpty) {
		return fmt.Errorf("%w in %s", ErrEmpty, f.Glob)
	}
	if err != nil {
		return fmt.Errorf("rocbeam: %s: %w", f.Glob, err)
	}
	return writeJSON(ctx, f.Output, "metrics.json", rep)
}

// ClassReport is one class's one-vs-rest figures in metrics.json: the class's rows the
// positives, every other row the negatives, its deployed point the model's threshold of
// that class.
type ClassReport struct {
	Class string `json:"class"`
	Report
}

// SummarizeClasses computes the Report of a multi-class model from its k×k count tables
// (tables[i·k + l]: the rows of class l counted by their score of class i, in Pos), at
// false-positive rate alpha, with the per-class thresholds: each class's one-vs-rest figures
// (Classes), and at the top their macro means — the AUC (metrics.TaskAUC with OvR and Macro),
// the TPR at FPR α, the partial AUC and the deployed rates — and Hand and Till's macro
// one-vs-one AUC (AUCOvO, metrics.TaskAUC with OvO and Macro). The top Positives, AUCVariance,
// AUCCI95, DeployedThreshold and ROC are left zero or null: they are per class. A class without
// rows is an error.
func SummarizeClasses(classes []string, tables [][]metrics.ScoreCount, alpha float64, thresholds []float64) (Report, error) {
	k := len(classes)
	if len(tables) != k*k || len(thresholds) != k {
		return Report{}, fmt.Errorf("%d tables and %d thresholds for %d classes", len(tables), len(thresholds), k)
	}
	var rep Report
	rep.Alpha = alpha
	for i := range k {
		var counts []metrics.ScoreCount
		for l := range k {
			for _, c := range tables[i*k+l] {
				if l != i {
					c.Pos, c.Neg = 0, c.Pos
				}
				counts = append(counts, c)
			}
		}
		curve, err := metrics.NewCurveFromCounts(counts)
		if err != nil {
			return Report{}, fmt.Errorf("class %q: %w", classes[i], err)
		}
		r, err := Summarize(curve, alpha, &thresholds[i])
		if err != nil {
			return Report{}, fmt.Errorf("class %q: %w", classes[i], err)
		}
		rep.Classes = append(rep.Classes, ClassReport{Class: classes[i], Report: r})
		rep.N = r.N
	}
	mean := func(get func(r *Report) float64) float64 {
		var s float64
		for c := range rep.Classes {
			s += get(&rep.Classes[c].Report)
		}
		return s / float64(k)
	}
	rep.AUC = mean(func(r *Report) float64 { return r.AUC })
	rep.TPRAtFPR = mean(func(r *Report) float64 { return r.TPRAtFPR })
	rep.PAUC = mean(func(r *Report) float64 { return r.PAUC })
	fpr, tpr := mean(func(r *Report) float64 { return *r.DeployedFPR }), mean(func(r *Report) float64 { return *r.DeployedTPR })
	rep.DeployedFPR, rep.DeployedTPR = &fpr, &tpr
	var ovo float64
	for i := range k {
		for j := i + 1; j < k; j++ {
			aij, err := pairAUC(tables[i*k+i], tables[i*k+j])
			if err != nil {
				return Report{}, fmt.Errorf("classes %q and %q: %w", classes[i], classes[j], err)
			}
			aji, err := pairAUC(tables[j*k+j], tables[j*k+i])
			if err != nil {
				return Report{}, fmt.Errorf("classes %q and %q: %w", classes[j], classes[i], err)
			}
			ovo += (aij + aji) / 2
		}
	}
	ovo *= 2 / float64(k*(k-1))
	if k < 2 || math.IsNaN(ovo) {
		return Report{}, fmt.Errorf("%d classes: no pair to compare", k)
	}
	rep.AUCOvO = &ovo
	return rep, nil
}

// pairAUC is the AUC of the rows counted in pos against those counted in neg (both in Pos).
func pairAUC(pos, neg []metrics.ScoreCount) (float64, error) {
	counts := slices.Clone(pos)
	for _, c := range neg {
		counts = append(counts, metrics.ScoreCount{Score: c.Score, Neg: c.Pos})
	}
	curve, err := metrics.NewCurveFromCounts(counts)
	if err != nil {
		return 0, err
	}
	return curve.AUC(), nil
}
