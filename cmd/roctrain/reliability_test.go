package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
)

// asMain is the environment variable under which the test binary runs main with the JSON
// list of arguments it holds, so that a test can send the command a real signal.
const asMain = "ROCTRAIN_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if args := os.Getenv(asMain); args != "" {
		var list []string
		if err := json.Unmarshal([]byte(args), &list); err != nil {
			panic(err)
		}
		os.Args = append([]string{"roctrain"}, list...)
		main()
		return
	}
	os.Exit(m.Run())
}

// Non-positive hidden layer sizes are bad usage, reported at flag checking with status 2,
// before any training (they exited 1 after printing "training …").
func TestHiddenSizesCheckedAtFlags(t *testing.T) {
	for _, hidden := range []string{"0", "-5", "64,0"} {
		code, stdout, stderr := roctrain(t, "-hidden", hidden, "-plot", "")
		require.Equal(t, 2, code, "-hidden %s: %s", hidden, stderr)
		require.Contains(t, stderr, "-hidden")
		require.NotContains(t, stderr, "training")
		require.Empty(t, stdout)
	}
}

// An output that cannot be written — a -plot that is a directory or in a missing or
// unwritable folder, an -out that is a file or unwritable — fails at once, before any
// training, instead of after every run has trained (which lost the results).
func TestOutputsCheckedBeforeTraining(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	cases := [][]string{
		{"-plot", dir},
		{"-plot", filepath.Join(dir, "missing", "roc.png")},
		{"-plot", filepath.Join(file, "roc.png")},
		{"-plot", "", "-out", file},
		{"-plot", filepath.Join(dir, "roc-diag.png"), "-diagnose"}, // fine itself: its diagnostics path is below
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "roc-diag-diagnostics.png"), 0o755))
	if os.Geteuid() != 0 && runtime.GOOS != "windows" { // root writes anywhere
		ro := filepath.Join(dir, "readonly")
		require.NoError(t, os.Mkdir(ro, 0o555))
		cases = append(cases, []string{"-plot", filepath.Join(ro, "roc.png")}, []string{"-plot", "", "-out", ro})
	}
	for _, args := range cases {
		code, stdout, stderr := roctrain(t, append(args, "-epochs", "1", "-losses", "ce")...)
		require.Equal(t, 1, code, "%q: %s", args, stderr)
		require.NotContains(t, stderr, "training", "%q must fail before training", args)
		require.Empty(t, stdout)
		require.True(t, strings.Contains(stderr, "-plot") || strings.Contains(stderr, "-out"), "%q: %s", args, stderr)
	}
}

// SIGTERM stops the command like an interrupt: training stops, the runs that finished are
// reported on stdout, and the status is 1 (before, SIGTERM killed it with status 143 and
// nothing printed).
func TestSIGTERMReportsFinishedRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send on Windows")
	}
	args, err := json.Marshal([]string{"-seeds", "20", "-losses", "ce", "-epochs", "40", "-lr", "0.01", "-boot", "0", "-plot", ""})
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), asMain+"="+string(args))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	// "[3/20] seed 3: training ce…" means the seeds 1 and 2 have finished.
	lines := bufio.NewScanner(stderr)
	var seen []string
	for lines.Scan() {
		seen = append(seen, lines.Text())
		if strings.HasPrefix(lines.Text(), "[3/20]") {
			break
		}
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() {
		for lines.Scan() {
			seen = append(seen, lines.Text())
		}
		done <- cmd.Wait()
	}()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		require.Fail(t, "roctrain did not stop after SIGTERM")
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr:\n%s", strings.Join(seen, "\n"))
	require.Equal(t, 1, exit.ExitCode(), "stderr:\n%s", strings.Join(seen, "\n"))
	out := stdout.String()
	require.Contains(t, out, "ce", "the finished seeds are reported:\n%s\nstderr:\n%s", out, strings.Join(seen, "\n"))
	require.Contains(t, strings.Join(seen, "\n"), "context canceled")
}

// A plot that fails to be written after training (its folder removed meanwhile, a full
// disk) loses none of the figures: they are printed first, and the error names -plot.
func TestReportPrintsBeforePlotting(t *testing.T) {
	o := &options{json: true, plot: filepath.Join(t.TempDir(), "gone", "roc.png"), alpha: 0.1, seeds: 1, seed: 1}
	var out bytes.Buffer
	err := report(o, &dataset{name: "test"}, []experiment.Summary{{Loss: "ce", Alpha: 0.1, Seeds: 1, Figures: experiment.Figures{TestAUC: 0.9}}}, &out)
	require.Error(t, err)
	require.Contains(t, err.Error(), "-plot")
	var got struct {
		Results []struct {
			Loss    string  `json:"loss"`
			TestAUC float64 `json:"test_auc"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &got), "stdout: %s", out.String())
	require.Equal(t, "ce", got.Results[0].Loss)
	require.Equal(t, 0.9, got.Results[0].TestAUC)
}

// asMainCommand returns the test binary set up to run main with args.
func asMainCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	js, err := json.Marshal(args)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), asMain+"="+string(js))
	return cmd
}

// -predict into a pipe closed after the first line (as "| head -n 1" does) ends quietly with
// status 0 and the flagged summary of the rows written on stderr, instead of dying of SIGPIPE
// without it.
func TestPredictIntoClosedPipe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGPIPE")
	}
	models, _ := trainModels(t)
	csvPath := writeCSV(t, t.TempDir(), 3*4096)
	cmd := asMainCommand(t, "-predict", filepath.Join(models, "ce.params"), "-data", csvPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "row,y,score,flag\n", line)
	require.NoError(t, out.Close())
	require.NoError(t, cmd.Wait(), "stderr: %s", stderr.String())
	require.Regexp(t, `^roctrain: flagged \d+ of the \d+ rows written before standard output closed: score ≥ `, stderr.String())
}

// Two roctrain -out runs into one directory at once, 20 times, with learning rates that give
// different models: both exit 0 and every run and seed then loads as a consistent pair (before
// deploy, 9 of 12 such tries lost a rename and one left a model its sidecar did not match).
func TestConcurrentOutRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("40 trainings")
	}
	dir := t.TempDir()
	csvPath, out := writeCSV(t, dir, 400), filepath.Join(dir, "cc")
	lrs := map[float64]int{} // the learning rates of the pairs found
	for try := range 20 {
		var cmds []*exec.Cmd
		var errs [2]bytes.Buffer
		for k, lr := range []string{"0.003", "0.01"} {
			cmd := asMainCommand(t, "-data", csvPath, "-label", "y", "-hidden", "", "-epochs", "1", "-boot", "0",
				"-plot", "", "-losses", "ce,kde-plain", "-seeds", "3", "-lr", lr, "-out", out)
			cmd.Stderr = &errs[k]
			require.NoError(t, cmd.Start())
			cmds = append(cmds, cmd)
		}
		for k, cmd := range cmds {
			require.NoError(t, cmd.Wait(), "try %d: %s", try, errs[k].String())
		}
		for _, run := range []string{"ce", "kde-plain"} {
			for seed := 1; seed <= 3; seed++ {
				s, err := deploy.Load(filepath.Join(out, fmt.Sprintf("%s.seed%d.params", run, seed)))
				require.NoError(t, err, "try %d", try)
				lrs[s.OperatingPoint().Run.LearningRate]++
			}
		}
	}
	t.Logf("pairs by learning rate: %v", lrs)
	require.Len(t, lrs, 2, "both runs won some saves")
}
