package opkit

import (
	"hash"
	"hash/fnv"
	"math"
	"reflect"
	"sync"

	"gorgonia.org/gorgonia"
)

// The pieces every loss op needs beside Apply, for op packages that write an op of their own
// (one with more inputs than scores and labels, such as package aucm's).

// LastMachine remembers the LispMachine that last ran a node's DoDiff, to recognise it when
// it runs the node's DoDiff again (a LispMachine reused after Reset; see graph.ErrMachineReused). It
// holds the machine (Gorgonia passes it to DoDiff as the context's External) until the next
// machine replaces it. The zero value is ready to use.
type LastMachine struct {
	mu sync.Mutex
	m  gorgonia.External
}

// Again records m and reports whether it is the machine recorded before.
func (l *LastMachine) Again(m gorgonia.External) bool {
	if m == nil || !reflect.TypeOf(m).Comparable() {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	same := l.m == m
	l.m = m
	return same
}

// SameBits reports whether a and b hold the same float64 bit patterns (so −0 ≠ +0, and a NaN
// never matches a different NaN): whether a kept gradient was computed from these inputs.
func SameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, x := range a {
		if math.Float64bits(x) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// HashOf is an op's Hashcode: the FNV-1a hash of what its WriteHash writes.
func HashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
