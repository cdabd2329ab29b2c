package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"golang.org/x/term"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
)

// dataGCPercent is the garbage collector's percent while roctrain holds a data file: the
// heap may grow to 1.05× its live size between collections instead of the default 2×. The
// numbers are one long-lived allocation without pointers, so a collection marks only the
// small rest of the heap and stays cheap however large the data.
const dataGCPercent = 5

// loadProgress reports rows read and throughput on stderr while a file loads, when stderr is
// a terminal and -json is off; otherwise it is silent.
type loadProgress struct {
	w     io.Writer // nil: silent
	name  string
	begin time.Time
	last  time.Time
	shown bool
	rows  int
	bytes int64
}

// newLoadProgress returns the progress of loading o.data, and lowers the garbage collector's
// percent for the data (dataGCPercent).
func newLoadProgress(o *options) *loadProgress {
	debug.SetGCPercent(dataGCPercent)
	p := &loadProgress{name: o.data, begin: time.Now()}
	if !o.json && term.IsTerminal(int(os.Stderr.Fd())) {
		p.w = os.Stderr
	}
	return p
}

// update is data.CSVConfig.Progress: it redraws the line at most every 200 ms.
func (p *loadProgress) update(rows int, bytes int64) {
	p.rows, p.bytes = rows, bytes
	if p.w == nil {
		return
	}
	now := time.Now()
	if p.shown && now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, "\rloading %s: %s\x1b[K", p.name, p.figures(now))
}

// figures are the rows and megabytes read so far and the rate since the start.
func (p *loadProgress) figures(now time.Time) string {
	mb := float64(p.bytes) / 1e6
	return fmt.Sprintf("%d rows, %.0f MB, %.0f MB/s", p.rows, mb, mb/max(now.Sub(p.begin).Seconds(), 1e-3))
}

// done ends the progress line.
func (p *loadProgress) done() {
	if p.w != nil && p.shown {
		now := time.Now()
		fmt.Fprintf(p.w, "\rloaded %s: %s in %v\x1b[K\n", p.name, p.figures(now), now.Sub(p.begin).Round(100*time.Millisecond))
	}
}

// newSplit is experiment.NewSplit, except that the last seed's split consumes ds
// (data.SplitStandardizedInPlace) instead of copying it: no later split needs the original.
func newSplit(o *options, ds *data.Dataset, seed uint64) (*experiment.Split, error) {
	if seed != o.seed+uint64(o.seeds-1) {
		return experiment.NewSplit(ds, seed)
	}
	tr, val, te, std, err := data.SplitStandardizedInPlace(ds, data.SplitConfig{Seed: seed})
	if err != nil {
		return nil, err
	}
	return &experiment.Split{Seed: seed, Train: tr, Val: val, Test: te, Std: std}, nil
}
