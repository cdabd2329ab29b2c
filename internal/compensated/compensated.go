// Package compensated holds the module's compensated summation, shared by the ops and by
// package data.
package compensated

import "math"

// Sum is a running compensated sum of Kahan–Babuška–Neumaier type (A. Neumaier,
// "Rundungsfehleranalyse einiger Verfahren zur Summation endlicher Summen", ZAMM 54, 1974).
// Each Add adds x to the running sum s and keeps the rounding error of that addition,
//
//	t = s + x,   c += (s − t) + x  when |s| ≥ |x|,  else  c += (x − t) + s,   s = t,
//
// and Value returns s + c. The error of Value is at most 2ε·|Σx| + O(n·ε²)·Σ|x| for n terms
// and unit roundoff ε, instead of the naive sum's (n − 1)·ε·Σ|x|. The zero value is the
// empty sum.
type Sum struct{ sum, comp float64 }

// Add adds x to the sum.
func (s *Sum) Add(x float64) {
	t := s.sum + x
	if math.Abs(s.sum) >= math.Abs(x) {
		s.comp += (s.sum - t) + x
	} else {
		s.comp += (x - t) + s.sum
	}
	s.sum = t
}

// Value returns the sum of the terms added so far.
func (s Sum) Value() float64 { return s.sum + s.comp }
