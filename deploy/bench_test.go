package deploy

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkScoreCSV streams CSVs of 4096 and 65536 rows through ScoreCSV: the allocations per
// row stay the same (a streaming scorer, holding one 4096-row chunk at a time), so allocs/op
// and B/op grow 16-fold from one size to the other, not more.
func BenchmarkScoreCSV(b *testing.B) {
	t := &testing.T{}
	dir := b.TempDir()
	s, err := Load(newFixture(t, 3).save(t, dir, "ce"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{chunk, 16 * chunk} {
		text := rowsCSV(n)
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if rows, _, err := s.ScoreCSV(strings.NewReader(text), io.Discard); err != nil || rows != n {
					b.Fatal(rows, err)
				}
			}
		})
	}
}
