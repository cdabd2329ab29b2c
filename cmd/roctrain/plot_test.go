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
		{PerSeed: []seedResult{{Seed: 2, Name: "a", ScoresHash: 1}, {Seed: 3, Name: "a", ScoresHash: 1}}},
		{PerSeed: []seedResult{{Seed: 1, Name: "b"}, {Seed: 2, Name: "b", ScoresHash: 2}, {Seed: 3, Name: "b", ScoresHash: 1}}},
	}
	f := plotted(o, results)
	require.Equal(t, "seed 2 of seeds 1–3", f.note)
	require.True(t, f.seeds)
	require.Len(t, f.groups, 2)
	require.Equal(t, []string{"a", "b"}, []string{label(f.groups[0]), label(f.groups[1])})
	for _, g := range f.groups {
		require.Equal(t, uint64(2), g[0].Seed)
	}
	f = plotted(&options{seed: 3, seeds: 1}, []experiment.Summary{{PerSeed: results[0].PerSeed[1:]}, {PerSeed: results[1].PerSeed[2:]}})
	require.Len(t, f.groups, 1, "the same scores on seed 3: drawn once")
	require.Equal(t, "a = b", label(f.groups[0]))
	o.seeds = 1
	f = plotted(o, results[1:])
	require.Equal(t, "", f.note)
	require.Len(t, f.groups, 1)
}
