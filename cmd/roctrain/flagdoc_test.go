package main

import (
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// updateDoc makes TestFlagDocs rewrite the generated parts of doc.go and docs/reference.md
// instead of checking them: go test ./cmd/roctrain -run TestFlagDocs -update-doc.
var updateDoc = flag.Bool("update-doc", false, "rewrite the flag lists of doc.go and docs/reference.md from the flag set")

// The markers around the generated parts.
const (
	docBegin = "// # Flags\n"
	docEnd   = "// # Examples\n"
	refBegin = "<!-- flags: generated from the flag set by go test ./cmd/roctrain -run TestFlagDocs -update-doc -->\n"
	refEnd   = "<!-- end of flags -->\n"
)

// flagSet is the command's flag set, as -h prints it.
func flagSet() *flag.FlagSet { return newFlagSet(&options{}, io.Discard) }

// flagDefault is the default a flag's help shows, "" for none (a zero or empty default).
func flagDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false":
		return ""
	}
	return f.DefValue
}

// quoteDefault writes a default as the flag package's help does: quoted for a string.
func quoteDefault(kind, d string) string {
	if kind == "string" {
		return strconv.Quote(d)
	}
	return d
}

// wrap breaks a line of help into lines of at most width characters (but for a word longer
// than that). A line of a list, indented, keeps its first column (a name and the spaces
// after it) and indents its later lines under the text that follows.
func wrap(line string, width int) []string {
	head := listHead.FindString(line)
	indent := strings.Repeat(" ", len([]rune(head)))
	var out []string
	cur := head
	for _, w := range strings.Fields(line[len(head):]) {
		switch {
		case len(cur) == len(head):
			cur += w
		case len([]rune(cur))+1+len([]rune(w)) > width:
			out = append(out, cur)
			cur = indent + w
		default:
			cur += " " + w
		}
	}
	return append(out, cur)
}

// listHead matches the first column of an indented line of a list: its indentation, a name
// and the spaces after it.
var listHead = regexp.MustCompile(`^ +\S+ +`)

// docFlags is the "# Flags" section of doc.go: every flag, its value's kind and default,
// and its help, wrapped, as a preformatted block.
func docFlags() string {
	var b strings.Builder
	b.WriteString(docBegin + "//\n")
	b.WriteString("// The flags, in alphabetical order (roctrain -h prints them too; docs/reference.md says\n")
	b.WriteString("// more of each, and lists the JSON keys):\n//\n")
	flagSet().VisitAll(func(f *flag.Flag) {
		kind, usage := flag.UnquoteUsage(f)
		head := "-" + f.Name
		if kind != "" {
			head += " " + kind
		}
		if d := flagDefault(f); d != "" {
			head += " (default " + quoteDefault(kind, d) + ")"
		}
		b.WriteString("//\t" + head + "\n")
		for _, l := range strings.Split(strings.TrimRight(usage, "\n"), "\n") {
			for _, w := range wrap(l, 84) {
				b.WriteString("//\t    " + w + "\n")
			}
		}
	})
	b.WriteString("//\n")
	return b.String()
}

// refFlags is the flag table of docs/reference.md, and the run names of -losses under it.
func refFlags() string {
	var b strings.Builder
	b.WriteString(refBegin + "\n| flag | default | what it sets |\n|---|---|---|\n")
	var runs string
	flagSet().VisitAll(func(f *flag.Flag) {
		kind, usage := flag.UnquoteUsage(f)
		if f.Name == "losses" {
			usage, runs, _ = strings.Cut(usage, "\n")
			usage = strings.TrimSuffix(usage, ":") + ": the names and their options are listed below the table"
		}
		name := "`-" + f.Name + "`"
		if kind != "" {
			name = "`-" + f.Name + " " + kind + "`"
		}
		def := flagDefault(f)
		if def != "" {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, def, strings.ReplaceAll(usage, "|", `\|`))
	})
	b.WriteString("\nThe run names of `-losses` (from `train.Recipes`) and their options:\n\n```text\n")
	b.WriteString(strings.TrimRight(runs, "\n") + "\n```\n\n")
	return b.String()
}

// regenerate replaces the text between begin and end (begin included, end not) in the file
// with part; it returns the file's text as it is and as it would be.
func regenerate(t *testing.T, path, begin, end, part string) (old, updated string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	old = string(b)
	i, j := strings.Index(old, begin), strings.Index(old, end)
	require.True(t, i >= 0 && j > i, "%s: no generated part between %q and %q", path, begin, end)
	return old, old[:i] + part + old[j:]
}

// doc.go's flag list and docs/reference.md's flag table are what the flag set generates
// (run with -update-doc to rewrite them), so that go doc ./cmd/roctrain and the reference
// list every flag with its current help and default.
func TestFlagDocs(t *testing.T) {
	for _, g := range []struct {
		path, begin, end, part string
	}{
		{"doc.go", docBegin, docEnd, docFlags()},
		{filepath.Join("..", "..", "docs", "reference.md"), refBegin, refEnd, refFlags()},
	} {
		old, updated := regenerate(t, g.path, g.begin, g.end, g.part)
		if g.path == "doc.go" {
			formatted, err := format.Source([]byte(updated))
			require.NoError(t, err)
			require.Equal(t, updated, string(formatted), "the generated doc.go is not gofmt clean")
		}
		if *updateDoc {
			require.NoError(t, os.WriteFile(g.path, []byte(updated), 0o644))
			continue
		}
		require.Equal(t, updated, old, "%s differs from what the flag set generates: go test ./cmd/roctrain -run TestFlagDocs -update-doc", g.path)
	}
	// Every flag is in both, by name.
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	flagSet().VisitAll(func(f *flag.Flag) {
		require.Regexp(t, `(?m)^//\t-`+f.Name+`( |$)`, string(doc), f.Name)
	})
}
