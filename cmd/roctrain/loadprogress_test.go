package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// loadProgress: the line shows the rows, megabytes and rate, is redrawn at most every
// 200 ms and ends with the totals; without a writer nothing is written.
func TestLoadProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &loadProgress{W: &buf, Name: "x.csv", Begin: time.Now().Add(-2 * time.Second)}
	p.update(65536, 20e6)
	p.update(131072, 40e6) // within 200 ms: not drawn
	p.update(150000, 45e6)
	p.done()
	out := buf.String()
	if got := strings.Count(out, "\rloading x.csv: "); got != 1 {
		assert.Fail(t, fmt.Sprintf("%d progress lines drawn, want 1: %q", got, out))
	}
	for _, want := range []string{"65536 rows, 20 MB, 10 MB/s", "\rloaded x.csv: 150000 rows, 45 MB, ", "\n"} {
		assert.Contains(t, out, want, "output %q lacks %q", out, want)
	}
	silent := &loadProgress{Name: "x.csv"}
	silent.update(1, 1)
	silent.done()
	assert.False(t, silent.rows != 1 || silent.bytes != 1, "a silent progress lost its figures")
}
