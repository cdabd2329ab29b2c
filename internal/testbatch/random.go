package testbatch

import (
	"math/rand/v2"

	"github.com/rocops/rocops/internal/floats"
)

// Shifted draws n binary rows from rand.NewPCG(seed, stream). Row 0 is a positive and row 1
// a negative; each later row is a positive when a uniform draw on [0, 1) falls below posFrac.
// After its label y ∈ {0, 1}, each row draws its score
//
//	f = z + shift·y
//
// with z a standard normal draw, so that shift is the distance between the classes' means.
func Shifted(seed, stream uint64, n int, posFrac, shift float64) (scores, labels []float64) {
	r := rand.New(rand.NewPCG(seed, stream))
	scores, labels = make([]float64, n), make([]float64, n)
	for i := range scores {
		if i == 0 || (i > 1 && r.Float64() < posFrac) {
			labels[i] = 1
		}
		scores[i] = r.NormFloat64() + shift*labels[i]
	}
	return scores, labels
}

// Spread draws n binary rows from rand.NewPCG(seed, stream): each row's score
//
//	f = spread·z
//
// with z a standard normal draw, then its label, 1 when a uniform draw on [0, 1) falls below
// pos. Scores and labels are independent; row 0 is then made a positive and row n − 1 a
// negative, whatever they drew, so that both classes are present when n ≥ 2.
func Spread(seed, stream uint64, n int, pos, spread float64) (scores, labels []float64) {
	r := rand.New(rand.NewPCG(seed, stream))
	scores, labels = make([]float64, n), make([]float64, n)
	for i := range scores {
		scores[i] = spread * r.NormFloat64()
		if r.Float64() < pos {
			labels[i] = 1
		}
	}
	labels[0], labels[n-1] = 1, 0
	return scores, labels
}

// Uniform draws rows·cols values from rand.NewPCG(seed, stream), row-major: each 4u − 2 for u
// a uniform draw on [0, 1), so uniform on [−2, 2), rounded to T.
func Uniform[T floats.Float](seed, stream uint64, rows, cols int) []T {
	r := rand.New(rand.NewPCG(seed, stream))
	x := make([]T, rows*cols)
	for i := range x {
		x[i] = T(4*r.Float64() - 2)
	}
	return x
}

// Normal draws rows·cols standard normal values from rand.NewPCG(seed, stream), row-major.
func Normal(seed, stream uint64, rows, cols int) []float64 {
	r := rand.New(rand.NewPCG(seed, stream))
	x := make([]float64, rows*cols)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	return x
}
