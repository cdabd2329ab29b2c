package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A flag the runs would accept and ignore is a flag error (status 2) naming it, before any
// data is read or run trained: -warmup without a "+wu" run (no run reads it), -lr when every
// run is aucm (whose search tries PESG's rates, or aucm:lr=η's one, never -lr's), and
// -diagnose with -plot "" and no -json (diagnostics computed and shown nowhere). Each was
// accepted and ignored. The same flags where a run or an output uses them pass.
func TestIgnoredFlagsRefused(t *testing.T) {
	cases := []struct {
		args []string
		want string // "" when the flags parse
	}{
		{[]string{"-warmup", "5", "-losses", "ce,sqhinge"},
			`-warmup 5 sets the cross-entropy warm-up of the "+wu" runs, and -losses ce,sqhinge has none (such as sqhinge+wu)`},
		{[]string{"-warmup", "5", "-losses", "ce,sqhinge+wu"}, ""},
		{[]string{"-losses", "ce,sqhinge"}, ""}, // -warmup's default is not a flag given
		{[]string{"-lr", "0.1", "-losses", "aucm,aucm:lr=0.2"},
			"-lr sets the learning rates of the Adam runs, and every run of -losses aucm,aucm:lr=0.2 searches its own " +
				"(aucm: PESG's 0.03, 0.1 and 0.3; aucm:lr=η fixes one)"},
		{[]string{"-lr", "0.1", "-losses", "aucm,ce"}, ""},
		{[]string{"-losses", "aucm"}, ""},
		{[]string{"-diagnose", "-plot", ""},
			`-diagnose with -plot "" and no -json: the diagnostics would be shown nowhere (they are -json's "diagnostics" and the PNG beside -plot)`},
		{[]string{"-diagnose", "-plot", "", "-json"}, ""},
		{[]string{"-diagnose", "-plot", "roc.png"}, ""},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, err := parseFlags(c.args, io.Discard)
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, c.want)
			code, stdout, stderr := roctrain(t, append(c.args, "-data", "/nonexistent.csv")...)
			require.Equal(t, 2, code, stderr)
			require.Equal(t, "roctrain: "+c.want+"\n", stderr)
			require.Empty(t, stdout)
		})
	}
}

// On data of classes or labels the losses default to the task's list, which holds no "+wu"
// run: -warmup without -losses is refused once the data says so, before any run trains.
func TestIgnoredWarmupOfTaskLosses(t *testing.T) {
	path := writeClassCSV(t, t.TempDir(), 60, []string{"a", "b", "c"})
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "kind", "-warmup", "3", "-epochs", "1", "-plot", "")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Equal(t, `roctrain: -warmup 3 sets the cross-entropy warm-up of the "+wu" runs, and -losses ce,sqhinge,sqhinge:ovo,aucm has none (such as sqhinge+wu)`+"\n", stderr)
}

// A -batch too small for one row of every class (k rows) or a 1 and a 0 of every label (2k)
// is refused before training in one line naming -batch (every run and learning rate failed,
// each naming train's Config field BatchSize); -batch at the bound trains.
func TestBatchTooSmallForTheTask(t *testing.T) {
	dir := t.TempDir()
	classes, labels := writeClassCSV(t, dir, 60, []string{"a", "b", "c", "d"}), writeLabelsCSV(t, dir, 100)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-data", classes, "-label", "kind", "-batch", "3"}, "-batch 3 cannot hold one row of each of the 4 classes; set -batch ≥ 4"},
		{[]string{"-data", labels, "-label", "p,q,r", "-batch", "5"}, "-batch 5 cannot hold a 1 and a 0 of each of the 3 labels; set -batch ≥ 6"},
	} {
		code, stdout, stderr := roctrain(t, append(c.args, "-losses", "ce", "-epochs", "1", "-plot", "", "-boot", "0")...)
		require.Equal(t, 1, code, stderr)
		require.Empty(t, stdout)
		require.Equal(t, "roctrain: "+c.want+"\n", stderr)
	}
	for _, args := range [][]string{{"-data", classes, "-label", "kind", "-batch", "4"}, {"-data", labels, "-label", "p,q,r", "-batch", "6"}} {
		code, _, stderr := roctrain(t, append(args, "-losses", "ce", "-epochs", "1", "-lr", "0.01", "-plot", "", "-boot", "0")...)
		require.Equal(t, 0, code, stderr)
	}
}
