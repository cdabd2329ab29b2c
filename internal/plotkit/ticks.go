// Package plotkit holds small helpers shared by the module's plotting commands.
package plotkit

import "gonum.org/v1/plot"

// LogTicks marks a logarithmic axis: at the powers of ten and their 2× and 5× multiples when
// the axis spans at least one decade (as plot.LogTicks, whose labels are the powers only), and
// at the linear ticks of plot.DefaultTicks within a narrower range, where a power of ten may
// not fall at all and plot.LogTicks would leave the axis unlabelled.
type LogTicks struct{}

// Ticks implements plot.Ticker.
func (LogTicks) Ticks(min, max float64) []plot.Tick {
	if min > 0 && max/min >= 10 {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	return plot.DefaultTicks{}.Ticks(min, max)
}
