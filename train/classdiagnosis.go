package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// noLabelDiagnostics is the ErrTask message of Diagnose on multi-label data.
const noLabelDiagnostics = "Diagnose runs on binary and multi-class data; the multi-label diagnostics (one comparison per label column) are not implemented"

// classDiagnoser runs the multi-class part of a Fit's diagnostics: the comparisons of method
// on the pool's and the selection batch's class indices, with each comparison's composition in
// the training batch.
type classDiagnoser struct {
	k                 int
	method            metrics.Method
	selY, poolY       []int
	quota             []int // rows of each class in a training batch
	batch             int   // rows of a training batch
	selX              []float64
	poolX             []float64
	poolRows, selRows int
}

// newClassDiagnoser returns the multi-class diagnoser of a Fit of loss on train in batches of b
// rows, on the selection batch sel and the logging pool pool drawn from train.
func newClassDiagnoser(loss Loss, train, sel, pool *data.Dataset, b int) *classDiagnoser {
	method := metrics.OvR
	if l, ok := loss.(MulticlassPairwise); ok && l.Config.OvO {
		method = metrics.OvO
	}
	return &classDiagnoser{
		k: len(train.Classes), method: method,
		selY: classIndices(sel), poolY: classIndices(pool),
		quota: classQuotas(classCounts(train), b), batch: b,
		selX: sel.X, poolX: pool.X, selRows: sel.Rows, poolRows: pool.Rows,
	}
}

// composition returns the positives and negatives of comparison c in a training batch.
func (cd *classDiagnoser) composition(c diagnose.Comparison) (int, int) {
	if c.Other < 0 {
		return cd.quota[c.Class], cd.batch - cd.quota[c.Class]
	}
	return cd.quota[c.Class], cd.quota[c.Other]
}

// diagnose measures the multi-class diagnostics of model, whose pool scores are scores, at
// severity m with surrogate s into dg (see Diagnosis).
func (cd *classDiagnoser) diagnose(dg *Diagnosis, model nn.Model, s pairwise.Config, m float64, scores []float64) error {
	k, y := cd.k, cd.poolY
	mis, misMacro, err := diagnose.MulticlassMisranking(scores, k, y, cd.method)
	if err != nil {
		return err
	}
	sev, sevMacro, err := diagnose.MulticlassSevereMass(scores, k, y, cd.method, m)
	if err != nil {
		return err
	}
	bound, boundMacro, err := diagnose.MulticlassCEBound(scores, k, y, cd.method, m)
	if err != nil {
		return err
	}
	dg.Misranking, dg.SevereMass, dg.CEBound = misMacro, sevMacro, boundMacro
	dg.Classes = make([]ClassDiagnosis, k)
	for c := range dg.Classes {
		dg.Classes[c] = ClassDiagnosis{Misranking: mis[c], SevereMass: sev[c], CEBound: bound[c], Drift: math.NaN()}
	}
	dir, err := diagnose.MulticlassSevereDirection(model, cd.selX, k, cd.selY, cd.method, s, m)
	switch {
	case errors.Is(err, diagnose.ErrNoSevere):
		return nil
	case err != nil:
		return err
	}
	dg.SeverePairs = dir.Severe
	p, err := diagnose.ScoreTangents(model, cd.poolX, cd.poolRows, dir.V)
	if err != nil {
		return err
	}
	splits, err := diagnose.MulticlassProject(scores, k, y, p, cd.method, s)
	if err != nil {
		return err
	}
	// Means over the comparisons, and over each class's; a share that is NaN (no variance) is
	// left out of the mean of the shares, as diagnose's multi-class means leave out NaN.
	var drift, vPos, vNeg, vRes, first, share float64
	shares := 0
	classDrift, per := make([]float64, k), make([]int, k)
	for _, sp := range splits {
		bPos, bNeg := cd.composition(sp.Comparison)
		drift += sp.Mean
		vPos += sp.VarPos
		vNeg += sp.VarNeg
		vRes += sp.VarResidual
		first += sp.VarPos/float64(bPos) + sp.VarNeg/float64(bNeg)
		if f := sp.FirstOrderShare(bPos, bNeg); !math.IsNaN(f) {
			share += f
			shares++
		}
		classDrift[sp.Class] += sp.Mean
		per[sp.Class]++
	}
	n := float64(len(splits))
	dg.Drift, dg.VarPos, dg.VarNeg, dg.VarResidual, dg.FirstOrderVar = drift/n, vPos/n, vNeg/n, vRes/n, first/n
	if shares > 0 {
		dg.FirstOrderShare = share / float64(shares)
	}
	for c := range dg.Classes {
		dg.Classes[c].Drift = classDrift[c] / float64(per[c])
	}
	return nil
}

// drawClassDiagnosticSets is drawDiagnosticSets on multi-class data: the selection batch and the
// logging pool stratified by class, class c of n_c rows among N giving a set of n rows
// max(1, round(n·n_c/N)) of them while keeping one for the pool (see DiagnosticSets).
func drawClassDiagnosticSets(train *data.Dataset, nSel, nPool int, seed uint64) (sel, pool *data.Dataset, err error) {
	k := len(train.Classes)
	rows := make([][]int, k)
	for i, y := range train.Y {
		rows[int(y)] = append(rows[int(y)], i)
	}
	counts := make([]int, k)
	for c, r := range rows {
		counts[c] = len(r)
		if len(r) < 2 {
			return nil, nil, fmt.Errorf("%w: class %q has %d training rows; the diagnostics need at least 2 of every class, one for the selection batch and one for the pool",
				ErrClasses, train.Classes[c], len(r))
		}
	}
	if total := nSel + nPool; total > train.Rows {
		nSel = max(k, nSel*train.Rows/total)
		nPool = max(k, train.Rows-nSel)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6469616700)) // "diag", as the binary draw
	for _, r := range rows {
		rng.Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
	}
	// take draws a set of about n rows, keeping keep rows of each class for the sets after it.
	take := func(n, keep int) []int {
		var out []int
		for c, r := range rows {
			q := min(max(1, int(math.Round(float64(n)*float64(counts[c])/float64(train.Rows)))), len(r)-keep)
			out = append(out, r[:q]...)
			rows[c] = r[q:]
		}
		return out
	}
	if sel, err = train.Subset(take(nSel, 1)); err != nil {
		return nil, nil, err
	}
	if pool, err = train.Subset(take(nPool, 0)); err != nil {
		return nil, nil, err
	}
	return sel, pool, nil
}
