package nn

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/opkit"
)

// scoreChunk is the most rows Scores evaluates at once; it bounds the memory of the
// intermediate activations.
const scoreChunk = 4096

// Scores returns m's score for each row of x, which holds rows examples of m.InputSize()
// finite features, one example after the other (row-major). It builds Gorgonia graphs from m
// and evaluates at most 4096 rows at a time. It reads m's parameters, so it must not run
// concurrently with a solver step on m.
//
// A non-finite feature, or a model that is nil or does not match x, is ErrInput. A feature
// beyond the range of the model's dtype (float32 holds magnitudes up to about 3.4e38) and a
// score that overflows to ±Inf are ErrRange, naming the row: Scores never returns a
// non-finite score.
func Scores(m Model, x []float64, rows int) ([]float64, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil model", ErrInput)
	}
	in := m.InputSize()
	if rows <= 0 || in <= 0 || len(x) != rows*in {
		return nil, fmt.Errorf("%w: %d values for %d rows of %d features", ErrInput, len(x), rows, in)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: row %d, feature %d is %v", ErrInput, i/in, i%in, v)
		}
		if m.Dtype() == tensor.Float32 && math.Abs(v) > math.MaxFloat32 {
			return nil, fmt.Errorf("%w: row %d, feature %d is %g, beyond float32", ErrRange, i/in, i%in, v)
		}
	}
	full := rows / scoreChunk * scoreChunk
	out, err := appendScores(make([]float64, 0, rows), m, x[:full*in], scoreChunk)
	if err != nil {
		return nil, err
	}
	if full < rows {
		if out, err = appendScores(out, m, x[full*in:], rows-full); err != nil {
			return nil, err
		}
	}
	for i, s := range out {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("%w: the score of row %d is %v in %v", ErrRange, i, s, m.Dtype())
		}
	}
	return out, nil
}

// appendScores appends to out the scores of the rows in x, evaluated batch rows at a time on
// one graph; x holds a multiple of batch rows.
func appendScores(out []float64, m Model, x []float64, batch int) ([]float64, error) {
	if len(x) == 0 {
		return out, nil
	}
	sc, err := newScorer(m, batch)
	if err != nil {
		return nil, err
	}
	defer sc.vm.Close()
	step := batch * m.InputSize()
	for start := 0; start < len(x); start += step {
		s, err := sc.score(x[start : start+step])
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	return out, nil
}

// scorer is a forward-only graph of a model for batches of a fixed number of rows.
type scorer struct {
	rows   int
	dtype  tensor.Dtype
	x      *gorgonia.Node
	scores *gorgonia.Node
	vm     gorgonia.VM
}

func newScorer(m Model, rows int) (*scorer, error) {
	g := gorgonia.NewGraph()
	dt := m.Dtype()
	if dt != tensor.Float64 && dt != tensor.Float32 {
		return nil, fmt.Errorf("%w: model dtype %v (want float32 or float64)", ErrInput, dt)
	}
	x := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, m.InputSize()), gorgonia.WithName("x"))
	scores, _, err := m.Build(g, x)
	if err != nil {
		return nil, err
	}
	if scores == nil || !scores.Shape().Eq(tensor.Shape{rows}) {
		return nil, fmt.Errorf("%w: the model's Build gave no score vector of %d rows", ErrInput, rows)
	}
	return &scorer{rows: rows, dtype: dt, x: x, scores: scores, vm: gorgonia.NewTapeMachine(g)}, nil
}

// score returns the scores of the rows in x, which holds s.rows rows.
func (s *scorer) score(x []float64) ([]float64, error) {
	v, err := newMatrix(s.dtype, s.rows, len(x)/s.rows, x)
	if err != nil {
		return nil, err
	}
	if err := gorgonia.Let(s.x, v); err != nil {
		return nil, fmt.Errorf("nn: binding the input: %w", err)
	}
	defer s.vm.Reset()
	if err := graph.RunAll(s.vm); err != nil {
		return nil, fmt.Errorf("nn: evaluating the model: %w", err)
	}
	return opkit.Floats(s.scores.Value())
}

// newMatrix returns a copy of xs, rows × cols row-major, as a matrix of dtype dt.
func newMatrix(dt tensor.Dtype, rows, cols int, xs []float64) (*tensor.Dense, error) {
	var backing any
	switch dt {
	case tensor.Float64:
		backing = floats.From64[float64](xs)
	case tensor.Float32:
		backing = floats.From64[float32](xs)
	default:
		return nil, fmt.Errorf("%w: unsupported dtype %v", ErrInput, dt)
	}
	return tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(backing)), nil
}
