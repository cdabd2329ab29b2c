package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/train"
)

// runsUsage lists every name of the registry, each of which train.Names reads.
func TestRunsUsage(t *testing.T) {
	u := runsUsage()
	for _, r := range train.Recipes() {
		require.Contains(t, u, "\n  "+r.Name+" ", r.Name)
		_, _, err := train.Names{Point: train.Point{Alpha: 0.1}}.Parse(r.Name)
		require.NoError(t, err, r.Name)
	}
}
