//go:build !openblas

package nn

// blasName names the BLAS in use: gonum's pure-Go implementation, Gorgonia's default. Build
// with -tags openblas for the system's OpenBLAS instead (see the README).
const blasName = "gonum"
