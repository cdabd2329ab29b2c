package main

import (
	"fmt"
	"io"
	"time"
)

// loadProgress reports the rows and megabytes read and the rate while a data file loads, one
// line on W redrawn in place at most every 200 ms ("loading x.csv: 65536 rows, 20 MB,
// 10 MB/s") and ended by the totals. A nil W prints nothing. update is a
// data.CSVConfig.Progress callback.
type loadProgress struct {
	W     io.Writer
	Name  string    // the file's name, as the line shows it
	Begin time.Time // when loading began; the zero value = the first update

	last  time.Time
	shown bool
	rows  int
	bytes int64
}

// update records rows and bytes read so far and redraws the line when 200 ms have passed.
func (p *loadProgress) update(rows int, bytes int64) {
	now := time.Now()
	if p.Begin.IsZero() {
		p.Begin = now
	}
	p.rows, p.bytes = rows, bytes
	if p.W == nil || p.shown && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.W, "\rloading %s: %s\x1b[K", p.Name, p.figures(now))
}

// figures are the rows and megabytes read so far and the rate since the start.
func (p *loadProgress) figures(now time.Time) string {
	mb := float64(p.bytes) / 1e6
	return fmt.Sprintf("%d rows, %.0f MB, %.0f MB/s", p.rows, mb, mb/max(now.Sub(p.Begin).Seconds(), 1e-3))
}

// done ends the line with the totals and the time taken, when one was drawn.
func (p *loadProgress) done() {
	if p.W != nil && p.shown {
		now := time.Now()
		fmt.Fprintf(p.W, "\rloaded %s: %s in %v\x1b[K\n", p.Name, p.figures(now), now.Sub(p.Begin).Round(100*time.Millisecond))
	}
}
