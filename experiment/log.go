package experiment

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// maxLogLine bounds a line of a results log that [OpenLog] reads (a run with every epoch's
// diagnoses takes tens of kilobytes).
const maxLogLine = 1 << 26

// Log is a results log: a JSON Lines file holding one JSON object of T per finished run, each
// appended whole as soon as its run finishes, so that an experiment that stops (interrupted,
// killed, out of time) resumes where it stopped. [OpenLog] reads the runs on file, [Log.Has]
// says whether a run is among them (to skip it) and [Log.Add] appends one that finished. Runs
// are named by a key, such as "data set/run/seed"; Add refuses a second run of one key.
type Log[T any] struct {
	path string
	key  func(T) string
	have map[string]bool
}

// OpenLog reads the log at path, where no file is an empty log (the first Add creates it), and
// returns it with its runs in file order; key names a run. A line that is not a JSON object of
// T, such as a line cut off when a run was killed while writing it, is an error naming the
// file and the line.
func OpenLog[T any](path string, key func(T) string) (*Log[T], []T, error) {
	l := &Log[T]{path: path, key: key, have: map[string]bool{}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("experiment: %w", err)
	}
	defer f.Close()
	var runs []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), maxLogLine)
	for line := 1; sc.Scan(); line++ {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, nil, fmt.Errorf("experiment: %s line %d: %w (a run cut off mid-line? delete the line)", path, line, err)
		}
		runs = append(runs, r)
		l.have[key(r)] = true
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("experiment: %s: %w", path, err)
	}
	return l, runs, nil
}

// Has reports whether the run named key is on file: read by OpenLog or added since.
func (l *Log[T]) Has(key string) bool { return l.have[key] }

// Add appends the finished run r to the log as one line, json.Marshal's encoding of r and a
// newline, in one write to the file opened for appending and closed again, so that a process
// stopped between two runs leaves whole lines only. A run whose key is on file already is an
// error, and the log is left as it was.
func (l *Log[T]) Add(r T) error {
	k := l.key(r)
	if l.have[k] {
		return fmt.Errorf("experiment: %s: run %s is on file already", l.path, k)
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("experiment: %s: run %s: %w", l.path, k, err)
	}
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("experiment: %s: run %s: %w", l.path, k, err)
	}
	l.have[k] = true
	return nil
}
