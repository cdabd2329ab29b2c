package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/nn"
)

// env describes the machine and the run.
type env struct {
	CPU        string    `json:"cpu"`
	OS         string    `json:"os"`
	NumCPU     int       `json:"num_cpu"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	GoVersion  string    `json:"go_version"`
	BLAS       string    `json:"blas"`
	Revision   string    `json:"revision,omitempty"` // the module's git commit, "+dirty" with local changes
	Command    string    `json:"command"`
	Start      time.Time `json:"start"`
	Duration   float64   `json:"duration_s"`
	// LoadStart and LoadEnd are the 1-, 5- and 15-minute load averages (Linux), nil elsewhere.
	LoadStart []float64 `json:"load_start,omitempty"`
	LoadEnd   []float64 `json:"load_end,omitempty"`
}

func environment(args []string) env {
	return env{
		CPU:        cpuModel(),
		OS:         runtime.GOOS + "/" + runtime.GOARCH,
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GoVersion:  runtime.Version(),
		BLAS:       blasName(),
		Revision:   revision(),
		Command:    strings.TrimSpace("go run ./cmd/bench " + strings.Join(args, " ")),
		Start:      time.Now().UTC(),
		LoadStart:  loadAverage(),
	}
}

// finish records the run's duration and the load at its end.
func (e *env) finish() {
	e.Duration = time.Since(e.Start).Seconds()
	e.LoadEnd = loadAverage()
}

// loaded reports whether other work competed for the CPUs: a 1-minute load average above
// half the CPU count at the start or the end, beyond what this run itself adds at the end.
func (e env) loaded() bool {
	limit := float64(e.NumCPU) / 2
	return (len(e.LoadStart) > 0 && e.LoadStart[0] > limit) ||
		(len(e.LoadEnd) > 0 && e.LoadEnd[0] > limit+float64(e.GOMAXPROCS))
}

// revision is the git commit of the working tree, with "+dirty" when it has uncommitted
// changes; "" when git cannot tell (no git, or not a clone).
func revision() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	rev := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += "+dirty"
	}
	return rev
}

// blasName names the BLAS Gorgonia's matrix products and nn's passes go through, with the
// implementation's Go type: nn.BLAS is "gonum" by default and "openblas" with -tags openblas.
func blasName() string {
	return fmt.Sprintf("%s (%T)", nn.BLAS(), gorgonia.WhichBLAS())
}

// cpuModel is the CPU's model name from /proc/cpuinfo, or the architecture.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// loadAverage reads /proc/loadavg; nil when it cannot.
func loadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	var l [3]float64
	if _, err := fmt.Sscan(string(b), &l[0], &l[1], &l[2]); err != nil {
		return nil
	}
	return l[:]
}
