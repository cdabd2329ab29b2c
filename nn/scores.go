package nn

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/opkit"
)

// scoreChunk is the most rows Scores evaluates at once; it bounds the memory of the
// intermediate activations.
const scoreChunk = 4096

// Scores returns m's score for each row of x, which holds rows examples of m.InputSize() finite
// features, one example after the other (row-major); for a model of k ≥ 2 outputs (see [Outputs])
// it returns rows·k scores, row i's k scores at [i·k, (i+1)·k). The features may be held in
// float64 or in float32 (such as a data.Dataset's X32): each chunk is copied into the model's
// input as it is scored, so float32 features are never widened whole, and their scores equal
// those of the same features widened to float64, bit for bit. It evaluates at most 4096 rows at
// a time, through a [Pass] for an MLP and through a Gorgonia graph for other models. It reads
// m's parameters, so it must not run concurrently with a solver step on m. To score repeatedly
// (validation after every epoch, serving) keep a [Scorer] and call [ScoresWith] instead.
//
// A non-finite feature, a length of x that is not rows·InputSize (rows ≥ 1), or a model that is
// nil or does not match x, is ErrInput. A float64 feature beyond the range of a float32 model
// (float32 holds magnitudes up to about 3.4e38) and a score that overflows to ±Inf are
// [rocops.ErrRange], naming the row: Scores never returns a non-finite score.
func Scores[T float32 | float64](m Model, x []T, rows int) ([]float64, error) {
	s, err := NewScorer(m)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return ScoresWith(s, x, rows)
}

// Scorer scores rows with one model ([ScoresWith]) and keeps what it builds for that — the
// passes or graphs for the full 4096-row chunks and for the last, shorter chunk size — across
// calls, so that scoring the same data again builds nothing again. It reads the model's
// parameters at every call, so it sees updates made in between. Close releases it. A Scorer
// is not safe for concurrent use.
type Scorer struct {
	m          Model
	full, tail evaluator // for chunks of scoreChunk rows and of tail.rows() rows
}

// evaluator scores a fixed number of rows.
type evaluator interface {
	rows() int
	// input returns the input matrix, to be filled before score.
	input() *tensor.Dense
	// score writes the scores of the rows in the input to out.
	score(out []float64) error
	close()
}

// NewScorer returns a Scorer of m.
func NewScorer(m Model) (*Scorer, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil model", ErrInput)
	}
	if dt := m.Dtype(); dt != tensor.Float64 && dt != tensor.Float32 {
		return nil, fmt.Errorf("%w: model dtype %v (want float32 or float64)", ErrInput, dt)
	}
	return &Scorer{m: m}, nil
}

// CheckInput reports whether x, features held in float64 or float32, holds rows rows of m's
// features that m can take: rows ≥ 1 and rows·InputSize finite values (else ErrInput), and for
// a float32 model none beyond float32's range (else [rocops.ErrRange]; float32 features never
// are). The error names the first bad row and feature. It is the check [Scores] makes first.
func CheckInput[T float32 | float64](m Model, x []T, rows int) error {
	if m == nil {
		return fmt.Errorf("%w: nil model", ErrInput)
	}
	return checkInput(m, x, rows)
}

func checkInput[T floats.Float](m Model, x []T, rows int) error {
	in := m.InputSize()
	// len(x)/in, not rows·in, which overflows for rows near MaxInt/in.
	if rows <= 0 || in <= 0 || len(x)%in != 0 || len(x)/in != rows {
		return fmt.Errorf("%w: %d values for %d rows of %d features", ErrInput, len(x), rows, in)
	}
	f32 := m.Dtype() == tensor.Float32
	// Every |v| ≤ bound passes both tests below (NaN fails the comparison), so the exact tests
	// run only from the first value past it: one comparison per value in the common case.
	bound := math.MaxFloat64
	if f32 {
		bound = math.MaxFloat32
	}
	first := len(x)
	for i, v := range x {
		if !(math.Abs(float64(v)) <= bound) {
			first = i
			break
		}
	}
	for i := first; i < len(x); i++ {
		v := float64(x[i])
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: row %d, feature %d is %v", ErrInput, i/in, i%in, v)
		}
		if f32 && !floats.Fits[float32](v) {
			return check.Errorf("nn", rocops.ErrRange, "row %d, feature %d is %g, beyond float32", i/in, i%in, v)
		}
	}
	return nil
}

// ScoresWith returns the scores of s's model for each row of x, features held in float64 or
// float32, as [Scores] does, reusing what s built for earlier calls.
func ScoresWith[T float32 | float64](s *Scorer, x []T, rows int) ([]float64, error) {
	if s == nil || s.m == nil {
		return nil, fmt.Errorf("%w: nil scorer", ErrInput)
	}
	return scoreRows(s, x, rows)
}

func scoreRows[T floats.Float](s *Scorer, x []T, rows int) ([]float64, error) {
	if err := checkInput(s.m, x, rows); err != nil {
		return nil, err
	}
	in, k := s.m.InputSize(), Outputs(s.m)
	if rows > math.MaxInt/k {
		return nil, fmt.Errorf("%w: %d rows of %d scores each overflow a slice", ErrInput, rows, k)
	}
	out := make([]float64, rows*k)
	for start := 0; start < rows; start += scoreChunk {
		n := min(scoreChunk, rows-start)
		ev, err := s.evaluator(n)
		if err != nil {
			return nil, err
		}
		copyInto(ev.input(), x[start*in:(start+n)*in])
		if err := ev.score(out[start*k : (start+n)*k]); err != nil {
			return nil, err
		}
	}
	for i, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, check.Errorf("nn", rocops.ErrRange, "the score of row %d is %v in %v", i/k, v, s.m.Dtype())
		}
	}
	return out, nil
}

// Close releases the scorer's machines. The scorer must not be used afterwards.
func (s *Scorer) Close() {
	for _, ev := range []evaluator{s.full, s.tail} {
		if ev != nil {
			ev.close()
		}
	}
	s.full, s.tail = nil, nil
}

// evaluator returns the evaluator for n rows, building it on first use.
func (s *Scorer) evaluator(n int) (evaluator, error) {
	slot := &s.tail
	if n == scoreChunk {
		slot = &s.full
	}
	if *slot != nil && (*slot).rows() == n {
		return *slot, nil
	}
	if *slot != nil {
		(*slot).close()
		*slot = nil
	}
	ev, err := newEvaluator(s.m, n)
	if err != nil {
		return nil, err
	}
	*slot = ev
	return ev, nil
}

// newEvaluator returns a Pass for nn's own networks and a graph for other models.
func newEvaluator(m Model, rows int) (evaluator, error) {
	p, err := NewPass(m, rows)
	switch {
	case err == nil:
		return passEvaluator{p}, nil
	case !errors.Is(err, ErrNoPass):
		return nil, err
	}
	return newGraphEvaluator(m, rows)
}

// passEvaluator scores through a Pass.
type passEvaluator struct{ p *Pass }

func (e passEvaluator) rows() int            { return e.p.Rows() }
func (e passEvaluator) close()               {}
func (e passEvaluator) input() *tensor.Dense { return e.p.Input() }
func (e passEvaluator) score(out []float64) error {
	copy(out, e.p.Forward())
	return nil
}

// graphEvaluator is a forward-only graph of a model for batches of a fixed number of rows.
type graphEvaluator struct {
	n      int
	in     *tensor.Dense // the input node's value, refilled by every call
	scores *gorgonia.Node
	vm     gorgonia.VM
}

func newGraphEvaluator(m Model, rows int) (*graphEvaluator, error) {
	g := gorgonia.NewGraph()
	dt := m.Dtype()
	in := tensor.New(tensor.Of(dt), tensor.WithShape(rows, m.InputSize()))
	x := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, m.InputSize()), gorgonia.WithName("x"), gorgonia.WithValue(in))
	scores, _, err := m.Build(g, x)
	if err != nil {
		return nil, err
	}
	want := tensor.Shape{rows}
	if k := Outputs(m); k > 1 {
		want = tensor.Shape{rows, k}
	}
	if scores == nil || !scores.Shape().Eq(want) {
		return nil, fmt.Errorf("%w: the model's Build gave no scores of shape %v", ErrInput, want)
	}
	return &graphEvaluator{n: rows, in: in, scores: scores, vm: gorgonia.NewTapeMachine(g)}, nil
}

func (e *graphEvaluator) rows() int            { return e.n }
func (e *graphEvaluator) close()               { e.vm.Close() }
func (e *graphEvaluator) input() *tensor.Dense { return e.in }

func (e *graphEvaluator) score(out []float64) error {
	defer e.vm.Reset()
	if err := graph.RunAll(e.vm); err != nil {
		return fmt.Errorf("nn: evaluating the model: %w", err)
	}
	s, err := opkit.Floats(e.scores.Value())
	if err != nil {
		return err
	}
	copy(out, s)
	return nil
}

// Outputs returns the number of scores m gives per row: k for a model with an Outputs() int
// method returning k ≥ 2 (an [MLP] of k outputs), else 1.
func Outputs(m Model) int {
	if o, ok := m.(interface{ Outputs() int }); ok && o.Outputs() > 1 {
		return o.Outputs()
	}
	return 1
}
