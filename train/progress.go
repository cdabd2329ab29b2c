package train

import (
	"fmt"
	"io"

	"github.com/schollz/progressbar/v3"
)

// progress is a progress bar over training steps, or nothing.
type progress struct{ bar *progressbar.ProgressBar }

// newProgress returns a bar over total steps drawn on w; none for w nil or io.Discard.
func newProgress(w io.Writer, total int) progress {
	if w == nil || w == io.Discard {
		return progress{}
	}
	return progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("training"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100_000_000), // at most ten redraws a second
		progressbar.OptionClearOnFinish(),
	)}
}

func (p progress) add(n int) {
	if p.bar != nil {
		_ = p.bar.Add(n) // a failed redraw must not stop training
	}
}

func (p progress) describe(e Epoch, m Metric) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("epoch %d (%v) loss %.4g %v %.4f", e.Index, e.Stage, e.Loss, m, e.Metric))
	}
}

// diagnosed adds the latest diagnosis to the bar's description.
func (p progress) diagnosed(e Epoch, m Metric, d Diagnosis) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("epoch %d (%v) loss %.4g %v %.4f misranking %.4f π_M %.4f %v",
			e.Index, e.Stage, e.Loss, m, e.Metric, d.Misranking, d.SevereMass, d.Decision))
	}
}

// grow adds n steps to the bar's total.
func (p progress) grow(n int) {
	if p.bar != nil && n > 0 {
		p.bar.ChangeMax(p.bar.GetMax() + n)
	}
}

func (p progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
