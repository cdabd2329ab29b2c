// Package apidoc checks that every exported function and type a user calls directly has an
// Example with an // Output: comment, so the documented usage is compiled and its printed
// values are checked by go test.
//
// The public packages are every directory of the module holding Go files outside internal/,
// cmd/, examples/ and testdata/, including the nested module beam/rocbeam, which is read by
// path: the files are parsed with go/parser and read with go/doc, nothing is built. Files are
// selected by go/build's default context, so build constraints apply.
//
// The rule, in go/doc's naming (ExampleF, ExampleT, ExampleT_M, each with an optional _suffix
// starting with a lower-case letter):
//   - an exported top-level function F (constructors included) is covered by an example of F;
//   - an exported type T is covered by an example of T, of any of its methods, or of any of
//     its constructors (the functions go/doc lists with T: those returning T or *T), or by any
//     example of the package whose code names T (p.T in package p_test, T in package p): a
//     type is not called, it is filled in (a settings struct) or read (a result), and an
//     example naming it shows that with checked output;
//   - an example counts only if it has a non-empty // Output: (or // Unordered output:).
//
// The test also fails for an example whose body holds an "Output:" comment that go test does
// not see (it must start the function's last comment group): such an example is compiled but
// never run.
//
// Package-level examples (Example, Example_suffix) cover no name. Methods, variables and
// constants are not checked. Names a user does not call directly (error types matched with
// errors.As, interfaces implemented rather than called, plumbing) are listed as exceptions in
// testdata/*.txt, one per line as "pkg.Name — reason", where pkg is the package's path from
// the module root ("rocops" for the root package); blank lines and lines starting with # are
// ignored. The test fails for an uncovered name without an exception and for a stale
// exception: a name that no longer exists or is now covered.
package apidoc

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// root is the module root, seen from this package's directory.
const root = "../.."

// rootName names the root package in reports and exception files.
const rootName = "rocops"

// skipped are the directories whose packages are not public API.
var skipped = map[string]bool{"internal": true, "cmd": true, "examples": true, "testdata": true}

// publicDirs returns the directories of the public packages, relative to the module root.
func publicDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (skipped[name] || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		dirs = append(dirs, filepath.ToSlash(rel))
		return nil
	})
	require.NoError(t, err)
	return dirs
}

// parsed is one public package: its documentation, with the examples go/doc associates with
// each name, and every example of its test files.
type parsed struct {
	doc      *doc.Package
	tests    []*ast.File
	examples []*doc.Example
}

// parseDir parses the Go files of dir that match the default build context, or returns nil if
// dir holds no library package.
func parseDir(t *testing.T, dir string) *parsed {
	t.Helper()
	path := filepath.Join(root, dir)
	entries, err := os.ReadDir(path)
	require.NoError(t, err)
	fset := token.NewFileSet()
	var files, tests []*ast.File
	lib := false
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		ok, err := build.Default.MatchFile(path, e.Name())
		require.NoError(t, err)
		if !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(path, e.Name()), nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
		if strings.HasSuffix(e.Name(), "_test.go") {
			tests = append(tests, f)
		} else {
			lib = lib || f.Name.Name != "main"
		}
	}
	if !lib {
		return nil
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/rocops/rocops/"+dir)
	require.NoError(t, err)
	return &parsed{doc: p, tests: tests, examples: doc.Examples(tests...)}
}

// hasOutput reports whether one of examples checks printed output.
func hasOutput(examples []*doc.Example) bool {
	for _, ex := range examples {
		if strings.TrimSpace(ex.Output) != "" {
			return true
		}
	}
	return false
}

// named returns the exported names that examples with output name in their code: in a file of
// package pkg_test a selector pkg.Name, in a file of package pkg an identifier Name that is
// not the selected name of a selector (a field or method x.Name).
func named(pkg string, tests []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range tests {
		external := f.Name.Name != pkg
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && external && x.Name == pkg {
					out[n.Sel.Name] = true
				}
				ast.Inspect(n.X, visit)
				return false
			case *ast.Ident:
				if !external {
					out[n.Name] = true
				}
			}
			return true
		}
		for _, ex := range doc.Examples(f) {
			if strings.TrimSpace(ex.Output) != "" {
				ast.Inspect(ex.Code, visit)
			}
		}
	}
	return out
}

// coverage returns, for every exported top-level function and type of p, whether the rule in
// the package comment counts it as covered; keys are "pkg.Name", pkg being the package's path
// from the module root.
func coverage(pkg string, p *parsed) map[string]bool {
	names := map[string]bool{}
	inCode := named(p.doc.Name, p.tests)
	for _, f := range p.doc.Funcs {
		names[pkg+"."+f.Name] = hasOutput(f.Examples)
	}
	for _, typ := range p.doc.Types {
		covered := hasOutput(typ.Examples) || inCode[typ.Name]
		for _, m := range typ.Methods {
			covered = covered || hasOutput(m.Examples)
		}
		for _, f := range typ.Funcs {
			names[pkg+"."+f.Name] = hasOutput(f.Examples)
			covered = covered || hasOutput(f.Examples)
		}
		names[pkg+"."+typ.Name] = covered
	}
	return names
}

// unseenOutput returns the examples of p whose comments hold an "Output:" line although go/doc
// found no output, so go test compiles them but never runs them.
func unseenOutput(pkg string, p *parsed) []string {
	var out []string
	for _, ex := range p.examples {
		if ex.Output != "" || ex.EmptyOutput {
			continue
		}
		if hasOutputLine(ex) {
			out = append(out, pkg+".Example"+ex.Name)
		}
	}
	return out
}

// hasOutputLine reports whether a comment inside ex's code has a line outputLine matches
// (Example.Comments holds every comment of the example's file).
func hasOutputLine(ex *doc.Example) bool {
	for _, c := range ex.Comments {
		if c.Pos() < ex.Code.Pos() || c.End() > ex.Code.End() {
			continue
		}
		for _, line := range strings.Split(c.Text(), "\n") {
			if outputLine.MatchString(line) {
				return true
			}
		}
	}
	return false
}

// outputLine matches the line go test reads expected output after.
var outputLine = regexp.MustCompile(`(?i)^[[:space:]]*(unordered )?output:`)

// exception is one line of an exceptions file.
type exception struct {
	name, reason, where string
}

// readExceptions reads every testdata/*.txt file.
func readExceptions(t *testing.T) map[string]exception {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	out := map[string]exception{}
	for _, path := range paths {
		f, err := os.Open(path)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			text := strings.TrimSpace(sc.Text())
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			where := fmt.Sprintf("%s:%d", path, line)
			name, reason, ok := strings.Cut(text, " — ")
			name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
			require.Truef(t, ok && name != "" && reason != "", "%s: want \"pkg.Name — reason\", got %q", where, text)
			prev, dup := out[name]
			require.Falsef(t, dup, "%s: %s already listed at %s", where, name, prev.where)
			out[name] = exception{name: name, reason: reason, where: where}
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
	}
	return out
}

// publicNames returns the coverage of every public package's exported functions and types,
// and the examples whose output go test does not see.
func publicNames(t *testing.T) (names map[string]bool, unseen []string) {
	t.Helper()
	names = map[string]bool{}
	for _, dir := range publicDirs(t) {
		p := parseDir(t, dir)
		if p == nil {
			continue
		}
		pkg := dir
		if dir == "." {
			pkg = rootName
		}
		for name, covered := range coverage(pkg, p) {
			names[name] = covered
		}
		unseen = append(unseen, unseenOutput(pkg, p)...)
	}
	return names, unseen
}

func TestExamples(t *testing.T) {
	names, unseen := publicNames(t)
	require.Emptyf(t, unseen, "examples with an Output: comment go test does not see (it must "+
		"start the function's last comment group; put a blank line before it):\n%s",
		strings.Join(unseen, "\n"))
	exceptions := readExceptions(t)
	var missing, stale []string
	for name, covered := range names {
		if _, ok := exceptions[name]; !covered && !ok {
			missing = append(missing, name)
		}
	}
	for name, e := range exceptions {
		covered, ok := names[name]
		switch {
		case !ok:
			stale = append(stale, fmt.Sprintf("%s (%s): no such exported function or type", name, e.where))
		case covered:
			stale = append(stale, fmt.Sprintf("%s (%s): has an example now", name, e.where))
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	require.Emptyf(t, missing, "exported functions and types without an Example with // Output: "+
		"(write one, or list the name in testdata/*.txt with the reason a user does not call it):\n%s",
		strings.Join(missing, "\n"))
	require.Emptyf(t, stale, "stale exceptions in testdata/*.txt:\n%s", strings.Join(stale, "\n"))
}

// TestRule checks the coverage rule, and the check on unseen output, on a package written
// for them.
func TestRule(t *testing.T) {
	fset := token.NewFileSet()
	src := map[string]string{
		"p.go": `package p
type A struct{}
func NewA() *A { return nil }
type B struct{}
func (B) M() {}
type C struct{}
type D struct{}
type E struct{}
type I struct{ N int }
type J struct{}
type L struct{}
func F() {}
func G() {}
func H() {}
func K() {}
func unexported() {}
`,
		"p_test.go": `package p_test
import (
	"fmt"
	"example.com/p"
)
func ExampleNewA() { fmt.Println(1)
	// Output: 1
}
func ExampleB_M_twice() { fmt.Println(2)
	// Output: 2
}
func ExampleC() { fmt.Println(3)
	// Output: 3
}
func ExampleD() { fmt.Println(4) }
func ExampleF_errors() { fmt.Println(5)
	// Unordered output: 5
}
func ExampleG() { fmt.Println(6)
	// Output:
}
func Example_h() { fmt.Println(7, p.I{N: 7})
	// Output: 7 {7}
}
func ExampleH() { x := struct{ L int }{}; fmt.Println(p.J{}, x.L)
	// Output: {} 0
}
func ExampleK() { fmt.Println(8)
	// By hand: 8.
	// Output: 8
}
`,
	}
	var files []*ast.File
	for _, name := range []string{"p.go", "p_test.go"} {
		f, err := parser.ParseFile(fset, name, src[name], parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, "example.com/p")
	require.NoError(t, err)
	p := &parsed{doc: d, tests: files[1:], examples: doc.Examples(files[1])}
	want := map[string]bool{
		"p.A": true, "p.NewA": true, // a constructor's example covers both
		"p.B": true,  // a method's example, with a suffix
		"p.C": true,  // the type's own example
		"p.D": false, // no // Output:
		"p.E": false, // no example
		"p.F": true,  // suffixed, unordered output
		"p.G": false, // empty // Output:
		"p.H": true,  // its own example; a package example (Example_h) would not cover it
		"p.I": true,  // named in a package example's code
		"p.J": true,  // named in another name's example
		"p.L": false, // x.L names a field, not the type
		"p.K": false, // the output comment is not the start of the last group
	}
	require.Equal(t, want, coverage("p", p))
	require.Equal(t, []string{"p.ExampleK"}, unseenOutput("p", p))
}
