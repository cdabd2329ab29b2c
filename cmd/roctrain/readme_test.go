package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeCommand is a block of the README or a guide that shows a roctrain command and its output.
type readmeCommand struct {
	line   string // the command line as shown, with its "$ "
	args   []string
	head   int // keep this many lines of stdout ("| head -n N"); 0 = all
	output string
}

// readmeCommands extracts the blocks of a page that start with "$ go run ./cmd/roctrain":
// the command line, then its standard output verbatim.
func readmeCommands(t *testing.T, readme string) []readmeCommand {
	t.Helper()
	var cmds []readmeCommand
	blocks := strings.Split(readme, "```")
	for k := 1; k < len(blocks); k += 2 { // the insides of the fenced blocks
		// The first line is the block's language tag, the second the command.
		lines := strings.SplitN(blocks[k], "\n", 3)
		if len(lines) < 3 {
			continue
		}
		line, rest := lines[1], lines[2]
		cmdline, ok := strings.CutPrefix(line, "$ go run ./cmd/roctrain")
		if !ok {
			continue
		}
		c := readmeCommand{line: line, output: rest}
		if before, n, piped := strings.Cut(cmdline, "| head -n "); piped {
			var err error
			c.head, err = strconv.Atoi(strings.TrimSpace(n))
			require.NoError(t, err, line)
			cmdline = before
		}
		for _, f := range strings.Fields(cmdline) {
			if f == `""` {
				f = ""
			}
			c.args = append(c.args, f)
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// maskSeconds hides what changes from machine to machine: the training seconds at the end
// of a table row and in the JSON.
func maskSeconds(s string) string {
	s = regexp.MustCompile(`(?m)\s+\d+\.\d$`).ReplaceAllString(s, " S")
	return regexp.MustCompile(`"train_seconds": [0-9.e+-]+`).ReplaceAllString(s, `"train_seconds": S`)
}

// docFiles are the pages whose roctrain commands TestDocCommands runs, in the order it runs
// them: README.md first (its -out models are read by the guides' -predict and -init), then
// every page of docs/ in name order.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	slices.Sort(pages)
	return append([]string{filepath.Join(root, "README.md")}, pages...)
}

// Every roctrain command that README.md and the guides of docs/ show as checked — a fenced
// block whose first line is "$ go run ./cmd/roctrain …" — prints exactly the output shown
// under it, but for the seconds (run with -update-readme to rewrite them): its standard
// output, or its standard error when the command fails (a block showing an error). The
// commands run in order in one directory (holding the CSV they read), so that -predict and
// -init find the models an earlier command saved. A command on a file of the development
// panel (not in the repository) runs only with ROCOPS_PANEL set. A block showing a command
// without "$ " is not run.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("trains every checked command of the README and the guides")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	repoRoot = root
	wdbc, err := os.ReadFile(filepath.Join(root, "internal", "dataset", "wdbc.csv"))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "internal", "dataset"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "internal", "dataset", "wdbc.csv"), wdbc, 0o644))
	t.Chdir(dir)
	total := 0
	for _, page := range docFiles(t, root) {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		cmds := readmeCommands(t, string(text))
		total += len(cmds)
		if updated := checkCommands(t, filepath.Base(page), string(text), cmds); *updateREADME && updated != string(text) {
			require.NoError(t, os.WriteFile(page, []byte(updated), 0o644))
		}
	}
	require.GreaterOrEqual(t, total, 8, "the README and the guides show the table, -seeds, -confidence, -json, -predict and the raw tables")
}

// checkCommands runs the commands of one page and compares each output with the page's; with
// -update-readme it returns the page with the outputs it got instead.
func checkCommands(t *testing.T, page, text string, cmds []readmeCommand) string {
	t.Helper()
	updated := text
	for _, c := range cmds {
		if !panelData(t, c.args) {
			t.Logf("%s: %s: skipped, its -data file is not in the repository (set ROCOPS_PANEL to the panel's directory)", page, c.line)
			continue
		}
		code, stdout, stderr := roctrain(t, c.args...)
		got := stdout
		if code != 0 {
			got = stderr // a block that shows an error
			require.True(t, strings.HasPrefix(c.output, "roctrain: "), "%s: %v failed (status %d): %s", page, c.args, code, stderr)
		}
		if c.head > 0 {
			lines := strings.SplitAfter(got, "\n")
			got = strings.Join(lines[:min(c.head, len(lines))], "")
		}
		if *updateREADME {
			if maskSeconds(c.output) == maskSeconds(got) {
				continue // only the seconds differ: keep the page as it is
			}
			block := c.line + "\n" + c.output
			require.Equal(t, 1, strings.Count(updated, block), "%s: the block of %s is not unique", page, c.line)
			updated = strings.Replace(updated, block, c.line+"\n"+got, 1)
			continue
		}
		if slices.Contains(c.args, "-json") && code == 0 {
			var want, gotJSON any
			require.NoError(t, json.Unmarshal([]byte(c.output), &want), "%s: its JSON", page)
			require.NoError(t, json.Unmarshal([]byte(got), &gotJSON))
			sameJSON(t, want, gotJSON, "results")
			continue
		}
		sameText(t, maskSeconds(c.output), maskSeconds(got), fmt.Sprintf("%s: the output of roctrain %v", page, c.args))
	}
	return updated
}

// panelData reports whether the -data (and -valid and -test) files of a README command can be
// read from the test's directory, copying each there from the repository (such as the raw
// tables of data/testdata) or, for a file of the development panel that is not in the
// repository (such as vehicle.csv), from $ROCOPS_PANEL; false when one is in none of them.
func panelData(t *testing.T, args []string) bool {
	t.Helper()
	for _, flag := range []string{"-data", "-valid", "-test"} {
		k := slices.Index(args, flag)
		if k < 0 || k+1 == len(args) {
			continue
		}
		path := args[k+1]
		if _, err := os.Stat(path); err == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(repoRoot, path))
		if err != nil {
			dir := os.Getenv("ROCOPS_PANEL")
			if b, err = os.ReadFile(filepath.Join(dir, filepath.Base(path))); dir == "" || err != nil {
				return false
			}
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}
	return true
}

// repoRoot is the repository's root, set by TestDocCommands before it changes directory.
var repoRoot string

// updateREADME makes TestDocCommands write the outputs into README.md and the guides instead
// of checking them: go test ./cmd/roctrain -run TestDocCommands -update-readme.
var updateREADME = flag.Bool("update-readme", false, "rewrite the roctrain outputs shown in README.md and docs/*.md")

// number matches a decimal number as the command prints it.
var number = regexp.MustCompile(`[-+]?\d+(\.\d+)?([eE][-+]?\d+)?`)

// sameText compares two outputs: the text between the numbers exactly, and the numbers to
// 1e-9 (relative), so that a change in the last bits of a printed float64 — another CPU's
// rounding, a reordered sum — does not fail the check while every printed digit of a table
// still must match.
func sameText(t *testing.T, want, got, msg string) {
	t.Helper()
	if number.ReplaceAllString(want, "#") != number.ReplaceAllString(got, "#") {
		require.Equal(t, want, got, msg) // shows the diff
	}
	ws, gs := number.FindAllString(want, -1), number.FindAllString(got, -1)
	for k := range ws {
		w, errW := strconv.ParseFloat(ws[k], 64)
		g, errG := strconv.ParseFloat(gs[k], 64)
		if errW != nil || errG != nil || math.Abs(w-g) > 1e-9*max(1, math.Abs(w)) {
			require.Equal(t, want, got, "%s: %s ≠ %s", msg, ws[k], gs[k])
		}
	}
}

// sameJSON compares two decoded JSON values: the same keys, arrays and strings, and numbers
// equal to 1e-9 (relative), except the training seconds.
func sameJSON(t *testing.T, want, got any, path string) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		require.True(t, ok, "%s: %v is not an object", path, got)
		require.ElementsMatch(t, slices.Collect(maps.Keys(w)), slices.Collect(maps.Keys(g)), path)
		for k := range w {
			if k != "train_seconds" {
				sameJSON(t, w[k], g[k], path+"."+k)
			}
		}
	case []any:
		g, ok := got.([]any)
		require.True(t, ok, "%s: %v is not an array", path, got)
		require.Len(t, g, len(w), path)
		for i := range w {
			sameJSON(t, w[i], g[i], fmt.Sprintf("%s[%d]", path, i))
		}
	case float64:
		g, ok := got.(float64)
		require.True(t, ok, "%s: %v is not a number", path, got)
		require.InDelta(t, w, g, 1e-9*max(1, math.Abs(w)), path)
	default:
		require.Equal(t, want, got, path)
	}
}
