package data

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// maxLevelsRead bounds the distinct values of one text column a raw dataset names (its
// Levels): a column of endless distinct values, such as an identifier, cannot grow it; the
// values beyond are read as the level −1, which an Encoder counts as rare.
const maxLevelsRead = 1 << 16

// EncoderConfig says how [FitEncoder] encodes text columns. The zero value keeps, of each
// text column, the levels of at least 5 training rows, at most the 50 most frequent.
type EncoderConfig struct {
	// MaxLevels is the most levels of one text column that get a feature each: the most
	// frequent ones on the training rows (ties by name). 0 = 50; a negative value is
	// rocops.ErrConfig.
	MaxLevels int
	// MinRows is the fewest training rows a level needs to get a feature of its own; rarer
	// levels share the column's "(other)" feature. 0 = 5; a negative value is rocops.ErrConfig.
	MinRows int
}

// An Encoder turns the raw feature columns of a dataset (see [CSVConfig].Text and Missing)
// into numeric features, with statistics of the training rows only ([FitEncoder]), so that
// the validation and test rows and the rows scored later are encoded as the training rows
// were, none of their values leaking into training:
//
//   - a numeric column c gives the feature c, a missing value replaced by the column's median
//     on the training rows (the mean of the two middle values for an even count), and, when
//     the training rows have missing values in it, the feature "c (missing)", 1 where the value
//     was missing and 0 elsewhere;
//   - a text (categorical) column c gives one 0/1 feature "c=v" for each level v it keeps
//     (one-hot encoding), "c=(other)" for the levels it does not keep when the training rows
//     have some (levels rarer than EncoderConfig.MinRows, beyond the MaxLevels most frequent,
//     and, when scoring, levels first seen then), and "c=(missing)" when the training rows
//     have missing values in it. A level first seen after training, or a missing value in a
//     column that had none, sets "c=(other)" when the column has it, else no feature at all;
//   - a column with no value on the training rows gives no feature (as scikit-learn's
//     SimpleImputer drops it); it must still be present in the rows encoded.
//
// A number in a text column is the level named by its shortest float32 spelling
// (strconv.FormatFloat(v, 'g', -1, 32)): "7", "7.0" and "007" are one level. Feature names
// that would collide (a column named "c (missing)" beside c) get "#2", "#3"… appended.
//
// The fields are exported so that an Encoder can be saved (package deploy does) and read
// back; [Encoder.Validate] checks one built or decoded by hand. An Encoder is safe for
// concurrent use once built, and must not be changed after its first use.
type Encoder struct {
	// Columns are the raw feature columns, in the order of the dataset's features.
	Columns []EncodedColumn
	// Classes are the class names of a multi-class dataset (its Dataset.Classes), LabelValues
	// the negative and positive label values of a binary dataset read from text labels (its
	// Dataset.LabelValues): what [Encoder.Label] maps a label value by. Both nil for 0/1 labels.
	Classes, LabelValues []string

	once  sync.Once
	index []map[string]int // per text column: level → its place in Levels
	names []string
}

// EncodedColumn is how an Encoder encodes one raw column.
type EncodedColumn struct {
	Name string
	// Text marks a text column, whose kept levels are Levels, each a 0/1 feature, in order.
	Text   bool
	Levels []string
	// Other (text columns): a feature for the levels not kept.
	Other bool
	// Median (numeric columns): the value a missing value is replaced by.
	Median float64
	// Missing: the training rows had missing values in the column, which then has a 0/1
	// feature (numeric) or level (text) of missing values.
	Missing bool
	// Empty: the column had no value on the training rows and gives no feature.
	Empty bool
}

// Labels of the features an Encoder adds.
const (
	otherLevel   = "(other)"
	missingLevel = "(missing)"
)

// FitEncoder fits an Encoder on train, the raw training part of a dataset: its columns'
// kinds (text where Levels names levels), medians, levels and missing values. Its errors are
// rocops.ErrConfig for a bad cfg and ErrShape for a dataset whose fields do not fit.
func FitEncoder(train *Dataset, cfg EncoderConfig) (*Encoder, error) {
	if err := train.checkShape(); err != nil {
		return nil, err
	}
	if cfg.MaxLevels < 0 || cfg.MinRows < 0 {
		return nil, check.Errorf("data", rocops.ErrConfig, "encoder: MaxLevels %d and MinRows %d must not be negative", cfg.MaxLevels, cfg.MinRows)
	}
	if train.Levels != nil && len(train.Levels) != train.Cols {
		return nil, fmt.Errorf("%w: %d columns of levels for %d features", ErrShape, len(train.Levels), train.Cols)
	}
	maxLevels, minRows := cmp.Or(cfg.MaxLevels, 50), cmp.Or(cfg.MinRows, 5)
	e := &Encoder{Columns: make([]EncodedColumn, train.Cols),
		Classes: slices.Clone(train.Classes), LabelValues: slices.Clone(train.LabelValues)}
	values := make([]float64, 0, train.Rows)
	for j := range train.Cols {
		values = values[:0]
		missing := 0
		for i := range train.Rows {
			v := train.at(i, j)
			if math.IsNaN(v) {
				missing++
				continue
			}
			values = append(values, v)
		}
		col := EncodedColumn{Name: train.FeatureNames[j], Missing: missing > 0}
		var levels []string
		if train.Levels != nil {
			levels = train.Levels[j]
		}
		switch {
		case len(values) == 0:
			col = EncodedColumn{Name: col.Name, Text: levels != nil, Empty: true}
		case levels == nil:
			slices.Sort(values)
			n := len(values)
			col.Median = values[n/2]
			if n%2 == 0 {
				col.Median = values[n/2-1]/2 + values[n/2]/2
			}
		default:
			col.Text = true
			count := make(map[string]int)
			var order []string
			for _, v := range values {
				name := ""
				if code := int(v); code >= 0 && code < len(levels) {
					name = levels[code]
				}
				if count[name] == 0 && name != "" {
					order = append(order, name)
				}
				count[name]++
			}
			slices.SortFunc(order, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), strings.Compare(a, b)) })
			for _, name := range order {
				if count[name] >= minRows && len(col.Levels) < maxLevels {
					col.Levels = append(col.Levels, name)
				} else {
					col.Other = true
				}
			}
			col.Other = col.Other || count[""] > 0
			slices.Sort(col.Levels)
		}
		e.Columns[j] = col
	}
	return e, e.Validate()
}

// at returns feature j of row i in float64.
func (ds *Dataset) at(i, j int) float64 {
	if ds.X32 != nil {
		return float64(ds.X32[i*ds.Cols+j])
	}
	return ds.X[i*ds.Cols+j]
}

// Validate checks an Encoder built or decoded by hand: named, distinct columns; for a text
// column distinct, non-empty levels not padded with spaces; a finite median; nothing set that
// does not apply. Its errors wrap ErrShape.
func (e *Encoder) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: encoder: %s", ErrShape, fmt.Sprintf(format, a...))
	}
	if e == nil || len(e.Columns) == 0 {
		return bad("no columns")
	}
	seen := make(map[string]bool, len(e.Columns))
	for _, c := range e.Columns {
		switch {
		case c.Name == "" || strings.TrimSpace(c.Name) != c.Name:
			return bad("column name %q (empty or padded with spaces)", c.Name)
		case seen[c.Name]:
			return bad("column %q is listed twice", c.Name)
		case math.IsNaN(c.Median) || math.IsInf(c.Median, 0):
			return bad("column %q has median %v", c.Name, c.Median)
		case c.Empty && (c.Levels != nil || c.Other || c.Missing || c.Median != 0):
			return bad("column %q has no value in training but levels, a median or missing values", c.Name)
		case !c.Text && (c.Levels != nil || c.Other):
			return bad("numeric column %q has levels", c.Name)
		case c.Text && c.Median != 0:
			return bad("text column %q has a median", c.Name)
		case len(c.Levels) > maxLevelsRead:
			return bad("text column %q has %d levels, more than %d", c.Name, len(c.Levels), maxLevelsRead)
		}
		seen[c.Name] = true
		levels := make(map[string]bool, len(c.Levels))
		for _, l := range c.Levels {
			if l == "" || strings.TrimSpace(l) != l || levels[l] {
				return bad("column %q: level %q is empty, padded with spaces or listed twice", c.Name, l)
			}
			levels[l] = true
		}
	}
	for _, list := range [][]string{e.Classes, e.LabelValues} {
		if slices.Contains(list, "") {
			return bad("an empty class or label value")
		}
	}
	if e.LabelValues != nil && (len(e.LabelValues) != 2 || e.Classes != nil) {
		return bad("%d label values, want the negative and the positive one (and no classes)", len(e.LabelValues))
	}
	return nil
}

// prepare builds the lookups of e, once.
func (e *Encoder) prepare() {
	e.once.Do(func() {
		e.index = make([]map[string]int, len(e.Columns))
		used := map[string]int{}
		add := func(name string) {
			if used[name]++; used[name] > 1 {
				for k := used[name]; ; k++ {
					alt := name + "#" + strconv.Itoa(k)
					if used[alt] == 0 {
						used[alt], name = 1, alt
						break
					}
				}
			}
			e.names = append(e.names, name)
		}
		for j, c := range e.Columns {
			switch {
			case c.Empty:
			case !c.Text:
				add(c.Name)
				if c.Missing {
					add(c.Name + " " + missingLevel)
				}
			default:
				e.index[j] = make(map[string]int, len(c.Levels))
				for k, l := range c.Levels {
					e.index[j][l] = k
					add(c.Name + "=" + l)
				}
				if c.Other {
					add(c.Name + "=" + otherLevel)
				}
				if c.Missing {
					add(c.Name + "=" + missingLevel)
				}
			}
		}
	})
}

// width returns the features column c gives.
func (c *EncodedColumn) width() int {
	switch {
	case c.Empty:
		return 0
	case !c.Text:
		return 1 + btoi(c.Missing)
	}
	return len(c.Levels) + btoi(c.Other) + btoi(c.Missing)
}

// Names returns the names of the features e gives, in order: a copy.
func (e *Encoder) Names() []string {
	e.prepare()
	return slices.Clone(e.names)
}

// Apply returns the encoded copy of ds, a raw dataset of the columns e was fitted on (the
// same names in the same order; else ErrShape), stored as ds is (float64 or float32), its
// features e.Names(), its labels and their names those of ds. A value of a numeric column
// that is the level of a text column in ds (a validation file whose column holds text) must
// be a number, else ErrNotNumber names it.
func (e *Encoder) Apply(ds *Dataset) (*Dataset, error) {
	if err := ds.checkShape(); err != nil {
		return nil, err
	}
	e.prepare()
	if len(e.Columns) != ds.Cols {
		return nil, fmt.Errorf("%w: an encoder of %d columns applied to %d", ErrShape, len(e.Columns), ds.Cols)
	}
	// code[j] maps the codes of ds's text column j to the place of their level in e's
	// column j (−1 for other), or, for a numeric column of e, to their numbers.
	code := make([][]float64, ds.Cols)
	for j, c := range e.Columns {
		if ds.FeatureNames[j] != c.Name {
			return nil, fmt.Errorf("%w: feature %d is %q, the encoder's column %q", ErrShape, j+1, ds.FeatureNames[j], c.Name)
		}
		if ds.Levels == nil || ds.Levels[j] == nil {
			continue
		}
		code[j] = make([]float64, len(ds.Levels[j]))
		for k, l := range ds.Levels[j] {
			if c.Text {
				code[j][k] = float64(e.level(j, l))
				continue
			}
			v, err := parseField(l, false)
			if err != nil {
				return nil, check.Errorf("data", ErrNotNumber, "feature %q: %s (the column is numeric in the training data)", c.Name, err.Reason)
			}
			code[j][k] = v
		}
	}
	width := len(e.names)
	out := &Dataset{Y: slices.Clone(ds.Y), Rows: ds.Rows, Cols: width, FeatureNames: slices.Clone(e.names),
		LabelName: ds.LabelName, Classes: slices.Clone(ds.Classes), Labels: slices.Clone(ds.Labels),
		LabelValues: slices.Clone(ds.LabelValues)}
	row := make([]float64, width)
	store := func(i int) {
		copy(out.X[i*width:], row)
	}
	if ds.X32 != nil {
		out.X32 = make([]float32, ds.Rows*width)
		store = func(i int) {
			for k, v := range row {
				out.X32[i*width+k] = float32(v)
			}
		}
	} else {
		out.X = make([]float64, ds.Rows*width)
	}
	for i := range ds.Rows {
		clear(row)
		at := 0
		for j := range e.Columns {
			v := ds.at(i, j)
			kind := valueNumber
			switch {
			case math.IsNaN(v):
				kind = valueMissing
			case code[j] != nil && e.Columns[j].Text:
				kind, v = valueLevel, levelOf(code[j], v)
			case code[j] != nil:
				if k := int(v); k >= 0 && k < len(code[j]) {
					v = code[j][k]
				} else {
					kind = valueMissing // a value beyond the levels read: none of a numeric column's
				}
			case e.Columns[j].Text:
				kind, v = valueLevel, float64(e.level(j, spellNumber(v)))
			}
			at += e.encode(j, kind, v, row[at:])
		}
		store(i)
	}
	return out, nil
}

// levelOf returns the place in the encoder's levels of the level of code v, by the map code
// (−1 for a level the encoder does not keep, or a code beyond those read).
func levelOf(code []float64, v float64) float64 {
	if k := int(v); k >= 0 && k < len(code) {
		return code[k]
	}
	return -1
}

// The kinds of a raw value for encode.
const (
	valueNumber = iota
	valueMissing
	valueLevel // v is the place of the level in the column's Levels, −1 for none of them
)

// level returns the place of the level l in column j's Levels, −1 when it has none of that name.
func (e *Encoder) level(j int, l string) int {
	if k, ok := e.index[j][l]; ok {
		return k
	}
	return -1
}

// spellNumber is the level name of a number in a text column.
func spellNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 32) }

// encode writes the features of column j for a value of the given kind into dst, zeroed, and
// returns how many it wrote.
func (e *Encoder) encode(j, kind int, v float64, dst []float64) int {
	c := &e.Columns[j]
	switch {
	case c.Empty:
		return 0
	case !c.Text:
		dst[0] = v
		if kind == valueMissing {
			dst[0] = c.Median
		}
		if c.Missing && kind == valueMissing {
			dst[1] = 1
		}
		return c.width()
	}
	n := len(c.Levels)
	switch {
	case kind == valueMissing && c.Missing:
		dst[n+btoi(c.Other)] = 1
	case kind == valueLevel && v >= 0:
		dst[int(v)] = 1
	case c.Other:
		dst[n] = 1
	}
	return c.width()
}

// Encode appends to dst the features of one raw row, fields holding its values as text in the
// order of e.Columns, and returns it: the encoding [Encoder.Apply] gives the same values read
// from CSV. An empty field or a missing-value marker (NA, N/A, NaN, null, ?, in any case) is
// missing; a field of a numeric column that is not a finite number is ErrNotNumber, a
// *CSVError naming the column, which the caller gives its line. A wrong number of fields is
// ErrShape.
func (e *Encoder) Encode(dst []float64, fields []string) ([]float64, error) {
	e.prepare()
	if len(fields) != len(e.Columns) {
		return dst, fmt.Errorf("%w: %d fields for an encoder of %d columns", ErrShape, len(fields), len(e.Columns))
	}
	at := len(dst)
	dst = slices.Grow(dst, len(e.names))[:at+len(e.names)]
	clear(dst[at:])
	for j, f := range fields {
		c := &e.Columns[j]
		s := strings.TrimSpace(f)
		kind, v := valueNumber, 0.0
		switch {
		case s == "" || isMissing(s):
			kind = valueMissing
		case c.Text:
			kind = valueLevel
			if x, err := strconv.ParseFloat(s, 64); err == nil && x-x == 0 {
				s = spellNumber(x)
			}
			v = float64(e.level(j, s))
		case c.Empty:
		default:
			var ce *CSVError
			if v, ce = parseField(f, false); ce != nil {
				ce.Column = c.Name
				return dst[:at], ce
			}
		}
		at += e.encode(j, kind, v, dst[at:])
	}
	return dst, nil
}

// Label returns the label a label field holds for the data e was fitted on: the class index
// of a multi-class dataset's class name (Classes), 0 or 1 for a binary dataset of text labels
// (LabelValues: the negative value, the positive one), or else a 0/1 label by the rules of
// [ReadCSV] (0, 1 and true, false). A value not seen in training is rocops.ErrLabel, a missing
// one ErrMissing, each a *CSVError without a line or column.
func (e *Encoder) Label(field string) (float64, error) {
	m := labelMap{values: e.Classes}
	if e.LabelValues != nil {
		m.values = e.LabelValues
	}
	v, ce := m.value([]byte(field))
	if ce != nil {
		return 0, ce
	}
	return v, nil
}

// labelMap reads the labels of a file against the label values of another (CSVConfig.Like):
// values, when not nil, are the class names or the negative and positive values, and a label
// is its place among them; nil values read 0/1 labels.
type labelMap struct {
	values []string
}

// value returns the label of field; a value not among m.values is rocops.ErrLabel.
func (m *labelMap) value(field []byte) (float64, *CSVError) {
	if m.values == nil {
		return parseBytes(field, true)
	}
	t := bytes.TrimSpace(field)
	if len(t) == 0 || isMissing(string(t)) {
		_, ce := parseField(string(field), true)
		return 0, ce
	}
	for k, name := range m.values {
		if sameValue(string(t), name) {
			return float64(k), nil
		}
	}
	list := make([]string, 0, min(len(m.values), 6))
	for _, v := range m.values[:min(len(m.values), 6)] {
		list = append(list, quote(v))
	}
	more := ""
	if len(m.values) > 6 {
		more = ", …"
	}
	return 0, &CSVError{Err: rocops.ErrLabel,
		Reason: fmt.Sprintf("%s is a label value not seen in training (%s%s)", quote(string(t)), strings.Join(list, ", "), more)}
}

// sameValue reports whether the trimmed label value s is the class named name, by the rules a
// label column groups its values by: the same text, the same integer however written, or the
// same 0/1 label (1, 1.0 and true are one).
func sameValue(s, name string) bool {
	if s == name {
		return true
	}
	if a, b := canonicalInteger(s), canonicalInteger(name); a != "" && a == b {
		return true
	}
	a, errA := parseField(s, true)
	b, errB := parseField(name, true)
	return errA == nil && errB == nil && a == b
}

// needsRaw reports whether cfg reads raw columns (text, missing values, or another file's
// table).
func (cfg CSVConfig) needsRaw() bool { return cfg.Text || cfg.Missing || cfg.Like != nil }

// rawColumn reads one raw feature column: numbers while every value is one (or the column is
// numeric in cfg.Like's table), text levels once a value is not.
type rawColumn struct {
	text   bool
	fixed  bool // the kind is Like's: a numeric column refuses text
	levels []string
	index  map[string]int
}

// rawReader reads the raw feature columns of a table by cfg.
type rawReader struct {
	cols          []rawColumn
	text, missing bool
}

func newRawReader(cfg CSVConfig, cols int) *rawReader {
	r := &rawReader{cols: make([]rawColumn, cols), text: cfg.Text, missing: cfg.Missing}
	if like := cfg.Like; like != nil {
		for j := range r.cols {
			r.cols[j].fixed = true
			r.cols[j].text = like.Levels != nil && like.Levels[j] != nil
		}
		r.text = r.text || like.Levels != nil
	}
	return r
}

// parse reads field (the bytes of a CSV field, or a Parquet value's spelling) of column j:
// a number, NaN for a missing value, or the code of a text level; recode is called when the
// column turns to text, to rename the numbers read before as levels. The error lacks the
// line and column.
func (r *rawReader) parse(j int, field []byte, recode func(j int, f func(float64) float64)) (float64, *CSVError) {
	c := &r.cols[j]
	t := bytes.TrimSpace(field)
	v, err := strconv.ParseFloat(string(t), 64)
	switch {
	case err == nil && v-v == 0: // a finite number
		if c.text {
			return c.code(spellNumber(v)), nil
		}
		return v, nil
	case len(t) == 0 || isMissing(string(t)):
		if !r.missing {
			return parseField(string(field), false)
		}
		return math.NaN(), nil
	case err == nil || errors.Is(err, strconv.ErrRange), !r.text: // infinite, or text where numbers are wanted
		return parseField(string(field), false)
	case c.fixed && !c.text:
		_, ce := parseField(string(field), false)
		ce.Reason += " (the column is numeric in the training data)"
		return 0, ce
	}
	if !c.text {
		c.text = true
		recode(j, func(x float64) float64 {
			if math.IsNaN(x) {
				return x
			}
			return c.code(spellNumber(x))
		})
	}
	return c.code(string(t)), nil
}

// code returns the code of the level l, adding it while the column has fewer than
// maxLevelsRead; −1 beyond.
func (c *rawColumn) code(l string) float64 {
	if k, ok := c.index[l]; ok {
		return float64(k)
	}
	if len(c.levels) >= maxLevelsRead {
		return -1
	}
	if c.index == nil {
		c.index = map[string]int{}
	}
	c.index[l] = len(c.levels)
	c.levels = append(c.levels, l)
	return float64(len(c.levels) - 1)
}

// store sets ds.Levels from the columns read, nil when none is text.
func (r *rawReader) store(ds *Dataset) {
	for j, c := range r.cols {
		if c.text {
			if ds.Levels == nil {
				ds.Levels = make([][]string, len(r.cols))
			}
			ds.Levels[j] = slices.Clip(c.levels)
			if ds.Levels[j] == nil {
				ds.Levels[j] = []string{}
			}
		}
	}
}

// Raw reports whether ds holds raw columns, which an [Encoder] must encode before a
// standardizer or a model takes them: text columns (Levels) or missing values (NaN features,
// read with CSVConfig.Missing).
func (ds *Dataset) Raw() bool {
	if ds.Levels != nil {
		return true
	}
	k, _ := firstNonFinite(ds.X)
	if ds.X32 != nil {
		k, _ = firstNonFinite(ds.X32)
	}
	return k >= 0
}

// recodeBlocks applies f to the values of column j (of cols) among those x holds.
func (f *featureBlocks) recode(j, cols int, fn func(float64) float64) {
	if f.f32 {
		recodeList(&f.x32, j, cols, fn)
	} else {
		recodeList(&f.x64, j, cols, fn)
	}
}

func recodeList[T floats.Float](b *blockList[T], j, cols int, fn func(float64) float64) {
	k := 0
	for _, blk := range append(slices.Clip(b.full), b.cur) {
		for i := range blk {
			if (k+i)%cols == j {
				blk[i] = T(fn(float64(blk[i])))
			}
		}
		k += len(blk)
	}
}
