package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tinyArgs run the whole command on tiny sizes in a second or two: every kernel, baseline and
// floor, every training loss, the report and the plots.
var tinyArgs = []string{"-quick", "-n", "64,2^7", "-batch", "32,64", "-repeats", "2", "-min", "1ms"}

// runTiny runs the command with tinyArgs and extra, returning standard output.
func runTiny(t *testing.T, extra ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(append(append([]string{}, tinyArgs...), extra...), &stdout, &stderr); err != nil {
		require.Fail(t, fmt.Sprintf("run: %v\nstderr:\n%s", err, stderr.String()))
	}
	assert.Contains(t, stderr.String(), "done", "no progress on standard error: %q", stderr.String())
	return stdout.Bytes()
}

// TestQuick runs the command once with every output: -json on standard output, -out and -doc.
func TestQuick(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "benchmarks.md")
	const before, after = "# Benchmarks\n\nHand-written.\n\n", "\nMore hand-written text.\n"
	require.NoError(t, os.WriteFile(doc, []byte(before+beginMarker+"\nold report\n"+endMarker+after), 0o644))
	out := filepath.Join(dir, "bench")
	var rep report
	if err := json.Unmarshal(runTiny(t, "-json", "-out", out, "-doc", doc), &rep); err != nil {
		require.Fail(t, fmt.Sprintf("the JSON does not parse: %v", err))
	}
	checkFigures(t, &rep)
	checkOutputs(t, out, doc, before, after)

	// -from renders the same report again from the figures, measuring nothing.
	again := filepath.Join(dir, "again")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-from", filepath.Join(out, "figures.json"), "-out", again}, &stdout, &stderr); err != nil {
		require.Fail(t, fmt.Sprintf("-from: %v", err))
	}
	a, errA := os.ReadFile(filepath.Join(out, "README.md"))
	b, errB := os.ReadFile(filepath.Join(again, "README.md"))
	assert.False(t, errA != nil || errB != nil || !bytes.Equal(a, b), "-from rendered a different report (%v, %v)", errA, errB)
}

// checkFigures checks the figures of a run with tinyArgs.
func checkFigures(t *testing.T, rep *report) {
	t.Helper()
	assert.False(t, rep.Env.GoVersion == "" || rep.Env.BLAS == "" || rep.Env.GOMAXPROCS < 1 || rep.Env.Command == "", "environment incomplete: %+v", rep.Env)

	// Every kernel is present, ran at both sizes with positive times and allocations.
	got := map[string]*series{}
	for _, s := range rep.Kernels {
		got[s.Name] = s
	}
	kinds := map[kind]int{}
	for _, k := range kernels() {
		s := got[k.Name]
		if s == nil {
			assert.Fail(t, fmt.Sprintf("kernel %s missing", k.Name))
			continue
		}
		kinds[s.Kind]++
		assert.False(t, len(s.Points) != 2 || s.Stopped != "", "%s: %d points, stopped %q; want both sizes", k.Name, len(s.Points), s.Stopped)
		for _, p := range s.Points {
			if !(p.Seconds.Median > 0) || p.Seconds.Min > p.Seconds.Median || p.Seconds.Median > p.Seconds.Max ||
				p.Seconds.Repeats != 2 || p.Bytes <= 0 {
				assert.Fail(t, fmt.Sprintf("%s at n = %d: bad figures %+v", k.Name, p.N, p))
			}
			assert.False(t, cpuAvailable() && (p.CPU == nil || p.CPU.Repeats != 2 || p.CPU.Median < 0), "%s at n = %d: processor time %+v", k.Name, p.N, p.CPU)
		}
	}
	// The KDE and pairwise baselines, the two floors.
	assert.False(t, kinds[baseline] != 6 || kinds[floor] != 2, "kinds %v: want 6 baselines and 2 floors", kinds)

	// Every training loss and the floor at both batch sizes.
	for _, b := range []int{32, 64} {
		for _, l := range append(lossNames(), matmulFloor) {
			tp, ok := rep.training(l, b)
			if !ok {
				assert.Fail(t, fmt.Sprintf("training %s at batch %d missing", l, b))
				continue
			}
			assert.False(t, !(tp.ExamplesPerSecond > 0) || math.IsInf(tp.ExamplesPerSecond, 0), "training %s at batch %d: %v examples/s", l, b, tp.ExamplesPerSecond)
		}
	}

	// Every ratio is finite and positive, and there is one per pair, size or batch.
	want := 2*len(kernelRatios()) + 2*(2*len(lossNames())-1)
	assert.Len(t, rep.Ratios, want, "%d ratios, want %d", len(rep.Ratios), want)
	for _, r := range rep.Ratios {
		assert.False(t, !(r.Value > 0) || math.IsInf(r.Value, 0), "ratio %s ÷ %s at %d is %v", r.Num, r.Den, r.N, r.Value)
	}
}

// checkOutputs checks the files of -out and the document of -doc.
func checkOutputs(t *testing.T, out, doc, before, after string) {
	t.Helper()
	for _, name := range []string{"kde.png", "pairwise.png", "metrics.png", "training.png"} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			assert.Fail(t, fmt.Sprint(err))
			continue
		}
		if _, err := png.Decode(f); err != nil {
			assert.Fail(t, fmt.Sprintf("%s: %v", name, err))
		}
		f.Close()
	}
	var rep report
	if b, err := os.ReadFile(filepath.Join(out, "figures.json")); err != nil {
		assert.Fail(t, fmt.Sprint(err))
	} else if err := json.Unmarshal(b, &rep); err != nil {
		assert.Fail(t, fmt.Sprintf("figures.json: %v", err))
	}
	readme, err := os.ReadFile(filepath.Join(out, "README.md"))
	require.NoError(t, err)
	for _, s := range []string{"# Benchmark report", "](kde.png)", "| 2^7 |", "naive/pairwise/sqhinge", "GOMAXPROCS",
		"# Partial AUC", "partial ÷ full", "# AUC-M", "| `aucm.Gradient` | n sigmoids |", "MaxFPR = 0.1, at most 1.5×"} {
		assert.Contains(t, string(readme), s, "README.md lacks %q", s)
	}

	// The document keeps its own text and gets the report between the markers, one heading
	// level down, linking the plots in bench/.
	b, err := os.ReadFile(doc)
	require.NoError(t, err)
	text := string(b)
	assert.False(t, !strings.HasPrefix(text, before+beginMarker+"\n## Benchmark report") || !strings.HasSuffix(text, endMarker+after), "the document's own text changed:\n%s", text)
	assert.False(t, strings.Contains(text, "old report") || !strings.Contains(text, "](bench/pairwise.png)"), "the report was not spliced in with links into bench/")
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "2^5..2^3"}, {"-n", "12"}, {"-n", "64,32"}, {"-n", "x"}, {"-repeats", "-1"},
		{"-mem-budget", "0"}, {"-doc", "x.md"}, {"stray"}, {"-clock", "sundial"},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(args, &stdout, &stderr); err == nil {
			assert.Fail(t, fmt.Sprintf("%q: no error", args))
		}
	}
}

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("2^4..2^6, 100,2^8")
	require.NoError(t, err)
	want := []int{16, 32, 64, 100, 256}
	require.Len(t, got, len(want), "got %v, want %v", got, want)
	for i := range want {
		require.True(t, got[i] == want[i], "got %v, want %v", got, want)
	}
}

// TestBudgetsStopBaselines checks that a budget stops the baselines and the quadratic ops
// after their first size, with the reason in the figures and the report, and never the other
// ops or the floors.
func TestBudgetsStopBaselines(t *testing.T) {
	for _, tc := range []struct{ flag, value, why string }{
		{"-time-budget", "1ns", "would take"},
		{"-mem-budget", "1e-9", "would allocate"},
	} {
		clk := "wall"
		if tc.flag == "-mem-budget" && cpuAvailable() {
			clk = "cpu" // and the report on processor time
		}
		t.Run(tc.flag, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := []string{"-quick", "-n", "64,128", "-batch", "32", "-repeats", "1", "-min", "1ms", "-json", "-clock", clk, tc.flag, tc.value}
			require.NoError(t, run(args, &stdout, &stderr))
			var rep report
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
			for _, k := range kernels() {
				s := rep.kernel(k.Name)
				if !k.budgeted() {
					assert.False(t, s.Stopped != "" || len(s.Points) != 2, "%s was stopped (%q) or missed a size", k.Name, s.Stopped)
					continue
				}
				assert.False(t, len(s.Points) != 1 || s.StoppedAt != 128 || !strings.Contains(s.Stopped, tc.why), "%s: %d points, stopped at %d: %q; want a stop at 128 because it %s", k.Name, len(s.Points), s.StoppedAt, s.Stopped, tc.why)
				assert.Contains(t, stderr.String(), k.Name+" stopped at n = 128", "no progress note for %s", k.Name)
				assert.Contains(t, rep.markdown(""), "| "+k.Name+" | 2^7 | one call "+tc.why, "the report does not say why %s stopped", k.Name)
			}
			assert.False(t, clk == "cpu" && !strings.Contains(rep.markdown(""), "**processor time**"), "the report does not say its times are processor time")
		})
	}
}

func TestSummarize(t *testing.T) {
	// Five repeats, one slowed by other work: the median and the quartiles ignore it.
	s := summarize([]float64{1.1, 0.9, 1.0, 9, 1.2})
	assert.False(t, s.Median != 1.1 || s.Q1 != 1.0 || s.Q3 != 1.2 || s.Min != 0.9 || s.Max != 9 || s.Repeats != 5, "summarize = %+v", s)
	if got, want := s.Spread(), 0.2/2.2; math.Abs(got-want) > 1e-15 {
		assert.Fail(t, fmt.Sprintf("spread %v, want %v", got, want))
	}
	if s := summarize([]float64{2, 1}); s.Median != 1.5 || s.Q1 != 1 || s.Q3 != 2 {
		assert.Fail(t, fmt.Sprintf("two repeats: %+v", s))
	}
}
