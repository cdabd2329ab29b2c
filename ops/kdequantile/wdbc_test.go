package kdequantile_test

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/rocops/rocops/internal/dataset"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestTrainWDBC trains a logistic regression (a linear scorer) on the embedded WDBC data with
// the KDE-quantile loss, through a Gorgonia graph and Gorgonia's Adam solver, and checks that
// the held-out true-positive rate at false-positive rate α rises from the initial random
// model's by at least minGain and ends above minTPR.
func TestTrainWDBC(t *testing.T) {
	const (
		alpha = 0.05
		steps = 300
		// On this split the random initial model has a held-out TPR of 0.21 and the trained
		// one 0.95 (linear models separate WDBC's classes well); the thresholds leave room
		// for floating-point differences between platforms.
		minGain = 0.5
		minTPR  = 0.9
	)
	xTrain, yTrain, xTest, yTest := wdbcSplit(t, 0.7)
	n, d := len(yTrain), len(xTrain)/len(yTrain)

	g := gorgonia.NewGraph()
	x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(n, d), tensor.WithBacking(xTrain))))
	y := vector(g, "y", yTrain)
	rng := rand.New(rand.NewPCG(2024, 1))
	w0 := make([]float64, d)
	for i := range w0 {
		w0[i] = 0.1 * rng.NormFloat64()
	}
	w := vector(g, "w", slices.Clone(w0))
	scores, err := gorgonia.Mul(x, w)
	require.NoError(t, err)
	loss, err := kdequantile.Loss(scores, y, kdequantile.Config{Alpha: alpha})
	require.NoError(t, err)
	_, err = gorgonia.Grad(loss, w)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	solver := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(0.01))
	var first, last float64
	for step := range steps {
		require.NoError(t, vm.RunAll())
		l := loss.Value().Data().(float64)
		if step == 0 {
			first = l
		}
		last = l
		require.NoError(t, solver.Step(gorgonia.NodesToValueGrads(gorgonia.Nodes{w})))
		vm.Reset()
	}
	before := tprAtFPR(linear(xTest, w0), yTest, alpha)
	after := tprAtFPR(linear(xTest, w.Value().Data().([]float64)), yTest, alpha)
	t.Logf("training loss %.4f → %.4f; held-out TPR at FPR %v: %.3f → %.3f", first, last, alpha, before, after)
	require.GreaterOrEqual(t, after, before+minGain, "held-out TPR at FPR %v went from %.3f to %.3f, want a gain of %v and at least %v", alpha, before, after, minGain, minTPR)
	require.GreaterOrEqual(t, after, minTPR, "held-out TPR at FPR %v went from %.3f to %.3f, want a gain of %v and at least %v", alpha, before, after, minGain, minTPR)
}

// wdbcSplit parses the embedded CSV, shuffles the rows with a fixed seed, keeps the first
// fraction for training and standardises every feature with the training part's mean and
// standard deviation. x is row-major.
func wdbcSplit(t *testing.T, train float64) (xTrain, yTrain, xTest, yTest []float64) {
	rows, err := csv.NewReader(bytes.NewReader(dataset.WDBC)).ReadAll()
	require.NoError(t, err)
	header, rows := rows[0], rows[1:]
	require.Equal(t, dataset.WDBCLabel, header[len(header)-1], "last column %q, want %q", header[len(header)-1], dataset.WDBCLabel)
	d := len(header) - 1
	rand.New(rand.NewPCG(7, 7)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	nTrain := int(train * float64(len(rows)))
	parse := func(rows [][]string) (x, y []float64) {
		for _, r := range rows {
			for j, s := range r {
				v, err := strconv.ParseFloat(s, 64)
				require.NoError(t, err)
				if j == d {
					y = append(y, v)
				} else {
					x = append(x, v)
				}
			}
		}
		return x, y
	}
	xTrain, yTrain = parse(rows[:nTrain])
	xTest, yTest = parse(rows[nTrain:])
	for j := range d {
		mean, ss := 0.0, 0.0
		for i := j; i < len(xTrain); i += d {
			mean += xTrain[i]
		}
		mean /= float64(nTrain)
		for i := j; i < len(xTrain); i += d {
			ss += (xTrain[i] - mean) * (xTrain[i] - mean)
		}
		sd := math.Sqrt(ss / float64(nTrain-1))
		for _, x := range [][]float64{xTrain, xTest} {
			for i := j; i < len(x); i += d {
				x[i] = (x[i] - mean) / sd
			}
		}
	}
	return xTrain, yTrain, xTest, yTest
}

// linear returns the scores x·w of the row-major rows of x.
func linear(x, w []float64) []float64 {
	s := make([]float64, len(x)/len(w))
	for i := range s {
		for j, wj := range w {
			s[i] += x[i*len(w)+j] * wj
		}
	}
	return s
}

// tprAtFPR counts: the threshold is the (k+1)-th highest negative score with k = ⌊α·|B0|⌋, so
// at most k negatives (a false-positive rate of at most α) score above it, and the result is
// the fraction of positives scoring above it.
func tprAtFPR(scores, labels []float64, alpha float64) float64 {
	var neg []float64
	for i, s := range scores {
		if labels[i] == 0 {
			neg = append(neg, s)
		}
	}
	slices.Sort(neg)
	slices.Reverse(neg)
	threshold := neg[int(alpha*float64(len(neg)))]
	tp, p := 0, 0
	for i, s := range scores {
		if labels[i] == 1 {
			p++
			if s > threshold {
				tp++
			}
		}
	}
	return float64(tp) / float64(p)
}
