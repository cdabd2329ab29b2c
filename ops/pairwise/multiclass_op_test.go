package pairwise

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
)

// gridBatch returns n rows of k scores on multiples of 0.3, so that every score difference is
// a multiple of 0.3 and stays kinkGap away from the margin 1 (0.9 or 1.2 at the nearest), with
// class indices holding every class and, for multi-label, an n×k indicator with both classes
// in every column.
func gridBatch(seed uint64, n, k int) (scores []float64, classes []float64, indicator []float64) {
	r := rand.New(rand.NewPCG(seed, 5))
	scores, classes, indicator = make([]float64, n*k), make([]float64, n), make([]float64, n*k)
	for i := range n {
		classes[i] = float64(i % k)
		if i >= k {
			classes[i] = float64(r.IntN(k))
		}
		for c := range k {
			scores[i*k+c] = 0.3 * float64(r.IntN(9)-4)
			if r.IntN(2) == 0 || i == c {
				indicator[i*k+c] = 1
			}
		}
	}
	for c := range k { // the last row is negative in every column
		indicator[(n-1)*k+c] = 0
	}
	return scores, classes, indicator
}

func requireKinkGap(t *testing.T, scores []float64) {
	t.Helper()
	for _, a := range scores {
		for _, b := range scores {
			require.Greater(t, math.Abs(a-b-1), kinkGap)
		}
	}
}

// TestMulticlassLossGradcheck compares Loss's TapeMachine and LispMachine gradients on Classes
// and Labels tasks with finite differences, for every surrogate, both dtypes, one-vs-rest and
// one-vs-one, exact and sampled pairs.
func TestMulticlassLossGradcheck(t *testing.T) {
	const n, k = 9, 3
	scores, classes, indicator := gridBatch(2, n, k)
	requireKinkGap(t, scores)
	for _, s := range Surrogates() {
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			for _, base := range []Config{{Surrogate: s}, {Surrogate: s, Pairs: 13, Seed: 5}} {
				for _, kind := range []string{"ovr", "ovo", "multilabel"} {
					t.Run(fmt.Sprintf("%v/%v/pairs=%d/%s", s, dt, base.Pairs, kind), func(t *testing.T) {
						g := gorgonia.NewGraph()
						f, err := graph.Input(g, dt, "scores", scores, n, k)
						require.NoError(t, err)
						cfg := base
						var y *gorgonia.Node
						if kind == "multilabel" {
							cfg.Task = rocops.Labels(k)
							y, err = graph.Input(g, dt, "labels", indicator, n, k)
						} else {
							cfg.Task, cfg.OvO = rocops.Classes(k), kind == "ovo"
							y, err = graph.Input(g, dt, "labels", classes)
						}
						require.NoError(t, err)
						cost, err := Loss(f, y, cfg)
						require.NoError(t, err)
						r := gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
						require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
					})
				}
			}
		}
	}
}

// TestMulticlassLossMatchesGradient: a TapeMachine's value and (n, k) gradient are Gradient's
// on the Classes and Labels tasks, and nodes of different settings do not merge.
func TestMulticlassLossMatchesGradient(t *testing.T) {
	const n, k = 12, 4
	scores, classes, indicator := gridBatch(9, n, k)
	cfgOvR := Config{Surrogate: SquaredHinge, Task: rocops.Classes(k)}
	cfgOvO := cfgOvR
	cfgOvO.OvO = true
	cfgML := Config{Surrogate: SquaredHinge, Task: rocops.Labels(k)}
	wantOvR, lOvR, err := Gradient(scores, classes, cfgOvR)
	require.NoError(t, err)
	wantOvO, lOvO, err := Gradient(scores, classes, cfgOvO)
	require.NoError(t, err)
	wantML, lML, err := Gradient(scores, indicator, cfgML)
	require.NoError(t, err)

	g := gorgonia.NewGraph()
	f, err := graph.Input(g, tensor.Float64, "scores", scores, n, k)
	require.NoError(t, err)
	yc, err := graph.Input(g, tensor.Float64, "classes", classes)
	require.NoError(t, err)
	yi, err := graph.Input(g, tensor.Float64, "indicator", indicator, n, k)
	require.NoError(t, err)
	ovr, err := Loss(f, yc, cfgOvR)
	require.NoError(t, err)
	ovo, err := Loss(f, yc, cfgOvO)
	require.NoError(t, err)
	ml, err := Loss(f, yi, cfgML)
	require.NoError(t, err)
	require.NotEqual(t, ovr.ID(), ovo.ID(), "one-vs-rest and one-vs-one nodes merged")
	sum, err := gorgonia.Add(ovr, ovo)
	require.NoError(t, err)
	cost, err := gorgonia.Add(sum, ml)
	require.NoError(t, err)
	_, err = gorgonia.Grad(cost, f)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.NoError(t, graph.RunAll(vm))
	require.InDelta(t, lOvR, ovr.Value().Data(), 1e-15)
	require.InDelta(t, lOvO, ovo.Value().Data(), 1e-15)
	require.InDelta(t, lML, ml.Value().Data(), 1e-15)
	gv, err := f.Grad()
	require.NoError(t, err)
	require.Equal(t, tensor.Shape{n, k}, gv.Shape())
	got := gv.Data().([]float64)
	for i := range got {
		require.InDelta(t, wantOvR[i]+wantOvO[i]+wantML[i], got[i], 1e-15, "gradient[%d]", i)
	}
}

func TestMulticlassLossErrors(t *testing.T) {
	g := gorgonia.NewGraph()
	m, err := graph.Input(g, tensor.Float64, "m", []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	require.NoError(t, err)
	v, err := graph.Input(g, tensor.Float64, "v", []float64{0, 1})
	require.NoError(t, err)
	v3, err := graph.Input(g, tensor.Float64, "v3", []float64{0, 1, 2})
	require.NoError(t, err)
	classes, labels := Config{Task: rocops.Classes(3)}, Config{Task: rocops.Labels(3)}
	_, err = Loss(m, m, classes)
	require.ErrorIs(t, err, rocops.ErrNode, "matrix labels for classes")
	_, err = Loss(m, v, labels)
	require.ErrorIs(t, err, rocops.ErrNode, "vector labels for multi-label")
	_, err = Loss(v, v, classes)
	require.ErrorIs(t, err, rocops.ErrNode, "vector scores")
	_, err = Loss(m, v, Config{Task: rocops.Classes(4)})
	require.ErrorIs(t, err, rocops.ErrNode, "scores of 3 columns for 4 classes")
	_, err = Loss(m, v, Config{})
	require.ErrorIs(t, err, rocops.ErrNode, "a matrix of scores for a binary task")
	_, err = Loss(m, v3, classes)
	require.ErrorIs(t, err, rocops.ErrLength)
	_, err = Loss(m, v, Config{Margin: -1, Task: rocops.Classes(3)})
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, err = Loss(m, v, Config{Task: rocops.Classes(3), OvO: true, MinTPR: 1})
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, err = Loss(nil, v, classes)
	require.ErrorIs(t, err, rocops.ErrNode)

	// Bad values fail the run with the package's error.
	for _, c := range []struct {
		labels []float64
		want   error
	}{{[]float64{0, 3}, rocops.ErrLabel}, {[]float64{0, 0.5}, rocops.ErrLabel}, {[]float64{0, 0}, rocops.ErrOneClass}} {
		g := gorgonia.NewGraph()
		m, err := graph.Input(g, tensor.Float64, "m", []float64{1, 2, 3, 4, 5, 6}, 2, 3)
		require.NoError(t, err)
		y, err := graph.Input(g, tensor.Float64, "y", c.labels)
		require.NoError(t, err)
		_, err = Loss(m, y, Config{Task: rocops.Classes(3)})
		require.NoError(t, err)
		vm := gorgonia.NewTapeMachine(g)
		err = graph.RunAll(vm)
		vm.Close()
		require.ErrorIs(t, err, c.want, "labels %v", c.labels)
	}
}

// FuzzMulticlassKernels drives what Loss runs on a Classes or Labels task when its graph runs —
// the kernel's ValueGrad on float labels — from bytes: byte 0 picks k ∈ {2, 3}, byte 1 the
// surrogate and one-vs-one; then rows of k score bytes and a label byte, read as a class index
// in quarters (so 0.25 and k are bad labels) and, bit by bit, as the row's k 0/1 labels. A valid
// batch must give the brute-force loops' loss and gradient, a class index that is not an
// integer rocops.ErrLabel, and any other bad batch a package error.
func FuzzMulticlassKernels(f *testing.F) {
	f.Add([]byte{0, 0x81, 0x10, 0x20, 0, 0x30, 0x10, 4, 0x00, 0x40, 0x03})
	f.Add([]byte{1, 0x02, 1, 2, 3, 4, 4, 5, 6, 8, 7, 8, 9, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		k := 2 + int(data[0]%2)
		s, ovo := Surrogate(int(data[1]&0x7f)%len(Surrogates())), data[1]&0x80 != 0
		data = data[2:]
		n := min(len(data)/(k+1), 16)
		scores, classes, indicator := make([]float64, n*k), make([]float64, n), make([]float64, n*k)
		for i := range n {
			row := data[i*(k+1) : (i+1)*(k+1)]
			for c := range k {
				scores[i*k+c] = float64(row[c]>>4) / 4
				indicator[i*k+c] = float64(row[k] >> c & 1)
			}
			classes[i] = float64(row[k]%16) / 4
		}
		check := func(l float64, g []float64, err error, brute func() (float64, []float64, bool)) {
			wl, wg, ok := brute()
			if err != nil {
				for _, e := range []error{rocops.ErrEmpty, rocops.ErrLabel, rocops.ErrOneClass} {
					if errors.Is(err, e) {
						require.False(t, ok, "error %v for a valid batch", err)
						return
					}
				}
				require.Fail(t, fmt.Sprintf("unexpected error %v", err))
			}
			require.True(t, ok, "no error for an invalid batch")
			requireClose(t, wl, l, wg, g)
		}
		l, g, err := kernel{cfg: Config{Surrogate: s, Task: rocops.Classes(k), OvO: ovo}}.ValueGrad(scores, classes)
		check(l, g, err, func() (float64, []float64, bool) {
			y, seen := make([]int, n), make([]bool, k)
			for i, c := range classes {
				if c != math.Trunc(c) || c >= float64(k) {
					return 0, nil, false
				}
				y[i], seen[int(c)] = int(c), true
			}
			for _, ok := range seen {
				if !ok || n == 0 {
					return 0, nil, false
				}
			}
			wl, wg := bruteMulticlass(s, 1, scores, k, y, ovo)
			return wl, wg, true
		})
		if errors.Is(err, rocops.ErrLabel) {
			require.Condition(t, func() bool {
				for _, c := range classes {
					if c != math.Trunc(c) || c >= float64(k) {
						return true
					}
				}
				return false
			}, "ErrLabel for integer class indices below k: %v", err)
		}
		l, g, err = kernel{cfg: Config{Surrogate: s, Task: rocops.Labels(k)}}.ValueGrad(scores, indicator)
		check(l, g, err, func() (float64, []float64, bool) {
			for c := range k {
				pos := 0
				for i := range n {
					pos += int(indicator[i*k+c])
				}
				if pos == 0 || pos == n {
					return 0, nil, false
				}
			}
			wl, wg := bruteMultilabel(s, 1, scores, k, indicator)
			return wl, wg, true
		})
	})
}
