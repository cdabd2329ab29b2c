package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// maxPool bounds Diagnose.Pool: the projected pair term costs O(n₊n₋) on the logging pool.
const maxPool = 4096

// maxSelection bounds Diagnose.Selection: finding the severe pairs of the selection batch
// visits every pair, O(n₊n₋).
const maxSelection = 16384

// Diagnose configures the corrective-power diagnostics Fit runs during training (package
// diagnose, after Chen et al., "Pairwise AUC Optimization Needs Corrective Power",
// arXiv 2610.21743). Every zero value is a documented default.
//
// Before the first epoch Fit draws two disjoint, stratified sets of training rows: a selection
// batch, on which the severe-error direction V is computed
// (diagnose.Comparisons.SevereDirection), and a logging pool, on which everything else is
// measured. After every Every-th epoch, after the last one and after every intervention, it
// appends a Diagnosis to History.Diagnoses.
//
// On multi-class data the diagnostics run over the binary comparisons of the training loss
// (package diagnose's multi-class diagnostics): the one-vs-one pairs of classes for a
// MulticlassPairwise loss with OvO, the one-vs-rest comparisons otherwise; on multi-label data
// over the label columns (diagnose's multi-label diagnostics). The two sets hold every class
// or both values of every label (see [DiagnosticSets]); every figure of a Diagnosis is the
// macro mean over the comparisons of the binary figure, Diagnosis.Classes holds each class's or
// label's, and the intervention epochs train the task's cross-entropy (Softmax,
// MultilabelCrossEntropy). Every figure is measured on the model's raw outputs, also after a
// softmax epoch, so that diagnoses of different phases compare: a softmax epoch's Misranking is
// that of its logits, not 1 − its Metric, which ranks their probabilities.
type Diagnose struct {
	// Every diagnoses after epochs Every, 2·Every, … (counting warm-up epochs) and after the
	// last epoch; 0 = 1.
	Every int
	// Severity is M: a pair is severe when f₊ − f₋ < −M; 0 = 1.
	Severity float64
	// Selection is the number of rows of the selection batch, at most 16384; 0 = 256.
	Selection int
	// Pool is the number of rows of the logging pool, at most 4096; 0 = 1024. When the
	// training data hold fewer than Selection + Pool rows, both shrink in proportion.
	Pool int
	// Surrogate defines the pair weights w of the projected term and the severe-pair loss
	// when Config.Loss is not a Pairwise or MulticlassPairwise loss; such a loss's own
	// configuration is used otherwise. The zero value is the logistic surrogate. The
	// diagnostics weigh every pair, so a configuration with a partial-AUC cut (MaxFPR or
	// MinTPR set, here or in the loss's own) is refused with diagnose's rocops.ErrConfig.
	Surrogate pairwise.Config
	// Seed draws the selection batch and the logging pool.
	Seed uint64
	// Intervene, when not nil, applies the diagnose–intervene–recheck protocol; nil only
	// observes.
	Intervene *Intervene
}

// Intervene sets the rule of the diagnose–intervene–recheck protocol (Chen et al., arXiv
// 2610.21743, appendix B.5). The paper names no universal threshold; this rule compares each
// main-phase diagnosis d with the run's own earlier ones. Let p be the latest earlier
// main-phase or recheck diagnosis and D, F the largest drift and first-order variance
// (Diagnosis.FirstOrderVar, VarPos/B₊ + VarNeg/B₋ at the training batch's composition) among
// all of them. Then:
//
//  1. no severe pair in the selection batch, or no earlier diagnosis: continue;
//  2. errors improve, d.SevereMass < (1 − Improve)·p.SevereMass or d.Misranking <
//     (1 − Improve)·p.Misranking, or corrective motion improves, d.Drift > p.Drift +
//     Improve·|p.Drift|: continue;
//  3. both weak, d.Drift ≤ Weak·max(D, 0) and d.FirstOrderVar ≤ Weak·F, and fewer than Max
//     interventions so far: intervene — train Epochs epochs of the task's cross-entropy
//     (Stage Intervention; Softmax on multi-class data), then diagnose again (Decision
//     Rechecked) and resume the main loss;
//  4. otherwise continue.
//
// Intervention epochs come on top of Config.Epochs; the optimiser restarts at every change of
// loss, as after the warm-up.
type Intervene struct {
	// Weak is the fraction of the run's best drift and first-order variance below which both
	// count as weak; 0 = 0.5.
	Weak float64
	// Improve is the relative change that counts as an improvement; 0 = 0.02.
	Improve float64
	// Epochs is the number of cross-entropy epochs per intervention; 0 = 2.
	Epochs int
	// Max is the most interventions per Fit; 0 = 3.
	Max int
}

// Decision is what the protocol decided at a diagnosis.
type Decision int

const (
	// Observed: no rule applied (no Intervene, a warm-up or intervention epoch, or the
	// first main-phase diagnosis).
	Observed Decision = iota
	// Continued: the main loss goes on (see Diagnosis.Reason).
	Continued
	// Intervened: cross-entropy epochs follow.
	Intervened
	// Rechecked: the diagnosis right after an intervention.
	Rechecked
)

func (d Decision) String() string {
	switch d {
	case Continued:
		return "continue"
	case Intervened:
		return "intervene"
	case Rechecked:
		return "recheck"
	}
	return "observe"
}

// Diagnosis is one row of History.Diagnoses: the corrective-power diagnostics after an epoch.
// Misranking, SevereMass and CEBound are measured on the logging pool's scores. Drift, the variance
// parts, FirstOrderVar and FirstOrderShare are those of the projected pair term on the logging pool
// along the severe-error direction V of the selection batch (diagnose.Comparisons.Project); they
// are NaN when the selection batch has no severe pair (SeverePairs = 0). On multi-class data (see
// Diagnose) each figure is the mean over the binary comparisons of the comparison's figure
// (diagnose.Comparisons' Misranking, SevereMass and CEBound; V from its SevereDirection, the
// projections from its Project), each comparison's first-order variance and share taken at its own
// composition in the training batch: class c's rows against the rest of the batch, or against class
// b's rows. On multi-label data the comparisons are the label columns (diagnose.Comparisons of the
// Labels task), column c's composition B₊ = round(1 + (b − 2)·π_c) rows of label 1 of a batch of b,
// π_c the column's share of 1s (exact in expectation for independent labels: the batch's guaranteed
// 1 and 0 of the column, and b − 2 rows at its share), and B₋ = b − B₊.
type Diagnosis struct {
	Epoch           int // the Epoch.Index diagnosed
	Stage           Stage
	Misranking      float64
	SevereMass      float64 // π_M
	CEBound         float64 // (R₊ + R₋)/log(1 + e^{M/2}) ≥ π_M
	Drift           float64 // Split.Mean
	VarPos          float64
	VarNeg          float64
	VarResidual     float64
	FirstOrderVar   float64 // VarPos/B₊ + VarNeg/B₋, B₊ and B₋ the training batch's classes
	FirstOrderShare float64 // Split.FirstOrderShare at the training batch's composition
	SeverePairs     int     // severe pairs in the selection batch (of all comparisons)
	Decision        Decision
	Reason          string // the numbers behind Decision
	// Classes holds, on multi-class data, class c's figures at index c: the means over class c's
	// comparisons (one-vs-rest: its one; one-vs-one: its k − 1 against each other class); on
	// multi-label data label column c's; nil on binary data.
	Classes []ClassDiagnosis
}

// ClassDiagnosis is one class's part of a multi-class Diagnosis: the binary diagnostics of the
// class's comparisons on the logging pool, column c of the scores with class c's rows as
// positives, averaged over the comparisons; or one label column's part of a multi-label one.
// Drift is NaN as Diagnosis.Drift is.
type ClassDiagnosis struct {
	Misranking float64
	SevereMass float64 // π_M
	CEBound    float64 // ≥ π_M
	Drift      float64 // the mean of the comparisons' Split.Mean along V
}

// withDefaults validates d and fills its defaults.
func (d Diagnose) withDefaults() (Diagnose, error) {
	switch {
	case d.Every < 0, d.Selection < 0, d.Pool < 0:
		return d, configError("Diagnose has a negative Every, Selection or Pool: %+v", d)
	case d.Pool > maxPool:
		return d, configError("Diagnose.Pool %d exceeds %d", d.Pool, maxPool)
	case d.Selection > maxSelection:
		return d, configError("Diagnose.Selection %d exceeds %d", d.Selection, maxSelection)
	case !(d.Severity >= 0) || math.IsInf(d.Severity, 0):
		return d, configError("Diagnose.Severity %v is not a finite number ≥ 0", d.Severity)
	}
	if err := d.Surrogate.Validate(); err != nil {
		return d, configError("Diagnose.Surrogate: %v", err)
	}
	if d.Every == 0 {
		d.Every = 1
	}
	if d.Severity == 0 {
		d.Severity = 1
	}
	if d.Selection == 0 {
		d.Selection = 256
	}
	if d.Pool == 0 {
		d.Pool = 1024
	}
	if d.Intervene != nil {
		iv := *d.Intervene
		switch {
		case !(iv.Weak >= 0 && iv.Weak < 1), !(iv.Improve >= 0 && iv.Improve < 1):
			return d, configError("Intervene.Weak %v and Improve %v must be in [0, 1)", iv.Weak, iv.Improve)
		case iv.Epochs < 0, iv.Max < 0:
			return d, configError("Intervene has a negative Epochs or Max: %+v", iv)
		}
		if iv.Weak == 0 {
			iv.Weak = 0.5
		}
		if iv.Improve == 0 {
			iv.Improve = 0.02
		}
		if iv.Epochs == 0 {
			iv.Epochs = 2
		}
		if iv.Max == 0 {
			iv.Max = 3
		}
		if iv.Epochs > MaxEpochs/iv.Max {
			return d, configError("Intervene's Epochs·Max = %d·%d exceeds MaxEpochs = %d", iv.Epochs, iv.Max, MaxEpochs)
		}
		d.Intervene = &iv
	}
	return d, nil
}

// diagnoser runs the diagnostics of one Fit.
type diagnoser struct {
	cfg        Diagnose
	surrogate  pairwise.Config
	model      nn.Model
	sel, pool  *data.Dataset
	bPos, bNeg int // the training batch's composition
	done       int // interventions so far
	pending    int // intervention epochs still to run
	// classes is set on multi-class data.
	classes *classDiagnoser
}

// newDiagnoser returns the diagnoser of a Fit of loss on train in batches of b rows, bPos
// positives and bNeg negatives of them on binary data.
func newDiagnoser(cfg Diagnose, loss Loss, model nn.Model, train *data.Dataset, b, bPos, bNeg int) (*diagnoser, error) {
	d := &diagnoser{cfg: cfg, surrogate: cfg.Surrogate, model: model, bPos: bPos, bNeg: bNeg}
	if l, ok := loss.(Pairwise); ok {
		d.surrogate = l.Config
		d.surrogate.Task, d.surrogate.OvO = rocops.Task{}, false // each comparison's binary loss
	}
	if err := diagnose.CheckSurrogate(d.surrogate); err != nil { // rocops.ErrConfig for a cut
		return nil, fmt.Errorf("train: Config.Diagnose: %w", err)
	}
	var err error
	if d.sel, d.pool, err = drawDiagnosticSets(train, cfg.Selection, cfg.Pool, cfg.Seed); err != nil {
		return nil, err
	}
	d.sel, d.pool = d.sel.Float64(), d.pool.Float64() // diagnose takes float64: widen the small sets only
	if train.Task().Kind() != rocops.Binary {
		d.classes = newClassDiagnoser(loss, train, d.sel, d.pool, b)
	}
	return d, nil
}

// DiagnosticSets returns the selection batch and the logging pool Fit draws from the training
// data for d (after its defaults): two disjoint sets of rows, each with the training data's
// share of positives and at least one row of each class, drawn with d.Seed. With them a
// program can repeat, at any checkpoint, the measurement behind History.Diagnoses (for
// example diagnose.BatchSlope along the same direction). With two rows of a class, each set
// holds one of them. Multi-class data are stratified the same way over its k classes: a set of
// n rows holds max(1, round(n·n_c/N)) rows of class c (of n_c among N), fewer only where the
// class runs out, so about n in all, and each set at least k. In multi-label data each set
// holds a row of label 1 and one of label 0 of every label column, the rest of its n rows drawn
// at random (each label at its share in expectation). Every Fit of the same training
// data and Diagnose (the phases of a recipe among them) draws the same sets. Errors: an invalid
// d (rocops.ErrConfig), fewer than two positives or two negatives in binary train, a class of fewer
// than two rows in multi-class train or a label column with fewer than two of either value in
// multi-label train (ErrClasses).
func DiagnosticSets(train *data.Dataset, d Diagnose) (sel, pool *data.Dataset, err error) {
	if d, err = d.withDefaults(); err != nil {
		return nil, nil, err
	}
	if train == nil {
		return nil, nil, errors.New("train: no training data")
	}
	if err := train.Validate(); err != nil {
		return nil, nil, fmt.Errorf("train: training data: %w", err)
	}
	return drawDiagnosticSets(train, d.Selection, d.Pool, d.Seed)
}

// drawDiagnosticSets draws two disjoint sets of rows of train, each with the training data's
// share of positives and at least one row of each class (within train's strata).
func drawDiagnosticSets(train *data.Dataset, nSel, nPool int, seed uint64) (sel, pool *data.Dataset, err error) {
	if train.Task().Kind() == rocops.Multilabel {
		return drawLabelDiagnosticSets(train, nSel, nPool, seed)
	}
	strata, err := train.Strata()
	if err != nil {
		return nil, nil, fmt.Errorf("train: training data: %w", err)
	}
	if train.Task().Kind() == rocops.Multiclass {
		return drawClassDiagnosticSets(train, strata, nSel, nPool, seed)
	}
	neg, pos := strata[0], strata[1]
	if len(pos) < 2 || len(neg) < 2 {
		return nil, nil, fmt.Errorf("train: diagnostics need at least 2 positives and 2 negatives in the training data, got %d and %d", len(pos), len(neg))
	}
	if total := nSel + nPool; total > train.Rows {
		nSel = max(2, nSel*train.Rows/total)
		nPool = max(2, train.Rows-nSel)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6469616700)) // "diag"
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	share := float64(len(pos)) / float64(train.Rows)
	// take draws a set of n rows, keeping keep rows of each class for the sets after it.
	take := func(n, keep int) []int {
		p := min(max(1, int(math.Round(share*float64(n)))), len(pos)-keep, n-1)
		q := min(n-p, len(neg)-keep)
		rows := append(append([]int(nil), pos[:p]...), neg[:q]...)
		pos, neg = pos[p:], neg[q:]
		return rows
	}
	if sel, err = train.Subset(take(nSel, 1)); err != nil {
		return nil, nil, err
	}
	if pool, err = train.Subset(take(nPool, 0)); err != nil {
		return nil, nil, err
	}
	return sel, pool, nil
}

// diagnose measures the model after epoch ep and applies the protocol; earlier holds the
// earlier diagnoses. It returns the number of intervention epochs to schedule.
func (d *diagnoser) diagnose(ep Epoch, earlier []Diagnosis, recheck bool) (Diagnosis, int, error) {
	m := d.cfg.Severity
	dg := Diagnosis{Epoch: ep.Index, Stage: ep.Stage, Drift: math.NaN(), VarPos: math.NaN(),
		VarNeg: math.NaN(), VarResidual: math.NaN(), FirstOrderVar: math.NaN(), FirstOrderShare: math.NaN()}
	scores, err := nn.Scores(d.model, d.pool.X, d.pool.Rows)
	if err != nil {
		return dg, 0, err
	}
	if d.classes != nil {
		err = d.classes.diagnose(&dg, d.model, d.surrogate, m, scores)
	} else {
		err = d.diagnoseBinary(&dg, scores)
	}
	if err != nil {
		return dg, 0, err
	}
	if recheck {
		dg.Decision, dg.Reason = Rechecked, fmt.Sprintf("after %d cross-entropy epochs", d.cfg.Intervene.Epochs)
		return dg, 0, nil
	}
	switch {
	case d.cfg.Intervene == nil:
		dg.Reason = "no Intervene rule"
		return dg, 0, nil
	case ep.Stage != Main:
		dg.Reason = ep.Stage.String() + " epoch"
		return dg, 0, nil
	}
	extra := d.decide(&dg, earlier)
	return dg, extra, nil
}

// diagnoseBinary measures the binary diagnostics of the pool's scores into dg.
func (d *diagnoser) diagnoseBinary(dg *Diagnosis, scores []float64) error {
	m := d.cfg.Severity
	var binary diagnose.Comparisons // the zero Comparisons: the one binary comparison
	var err error
	if _, dg.Misranking, err = binary.Misranking(scores, d.pool.Y); err != nil {
		return err
	}
	if _, dg.SevereMass, err = binary.SevereMass(scores, d.pool.Y, m); err != nil {
		return err
	}
	if _, dg.CEBound, err = binary.CEBound(scores, d.pool.Y, m); err != nil {
		return err
	}
	dir, err := binary.SevereDirection(d.model, d.sel.X, d.sel.Y, d.surrogate, m)
	switch {
	case errors.Is(err, diagnose.ErrNoSevere):
		return nil
	case err != nil:
		return err
	}
	dg.SeverePairs = dir.Severe
	p, err := diagnose.ScoreTangents(d.model, d.pool.X, d.pool.Rows, dir.V)
	if err != nil {
		return err
	}
	splits, err := binary.Project(scores, d.pool.Y, p, d.surrogate)
	if err != nil {
		return err
	}
	sp := splits[0].Split
	dg.Drift, dg.VarPos, dg.VarNeg, dg.VarResidual = sp.Mean, sp.VarPos, sp.VarNeg, sp.VarResidual
	dg.FirstOrderVar = sp.VarPos/float64(d.bPos) + sp.VarNeg/float64(d.bNeg)
	dg.FirstOrderShare = sp.FirstOrderShare(d.bPos, d.bNeg)
	return nil
}

// decide applies the rule of Intervene to dg and returns the intervention epochs to run.
func (d *diagnoser) decide(dg *Diagnosis, earlier []Diagnosis) int {
	iv := d.cfg.Intervene
	var refs []Diagnosis
	for _, e := range earlier {
		if (e.Stage == Main || e.Decision == Rechecked) && e.SeverePairs > 0 {
			refs = append(refs, e)
		}
	}
	if dg.SeverePairs == 0 {
		dg.Decision, dg.Reason = Continued, "no severe pair in the selection batch"
		return 0
	}
	if len(refs) == 0 {
		dg.Decision, dg.Reason = Observed, "first diagnosis: nothing to compare with"
		return 0
	}
	p := refs[len(refs)-1]
	switch {
	case dg.SevereMass < (1-iv.Improve)*p.SevereMass:
		dg.Decision, dg.Reason = Continued, fmt.Sprintf("severe mass fell from %.4g to %.4g", p.SevereMass, dg.SevereMass)
		return 0
	case dg.Misranking < (1-iv.Improve)*p.Misranking:
		dg.Decision, dg.Reason = Continued, fmt.Sprintf("misranking fell from %.4g to %.4g", p.Misranking, dg.Misranking)
		return 0
	case dg.Drift > p.Drift+iv.Improve*math.Abs(p.Drift):
		dg.Decision, dg.Reason = Continued, fmt.Sprintf("drift rose from %.4g to %.4g", p.Drift, dg.Drift)
		return 0
	}
	bestDrift, bestVar := math.Inf(-1), math.Inf(-1)
	for _, e := range refs {
		bestDrift = max(bestDrift, e.Drift)
		bestVar = max(bestVar, e.FirstOrderVar)
	}
	v := dg.FirstOrderVar
	weak := dg.Drift <= iv.Weak*max(bestDrift, 0) && v <= iv.Weak*bestVar
	numbers := fmt.Sprintf("drift %.4g (best %.4g), first-order variance %.4g (best %.4g)", dg.Drift, bestDrift, v, bestVar)
	switch {
	case !weak:
		dg.Decision, dg.Reason = Continued, "no improvement, but not weak: "+numbers
		return 0
	case d.done >= iv.Max:
		dg.Decision, dg.Reason = Continued, fmt.Sprintf("weak, but %d interventions done: %s", d.done, numbers)
		return 0
	}
	d.done++
	d.pending = iv.Epochs
	dg.Decision, dg.Reason = Intervened, "weak: "+numbers
	return iv.Epochs
}

// diagnose diagnoses epoch ep when it is due: after every Every-th epoch, the last one (last)
// and the last epoch of an intervention. It returns the intervention epochs to add.
func (r *fitRun) diagnose(d *diagnoser, ep Epoch, last bool) (int, error) {
	recheck := ep.Stage == Intervention && d.pending == 0
	if ep.Index%d.cfg.Every != 0 && !last && !recheck {
		return 0, nil
	}
	dg, extra, err := d.diagnose(ep, r.hist.Diagnoses, recheck)
	if err != nil {
		return 0, fmt.Errorf("train: diagnostics after epoch %d: %w", ep.Index, err)
	}
	r.hist.Diagnoses = append(r.hist.Diagnoses, dg)
	return extra, nil
}
