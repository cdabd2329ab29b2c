//go:build !openblas

package nn

import (
	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/internal/sgemm"
)

// Without the build tag openblas, every Gorgonia graph and every Pass multiplies matrices
// with gonum's pure-Go BLAS, Gorgonia's default, with its matrix products, matrix–vector
// products and dot products routed to this module's kernels (sgemm.Implementation), installed
// here before any is built: their results depend on the operands' values alone, not on where
// the allocator placed them, in float32 as in float64. Build with -tags openblas for the
// system's OpenBLAS instead (see docs/reference.md, "Build tags: OpenBLAS").
func init() { gorgonia.Use(sgemm.Implementation{}) }

// blasName names the BLAS in use: gonum's, with the module's kernels.
const blasName = "gonum"
