package aucm

import "github.com/rocops/rocops"

// one returns x as the variable of the one column of binary data.
func one(x float64) []float64 { return []float64{x} }

// gradient1 is Gradient on binary data, the variables of its one column and their derivatives
// as scalars.
func gradient1(z, y []float64, a, b, alpha float64, cfg Config) (dz []float64, da, db, dalpha, value float64, err error) {
	dz, das, dbs, dals, value, err := Gradient(z, y, one(a), one(b), one(alpha), cfg)
	if err != nil {
		return nil, 0, 0, 0, 0, err
	}
	return dz, das[0], dbs[0], dals[0], value, nil
}

// evaluate1 is Evaluate on binary data at scalar variables.
func evaluate1(z, y []float64, a, b, alpha float64, cfg Config) (float64, error) {
	return Evaluate(z, y, one(a), one(b), one(alpha), cfg)
}

// multiclassGradient is Gradient on the task of k classes, for class indices given as ints.
func multiclassGradient(z []float64, k int, y []int, a, b, alpha []float64, cfg Config) (
	dz, da, db, dalpha []float64, value float64, err error) {
	cfg.Task = rocops.Classes(k)
	return Gradient(z, classIndices(y), a, b, alpha, cfg)
}

// multilabelGradient is Gradient on the task of k labels; one label column is binary data.
func multilabelGradient(z []float64, k int, y, a, b, alpha []float64, cfg Config) (
	dz, da, db, dalpha []float64, value float64, err error) {
	if k != 1 {
		cfg.Task = rocops.Labels(k)
	}
	return Gradient(z, y, a, b, alpha, cfg)
}

// classIndices returns class indices in float64, as the loss takes them.
func classIndices(y []int) []float64 {
	out := make([]float64, len(y))
	for i, c := range y {
		out[i] = float64(c)
	}
	return out
}
