//go:build openblas

package nn

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/netlib/blas/netlib"
	"gorgonia.org/gorgonia"
)

// With the build tag openblas, every Gorgonia graph and every Pass multiplies matrices with
// the system's OpenBLAS (through gonum's cgo binding), installed here before any is built.
func init() { gorgonia.Use(netlib.Implementation{}) }

// blasName names the BLAS in use.
const blasName = "openblas"
