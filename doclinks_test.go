package rocops_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// Every relative link of the module's Markdown pages (README.md, docs/, the examples' and the
// data's READMEs) names a file or folder of the repository, and every #anchor a heading of
// the page it points into (GitHub's anchors), so that moving or renaming a page or a section
// cannot leave a dead link behind.
func TestDocLinks(t *testing.T) {
	pages := markdownPages(t, ".")
	require.GreaterOrEqual(t, len(pages), 10, "README.md and the pages of docs/")
	require.Empty(t, brokenLinks(t, ".", pages))
}

// The checker finds a missing file, a missing anchor in another page and in the same page,
// and a link out of the repository, and passes the links that resolve.
func TestDocLinksFindsBroken(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("README.md", "# Top\n\n## A `-flag`: the rest\n\n"+
		"[ok](docs/a.md#an-anchor) [ok](#a--flag-the-rest) [ok](docs/) [ok](https://example.com/x)\n"+
		"[gone](docs/b.md) [bad](docs/a.md#nowhere) [bad](#top-1) [out](../outside.md)\n"+
		"```\n[in code](ignored.md)\n```\n")
	write(filepath.Join("docs", "a.md"), "# An anchor\n\n[back](../README.md#top)\n")
	got := brokenLinks(t, dir, markdownPages(t, dir))
	require.Equal(t, []string{
		"README.md: docs/b.md: no such file",
		"README.md: docs/a.md#nowhere: no heading nowhere in docs/a.md",
		"README.md: #top-1: no heading top-1 in README.md",
		"README.md: ../outside.md: outside the repository",
	}, got)
}

// The anchors GitHub gives headings: lower case, punctuation dropped, spaces as hyphens.
func TestHeadingAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"A deployed threshold with a guarantee: `-confidence` on credit scoring": "a-deployed-threshold-with-a-guarantee--confidence-on-credit-scoring",
		"Memory of roctrain on large data":                                       "memory-of-roctrain-on-large-data",
		"Transfer: [LoRA](docs/transfer.md) and *frozen* bodies":                 "transfer-lora-and-frozen-bodies",
		"The KDE loss's `pool_n` option":                                         "the-kde-losss-pool_n-option",
	} {
		require.Equal(t, want, headingAnchor(heading), heading)
	}
}

// markdownPages lists the .md files under root, outside hidden folders.
func markdownPages(t *testing.T, root string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			pages = append(pages, rel)
			return err
		}
		return nil
	})
	require.NoError(t, err)
	return pages
}

var (
	// mdLink matches a Markdown link or image, [text](target) or [text](target "title").
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// codeSpan matches inline code.
	codeSpan = regexp.MustCompile("`[^`\n]*`")
	// heading matches an ATX heading.
	heading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	// htmlAnchor matches an explicit anchor, <a id="x"> or <a name="x">.
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
)

// prose returns the lines of a page outside its fenced code blocks.
func prose(text string) []string {
	var out []string
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, l)
		}
	}
	return out
}

// headingAnchor is the anchor GitHub gives a heading: its text without Markdown (code marks,
// emphasis, link targets), in lower case, with every character but letters, digits, marks,
// '_', '-' and spaces dropped and each space a hyphen.
func headingAnchor(h string) string {
	h = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(h, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a page: its headings' (the second of two equal ones with
// "-1" appended, and so on, as GitHub numbers them) and its explicit <a id> anchors.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(text) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := headingAnchor(m[1])
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// brokenLinks checks every relative link of the pages (paths relative to root) and returns
// one line for each that does not resolve.
func brokenLinks(t *testing.T, root string, pages []string) []string {
	t.Helper()
	var broken []string
	texts := map[string]string{}
	read := func(page string) string {
		if s, ok := texts[page]; ok {
			return s
		}
		b, err := os.ReadFile(filepath.Join(root, page))
		require.NoError(t, err)
		texts[page] = string(b)
		return texts[page]
	}
	for _, page := range pages {
		for _, l := range prose(read(page)) {
			for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(l, ""), -1) {
				if msg := checkLink(root, page, m[1], read); msg != "" {
					broken = append(broken, page+": "+m[1]+": "+msg)
				}
			}
		}
	}
	return broken
}

// checkLink resolves one link of page; "" when it resolves, else what is wrong.
func checkLink(root, page, link string, read func(string) string) string {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(link, "#")
	target := page
	if path != "" {
		target = filepath.Clean(filepath.Join(filepath.Dir(page), filepath.FromSlash(path)))
		if target == ".." || strings.HasPrefix(target, ".."+string(filepath.Separator)) {
			return "outside the repository"
		}
		if _, err := os.Stat(filepath.Join(root, target)); err != nil {
			return "no such file"
		}
	}
	if anchor == "" {
		return ""
	}
	if !strings.HasSuffix(target, ".md") {
		return "an anchor into a file that is not a Markdown page"
	}
	if !anchors(read(target))[anchor] {
		return fmt.Sprintf("no heading %s in %s", anchor, filepath.ToSlash(target))
	}
	return ""
}
