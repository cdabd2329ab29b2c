//go:build !amd64 || purego

package logistic

// haveKernel is false without the amd64 assembly: PairRows computes its lanes in Go.
const haveKernel = false

func pairLanes(n int, f, up, down, grad *float64, rows *[25]float64, out *[24]float64) {
	panic("logistic: no kernel on this platform")
}
