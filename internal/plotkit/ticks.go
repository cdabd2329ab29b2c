// Package plotkit holds small helpers shared by the module's plotting commands.
package plotkit

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// LogTicks marks a logarithmic axis. When the axis spans at least one decade it has a tick at
// every d·10^k, d = 1 … 9, labelled at d = 1, 2 and 5 across at most three decades and at the
// powers of ten alone across more (plot.LogTicks labels the powers only, which leaves one
// label on an axis of one or two decades); within a narrower range, where a power of ten may
// not fall at all, it uses the linear ticks of plot.DefaultTicks.
type LogTicks struct{}

// Ticks implements plot.Ticker.
func (LogTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max/min >= 10) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	labelled := map[int]bool{1: true, 2: hi-lo <= 3, 5: hi-lo <= 3}
	var ticks []plot.Tick
	for k := lo; k <= hi; k++ {
		for d := 1; d <= 9; d++ {
			v, _ := strconv.ParseFloat(strconv.Itoa(d)+"e"+strconv.Itoa(k), 64) // d·10^k, correctly rounded
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[d] {
				t.Label = strconv.FormatFloat(v, 'g', 3, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
