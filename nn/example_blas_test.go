//go:build !openblas

package nn_test

import (
	"fmt"

	"github.com/rocops/rocops/nn"
)

// The default build multiplies with gonum's pure-Go BLAS (on the module's kernels); the build
// tag openblas links the system's OpenBLAS instead.
func ExampleBLAS() {
	fmt.Println(nn.BLAS())
	// Output: gonum
}
