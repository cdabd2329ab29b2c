package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every count flag is accepted at its documented upper bound and refused one past it, as a
// flag error (exit status 2) naming the flag, before anything is read or trained. Before the
// bounds, -seeds 9223372036854775807 panicked in seedList, -boot 9223372036854775807
// panicked in package metrics' bootstrap after training, and -seed 18446744073709551615 -seeds 2
// trained its second repetition with seed 0.
func TestFlagBounds(t *testing.T) {
	layers := func(n, size int) string {
		return strings.TrimSuffix(strings.Repeat(fmt.Sprint(size)+",", n), ",")
	}
	for _, c := range []struct {
		flag          string
		atBound, past []string
	}{
		{"-epochs", []string{"-epochs", "100000"}, []string{"-epochs", "100001"}},
		{"-warmup", []string{"-warmup", "100000"}, []string{"-warmup", "100001"}},
		{"-batch", []string{"-batch", "1048576"}, []string{"-batch", "1048577"}},
		{"-seeds", []string{"-seeds", "1000"}, []string{"-seeds", "1001"}},
		{"-boot", []string{"-boot", "1000000"}, []string{"-boot", "1000001"}},
		{"-hidden", []string{"-hidden", layers(8, 4096)}, []string{"-hidden", layers(9, 4096)}},
		{"-hidden", []string{"-hidden", "4096"}, []string{"-hidden", "4097"}},
		{"-seed", []string{"-seed", "18446744073709551615", "-seeds", "1"}, []string{"-seed", "18446744073709551615", "-seeds", "2"}},
		{"-seed", []string{"-seed", "18446744073709551614", "-seeds", "2"}, []string{"-seed", "18446744073709551614", "-seeds", "3"}},
	} {
		t.Run(strings.Join(c.past, " "), func(t *testing.T) {
			_, err := parseFlags(c.atBound, io.Discard)
			require.NoError(t, err, "%v is within the bounds", c.atBound)

			code, stdout, stderr := roctrain(t, append(c.past, "-data", "/nonexistent.csv", "-plot", "")...)
			require.Equal(t, 2, code, stderr)
			require.Contains(t, stderr, c.flag)
			require.Empty(t, stdout)
			require.NotContains(t, stderr, "nonexistent", "refused before reading the data")
		})
	}
	_, err := parseFlags([]string{"-seeds", "9223372036854775807"}, io.Discard)
	require.ErrorContains(t, err, "-seeds must be in 1…1000")
	opt, err := parseFlags([]string{"-seed", "18446744073709551614", "-seeds", "2"}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, []uint64{18446744073709551614, 18446744073709551615}, opt.seedList())
}

// KDE options and -recall outside the loss's ranges are flag errors (exit 2) before any
// training. Before, -losses kde:widen=1e308 exited 0 with the cross-entropy phase's result
// reported as "kde", the error only in the log; -recall 1e-320 the same.
func TestLossSettingsCheckedAtFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-losses", "kde:widen=1e308"},
		{"-losses", "kde-plain:widen=1e-7"},
		{"-losses", "ce+kde:widen=1e308"},
		{"-losses", "ce,kde", "-recall", "1e-320"},
	} {
		code, stdout, stderr := roctrain(t, append(args, "-plot", "", "-epochs", "1")...)
		require.Equal(t, 2, code, "%q: %s", args, stderr)
		require.Contains(t, stderr, "-losses")
		require.Contains(t, stderr, "invalid setting")
		require.NotContains(t, stderr, "training")
		require.Empty(t, stdout)
	}
	_, err := parseFlags([]string{"-losses", "kde:widen=1e6,kde-plain:widen=1e-6", "-recall", "1e-16"}, io.Discard)
	require.NoError(t, err)
}
