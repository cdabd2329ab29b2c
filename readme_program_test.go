package rocops_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The README's library program compiles as pasted and prints the output the README shows
// under it: the program is written to a module of its own that requires this one (replaced by
// the working tree), and go run builds it offline from the module cache this module's own
// build filled.
func TestREADMEProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the README's program")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	program, output := readmeProgram(t, string(readme))

	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dir := t.TempDir()
	sum, err := os.ReadFile("go.sum")
	require.NoError(t, err)
	mod := "module readmeprogram\n\ngo 1.26.0\n\nrequire github.com/rocops/rocops v0.0.0\n\nreplace github.com/rocops/rocops => " + root + "\n"
	for name, text := range map[string]string{"go.mod": mod, "go.sum": string(sum), "main.go": program} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	cmd := exec.Command(goTool, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, output, string(out))
}

// readmeProgram returns the README's Go block that is a whole program (it starts with a
// comment and "package main"), and the text block that follows it, its output.
func readmeProgram(t *testing.T, readme string) (program, output string) {
	t.Helper()
	_, after, ok := strings.Cut(readme, "```go\n// ")
	require.True(t, ok, "the README has no program")
	program, after, ok = strings.Cut("// "+after, "```\n")
	require.True(t, ok)
	require.Contains(t, program, "\npackage main\n")
	_, after, ok = strings.Cut(after, "```text\n")
	require.True(t, ok, "no output block after the README's program")
	output, _, ok = strings.Cut(after, "```\n")
	require.True(t, ok)
	return program, output
}
