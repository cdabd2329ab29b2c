package data

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
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
// numbers stay the labels ("1" and "1.0" are both 1). A column of more than two distinct
// values, numbers or text, is multi-class: its classes are the distinct values, compared
// exactly — as integers when every value is an integer (an optional sign and decimal digits:
// "007" and "7" are one class, 9007199254740992 and 9007199254740993 two), else as text
// ("2" and "2.0", "01" and "1" are two classes: a text column is never merged by numeric
// value) — each named by its first spelling in the file and sorted (by value when every one
// is a number, exactly for integers, ties by text; else by text), the labels their indices.
// Two distinct values other than 0 and 1, or one, are not a label column (rocops.ErrLabel): a
// binary label must be 0 or 1, and which of two names is the positive class is not for the
// loader to guess.
//
// While reading, a row's label is held as an id, one per distinct spelling (trimmed): 0 and 1
// for the first spellings of the numbers 0 and 1, so that a binary column needs no mapping,
// and 2, 3, … for the others in order of appearance.
type labelColumn struct {
	ids     map[string]int // trimmed spelling → id, for the ids ≥ 2, up to maxSpellings
	names   []string       // names[id]: the spelling; "" for 0 and 1 until seen
	lines   []int          // lines[id]: the line of its first row
	counts  []int          // counts[id]: its rows
	bits    []int8         // bits[id]: 0 or 1 when the spelling is the number 0 or 1, else -1
	ints    []string       // ints[id]: the integer a spelling is, in canonical decimal; "" if none
	integer map[string]int // canonical integer → the first id of it, while allInt
	notBin  bool           // some value is not the number 0 or 1
	notInt  bool           // some spelling is not an integer
	folded  bool           // spellings beyond maxSpellings were read as the id of their value
}

// maxSpellings bounds the spellings of label values a labelColumn remembers ("2" and "02"
// are two spellings of one integer class), so that a column of endless spellings cannot grow
// it: beyond it, a value of a binary or integer column is read by its value, and any other is
// one spelling too many for MaxClasses classes.
const maxSpellings = 4 * MaxClasses

// parse returns the id of the label field, which begins on line. An empty field or a
// missing-value marker is ErrMissing; a new value beyond MaxClasses is ErrTooManyClasses. The
// error lacks the line and column, which the caller knows. A value seen before in the same
// spelling allocates nothing.
func (lc *labelColumn) parse(field []byte, line int) (float64, *CSVError) {
	if lc.names == nil {
		lc.ids, lc.integer = map[string]int{}, map[string]int{}
		lc.names, lc.lines, lc.counts = make([]string, 2), make([]int, 2), make([]int, 2)
		lc.bits, lc.ints = []int8{0, 1}, []string{"0", "1"}
	}
	t := bytes.TrimSpace(field)
	if len(t) == 0 {
		return 0, &CSVError{Err: ErrMissing, Reason: "missing value (empty field): a class name cannot be empty"}
	}
	for id := range 2 {
		if lc.counts[id] > 0 && string(t) == lc.names[id] {
			lc.counts[id]++
			return float64(id), nil
		}
	}
	if id, ok := lc.ids[string(t)]; ok {
		lc.counts[id]++
		return float64(id), nil
	}
	bit := int8(-1)
	switch v, err := parseBytes(field, true); { // 0 and 1, or ErrMissing and rocops.ErrLabel
	case err == nil:
		bit = int8(v)
	case !errors.Is(err, rocops.ErrLabel):
		return 0, err
	}
	s := string(t)
	integer := canonicalInteger(s)
	if bit >= 0 && lc.counts[bit] == 0 { // the first spelling of 0 or 1
		id := int(bit)
		lc.names[id], lc.lines[id], lc.ints[id] = s, line, integer
		lc.note(id)
		lc.counts[id]++
		return float64(id), lc.tooMany(s)
	}
	id := -1
	if len(lc.ids) >= maxSpellings { // read by value, if the column has one, and not remembered
		switch {
		case !lc.notBin && bit >= 0:
			id = int(bit)
		case !lc.notInt && integer != "":
			if first, ok := lc.integer[integer]; ok {
				id = first
			}
		default:
			return 0, lc.beyond(s)
		}
		lc.folded = true
	}
	if id < 0 {
		id = len(lc.names)
		lc.names, lc.lines, lc.counts = append(lc.names, s), append(lc.lines, line), append(lc.counts, 0)
		lc.bits, lc.ints = append(lc.bits, bit), append(lc.ints, integer)
		if !lc.folded {
			lc.ids[s] = id
		}
		lc.note(id)
		if err := lc.tooMany(s); err != nil {
			return 0, err
		}
	}
	lc.counts[id]++
	return float64(id), nil
}

// note records what the new spelling id says of the column.
func (lc *labelColumn) note(id int) {
	lc.notBin = lc.notBin || lc.bits[id] < 0
	lc.notInt = lc.notInt || lc.ints[id] == ""
	if _, ok := lc.integer[lc.ints[id]]; !ok && lc.ints[id] != "" {
		lc.integer[lc.ints[id]] = id
	}
}

// tooMany is ErrTooManyClasses for the value s when the values read so far, s the last, are
// more than MaxClasses classes.
func (lc *labelColumn) tooMany(s string) *CSVError {
	if lc.distinct() > MaxClasses {
		return lc.beyond(s)
	}
	return nil
}

func (lc *labelColumn) beyond(s string) *CSVError {
	return &CSVError{Err: ErrTooManyClasses,
		Reason: fmt.Sprintf("%s is a label value beyond the first %d; at most %d classes", quote(s), MaxClasses, MaxClasses)}
}

// canonicalInteger returns s, a trimmed field, as an integer in canonical decimal (no sign
// for 0 or a positive one, no leading zeros) when it is one: an optional sign and decimal
// digits. Else it returns "".
func canonicalInteger(s string) string {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return ""
	}
	digits = strings.TrimLeft(digits, "0")
	switch {
	case digits == "":
		return "0"
	case s[0] == '-':
		return "-" + digits
	}
	return digits
}

// compareIntegers orders two canonical integers by value.
func compareIntegers(a, b string) int {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	c := cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	if na {
		return -c
	}
	return c
}

// distinct returns the number of distinct classes read: values 0 and 1 in a binary column,
// integers in an integer one, else spellings (more than maxSpellings once some were folded).
func (lc *labelColumn) distinct() int {
	switch {
	case !lc.notBin:
		return btoi(lc.counts[0] > 0) + btoi(lc.counts[1] > 0)
	case !lc.notInt:
		return len(lc.integer)
	case lc.folded:
		return maxSpellings + 1
	}
	return len(lc.names) - 2 + btoi(lc.counts[0] > 0) + btoi(lc.counts[1] > 0)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finish turns the ids y of the rows (overwritten) into labels: for a binary column y holds
// the numbers 0 and 1 and classes is nil; for a multi-class one y holds class indices and
// classes their names. column names the label column in errors, which name the line of a bad
// value: one class (rocops.ErrOneClass), one or two values that are not 0/1 (rocops.ErrLabel,
// naming every spelling when some were one value), a class of fewer than MinClassRows rows
// (ErrClassTooSmall).
func (lc *labelColumn) finish(y []float64, column, positive string) (classes, values []string, err error) {
	if positive != "" {
		values, err := lc.positive(y, column, positive)
		return nil, values, err
	}
	classes, err = lc.classes(y, column)
	return classes, nil, err
}

// groups returns the class of each id (the id leading it) and the leaders, in id order: by
// value 0 or 1 in a binary column, by integer in an integer one, else by spelling.
func (lc *labelColumn) groups() (group, leaders []int) {
	group = make([]int, len(lc.names))
	for id, n := range lc.counts {
		if n == 0 {
			continue
		}
		leader := id
		switch {
		case !lc.notBin:
			leader = int(lc.bits[id])
		case !lc.notInt:
			leader = lc.integer[lc.ints[id]]
		}
		group[id] = leader
		if leader == id {
			leaders = append(leaders, id)
		}
	}
	return group, leaders
}

// positive turns the ids y of a two-valued column into 0/1 labels, 1 for the value positive,
// and returns the negative and positive values as first written. One value is
// rocops.ErrOneClass, more than two or a positive that is neither rocops.ErrLabel.
func (lc *labelColumn) positive(y []float64, column, positive string) ([]string, error) {
	group, leaders := lc.groups()
	p := strings.TrimSpace(positive)
	named := make([]string, 0, 6)
	for _, id := range leaders[:min(len(leaders), 6)] {
		named = append(named, quote(lc.names[id]))
	}
	switch {
	case len(leaders) == 1:
		return nil, &CSVError{Column: column, Err: rocops.ErrOneClass,
			Reason: fmt.Sprintf("label column %q: all %d rows have label %s; both classes are needed", column, len(y), named[0])}
	case len(leaders) > 2:
		return nil, &CSVError{Column: column, Err: rocops.ErrLabel,
			Reason: fmt.Sprintf("the positive class %s names one of two label values, and the label column %q has %d (%s…)", quote(p), column, len(leaders), strings.Join(named, ", "))}
	}
	pos := slices.IndexFunc(leaders, func(id int) bool { return sameValue(p, lc.names[id]) })
	if pos < 0 {
		return nil, &CSVError{Column: column, Err: rocops.ErrLabel,
			Reason: fmt.Sprintf("the positive class %s is not a value of the label column %q, whose values are %s and %s", quote(p), column, named[0], named[1])}
	}
	posID := leaders[pos]
	for i, id := range y {
		y[i] = float64(btoi(group[int(id)] == posID))
	}
	return []string{lc.names[leaders[1-pos]], lc.names[posID]}, nil
}

// classes is finish without a positive class.
func (lc *labelColumn) classes(y []float64, column string) (classes []string, err error) {
	if !lc.notBin {
		if k := lc.distinct(); k == 1 { // every row 0, or every row 1
			return nil, &CSVError{Err: rocops.ErrOneClass,
				Reason: fmt.Sprintf("all %d rows have label %d; both classes are needed", len(y), btoi(lc.counts[1] > 0))}
		}
		if len(lc.names) > 2 { // other spellings of 0 and 1
			for i, id := range y {
				y[i] = float64(lc.bits[int(id)])
			}
		}
		return nil, nil
	}
	// The classes: each a group of the ids of one value, led by its first spelling to appear.
	group := make([]int, len(lc.names)) // id → its group's leader
	var leaders []int
	for id, n := range lc.counts {
		if n == 0 {
			continue
		}
		leader := id
		if !lc.notInt {
			leader = lc.integer[lc.ints[id]]
		}
		group[id] = leader
		if leader == id {
			leaders = append(leaders, id)
		}
	}
	rows := make([]int, len(lc.names))
	for id, n := range lc.counts {
		rows[group[id]] += n
	}
	if len(leaders) <= 2 {
		return nil, lc.notLabel(column, leaders)
	}
	// The values other than 0 and 1 are checked first, in order of appearance: in a binary
	// column with a stray value, the stray one is the class reported.
	order := slices.Clone(leaders)
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(btoi(lc.bits[a] >= 0), btoi(lc.bits[b] >= 0)), cmp.Compare(lc.lines[a], lc.lines[b]))
	})
	for _, id := range order {
		if rows[id] < MinClassRows {
			return nil, &CSVError{Line: lc.lines[id], Column: column, Err: ErrClassTooSmall,
				Reason: fmt.Sprintf("class %s has %d rows (the first on this line); a class needs at least %d, one for each of training, validation and test",
					quote(lc.names[id]), rows[id], MinClassRows)}
		}
	}
	numeric := true
	value := make(map[int]float64, len(leaders))
	for _, id := range leaders {
		x, err := strconv.ParseFloat(lc.names[id], 64)
		numeric = numeric && err == nil
		value[id] = x
	}
	slices.SortFunc(leaders, func(a, b int) int {
		switch {
		case !lc.notInt:
			return compareIntegers(lc.ints[a], lc.ints[b])
		case numeric:
			return cmp.Or(cmp.Compare(value[a], value[b]), strings.Compare(lc.names[a], lc.names[b]))
		}
		return strings.Compare(lc.names[a], lc.names[b])
	})
	index := make([]float64, len(lc.names)) // leader id → class index
	for c, id := range leaders {
		index[id] = float64(c)
		classes = append(classes, lc.names[id])
	}
	for i, id := range y {
		y[i] = index[group[int(id)]]
	}
	return classes, nil
}

// notLabel is the rocops.ErrLabel error of a column of one or two classes, led by leaders,
// not all 0/1. It names the first value other than 0 and 1; when the classes hold more
// spellings than classes (integers written two ways), it names every spelling, so that
// three values read as two classes say why.
func (lc *labelColumn) notLabel(column string, leaders []int) *CSVError {
	first := -1
	for id := 2; id < len(lc.names); id++ {
		if lc.counts[id] > 0 && lc.bits[id] < 0 && (first < 0 || lc.lines[id] < lc.lines[first]) {
			first = id
		}
	}
	var spellings []int
	for id, n := range lc.counts {
		if n > 0 {
			spellings = append(spellings, id)
		}
	}
	if len(spellings) == len(leaders) && !lc.folded {
		if len(leaders) == 2 {
			return &CSVError{Line: lc.lines[first], Column: column, Err: rocops.ErrLabel,
				Reason: fmt.Sprintf("the label column has two values, %s and %s, and not 0 and 1: name the positive class (CSVConfig.Positive; roctrain -positive VALUE)",
					quote(lc.names[leaders[0]]), quote(lc.names[leaders[1]]))}
		}
		return &CSVError{Line: lc.lines[first], Column: column, Err: rocops.ErrLabel,
			Reason: fmt.Sprintf("%s is not a label (want 0 or 1, or more than two classes)", quote(lc.names[first]))}
	}
	slices.SortFunc(spellings, func(a, b int) int { return cmp.Compare(lc.lines[a], lc.lines[b]) })
	var named []string
	for _, id := range spellings[:min(len(spellings), 6)] {
		named = append(named, quote(lc.names[id]))
	}
	list := strings.Join(named[:len(named)-1], ", ") + " and " + named[len(named)-1]
	if len(spellings) > len(named) || lc.folded {
		list = strings.Join(named, ", ") + " and more spellings"
	}
	return &CSVError{Line: lc.lines[first], Column: column, Err: rocops.ErrLabel,
		Reason: fmt.Sprintf("the label values %s are %d classes, each integer one class however it is written (want 0 or 1, or more than two classes)",
			list, len(leaders))}
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

// labelSlots maps each column of the header names to its place in labels, the label columns,
// or to -1 for a feature; line is the header's line. A label column the header lacks, or a
// header of label columns only, is ErrHeader.
func labelSlots(names, labels []string, line int) ([]int, error) {
	slot := make([]int, len(names))
	for j := range slot {
		slot[j] = -1
	}
	for c, n := range labels {
		j := slices.Index(names, n)
		if j < 0 {
			return nil, &CSVError{Line: line, Err: ErrHeader, Reason: fmt.Sprintf("no label column %q", n)}
		}
		slot[j] = c
	}
	if len(names) == len(labels) {
		return nil, &CSVError{Line: line, Err: ErrHeader, Reason: "every column is a label; need at least one feature"}
	}
	return slot, nil
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
	slot, err := labelSlots(names, cfg.Labels, line)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Cols: len(names) - k, Labels: slices.Clone(cfg.Labels)}
	feature := make([]int, len(names)) // column → its feature index
	for j, n := range names {
		if slot[j] < 0 {
			feature[j] = len(ds.FeatureNames)
			ds.FeatureNames = append(ds.FeatureNames, n)
		}
	}
	if err := cfg.checkLike(ds.FeatureNames, line); err != nil {
		return nil, err
	}
	b := newCSVBody(cr, in, cfg, names, ds, rows, k)
	row := make([]float64, k)
	ones := make([]int, k)
	for {
		record, ok, err := b.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		for j, field := range record {
			var v float64
			var perr *CSVError
			if b.raw != nil && slot[j] < 0 {
				v, perr = b.raw.parse(feature[j], field, b.recode)
			} else {
				v, perr = parseBytes(field, slot[j] >= 0)
			}
			if perr != nil {
				return nil, b.fieldError(perr, j)
			}
			if c := slot[j]; c >= 0 {
				row[c] = v
				ones[c] += int(v)
			} else if err := b.feature(v, field, j); err != nil {
				return nil, err
			}
		}
		for _, v := range row {
			b.y.add(v)
		}
		b.endRow()
	}
	if err := b.finish(); err != nil {
		return nil, err
	}
	for c, n := range ones {
		if n == 0 || n == ds.Rows {
			return nil, &CSVError{Column: cfg.Labels[c], Err: rocops.ErrOneClass,
				Reason: fmt.Sprintf("label column %q is %d on all %d rows; a label needs both 0s and 1s", cfg.Labels[c], min(n, 1), ds.Rows)}
		}
	}
	return ds, nil
}
