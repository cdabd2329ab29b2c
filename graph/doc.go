// Package graph holds small helpers for building and checking Gorgonia graphs; the gradient
// checker is its subpackage graph/gradcheck.
package graph
