package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/experiment"
)

// The plot shows the first seed that every run finished.
func TestPlottedSeed(t *testing.T) {
	o := &options{seed: 1, seeds: 3}
	results := []experiment.Summary{
		{PerSeed: []seedResult{{Seed: 2, Name: "a"}, {Seed: 3, Name: "a"}}},
		{PerSeed: []seedResult{{Seed: 1, Name: "b"}, {Seed: 2, Name: "b"}, {Seed: 3, Name: "b"}}},
	}
	runs, note := plotted(o, results)
	require.Equal(t, "seed 2 of seeds 1–3", note)
	require.Len(t, runs, 2)
	require.Equal(t, []string{"a", "b"}, []string{runs[0].Name, runs[1].Name})
	for _, r := range runs {
		require.Equal(t, uint64(2), r.Seed)
	}
	o.seeds = 1
	runs, note = plotted(o, results[1:])
	require.Equal(t, "", note)
	require.Len(t, runs, 1)
}
