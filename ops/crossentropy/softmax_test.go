package crossentropy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// softmaxGradient is Gradient on the task of k classes, for class indices given as ints.
func softmaxGradient(z []float64, k int, y []int) ([]float64, float64, error) {
	return Gradient(z, classIndices(y), Config{Task: rocops.Classes(k)})
}

// classIndices returns class indices in float64, as the loss takes them.
func classIndices(y []int) []float64 {
	out := make([]float64, len(y))
	for i, c := range y {
		out[i] = float64(c)
	}
	return out
}

// logAddExp folds log(e^a + e^b) = max(a, b) + log1p(e^{−|a−b|}) over a row: a reference that
// shares nothing with the softmax loss's one-pass form from the row's maximum.
func logAddExp(row []float64) float64 {
	l := row[0]
	for _, x := range row[1:] {
		l = max(l, x) + math.Log1p(math.Exp(-math.Abs(l-x)))
	}
	return l
}

// softmaxReference is the loss and gradient from logAddExp: −log p_iy = lse_i − z_iy and
// p_ic = e^{z_ic − lse_i}.
func softmaxReference(z []float64, k int, y []int) ([]float64, float64) {
	n := len(y)
	g := make([]float64, len(z))
	var l float64
	for i := range n {
		row := z[i*k : (i+1)*k]
		lse := logAddExp(row)
		l += (lse - row[y[i]]) / float64(n)
		for c, x := range row {
			g[i*k+c] = math.Exp(x-lse) / float64(n)
		}
		g[i*k+y[i]] -= 1 / float64(n)
	}
	return g, l
}

// Values worked by hand. Logits ±1e3, where e^{1000} overflows float64 and the textbook
// e^{z_y}/Σ e^{z} is NaN:
//   - [1000, −1000, 999], label 2: lse = 1000 + log(1 + e^{−2000} + e^{−1}) = 1000 +
//     log(1 + e^{−1}) to far below float64's precision, so −log p = 1 + log1p(e^{−1}).
//   - [1000, −1000], label 1: 2000 + log(1 + e^{−2000}) = 2000.
//   - [−1000, −1000, −1000, −1000], any label: log 4.
//   - [1000, −1000], label 0: log(1 + e^{−2000}) = 0 (the right class at a margin of 2000).
func TestSoftmaxValues(t *testing.T) {
	const tol = 1e-15 // relative: a few roundings
	cases := []struct {
		name string
		z    []float64
		k    int
		y    []int
		want float64
	}{
		{"1e3, 2nd largest", []float64{1000, -1000, 999}, 3, []int{2}, 1 + math.Log1p(math.Exp(-1))},
		{"1e3, wrong by 2000", []float64{1000, -1000}, 2, []int{1}, 2000},
		{"−1e3 tied", []float64{-1000, -1000, -1000, -1000}, 4, []int{3}, math.Log(4)},
		{"1e3, right", []float64{1000, -1000}, 2, []int{0}, 0},
		{"mean of rows", []float64{1000, -1000, -1000, 1000}, 2, []int{1, 1}, 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, l, err := softmaxGradient(c.z, c.k, c.y)
			require.NoError(t, err)
			require.InDelta(t, c.want, l, tol*max(1, c.want))
			v, err := Evaluate(c.z, classIndices(c.y), Config{Task: rocops.Classes(c.k)})
			require.NoError(t, err)
			require.Equal(t, l, v, "Evaluate and Gradient's value")
			// The fold rounds lse at the logits' magnitude (an ulp of 1000 is 1.1e-13): the
			// hand value above is the sharper test.
			gr, lr := softmaxReference(c.z, c.k, c.y)
			tolRef := 8 * 1000 * 0x1p-52
			require.InDelta(t, lr, l, tolRef*max(1, lr))
			require.InDeltaSlice(t, gr, g, tolRef)
		})
	}
}

// TestSoftmaxAgainstReference on random logits of every size up to ±1e3, with the gradient's
// rows summing to zero (the loss is invariant to shifting a row), and k = 2 equal to the binary
// cross-entropy of the logit difference.
func TestSoftmaxAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 18))
	for _, k := range []int{2, 3, 10} {
		for _, scale := range []float64{1, 30, 1e3} {
			t.Run(fmt.Sprintf("k=%d/scale=%g", k, scale), func(t *testing.T) {
				const n = 37
				z, y := make([]float64, n*k), make([]int, n)
				for i := range z {
					z[i] = scale * (2*rng.Float64() - 1)
				}
				for i := range y {
					y[i] = rng.IntN(k)
				}
				g, l, err := softmaxGradient(z, k, y)
				require.NoError(t, err)
				gr, lr := softmaxReference(z, k, y)
				// The reference rounds lse_i at the logits' magnitude, to an ulp of scale, which
				// e^{z − lse} turns into a relative error of p of a few times scale·ε.
				tolRef := 8 * scale * 0x1p-52
				require.InDelta(t, lr, l, tolRef*max(1, lr))
				require.InDeltaSlice(t, gr, g, tolRef/n)
				for i := range n {
					var s float64
					for _, x := range g[i*k : (i+1)*k] {
						s += x
					}
					require.InDelta(t, 0, s, 1e-16, "row %d", i)
				}
				if k == 2 {
					d, yb := make([]float64, n), make([]float64, n)
					for i := range n {
						d[i], yb[i] = z[2*i+1]-z[2*i], float64(y[i])
					}
					gb, lb, err := Gradient(d, yb, Config{})
					require.NoError(t, err)
					require.InDelta(t, lb, l, 1e-13*max(1, lb))
					for i := range n {
						require.InDelta(t, gb[i], g[2*i+1], 1e-15)
						require.InDelta(t, -gb[i], g[2*i], 1e-15)
					}
				}
			})
		}
	}
}

func TestSoftmaxErrors(t *testing.T) {
	cases := []struct {
		name string
		z    []float64
		k    int
		y    []int
		want error
	}{
		{"empty", nil, 2, nil, rocops.ErrEmpty},
		{"k = 0", []float64{1, 2}, 0, []int{0, 0}, rocops.ErrConfig},
		{"one class", []float64{7}, 1, []int{0}, rocops.ErrConfig}, // a task of classes has k ≥ 2
		{"not n·k", []float64{1, 2, 3}, 2, []int{0, 1}, rocops.ErrLength},
		{"NaN", []float64{1, math.NaN()}, 2, []int{0}, rocops.ErrNonFinite},
		{"−Inf", []float64{math.Inf(-1), 0}, 2, []int{0}, rocops.ErrNonFinite},
		{"label k", []float64{1, 2}, 2, []int{2}, rocops.ErrLabel},
		{"label −1", []float64{1, 2}, 2, []int{-1}, rocops.ErrLabel},
		{"overflow", []float64{1.7e308, -1.7e308}, 2, []int{1}, rocops.ErrRange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := softmaxGradient(c.z, c.k, c.y)
			require.ErrorIs(t, err, c.want)
			require.Regexp(t, "^crossentropy: ", err.Error())
			_, err = Evaluate(c.z, classIndices(c.y), Config{Task: rocops.Classes(c.k)})
			require.ErrorIs(t, err, c.want)
		})
	}
	// Two rows of huge logits: each term is taken /n, so the mean fits.
	_, l, err := softmaxGradient([]float64{1.7e308, -1.7e308, 0, 0}, 2, []int{1, 0})
	require.NoError(t, err)
	require.InDelta(t, 1.7e308, l, 1e294)
}

// FuzzSoftmaxGradient decodes k from byte 0 (1…4, where k = 1 is not a task of classes), then
// rows of k float64 logits and a label byte (mod k + 1, so k exercises the label check); valid
// input must give a finite loss ≥ 0, gradients whose rows sum to zero and lie in [−1/n, 1/n],
// negative only at the label.
func FuzzSoftmaxGradient(f *testing.F) {
	add := func(k byte, rows ...[]float64) {
		b := []byte{k - 1}
		for _, r := range rows {
			for _, x := range r[:len(r)-1] {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			}
			b = append(b, byte(r[len(r)-1]))
		}
		f.Add(b)
	}
	add(3, []float64{1000, -1000, 999, 2}, []float64{0, 0, 0, 1})
	add(2, []float64{math.NaN(), 0, 0})
	add(1, []float64{5, 0})
	add(2, []float64{1.7e308, -1.7e308, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := 1 + int(data[0]%4)
		data = data[1:]
		var z []float64
		var y []int
		for ; len(data) >= 8*k+1 && len(y) < 32; data = data[8*k+1:] {
			for c := range k {
				z = append(z, math.Float64frombits(binary.LittleEndian.Uint64(data[8*c:])))
			}
			y = append(y, int(data[8*k])%(k+1))
		}
		g, l, err := softmaxGradient(z, k, y)
		if k == 1 {
			require.ErrorIs(t, err, rocops.ErrConfig, "k = 1: %v, want rocops.ErrConfig", err)
			return
		}
		if err != nil {
			for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrNonFinite, rocops.ErrLabel, rocops.ErrRange} {
				if errors.Is(err, e) {
					return
				}
			}
			require.Fail(t, fmt.Sprintf("error %v is none of the package's", err))
		}
		require.GreaterOrEqual(t, l, 0.0, "loss %v", l)
		require.False(t, math.IsInf(l, 0), "loss %v", l)
		bound := 1 / float64(len(y))
		for i := range y {
			var s float64
			for c, x := range g[i*k : (i+1)*k] {
				s += x
				require.LessOrEqual(t, math.Abs(x), bound*(1+1e-15), "gradient[%d, %d] = %v", i, c, x)
				require.False(t, c != y[i] && x < 0, "gradient[%d, %d] = %v", i, c, x)
			}
			require.LessOrEqual(t, math.Abs(s), 4e-16*bound*float64(k), "row %d sums to %v", i, s)
		}
	})
}

// FuzzSoftmaxKernel drives what Loss runs on a Classes task when its graph runs, the kernel's
// ValueGrad on float labels: byte 0 picks k ∈ {2, 3, 4}; then rows of k logit bytes and a label
// byte read in quarters (so 0.25 and k are bad labels). It must give the reference loss and
// gradient of logAddExp on integer labels, or rocops.ErrLabel where one is not a class index.
func FuzzSoftmaxKernel(f *testing.F) {
	f.Add([]byte{1, 10, 200, 4, 0, 0, 0})
	f.Add([]byte{2, 1, 2, 3, 1, 4, 5, 6, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		k := 2 + int(data[0]%3)
		data = data[1:]
		n := min(len(data)/(k+1), 16)
		z, y := make([]float64, n*k), make([]float64, n)
		labels := make([]int, n)
		integer := true
		for i := range n {
			row := data[i*(k+1) : (i+1)*(k+1)]
			for c := range k {
				z[i*k+c] = float64(int(row[c])-128) * 8 // up to ±1024
			}
			y[i] = float64(row[k]%16) / 4
			labels[i] = int(y[i])
			integer = integer && y[i] == math.Trunc(y[i]) && labels[i] < k
		}
		l, g, err := kernel{cfg: Config{Task: rocops.Classes(k)}}.ValueGrad(z, y)
		switch {
		case n == 0:
			require.ErrorIs(t, err, rocops.ErrEmpty, "no rows: %v, want rocops.ErrEmpty", err)
			return
		case !integer:
			require.ErrorIs(t, err, rocops.ErrLabel, "labels %v: %v, want rocops.ErrLabel", y, err)
			return
		default:
			require.NoError(t, err, "labels %v: %v", y, err)
		}
		wg, wl := softmaxReference(z, k, labels)
		tolRef := 8 * 1024 * 0x1p-52 // the reference rounds lse at the logits' magnitude
		require.InDelta(t, wl, l, tolRef*max(1, wl), "loss %v, reference %v", l, wl)
		for i := range g {
			require.InDelta(t, wg[i], g[i], tolRef, "gradient[%d] = %v, reference %v", i, g[i], wg[i])
		}
	})
}

// TestSoftmaxProbabilities: each row of Softmax is e^{z − lse} with lse from logAddExp, which
// shares nothing with Softmax's form from the row's maximum, and sums to 1; at logits ±1e3
// the textbook e^z/Σe^z is NaN. Hand values: [1000, −1000, 999] gives p = (1, e^{−2000}, e^{−1})
// / (1 + e^{−1}) to far below float64's precision.
func TestSoftmaxProbabilities(t *testing.T) {
	const tol = 1e-15 // absolute: a few roundings of values at most 1
	e1 := math.Exp(-1)
	p, err := Softmax([]float64{1000, -1000, 999, -3, -3, -3, 5, 5, 5}, 3)
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{1 / (1 + e1), 0, e1 / (1 + e1), 1. / 3, 1. / 3, 1. / 3, 1. / 3, 1. / 3, 1. / 3}, p, tol)

	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 3, 7} {
		z := make([]float64, 50*k)
		for i := range z {
			z[i] = (2*rng.Float64() - 1) * math.Pow(10, float64(rng.IntN(4)))
		}
		p, err := Softmax(z, k)
		require.NoError(t, err)
		for i := 0; i < len(z); i += k {
			lse, sum := logAddExp(z[i:i+k]), 0.0
			for c := range k {
				// The fold rounds lse at the logits' magnitude, up to 1e3 (an ulp is 1.1e-13).
				require.InDelta(t, math.Exp(z[i+c]-lse), p[i+c], 8*1000*0x1p-52, "row %d class %d", i/k, c)
				sum += p[i+c]
			}
			require.InDelta(t, 1, sum, float64(k)*0x1p-52)
		}
	}
}

func TestSoftmaxProbabilitiesErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		z    []float64
		k    int
		want error
	}{
		{"no logits", nil, 2, rocops.ErrEmpty},
		{"no logits, k = 0", nil, 0, rocops.ErrLength},
		{"k = 0", []float64{1}, 0, rocops.ErrLength},
		{"ragged", []float64{1, 2, 3}, 2, rocops.ErrLength},
		{"NaN", []float64{1, math.NaN()}, 2, rocops.ErrNonFinite},
		{"Inf", []float64{math.Inf(-1), 0}, 2, rocops.ErrNonFinite},
	} {
		_, err := Softmax(c.z, c.k)
		require.ErrorIs(t, err, c.want, c.name)
	}
}

// FuzzSoftmax decodes k from byte 0 (1…4), then float64 logits, up to 32 rows; valid input must
// give probabilities in [0, 1] whose rows sum to 1, and an error must be the package's.
func FuzzSoftmax(f *testing.F) {
	add := func(k byte, z ...float64) {
		b := []byte{k - 1}
		for _, x := range z {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		f.Add(b)
	}
	add(3, 1000, -1000, 999, 0, 0, 0)
	add(2, math.NaN(), 0)
	add(1, 5)
	add(2, 1.7e308, -1.7e308)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := 1 + int(data[0]%4)
		var z []float64
		for data = data[1:]; len(data) >= 8 && len(z) < 32*k; data = data[8:] {
			z = append(z, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		}
		p, err := Softmax(z, k)
		if err != nil {
			require.False(t, !errors.Is(err, rocops.ErrLength) && !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrNonFinite), "error %v is none of the package's", err)
			return
		}
		for i := 0; i < len(p); i += k {
			var s float64
			for _, x := range p[i : i+k] {
				require.GreaterOrEqual(t, x, 0.0, "probability %v in row %d", x, i/k)
				require.LessOrEqual(t, x, 1.0, "probability %v in row %d", x, i/k)
				s += x
			}
			require.InDelta(t, 1, s, float64(k)*0x1p-52, "row %d sums to %v", i/k, s)
		}
	})
}
