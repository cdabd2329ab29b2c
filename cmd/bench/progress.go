package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// progress shows what the run is doing on one line of a terminal, redrawn at most five times
// a second; on anything else (a log file, a pipe) it writes a line at most every ten seconds.
// Notes (a stopped kernel) are always written on their own line.
type progress struct {
	w        io.Writer
	terminal bool
	start    time.Time
	last     time.Time
	shown    bool // a line is on the terminal that a note must first clear
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, terminal: ok && term.IsTerminal(int(f.Fd())), start: time.Now()}
}

func (p *progress) elapsed() string { return time.Since(p.start).Round(time.Second).String() }

// line shows the current step.
func (p *progress) line(msg string) {
	now := time.Now()
	if p.terminal {
		if now.Sub(p.last) < 200*time.Millisecond {
			return
		}
		fmt.Fprintf(p.w, "\r\033[Kbench %s: %s", p.elapsed(), msg)
		p.shown = true
	} else {
		if !p.last.IsZero() && now.Sub(p.last) < 10*time.Second {
			return
		}
		fmt.Fprintf(p.w, "bench %s: %s\n", p.elapsed(), msg)
	}
	p.last = now
}

// note writes msg on a line of its own.
func (p *progress) note(msg string) {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
	fmt.Fprintf(p.w, "bench %s: %s\n", p.elapsed(), msg)
}

// done clears the progress line and reports the run's length.
func (p *progress) done() { p.note("done") }
