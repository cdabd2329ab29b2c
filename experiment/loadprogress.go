package experiment

import (
	"fmt"
	"io"
	"time"
)

// LoadProgress reports the rows and megabytes read and the rate while a data file loads, one
// line on W redrawn in place at most every 200 ms ("loading x.csv: 65536 rows, 20 MB,
// 10 MB/s") and ended by the totals. A nil W prints nothing. Update is a
// data.CSVConfig.Progress callback.
type LoadProgress struct {
	W     io.Writer
	Name  string    // the file's name, as the line shows it
	Begin time.Time // when loading began; the zero value = the first Update

	last  time.Time
	shown bool
	rows  int
	bytes int64
}

// Update records rows and bytes read so far and redraws the line when 200 ms have passed.
func (p *LoadProgress) Update(rows int, bytes int64) {
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

// Rows is the number of rows read so far.
func (p *LoadProgress) Rows() int { return p.rows }

// figures are the rows and megabytes read so far and the rate since the start.
func (p *LoadProgress) figures(now time.Time) string {
	mb := float64(p.bytes) / 1e6
	return fmt.Sprintf("%d rows, %.0f MB, %.0f MB/s", p.rows, mb, mb/max(now.Sub(p.Begin).Seconds(), 1e-3))
}

// Done ends the line with the totals and the time taken, when one was drawn.
func (p *LoadProgress) Done() {
	if p.W != nil && p.shown {
		now := time.Now()
		fmt.Fprintf(p.W, "\rloaded %s: %s in %v\x1b[K\n", p.Name, p.figures(now), now.Sub(p.Begin).Round(100*time.Millisecond))
	}
}
