package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// results runs the command with args and returns its exit status, stdout and stderr.
func results(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// logLines decodes the lines of a results log.
func logLines[T any](t *testing.T, path string) []T {
	t.Helper()
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []T
	for _, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		var r T
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		out = append(out, r)
	}
	return out
}

// A binary run logs one line per recipe and seed with figures in range, in the order the grid
// trains them; run again it trains nothing and leaves the log as it was, and with another seed
// it adds only that seed's runs. The table of the log shows each recipe's mean ± sd over the
// seeds as the rows give it.
func TestRunLogsAndResumes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	args := []string{"run", "-tasks", "tilted", "-seeds", "1", "-epochs", "2", "-recipes", "ce,kde-plain", "-out", out}
	code, _, stderr := results(t, args...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "[2/2] tilted/linear, α = 0.05, seed 1: kde-plain")
	rows := logLines[row](t, out)
	require.Len(t, rows, 2)
	for k, r := range rows {
		require.Equal(t, [4]any{"tilted/linear", 0.05, uint64(1), []string{"ce", "kde-plain"}[k]}, [4]any{r.Task, r.Alpha, r.Seed, r.Recipe})
		require.Contains(t, []float64{0.001, 0.003, 0.01}, r.LR)
		require.True(t, r.TPR > 0 && r.TPR <= 1 && r.AUC > 0 && r.AUC <= 1 && r.PAUC > 0 && r.PAUC <= 1, "%+v", r)
		require.True(t, r.Epoch >= 1 && r.Epoch <= 2, "%+v", r)
		require.Greater(t, r.NegTest, 14000) // about 80% of 20000 test rows
	}
	before, err := os.ReadFile(out)
	require.NoError(t, err)

	code, _, stderr = results(t, args...)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stderr, "seed 1", "nothing trains again")
	after, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))

	args[4] = "1,2"
	code, _, stderr = results(t, args...)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stderr, "seed 1")
	require.Contains(t, stderr, "[4/4] tilted/linear, α = 0.05, seed 2: kde-plain")
	rows = logLines[row](t, out)
	require.Len(t, rows, 4)

	code, table, stderr := results(t, "table", "-recipes", "ce,kde-plain", out)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(table, "\n")
	require.Equal(t, "| task | α | test negatives (fewest) | seeds | ce | kde-plain | kde-plain − ce |", lines[0])
	m, s := meanSD([]float64{rows[0].TPR, rows[2].TPR})
	require.True(t, strings.HasPrefix(lines[2], fmt.Sprintf("| tilted/linear | 0.05 | %d | 2 | %.3f ± %.3f |",
		min(rows[0].NegTest, rows[2].NegTest), m, s)), lines[2])
}

// writeRows writes the rows as a log with go test's own lines among them, which a table skips.
func writeRows(t *testing.T, rows ...any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	var b strings.Builder
	b.WriteString("=== RUN   TestResults\n")
	for _, r := range rows {
		line, err := json.Marshal(r)
		require.NoError(t, err)
		b.Write(append(line, '\n'))
	}
	b.WriteString("PASS\n")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// The binary table: means ± sample sd, paired-t intervals d̄ ± t_{0.975, k−1}·s_d/√k with a
// star where they exclude 0, a group column that picks the member with the better
// validation figure seed by seed, and the sums over the rows with the training time ratio.
func TestTableBinary(t *testing.T) {
	const t2 = 4.302652729749462 // t_{0.975, 2}, the 97.5% Student-t quantile with 2 degrees of freedom
	var rs []any
	for seed, v := range []struct{ ce, kde, val float64 }{{0.5, 0.6, 0.2}, {0.6, 0.8, 0.9}, {0.7, 1.0, 0.1}} {
		rs = append(rs,
			row{Task: "t", Alpha: 0.1, Seed: uint64(seed + 1), Recipe: "ce", TPR: v.ce, Val: 0.5, Secs: 1, NegTest: 100 + seed},
			row{Task: "t", Alpha: 0.1, Seed: uint64(seed + 1), Recipe: "kde", TPR: v.kde, Val: v.val, Secs: 3, NegTest: 100 + seed})
	}
	code, out, stderr := results(t, "table", "-recipes", "ce,kde,best", "-groups", "best=ce|kde", writeRows(t, rs...))
	require.Equal(t, 0, code, stderr)
	// kde − ce: 0.1, 0.2, 0.3 (mean 0.2, sd 0.1); best takes kde on seed 2 only: 0, 0.2, 0.
	h := t2 * 0.1 / math.Sqrt(3)
	hb := t2 * math.Sqrt(0.04/3) / math.Sqrt(3)
	want := "| task | α | test negatives (fewest) | seeds | ce | kde | kde − ce | best | best − ce |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
		fmt.Sprintf("| t | 0.1 | 100 | 3 | 0.600 ± 0.100 | 0.800 ± 0.200 | +0.200 [%+.3f, %+.3f] | 0.667 ± 0.153 | +0.067 [%+.3f, %+.3f] |\n",
			0.2-h, 0.2+h, 0.2/3-hb, 0.2/3+hb) +
		"\n| recipe | rows | mean − ce | above 0 | below 0 | lowest lower end | training time / ce |\n" +
		"|---|---:|---:|---:|---:|---|---|\n" +
		fmt.Sprintf("| kde | 1 | +0.200 | 0 | 0 | %+.3f (t 0.1) | 3.0 [3.0, 3.0] |\n", 0.2-h) +
		fmt.Sprintf("| best | 1 | +0.067 | 0 | 0 | %+.3f (t 0.1) | 1.7 [1.7, 1.7] |\n", 0.2/3-hb)
	require.Equal(t, want, out)

	code, out, _ = results(t, "table", "-recipes", "ce,kde", "-figure", "auc", writeRows(t, rs...))
	require.Equal(t, 0, code)
	require.Contains(t, out, "| t | 0.1 | 100 | 3 | 0.000 ± 0.000 | 0.000 ± 0.000 | +0.000 [+0.000, +0.000] |")

	// A difference whose interval lies above 0 is starred and counted.
	var up []any
	for seed, v := range []float64{0.1, 0.11, 0.12} {
		up = append(up, row{Task: "t", Alpha: 0.1, Seed: uint64(seed + 1), Recipe: "ce", TPR: 0.5, Secs: 1},
			row{Task: "t", Alpha: 0.1, Seed: uint64(seed + 1), Recipe: "kde", TPR: 0.5 + v, Secs: 2})
	}
	code, out, _ = results(t, "table", "-recipes", "ce,kde", writeRows(t, up...))
	require.Equal(t, 0, code)
	hu := t2 * 0.01 / math.Sqrt(3)
	require.Contains(t, out, fmt.Sprintf("| 0.500 ± 0.000 | 0.610 ± 0.010 | +0.110 [%+.3f, %+.3f] * |\n", 0.11-hu, 0.11+hu))
	require.Contains(t, out, fmt.Sprintf("| kde | 1 | +0.110 | 1 | 0 | %+.3f (t 0.1) | 2.0 [2.0, 2.0] |\n", 0.11-hu))
}

// writeVehicle writes a small multi-class panel file, vehicle.csv: four classes of 60 rows
// each, the class shifting its three features.
func writeVehicle(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,b,c,class\n")
	for i := range 240 {
		c := i % 4
		fmt.Fprintf(&b, "%g,%g,%g,%s\n", math.Sin(float64(i*i))+0.8*float64(c), math.Cos(float64(3*i))-0.6*float64(c%2),
			math.Sin(float64(7*i)), []string{"bus", "opel", "saab", "van"}[c])
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "vehicle.csv"), []byte(b.String()), 0o644))
}

// A multi-class run on a panel file logs each run's test macro OvO and OvR AUC per seed and
// resumes as the binary runs do; its table shows the runs with the learning rates chosen.
func TestClassesLogsAndResumes(t *testing.T) {
	panel := t.TempDir()
	writeVehicle(t, panel)
	out := filepath.Join(t.TempDir(), "mc.jsonl")
	args := []string{"classes", "-panel", panel, "-tasks", "vehicle", "-runs", "ce,hinge:ovo", "-seeds", "1,2", "-epochs", "2", "-out", out}
	code, _, stderr := results(t, args...)
	require.Equal(t, 0, code, stderr)
	rows := logLines[classRow](t, out)
	require.Len(t, rows, 4)
	for k, r := range rows {
		require.Equal(t, [3]any{"vehicle", uint64(1 + k/2), []string{"ce", "hinge:ovo"}[k%2]}, [3]any{r.Task, r.Seed, r.Run})
		require.True(t, r.OvO > 0.5 && r.OvO <= 1 && r.OvR > 0.5 && r.OvR <= 1, "%+v", r)
	}
	code, _, stderr = results(t, args...)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stderr, "seed")
	require.Len(t, logLines[classRow](t, out), 4)

	code, table, stderr := results(t, "classes-table", out)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, table, "\nvehicle: test macro AUC\n\n| run | seeds | OvO | OvO − ce [95%] | OvR | OvR − ce [95%] | learning rates |\n")
	m, s := meanSD([]float64{rows[0].OvO, rows[2].OvO})
	require.Contains(t, table, fmt.Sprintf("| ce | 2 | %.4f ± %.4f | – |", m, s))
}

// The classes table: per task the runs with each figure's mean ± sd and paired difference
// from each baseline the task has, a group that picks its member seed by seed, the runs of
// -show in order, the learning rates chosen, and the table of +wu and sqhinge comparisons.
func TestTableClasses(t *testing.T) {
	var rs []any
	for seed := uint64(1); seed <= 3; seed++ {
		d := 0.02 + float64(seed-1)/1000 // the +wu run gains 0.020, 0.021, 0.022
		rs = append(rs,
			classRow{Task: "v", Seed: seed, Run: "ce", LR: 0.01, Val: 0.5, OvO: 0.8, OvR: 0.7},
			classRow{Task: "v", Seed: seed, Run: "hinge:ovr", LR: 0.001, Val: 0.6, OvO: 0.8, OvR: 0.7},
			classRow{Task: "v", Seed: seed, Run: "hinge:ovr+wu", LR: 0.003 * float64(seed%2+1), Val: 0.4, OvO: 0.8 + d, OvR: 0.7 + d},
			classRow{Task: "l", Seed: seed, Run: "ce", LR: 0.01, OvR: 0.9})
	}
	code, out, stderr := results(t, "classes-table", "-base", "ce,nosuch", "-groups", "best=hinge:ovr|hinge:ovr+wu",
		"-show", "best,hinge:ovr+wu,hinge:ovr,ce", writeRows(t, rs...))
	require.Equal(t, 0, code, stderr)
	h := 4.302652729749462 * 0.001 / math.Sqrt(3) // the paired-t half-width of 0.020, 0.021, 0.022
	want := "\nv: test macro AUC\n\n" +
		"| run | seeds | OvO | OvO − ce [95%] | OvR | OvR − ce [95%] | learning rates |\n" +
		"|---|---:|---:|---:|---:|---:|---|\n" +
		"| best | 3 | 0.8000 ± 0.0000 | +0.0000 [+0.0000, +0.0000] | 0.7000 ± 0.0000 | +0.0000 [+0.0000, +0.0000] | hinge:ovr 0.001: 3 |\n" +
		fmt.Sprintf("| hinge:ovr+wu | 3 | 0.8210 ± 0.0010 | +0.0210 [%+.4f, %+.4f] * | 0.7210 ± 0.0010 | +0.0210 [%+.4f, %+.4f] * | 0.003: 1, 0.006: 2 |\n",
			0.021-h, 0.021+h, 0.021-h, 0.021+h) +
		"| hinge:ovr | 3 | 0.8000 ± 0.0000 | +0.0000 [+0.0000, +0.0000] | 0.7000 ± 0.0000 | +0.0000 [+0.0000, +0.0000] | 0.001: 3 |\n" +
		"| ce | 3 | 0.8000 ± 0.0000 | – | 0.7000 ± 0.0000 | – | 0.01: 3 |\n" +
		"\nv: paired differences\n\n| comparison | OvO [95%] | OvR [95%] |\n|---|---:|---:|\n" +
		fmt.Sprintf("| hinge:ovr+wu − hinge:ovr | +0.0210 [%+.4f, %+.4f] * | +0.0210 [%+.4f, %+.4f] * |\n", 0.021-h, 0.021+h, 0.021-h, 0.021+h) +
		"\nl: test macro AUC\n\n" +
		"| run | seeds | label-wise | label-wise − ce [95%] | learning rates |\n" +
		"|---|---:|---:|---:|---|\n" +
		"| ce | 3 | 0.9000 ± 0.0000 | – | 0.01: 3 |\n"
	require.Equal(t, want, out)
}

// Bad usage is exit status 2 before anything trains; a panel task without -panel, or a run
// that does not fit the task, fails with a message saying why.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: results run|table|classes|classes-table"},
		{[]string{"nosuch"}, 2, "usage:"},
		{[]string{"run", "-tasks", "nosuch", "-out", filepath.Join(dir, "a")}, 2, `unknown task "nosuch"`},
		{[]string{"run", "-metric", "pauc"}, 2, `-metric: want "auc"`},
		{[]string{"run", "-seeds", "1,x"}, 2, "-seeds"},
		{[]string{"run", "-recipes", "kde+wu", "-out", filepath.Join(dir, "b")}, 2, "already starts from cross-entropy"},
		{[]string{"run", "-tasks", "spam", "-out", filepath.Join(dir, "c")}, 1, "spambase.csv is a file of the panel: set -panel"},
		{[]string{"table", "-figure", "tnr"}, 2, "-figure: want tpr, pauc or auc"},
		{[]string{"table", filepath.Join(dir, "none.jsonl")}, 1, "no such file"},
		{[]string{"classes", "-tasks", "vehicle", "-runs", "hinge:labels", "-out", filepath.Join(dir, "d")}, 2, `split "labels" does not fit the task`},
	} {
		code, _, stderr := results(t, c.args...)
		require.Equal(t, c.code, code, "%v: %s", c.args, stderr)
		require.Contains(t, stderr, c.want, c.args)
	}
	_, err := os.Stat(filepath.Join(dir, "a"))
	require.ErrorIs(t, err, os.ErrNotExist, "a usage error writes no log")
}
