package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// A name of at most maxTitleName runes is kept; a longer one is cut to its first
// maxTitleName − 1 runes and "…", by rune, for names of every length, in ASCII and in runes of
// two, three and four bytes.
func TestElideEveryLength(t *testing.T) {
	for _, r := range []string{"a", "é", "名", "🙂"} {
		for n := 0; n <= 3*maxTitleName; n++ {
			name := strings.Repeat(r, n)
			got := elide([]string{name}, maxTitleName)[0]
			require.True(t, utf8.ValidString(got), "%q", got)
			if n <= maxTitleName {
				require.Equal(t, name, got)
				continue
			}
			require.Equal(t, strings.Repeat(r, maxTitleName-1)+"…", got)
			require.Equal(t, maxTitleName, utf8.RuneCountInString(got))
		}
	}
	require.Equal(t, []string{"averyveryverylongcl…", "short"},
		elide([]string{"averyveryverylongclassname", "short"}, maxTitleName))
}

// Long names that only differ at the end keep as many of their last runes as set them apart;
// a cut equal to a given short name is set apart from it; names that differ only in the
// middle, which no cut of maxTitleName runes tells apart, stay whole.
func TestElideKeepsNamesApart(t *testing.T) {
	// 22 runes each side of the rune that differs: a cut of 20 runes keeps at most 19 of the
	// head and the end together, so it sees the difference from neither.
	middle := strings.Repeat("m", 22)
	cases := []struct {
		name     string
		in, want []string
	}{
		{"the last rune", []string{"averyveryverylongclassA", "averyveryverylongclassB", "other"},
			[]string{"averyveryverylongc…A", "averyveryverylongc…B", "other"}},
		{"the last runes", []string{"averyveryverylongclass-12", "averyveryverylongclass-22", "averyveryverylongclassname"},
			// all three were one cut, so the third keeps a last rune as well
			[]string{"averyveryverylong…12", "averyveryverylong…22", "averyveryverylongc…e"}},
		{"runes of several bytes", []string{"日本語のとても長いクラスの名前です一二三四五六七", "日本語のとても長いクラスの名前です一二三四五六八"},
			[]string{"日本語のとても長いクラスの名前です一…七", "日本語のとても長いクラスの名前です一…八"}},
		{"a short name equal to a cut", []string{"averyveryverylongcl…", "averyveryverylongclassname"},
			[]string{"averyveryverylongcl…", "averyveryverylongc…e"}},
		{"the middle, within reach of the end", []string{"averyveryverylongclassXnameofthesameend", "averyveryverylongclassYnameofthesameend"},
			[]string{"av…Xnameofthesameend", "av…Ynameofthesameend"}},
		{"the middle, out of reach", []string{middle + "X" + middle, middle + "Y" + middle},
			[]string{middle + "X" + middle, middle + "Y" + middle}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Len(t, c.in, len(c.want))
			got := elide(c.in, maxTitleName)
			require.Equal(t, c.want, got)
			seen := map[string]bool{}
			for _, s := range got {
				require.False(t, seen[s], "%q twice", s)
				seen[s] = true
			}
		})
	}
}
