package train

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// classDiagnoser runs the multi-class or multi-label part of a Fit's diagnostics: the binary
// comparisons of cmp on the labels of the pool and the selection batch, the classes or the label
// columns, with each comparison's composition in the training batch.
type classDiagnoser struct {
	k          int
	multilabel bool
	cmp        diagnose.Comparisons
	sel, pool  *data.Dataset
	quota      []int // rows of each class, or positives of each label column, in a training batch
	batch      int   // rows of a training batch
}

// newClassDiagnoser returns the multi-class or multi-label diagnoser of a Fit of loss on train
// in batches of b rows, on the selection batch sel and the logging pool pool drawn from train.
func newClassDiagnoser(loss Loss, train, sel, pool *data.Dataset, b int) *classDiagnoser {
	cd := &classDiagnoser{k: train.Task().K(), sel: sel, pool: pool, batch: b, cmp: diagnose.Comparisons{Task: train.Task()}}
	if train.Task().Kind() == rocops.Multilabel {
		cd.multilabel, cd.quota = true, labelQuotas(train, b)
		return cd
	}
	if l, ok := loss.(Pairwise); ok && l.Config.OvO {
		cd.cmp.OvO = true
	}
	cd.quota = classQuotas(classCounts(train), b)
	return cd
}

// labelQuotas returns the positives B₊_c = round(1 + (b − 2)·π_c) of each label column c in a
// multi-label batch of b rows, π_c the column's share of 1s: newLabelSampler's row of label 1
// for the column, its row of label 0, and the other b − 2 rows counted at the column's share
// (exact in expectation when the labels are independent). It lies in [1, b − 1].
func labelQuotas(ds *data.Dataset, b int) []int {
	k := len(ds.Labels)
	q := make([]int, k)
	pos := make([]int, k)
	for i, y := range ds.Y {
		if y == 1 {
			pos[i%k]++
		}
	}
	for c, p := range pos {
		q[c] = min(b-1, int(math.Round(1+float64(b-2)*float64(p)/float64(ds.Rows))))
	}
	return q
}

// composition returns the positives and negatives of comparison c in a training batch.
func (cd *classDiagnoser) composition(c diagnose.Comparison) (int, int) {
	if c.Other < 0 {
		return cd.quota[c.Class], cd.batch - cd.quota[c.Class]
	}
	return cd.quota[c.Class], cd.quota[c.Other]
}

// diagnose measures the multi-class or multi-label diagnostics of model, whose pool scores are
// scores, at severity m with surrogate s into dg (see Diagnosis).
func (cd *classDiagnoser) diagnose(dg *Diagnosis, model nn.Model, s pairwise.Config, m float64, scores []float64) error {
	k := cd.k
	mis, misMacro, err := cd.cmp.Misranking(scores, cd.pool.Y)
	if err != nil {
		return err
	}
	sev, sevMacro, err := cd.cmp.SevereMass(scores, cd.pool.Y, m)
	if err != nil {
		return err
	}
	bound, boundMacro, err := cd.cmp.CEBound(scores, cd.pool.Y, m)
	if err != nil {
		return err
	}
	dg.Misranking, dg.SevereMass, dg.CEBound = misMacro, sevMacro, boundMacro
	dg.Classes = make([]ClassDiagnosis, k)
	for c := range dg.Classes {
		dg.Classes[c] = ClassDiagnosis{Misranking: mis[c], SevereMass: sev[c], CEBound: bound[c], Drift: math.NaN()}
	}
	dir, err := cd.cmp.SevereDirection(model, cd.sel.X, cd.sel.Y, s, m)
	switch {
	case errors.Is(err, diagnose.ErrNoSevere):
		return nil
	case err != nil:
		return err
	}
	dg.SeverePairs = dir.Severe
	p, err := diagnose.ScoreTangents(model, cd.pool.X, cd.pool.Rows, dir.V)
	if err != nil {
		return err
	}
	splits, err := cd.cmp.Project(scores, cd.pool.Y, p, s)
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
// max(1, round(n·n_c/N)) of them while keeping one for the pool (see DiagnosticSets). rows are
// train's strata (the rows of each class), permuted in place.
func drawClassDiagnosticSets(train *data.Dataset, rows data.Strata, nSel, nPool int, seed uint64) (sel, pool *data.Dataset, err error) {
	k := len(train.Classes)
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

// drawLabelDiagnosticSets is drawDiagnosticSets on multi-label data: every set holds a row of
// label 1 and one of label 0 of every label column, the rest drawn at random from the rows
// left (so at each label's share in expectation), about n rows in all (see DiagnosticSets).
func drawLabelDiagnosticSets(train *data.Dataset, nSel, nPool int, seed uint64) (sel, pool *data.Dataset, err error) {
	k := len(train.Labels)
	type need struct{ c, v, rows int } // label c's value v, held by rows rows
	var needs []need
	for c := range k {
		pos := 0
		for i := range train.Rows {
			pos += int(train.Y[i*k+c])
		}
		if pos < 2 || train.Rows-pos < 2 {
			return nil, nil, fmt.Errorf("%w: label %q has %d rows of label 1 and %d of label 0; the diagnostics need at least 2 of each, one for the selection batch and one for the pool",
				ErrClasses, train.Labels[c], pos, train.Rows-pos)
		}
		needs = append(needs, need{c, 0, train.Rows - pos}, need{c, 1, pos})
	}
	if total := nSel + nPool; total > train.Rows {
		nSel = max(2, nSel*train.Rows/total)
		nPool = max(2, train.Rows-nSel)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6469616700)) // "diag", as the binary draw
	order := rng.Perm(train.Rows)
	used := make([]bool, train.Rows)
	type set struct {
		rows []int
		has  [][2]bool
	}
	add := func(s *set, r int) {
		used[r] = true
		s.rows = append(s.rows, r)
		for c := range k {
			s.has[c][int(train.Y[r*k+c])] = true
		}
	}
	ps, ss := &set{has: make([][2]bool, k)}, &set{has: make([][2]bool, k)}
	// Cover the rarest values first, the pool and then the selection batch each taking the first
	// unused row of a value it lacks. Two rows of every value do not always suffice (three labels
	// on four rows can pair every row with every other), so a value left without a row is an
	// error.
	slices.SortStableFunc(needs, func(a, b need) int { return cmp.Compare(a.rows, b.rows) })
	for _, nd := range needs {
		for j, s := range []*set{ps, ss} {
			if s.has[nd.c][nd.v] {
				continue
			}
			i := slices.IndexFunc(order, func(r int) bool { return !used[r] && int(train.Y[r*k+nd.c]) == nd.v })
			if i < 0 {
				return nil, nil, fmt.Errorf("%w: drawing a logging pool and a selection batch that each hold both values of every label left no row of label %q = %d for the %s",
					ErrClasses, train.Labels[nd.c], nd.v, [...]string{"pool", "selection batch"}[j])
			}
			add(s, order[i])
		}
	}
	// fill adds unused rows, in order, until s holds n.
	fill := func(s *set, n int) {
		for _, r := range order {
			if len(s.rows) >= n {
				break
			}
			if !used[r] {
				add(s, r)
			}
		}
	}
	fill(ss, nSel)
	fill(ps, nPool)
	if sel, err = train.Subset(ss.rows); err != nil {
		return nil, nil, err
	}
	if pool, err = train.Subset(ps.rows); err != nil {
		return nil, nil, err
	}
	return sel, pool, nil
}
