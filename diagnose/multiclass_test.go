package diagnose_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// Tolerances of the multi-class diagnostics. meanTol: the per-class and macro values are
// means of k − 1 and k binary values, here summed in another order, a few ε apart. aucTol:
// 1 − AUC from metrics' merge counts against Misranking's binary searches, both exact pair
// counts over at most n² pairs, so they differ by rounding only.
const meanTol, aucTol = 1e-14, 1e-12

// classScores returns n row-major k-class scores on a grid of step ¼ (so that many tie) with
// class c's column shifted up by shift on class c's rows, and labels with every class present.
func classScores(seed uint64, n, k int, shift float64) ([]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	scores, labels := make([]float64, n*k), make([]float64, n)
	for i := range labels {
		y := i % k
		if i >= k {
			y = rng.IntN(k)
		}
		labels[i] = float64(y)
		for c := range k {
			scores[i*k+c] = math.Round(4*rng.NormFloat64()) / 4
		}
		scores[i*k+y] += shift
	}
	return scores, labels
}

// comparisonOf returns column c of scores over the rows of class c and, for b ≥ 0, class b
// (b < 0: every row), with labels 1 for class c: the binary problem of one comparison.
func comparisonOf(scores []float64, k int, labels []float64, c, b int) (f, y []float64) {
	for i, y0 := range labels {
		l := int(y0)
		if b >= 0 && l != c && l != b {
			continue
		}
		f = append(f, scores[i*k+c])
		if l == c {
			y = append(y, 1)
		} else {
			y = append(y, 0)
		}
	}
	return f, y
}

// bruteClassMeans runs d on every comparison of method, built by comparisonOf, and returns
// each class's mean and the macro mean, skipping NaN values as MulticlassWeightShares does.
func bruteClassMeans(t *testing.T, scores []float64, k int, labels []float64, method metrics.Method,
	d func(f, y []float64) ([]float64, error)) (perClass [][]float64, macro []float64) {
	t.Helper()
	mean := func(vs [][]float64) []float64 {
		out := make([]float64, len(vs[0]))
		for e := range out {
			var s float64
			var n int
			for _, v := range vs {
				if !math.IsNaN(v[e]) {
					s += v[e]
					n++
				}
			}
			out[e] = s / float64(n)
			if n == 0 {
				out[e] = math.NaN()
			}
		}
		return out
	}
	for c := range k {
		var vs [][]float64
		for b := range k {
			switch {
			case method == metrics.OvR && b > 0, method == metrics.OvO && b == c:
				continue
			}
			other := b
			if method == metrics.OvR {
				other = -1
			}
			f, y := comparisonOf(scores, k, labels, c, other)
			v, err := d(f, y)
			require.NoError(t, err)
			vs = append(vs, v)
		}
		perClass = append(perClass, mean(vs))
	}
	return perClass, mean(perClass)
}

// TestMulticlassDiagnosticsAgainstBinary: every multi-class diagnostic equals the binary
// function run on each comparison's column and rows, extracted here row by row, averaged per
// class and over classes; on random tied scores, one-vs-rest and one-vs-one, k = 2, 3, 5.
func TestMulticlassDiagnosticsAgainstBinary(t *testing.T) {
	const m = 1.0
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	edges := []float64{math.Inf(-1), -3, -1, 0, 1, math.Inf(1)}
	scalar := func(d func(f, y []float64) (float64, error)) func(f, y []float64) ([]float64, error) {
		return func(f, y []float64) ([]float64, error) {
			v, err := d(f, y)
			return []float64{v}, err
		}
	}
	for _, k := range []int{2, 3, 5} {
		for _, method := range []metrics.Method{metrics.OvR, metrics.OvO} {
			t.Run(fmt.Sprintf("k=%d/%v", k, method), func(t *testing.T) {
				scores, labels := classScores(uint64(k), 80, k, 0.8)
				cases := []struct {
					name  string
					multi func() ([]float64, float64, error)
					d     func(f, y []float64) (float64, error)
				}{
					{"Misranking", func() ([]float64, float64, error) {
						return classCmp(k, method).Misranking(scores, labels)
					}, binMisranking},
					{"SevereMass", func() ([]float64, float64, error) {
						return classCmp(k, method).SevereMass(scores, labels, m)
					}, func(f, y []float64) (float64, error) { return binSevereMass(f, y, m) }},
					{"CEBound", func() ([]float64, float64, error) {
						return classCmp(k, method).CEBound(scores, labels, m)
					}, func(f, y []float64) (float64, error) { return binCEBound(f, y, m) }},
				}
				for _, c := range cases {
					per, macro, err := c.multi()
					require.NoError(t, err)
					wantPer, wantMacro := bruteClassMeans(t, scores, k, labels, method, scalar(c.d))
					for cl := range k {
						near(t, fmt.Sprintf("%s class %d", c.name, cl), per[cl], wantPer[cl][0], meanTol)
					}
					near(t, c.name+" macro", macro, wantMacro[0], meanTol)
				}
				per, macro, err := classCmp(k, method).WeightShares(scores, labels, sq, edges)
				require.NoError(t, err)
				wantPer, wantMacro := bruteClassMeans(t, scores, k, labels, method, func(f, y []float64) ([]float64, error) {
					return binWeightShares(f, y, sq, edges)
				})
				for cl := range k {
					for e := range wantPer[cl] {
						nearOrNaN(t, fmt.Sprintf("WeightShares class %d interval %d", cl, e), per[cl][e], wantPer[cl][e])
					}
				}
				for e := range wantMacro {
					nearOrNaN(t, fmt.Sprintf("WeightShares macro interval %d", e), macro[e], wantMacro[e])
				}
			})
		}
	}
}

// nearOrNaN is near with tolerance meanTol, also accepting two NaNs.
func nearOrNaN(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.IsNaN(want) {
		require.True(t, math.IsNaN(got), "%s = %v, want NaN", what, got)
		return
	}
	near(t, what, got, want, meanTol)
}

// TestMulticlassMisrankingIsOneMinusAUC: the macro misranking is 1 − the macro multi-class AUC
// of the same method (metrics.MulticlassAUC, which reproduces scikit-learn's roc_auc_score),
// and the one-vs-rest per-class misranking 1 − metrics.ClassAUCs; and the cross-entropy bound
// lies above the severe mass for every class and the macro mean.
func TestMulticlassMisrankingIsOneMinusAUC(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		k := 2 + int(seed)
		scores, labels := classScores(seed, 120, k, 1)
		for _, method := range []metrics.Method{metrics.OvR, metrics.OvO} {
			per, macro, err := classCmp(k, method).Misranking(scores, labels)
			require.NoError(t, err)
			auc, err := metrics.TaskAUC(scores, asFloats(labels), rocops.Classes(k), method, metrics.Macro)
			require.NoError(t, err)
			near(t, fmt.Sprintf("seed %d %v macro misranking", seed, method), macro, 1-auc, aucTol)
			if method == metrics.OvR {
				aucs, err := metrics.ClassAUCs(scores, asFloats(labels), rocops.Classes(k))
				require.NoError(t, err)
				for c := range k {
					near(t, fmt.Sprintf("seed %d class %d misranking", seed, c), per[c], 1-aucs[c], aucTol)
				}
			}
			sev, sevMacro, err := classCmp(k, method).SevereMass(scores, labels, 0.5)
			require.NoError(t, err)
			bound, boundMacro, err := classCmp(k, method).CEBound(scores, labels, 0.5)
			require.NoError(t, err)
			for c := range k {
				require.LessOrEqual(t, sev[c], bound[c], "seed %d %v class %d: π_M = %v above its bound %v", seed, method, c, sev[c], bound[c])
			}
			require.LessOrEqual(t, sevMacro, boundMacro, "seed %d %v: macro π_M = %v above its bound %v", seed, method, sevMacro, boundMacro)
		}
	}
}

// TestMulticlassDiagnosticsErrors: bad input gives the shared errors, naming the class.
func TestMulticlassDiagnosticsErrors(t *testing.T) {
	scores, labels := classScores(1, 30, 3, 1)
	missing := make([]float64, len(labels)) // classes 0 and 1 only
	for i := range missing {
		missing[i] = float64(i % 2)
	}
	big := append([]float64(nil), labels...)
	big[4] = 3
	half := append([]float64(nil), labels...)
	half[2] = 0.5
	nan := append([]float64(nil), scores...)
	nan[7] = math.NaN()
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"OvO on label columns", second(diagnose.Comparisons{Task: rocops.Labels(3), OvO: true}.Misranking(scores, labels)), rocops.ErrConfig},
		{"OvO on the binary task", second(diagnose.Comparisons{OvO: true}.Misranking(scores[:30], labels)), rocops.ErrConfig},
		{"k = 1", second(diagnose.Comparisons{Task: rocops.Classes(1)}.Misranking(scores[:30], labels)), rocops.ErrConfig},
		{"label 0.5", second(classCmp(3, metrics.OvR).Misranking(scores, half)), rocops.ErrLabel},
		{"class without rows", second(classCmp(3, metrics.OvO).Misranking(scores, missing)), rocops.ErrOneClass},
		{"label ≥ k", second(classCmp(3, metrics.OvR).Misranking(scores, big)), rocops.ErrLabel},
		{"NaN score", second(classCmp(3, metrics.OvR).CEBound(nan, labels, 1)), rocops.ErrNonFinite},
		{"length", second(classCmp(3, metrics.OvR).Misranking(scores[1:], labels)), rocops.ErrLength},
		{"severity", second(classCmp(3, metrics.OvR).SevereMass(scores, labels, 0)), rocops.ErrConfig},
		{"edges", weightErr(classCmp(3, metrics.OvR).WeightShares(scores, labels, sq, []float64{1})), rocops.ErrConfig},
		{"surrogate", weightErr(classCmp(3, metrics.OvR).WeightShares(scores, labels,
			pairwise.Config{Surrogate: pairwise.Hinge, Margin: -1}, []float64{0, 1})), rocops.ErrConfig},
	}
	for _, c := range cases {
		require.ErrorIs(t, c.err, c.want, "%s: got %v, want %v", c.name, c.err, c.want)
	}
}

func second(_ []float64, _ float64, err error) error { return err }

func weightErr(_ [][]float64, _ []float64, err error) error { return err }

// FuzzMulticlassDiagnostics: on any k-class input, decoded from bytes with labels that may lie
// outside 0…k−1 and scores on a coarse grid (ties), the multi-class diagnostics return an
// error of the shared vocabulary or values with macro misranking 1 − the macro AUC, shares of
// pairs in [0, 1], the bound above the severe mass and the comparisons' mean projected drift
// −⟨∇L, p⟩ of the multi-class pairwise loss, and a unit severe direction or ErrNoSevere;
// nothing panics.
func FuzzMulticlassDiagnostics(f *testing.F) {
	f.Add([]byte{1, 0, 0x10, 0x80, 0x20, 1, 0x30, 0x40, 0x50, 2, 0x60, 0x70, 0x80})
	f.Add([]byte{0, 0, 0x10, 0x20, 1, 0x30, 0x40, 0, 0x30, 0x40, 1, 0xf0, 0})
	f.Add([]byte{2, 0, 1, 2, 3, 4, 1, 5, 6, 7, 8, 2, 9, 10, 11, 12, 3, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := 2 + int(data[0]%3)
		data = data[1:]
		scores, classes := testbatch.Classes(data, k, len(data), func(b byte) float64 { return float64(b>>4) - 8 })
		labels := asFloats(classes)
		lin, err := nn.NewMLP(nn.MLPConfig{In: k, Outputs: k, Seed: uint64(k)})
		require.NoError(t, err)
		sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
		for _, method := range []metrics.Method{metrics.OvR, metrics.OvO} {
			per, macro, err := classCmp(k, method).Misranking(scores, labels)
			if err != nil {
				require.False(t, !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrOneClass) && !errors.Is(err, rocops.ErrLabel), "unexpected error %v", err)
				continue
			}
			auc, err := metrics.TaskAUC(scores, asFloats(labels), rocops.Classes(k), method, metrics.Macro)
			require.NoError(t, err)
			near(t, "macro misranking", macro, 1-auc, aucTol)
			sev, _, err := classCmp(k, method).SevereMass(scores, labels, 1)
			require.NoError(t, err)
			bound, _, err := classCmp(k, method).CEBound(scores, labels, 1)
			require.NoError(t, err)
			for c := range k {
				require.GreaterOrEqual(t, per[c], 0.0, "class %d: misranking %v, severe mass %v, bound %v", c, per[c], sev[c], bound[c])
				require.LessOrEqual(t, per[c], 1.0, "class %d: misranking %v, severe mass %v, bound %v", c, per[c], sev[c], bound[c])
				require.GreaterOrEqual(t, sev[c], 0.0, "class %d: misranking %v, severe mass %v, bound %v", c, per[c], sev[c], bound[c])
				require.LessOrEqual(t, sev[c], per[c], "class %d: misranking %v, severe mass %v, bound %v", c, per[c], sev[c], bound[c])
				require.LessOrEqual(t, sev[c], bound[c], "class %d: misranking %v, severe mass %v, bound %v", c, per[c], sev[c], bound[c])
			}
			_, _, err = classCmp(k, method).WeightShares(scores, labels, sq, []float64{-2, 0, 2})
			require.NoError(t, err)
			// Tangents: the scores mirrored, any finite numbers. The mean drift is −⟨∇L, p⟩.
			p := make([]float64, len(scores))
			for i := range p {
				p[i] = scores[len(scores)-1-i]
			}
			splits, err := classCmp(k, method).Project(scores, labels, p, sq)
			require.NoError(t, err)
			task := sq
			task.Task, task.OvO = rocops.Classes(k), method == metrics.OvO
			g, _, err := pairwise.Gradient(scores, labels, task)
			require.NoError(t, err)
			var drift, dir float64
			for _, s := range splits {
				drift += s.Mean / float64(len(splits))
			}
			for i := range g {
				dir += g[i] * p[i]
			}
			near(t, "mean drift", drift, -dir, 1e-9)
			// The severe direction of a linear model of k outputs taking the scores as features.
			d, err := classCmp(k, method).SevereDirection(lin, scores, labels, sq, 1)
			switch {
			case errors.Is(err, diagnose.ErrNoSevere):
			case err != nil:
				require.NoError(t, err)
			default:
				var n2 float64
				for _, v := range d.V {
					n2 += v * v
				}
				require.GreaterOrEqual(t, d.Severe, 1, "direction of %d severe pairs, ‖V‖² = %v, norm %v", d.Severe, n2, d.Norm)
				require.InDelta(t, 1, n2, 1e-12, "direction of %d severe pairs, ‖V‖² = %v, norm %v", d.Severe, n2, d.Norm)
				require.Greater(t, d.Norm, 0.0, "direction of %d severe pairs, ‖V‖² = %v, norm %v", d.Severe, n2, d.Norm)
			}
		}
	})
}

// TestComparisonsBinary: the comparisons of the binary task are the one comparison, the binary
// functions' own figures bit for bit, each as the one per-output value and the macro mean.
func TestComparisonsBinary(t *testing.T) {
	var one diagnose.Comparisons // the zero Task: binary
	scores, labels := testbatch.Spread(7, 1, 60, 0.3, 2)
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	edges := []float64{math.Inf(-1), -1, 0, 1, math.Inf(1)}
	for _, c := range []struct {
		name    string
		compare func() ([]float64, float64, error)
		binary  func() (float64, error)
	}{
		{"Misranking", func() ([]float64, float64, error) { return one.Misranking(scores, labels) },
			func() (float64, error) { return binMisranking(scores, labels) }},
		{"SevereMass", func() ([]float64, float64, error) { return one.SevereMass(scores, labels, 0.5) },
			func() (float64, error) { return binSevereMass(scores, labels, 0.5) }},
		{"CEBound", func() ([]float64, float64, error) { return one.CEBound(scores, labels, 0.5) },
			func() (float64, error) { return binCEBound(scores, labels, 0.5) }},
	} {
		per, macro, err := c.compare()
		require.NoError(t, err)
		want, err := c.binary()
		require.NoError(t, err)
		require.Equal(t, 1, len(per), "%s: %v and %v, want [%v] and %v", c.name, per, macro, want, want)
		require.Equal(t, want, per[0], "%s: %v and %v, want [%v] and %v", c.name, per, macro, want, want)
		require.Equal(t, want, macro, "%s: %v and %v, want [%v] and %v", c.name, per, macro, want, want)
	}
	per, macro, err := one.WeightShares(scores, labels, sq, edges)
	require.NoError(t, err)
	want, err := binWeightShares(scores, labels, sq, edges)
	require.NoError(t, err)
	require.Equal(t, 1, len(per), "WeightShares: %v and %v, want [%v] and %v", per, macro, want, want)
	require.Equal(t, fmt.Sprint(want), fmt.Sprint(per[0]), "WeightShares: %v and %v, want [%v] and %v", per, macro, want, want)
	require.Equal(t, fmt.Sprint(want), fmt.Sprint(macro), "WeightShares: %v and %v, want [%v] and %v", per, macro, want, want)

	m, x, y := severeSetup(t, tensor.Float64)
	d, err := one.SevereDirection(m, x, y, sq, 0.1)
	require.NoError(t, err)
	wd, err := binSevereDirection(m, x, y, sq, 0.1)
	require.NoError(t, err)
	require.True(t, slices.Equal(d.V, wd.V), "SevereDirection: %+v, want %+v", d, wd)
	require.Equal(t, wd.Norm, d.Norm, "SevereDirection: %+v, want %+v", d, wd)
	require.Equal(t, wd.Severe, d.Severe, "SevereDirection: %+v, want %+v", d, wd)
	splits, err := one.Project(scores, labels, scores, sq)
	require.NoError(t, err)
	ws, err := binProject(scores, labels, scores, sq)
	require.NoError(t, err)
	require.Equal(t, 1, len(splits), "Project: %+v, want one comparison of %+v", splits, ws)
	require.False(t, splits[0].Split != ws, "Project: %+v, want one comparison of %+v", splits, ws)
	require.Equal(t, 0, splits[0].Class, "Project: %+v, want one comparison of %+v", splits, ws)
	require.Equal(t, -1, splits[0].Other, "Project: %+v, want one comparison of %+v", splits, ws)
	got := splits[0].Comparison.String()
	require.Equal(t, "the binary comparison", got, "the comparison is %q", got)
	// OvO compares classes: not the binary task's one comparison.
	_, _, err = (diagnose.Comparisons{OvO: true}).Misranking(scores, labels)
	require.ErrorIs(t, err, rocops.ErrConfig, "OvO on the binary task: %v, want rocops.ErrConfig", err)
}
