package testbatch

import (
	"encoding/binary"
	"math"
)

// MaxLen is the most scores Decode returns, so that a fuzz input stays cheap to evaluate.
const MaxLen = 64

// Decode reads 9 bytes per element: a float64 score (its little-endian bits, so that NaN,
// ±Inf, subnormals and huge values all occur) and a label byte taken mod 3 (so that the
// invalid label 2 occurs too), up to MaxLen elements; a shorter tail is ignored.
func Decode(data []byte) (scores, labels []float64) {
	for len(data) >= 9 && len(scores) < MaxLen {
		scores = append(scores, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		labels = append(labels, float64(data[8]%3))
		data = data[9:]
	}
	return scores, labels
}

// Encode is the inverse of Decode for labels 0, 1 and 2.
func Encode(scores, labels []float64) []byte {
	var b []byte
	for k, f := range scores {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		b = append(b, byte(labels[k]))
	}
	return b
}

// Valid reports whether scores and labels form a batch every loss op accepts, written
// independently of the ops' own checks: non-empty, of one length, finite scores, labels 0 or
// 1 with both present.
func Valid(scores, labels []float64) bool {
	if len(scores) == 0 || len(scores) != len(labels) {
		return false
	}
	var pos, neg int
	for k, f := range scores {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
		switch labels[k] {
		case 1:
			pos++
		case 0:
			neg++
		default:
			return false
		}
	}
	return pos > 0 && neg > 0
}

// Classes reads a k-class batch from rows of k + 1 bytes, at most maxRows of them: a class
// index taken mod k + 1 (so that the invalid index k occurs too), then the row's k scores,
// level(b) of each byte b; a shorter tail is ignored. The scores are row-major n×k.
func Classes(data []byte, k, maxRows int, level func(b byte) float64) (scores []float64, labels []int) {
	n := min(len(data)/(k+1), maxRows)
	scores, labels = make([]float64, n*k), make([]int, n)
	for i := range n {
		row := data[i*(k+1) : (i+1)*(k+1)]
		labels[i] = int(row[0]) % (k + 1)
		for c := range k {
			scores[i*k+c] = level(row[c+1])
		}
	}
	return scores, labels
}
