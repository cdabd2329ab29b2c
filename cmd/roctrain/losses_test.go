package main

import (
	"bytes"
	"flag"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/train"
)

// lossesHelp returns what roctrain -h says under -losses: the names with their options, each
// option's example value, and the examples of the first line.
func lossesHelp(t *testing.T) (names []string, nameOpts map[string][]string, example map[string]string,
	runs []string) {
	t.Helper()
	var stderr bytes.Buffer
	_, err := parseFlags([]string{"-h"}, &stderr)
	require.ErrorIs(t, err, flag.ErrHelp)
	_, block, ok := strings.Cut(stderr.String(), "\n  -losses string\n")
	require.True(t, ok, "no -losses in the help")
	block, _, _ = strings.Cut(block, "\n  -")
	lines := strings.Split(block, "\n")
	runs = regexp.MustCompile(`\(([^ ()]+)\)`).FindAllString(lines[0], -1)
	entry := regexp.MustCompile(`^\s+\t  (\S+)\s+(.*)$`)
	nameOpts, example = map[string][]string{}, map[string]string{}
	inOptions := false
	for _, line := range lines[1:] {
		if strings.TrimSpace(line) == "options:" {
			inOptions = true
			continue
		}
		m := entry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if !inOptions {
			names = append(names, m[1])
			if _, opts, ok := strings.Cut(m[2], "; options "); ok {
				nameOpts[m[1]] = strings.Split(opts, ", ")
			}
			continue
		}
		key, _, _ := strings.Cut(m[1], "=")
		example[key] = ""
		if _, ex, ok := strings.Cut(m[2], ", as in "); ok {
			example[key] = ex
		}
	}
	for k, r := range runs {
		runs[k] = strings.Trim(r, "()")
	}
	return names, nameOpts, example, runs
}

// Every name roctrain -h lists under -losses parses, alone and with each option it lists (at
// the option's example value from the help), the help's own examples are valid -losses
// values, and the help lists every name of train's registry with every option it takes.
func TestLossesHelp(t *testing.T) {
	names, nameOpts, example, runs := lossesHelp(t)
	point := train.Names{Point: train.Point{Alpha: 0.1}, Warmup: 10}
	for _, name := range names {
		_, _, err := point.Parse(name)
		require.NoError(t, err, name)
		for _, opt := range nameOpts[name] {
			key, _, _ := strings.Cut(opt, "=")
			ex, ok := example[key]
			require.True(t, ok, "option %s of %s is not explained", opt, name)
			given := name + ":" + key
			if ex != "" {
				given = name + ":" + ex
			}
			_, _, err := point.Parse(given)
			require.NoError(t, err, given)
		}
	}
	require.Equal(t, []string{"kde:lr=0.3:pool=1024", "sqhinge+wu"}, runs)
	for _, run := range runs {
		_, err := parseFlags([]string{"-losses", run}, &bytes.Buffer{})
		require.NoError(t, err, run)
	}

	var registry []string
	for _, r := range train.Recipes() {
		registry = append(registry, r.Name)
	}
	require.Equal(t, registry, names)
	for _, r := range train.Recipes() {
		var want []string
		for _, o := range r.Options {
			want = append(want, o.Usage())
		}
		require.Equal(t, want, nameOpts[r.Name], r.Name)
	}
}
