//go:build results

package train

// TiltedTask is compare_test.go's tilted-outlier task for the results harness, which lives in
// package train_test so that it can build on package experiment.
var TiltedTask = tiltedTask
