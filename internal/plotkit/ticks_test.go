package plotkit

import "testing"

func TestLogTicksLabelNarrowRanges(t *testing.T) {
	for _, r := range [][2]float64{{0.1, 0.4}, {0.001, 0.3}, {0.5, 0.51}} {
		labels := 0
		for _, tk := range (LogTicks{}).Ticks(r[0], r[1]) {
			if tk.Label != "" && tk.Value >= r[0] && tk.Value <= r[1] {
				labels++
			}
		}
		if labels < 2 {
			t.Errorf("range %v: %d labelled ticks inside it, want at least 2", r, labels)
		}
	}
}
