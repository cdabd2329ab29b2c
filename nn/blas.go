package nn

// BLAS names the matrix-product library the module's graphs and passes use: "gonum" (pure
// Go, the default build: gonum's BLAS with its products on the module's own kernels) or
// "openblas" (the build tag openblas, which links the system's
// OpenBLAS through cgo).
func BLAS() string { return blasName }
