package pairwise

import (
	"math"
	"runtime"
	"testing"
	"time"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/race"
	"github.com/stretchr/testify/require"
)

// TestFailedTapeRunsLeakNothing backs the safe pattern of the package doc: a TapeMachine whose
// run fails (a NaN score) leaves no goroutine behind, where each failed LispMachine run leaks
// one inside Gorgonia.
func TestFailedTapeRunsLeakNothing(t *testing.T) {
	const runs = 50
	before := runtime.NumGoroutine()
	for range runs {
		g, scores, labels := newGraph(t, tensor.Float64, []float64{0, math.NaN(), 1}, []float64{0, 1, 1})
		cost, err := Loss(scores, labels, Config{Surrogate: Logistic})
		require.NoError(t, err)
		_, err = gorgonia.Grad(cost, scores)
		require.NoError(t, err)
		vm := gorgonia.NewTapeMachine(g)
		err = graph.RunAll(vm)
		require.ErrorIs(t, err, rocops.ErrNonFinite, "RunAll: %v, want rocops.ErrNonFinite", err)
		vm.Close()
	}
	// Goroutines of other tests' parallel kernels may still be exiting: allow a few, far
	// fewer than one per failed run.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before+5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	n := runtime.NumGoroutine() - before
	require.LessOrEqual(t, n, 5, "%d failed TapeMachine runs left %d goroutines", runs, n)
}

// TestFailedLispRunsLeak backs docs/gorgonia.md's warning about Gorgonia v0.9.18: every failed
// RunAll of a LispMachine (here a NaN score) leaves one goroutine blocked for good, so 200
// failures leave about 200. If Gorgonia fixes this, the test fails and docs/gorgonia.md's warning
// is to be dropped. The failing runs race inside Gorgonia, so not under -race.
func TestFailedLispRunsLeak(t *testing.T) {
	if race.Enabled {
		t.Skip("a failed LispMachine run races inside Gorgonia (internal/race)")
	}
	const runs = 200
	before := runtime.NumGoroutine()
	for range runs {
		g, scores, labels := newGraph(t, tensor.Float64, []float64{0, math.NaN(), 1}, []float64{0, 1, 1})
		// The machine differentiates the graph's last node, the loss, itself.
		_, err := Loss(scores, labels, Config{Surrogate: Logistic})
		require.NoError(t, err)
		vm := gorgonia.NewLispMachine(g)
		err = graph.RunAll(vm)
		require.ErrorIs(t, err, rocops.ErrNonFinite, "RunAll: %v, want rocops.ErrNonFinite", err)
		vm.Close()
	}
	time.Sleep(50 * time.Millisecond) // let anything that can exit, exit
	n := runtime.NumGoroutine() - before
	require.GreaterOrEqual(t, n, runs*9/10, "%d failed LispMachine runs left %d goroutines; docs/gorgonia.md says one each", runs, n)
	t.Logf("%d failed LispMachine runs left %d goroutines", runs, n)
}
