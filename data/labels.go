package data

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// MaxClasses bounds the distinct values of a multi-class label column.
const MaxClasses = 1000

// MinClassRows is the fewest rows a class of a multi-class label column may have: one for
// each of the training, validation and test parts of [Split].
const MinClassRows = 3

// ErrTooManyClasses reports a label column of more than MaxClasses distinct values.
var ErrTooManyClasses = errors.New("data: too many classes")

// labelColumn reads the label column of a CSV, one field per row. A column whose values are
// all the numbers 0 and 1 is binary, 1 the positive class, as before multi-class data: the
// numbers stay the labels. A column of more than two distinct values, numbers or text, is
// multi-class: its classes are the distinct values, sorted (by value when every one is a
// number, else by text), each named by its first spelling in the file, and the labels their
// indices. Numbers are one class by value ("1" and "1.0" are the same). Two distinct values
// other than 0 and 1, or one, are not a label column (rocops.ErrLabel): a binary label must be 0 or
// 1, and which of two names is the positive class is not for the loader to guess.
//
// While reading, a row's label is held as an id: 0 and 1 for the numbers 0 and 1, so that a
// binary column needs no mapping, and 2, 3, … for the other values in order of appearance.
type labelColumn struct {
	ids     map[string]int // canonical value → id, for the ids ≥ 2
	spelled map[string]int // trimmed field → id, for the ids ≥ 2, up to maxSpellings
	names   []string       // names[id]: the value's first spelling; "" for 0 and 1 until seen
	lines   []int          // lines[id]: the line of its first row
	counts  []int          // counts[id]: its rows
}

// parse returns the id of the label field, which begins on line. An empty field or a
// missing-value marker is ErrMissing; a new value beyond MaxClasses is ErrTooManyClasses. The
// error lacks the line and column, which the caller knows. A 0 or 1, and a value seen before
// in the same spelling, allocate nothing.
func (lc *labelColumn) parse(field []byte, line int) (float64, *CSVError) {
	if lc.names == nil {
		lc.ids, lc.spelled = map[string]int{}, map[string]int{}
		lc.names, lc.lines, lc.counts = make([]string, 2), make([]int, 2), make([]int, 2)
	}
	t := bytes.TrimSpace(field)
	if len(t) == 0 {
		return 0, &CSVError{Err: ErrMissing, Reason: "missing value (empty field): a class name cannot be empty"}
	}
	v, err := parseBytes(field, true) // 0 and 1, or ErrMissing and rocops.ErrLabel
	if err == nil {
		id := int(v)
		if lc.counts[id] == 0 {
			lc.names[id], lc.lines[id] = string(t), line
		}
		lc.counts[id]++
		return v, nil
	}
	if !errors.Is(err, rocops.ErrLabel) {
		return 0, err
	}
	id, ok := lc.spelled[string(t)]
	if !ok {
		s := string(t)
		key := s
		if x, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(x, 0) {
			key = strconv.FormatFloat(x, 'g', -1, 64)
		}
		if id, ok = lc.ids[key]; !ok {
			if lc.distinct() == MaxClasses {
				return 0, &CSVError{Err: ErrTooManyClasses,
					Reason: fmt.Sprintf("%s is a label value beyond the first %d; at most %d classes", quote(s), MaxClasses, MaxClasses)}
			}
			id = len(lc.names)
			lc.ids[key] = id
			lc.names, lc.lines, lc.counts = append(lc.names, s), append(lc.lines, line), append(lc.counts, 0)
		}
		if len(lc.spelled) < maxSpellings {
			lc.spelled[s] = id
		}
	}
	lc.counts[id]++
	return float64(id), nil
}

// maxSpellings bounds the spellings of label values a labelColumn remembers ("2" and "2.0"
// are two spellings of one class), so that a column of endless spellings cannot grow it.
const maxSpellings = 4 * MaxClasses

// distinct returns the number of distinct values read.
func (lc *labelColumn) distinct() int {
	n := len(lc.names) - 2
	for id := range 2 {
		if lc.counts[id] > 0 {
			n++
		}
	}
	return n
}

// finish turns the ids y of the rows (overwritten) into labels: for a binary column y is left
// as it is and classes is nil; for a multi-class one y holds class indices and classes their
// names. column names the label column in errors, which name the line of a bad value: one
// class (rocops.ErrOneClass), one or two values that are not 0/1 (rocops.ErrLabel), a class of fewer than
// MinClassRows rows (ErrClassTooSmall).
func (lc *labelColumn) finish(y []float64, column string) (classes []string, err error) {
	k := lc.distinct()
	switch {
	case len(lc.names) == 2 && k == 1: // every row 0, or every row 1
		return nil, &CSVError{Err: rocops.ErrOneClass,
			Reason: fmt.Sprintf("all %d rows have label %v; both classes are needed", len(y), y[0])}
	case len(lc.names) == 2:
		return nil, nil
	case k <= 2:
		return nil, &CSVError{Line: lc.lines[2], Column: column, Err: rocops.ErrLabel,
			Reason: fmt.Sprintf("%s is not a label (want 0 or 1, or more than two classes)", quote(lc.names[2]))}
	}
	// The values other than 0 and 1 are checked first, in order of appearance: in a binary
	// column with a stray value, the stray one is the class reported.
	for id := 2; id < len(lc.names)+2; id++ {
		if id := id % len(lc.names); lc.counts[id] > 0 && lc.counts[id] < MinClassRows {
			return nil, &CSVError{Line: lc.lines[id], Column: column, Err: ErrClassTooSmall,
				Reason: fmt.Sprintf("class %s has %d rows (the first on this line); a class needs at least %d, one for each of training, validation and test",
					quote(lc.names[id]), lc.counts[id], MinClassRows)}
		}
	}
	var used []int // the ids that occur
	numeric := true
	for id, n := range lc.counts {
		if n == 0 {
			continue
		}
		used = append(used, id)
		if _, err := strconv.ParseFloat(lc.names[id], 64); err != nil {
			numeric = false
		}
	}
	slices.SortFunc(used, func(a, b int) int {
		if numeric {
			x, _ := strconv.ParseFloat(lc.names[a], 64)
			z, _ := strconv.ParseFloat(lc.names[b], 64)
			return cmp.Compare(x, z)
		}
		return strings.Compare(lc.names[a], lc.names[b])
	})
	index := make([]float64, len(lc.names)) // id → class index
	for c, id := range used {
		index[id] = float64(c)
		classes = append(classes, lc.names[id])
	}
	for i, id := range y {
		y[i] = index[int(id)]
	}
	return classes, nil
}

// ParseLabelList reads a comma-separated list of label columns, such as roctrain's
// "-label a,b,c": the names, trimmed of spaces, in order. A list of one name is a single
// label column; of several, the columns of a multi-label dataset ([CSVConfig].Labels). An
// empty list, an empty name (as in "a,,b" or "a,") or a name given twice is [rocops.ErrConfig]
// naming it. A column whose name holds a comma cannot be named in such a list.
func ParseLabelList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, check.Errorf("data", rocops.ErrConfig, "label columns: no column named")
	}
	names := strings.Split(s, ",")
	seen := make(map[string]bool, len(names))
	for k, n := range names {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			return nil, check.Errorf("data", rocops.ErrConfig, "label columns: name %d of %q is empty", k+1, s)
		case seen[n]:
			return nil, check.Errorf("data", rocops.ErrConfig, "label columns: %q is named twice", n)
		}
		seen[n], names[k] = true, n
	}
	return names, nil
}

// readMultilabel is readCSV for cfg.Labels: a multi-label dataset whose label columns are
// cfg.Labels, each of the numbers 0 and 1, Y holding them row by row in that order, and every
// other column a feature. A missing label column is ErrHeader naming it, a value other than 0
// or 1 rocops.ErrLabel naming its column and line, a column of one value rocops.ErrOneClass naming it.
func readMultilabel(cr *recordReader, in *countingReader, cfg CSVConfig, header []string, rows int) (*Dataset, error) {
	line := cr.fieldLine(0)
	if cfg.Label != "" {
		return nil, &CSVError{Err: rocops.ErrConfig, Reason: fmt.Sprintf("label column %q and label columns %q: name one or the other", cfg.Label, cfg.Labels)}
	}
	if _, err := ParseLabelList(strings.Join(cfg.Labels, ",")); err != nil || slices.ContainsFunc(cfg.Labels, func(n string) bool { return strings.Contains(n, ",") }) {
		return nil, &CSVError{Err: rocops.ErrConfig, Reason: fmt.Sprintf("label columns %q: each named once, none empty", cfg.Labels)}
	}
	names, _, err := parseHeader(header, "", line)
	if err != nil {
		return nil, err
	}
	k := len(cfg.Labels)
	slot := make([]int, len(names)) // column → its place in cfg.Labels, -1 for a feature
	for j := range slot {
		slot[j] = -1
	}
	for c, n := range cfg.Labels {
		j := slices.Index(names, n)
		if j < 0 {
			return nil, &CSVError{Line: line, Err: ErrHeader, Reason: fmt.Sprintf("no label column %q", n)}
		}
		slot[j] = c
	}
	if len(names) == k {
		return nil, &CSVError{Line: line, Err: ErrHeader, Reason: "every column is a label; need at least one feature"}
	}
	ds := &Dataset{Cols: len(names) - k, Labels: slices.Clone(cfg.Labels)}
	for j, n := range names {
		if slot[j] < 0 {
			ds.FeatureNames = append(ds.FeatureNames, n)
		}
	}
	x := featureBlocks{f32: cfg.Float32}
	var y blocks
	if rows > 0 {
		x.reserve(rows * ds.Cols)
		y.reserve(rows * k)
	}
	row := make([]float64, k)
	ones := make([]int, k)
	for {
		record, err := cr.read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, readError(err, names)
		}
		if len(record) == 1 && len(bytes.TrimSpace(record[0])) == 0 {
			continue
		}
		if len(record) != len(names) {
			return nil, &CSVError{Line: cr.fieldLine(0), Err: ErrMalformed,
				Reason: fmt.Sprintf("%d fields, the header has %d", len(record), len(names))}
		}
		for j, field := range record {
			v, err := parseBytes(field, slot[j] >= 0)
			if err != nil {
				err.Line, err.Column = cr.fieldLine(j), names[j]
				return nil, err
			}
			if c := slot[j]; c >= 0 {
				row[c] = v
				ones[c] += int(v)
			} else if !x.add(v) {
				return nil, x.rangeError(field, cr.fieldLine(j), names[j])
			}
		}
		for _, v := range row {
			y.add(v)
		}
		ds.Rows++
		if cfg.Progress != nil && ds.Rows%progressEvery == 0 {
			cfg.Progress(ds.Rows, in.n)
		}
	}
	if cfg.Progress != nil {
		cfg.Progress(ds.Rows, in.n)
	}
	if ds.Rows == 0 {
		return nil, &CSVError{Reason: "no data rows after the header", Err: rocops.ErrEmpty}
	}
	for c, n := range ones {
		if n == 0 || n == ds.Rows {
			return nil, &CSVError{Column: cfg.Labels[c], Err: rocops.ErrOneClass,
				Reason: fmt.Sprintf("label column %q is %d on all %d rows; a label needs both 0s and 1s", cfg.Labels[c], min(n, 1), ds.Rows)}
		}
	}
	x.store(ds)
	ds.Y = y.concat()
	return ds, nil
}
