package experiment

import (
	"fmt"
	"io"
	"time"
)

// Progress tells a user which of Total trainings is running and how long the rest should
// take, one line per training on W:
//
//	[3/12] label, about 1m20s left
//
// The time left is the mean time of the trainings finished so far times the number not yet
// finished; trainings skipped (such as runs already on file when an experiment resumes) count
// as done but take no time. A nil W prints nothing. Use it from a grid's hooks: Start in
// GridHooks.Start, Skip when Start declines, Finish in GridHooks.Done.
type Progress struct {
	W     io.Writer
	Total int

	seen, ran int // trainings started or skipped, and finished
	begin     time.Time
}

// Start prints the line of the next training.
func (p *Progress) Start(label string) {
	if p.begin.IsZero() {
		p.begin = time.Now()
	}
	p.seen++
	if p.W == nil {
		return
	}
	left := ""
	if p.ran > 0 {
		left = fmt.Sprintf(
			", about %v left",
			(time.Since(p.begin) / time.Duration(p.ran) * time.Duration(p.Total-p.seen+1)).Round(time.Second),
		)
	}
	fmt.Fprintf(p.W, "[%d/%d] %s%s\n", p.seen, p.Total, label, left)
}

// Skip counts a training that does not run.
func (p *Progress) Skip() { p.seen++ }

// Finish counts the training that Start announced as finished.
func (p *Progress) Finish() { p.ran++ }
