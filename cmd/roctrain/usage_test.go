package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// runsUsage lists every name of the registry, each of which experiment.ParseRun reads.
func TestRunsUsage(t *testing.T) {
	u := runsUsage()
	for _, r := range train.Recipes() {
		require.Contains(t, u, "\n  "+r.Name+" ", r.Name)
		_, _, err := experiment.ParseRun(r.Name, 0, kdequantile.Config{Alpha: 0.1})
		require.NoError(t, err, r.Name)
	}
}
