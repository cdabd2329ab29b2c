package deploy

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
)

// FuzzDecodeSidecar: any bytes decode to a sidecar that passes its checks, or fail with
// ErrSidecar or ErrVersion, never a panic; a sidecar of version 2, 3 or 4 that decodes encodes
// again to one that decodes to the same values.
func FuzzDecodeSidecar(f *testing.F) {
	for _, p := range []string{filepath.Join("testdata", "v1", "ce.json"), filepath.Join("testdata", "v2", "ce.json")} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, multilabel := range []bool{false, true} {
		dir := f.TempDir()
		t := &testing.T{}
		fx := newClassFixture(t, 1, multilabel, !multilabel)
		if _, err := Save(dir, "mc", fx.m, fx.op, fx.st, fx.features); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(sidecarOf(dir, "mc"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(bytes.Replace(b, []byte(`"thresholds": [`), []byte(`"thresholds": [null, `), 1))
		fx.op.Confidence = 0.95
		if _, err := Save(dir, "np", fx.m, fx.op, fx.st, fx.features); err != nil {
			f.Fatal(err)
		}
		if b, err = os.ReadFile(sidecarOf(dir, "np")); err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	fx := newFixture(&testing.T{}, 1)
	fx.op.Confidence, fx.op.Recall = 0.9, 0.8
	dir := f.TempDir()
	if _, err := Save(dir, "np", fx.m, fx.op, fx.st, fx.features); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(sidecarOf(dir, "np"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	path, _ := encodedFixture(&testing.T{}, dir) // version 4 with an encoding
	if b, err = os.ReadFile(sidecarPath(path)); err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"format": "rocops-operating-point", "version": 3}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc, err := decodeSidecar(b)
		if err != nil {
			require.False(t, !errors.Is(err, ErrSidecar) && !errors.Is(err, ErrVersion), "unnamed error %v", err)
			return
		}
		if sc.version < 1 || sc.version > versionGroups || (sc.version == versionClasses) && sc.op.Classes == nil ||
			sc.version < versionClasses && sc.op.Classes != nil ||
			(sc.version == versionGroups) != (sc.op.Confidence != 0 || sc.op.Encoder != nil) {
			require.Fail(t, fmt.Sprintf("version %d with classes %q, confidence %v and an encoder %t", sc.version, sc.op.Classes, sc.op.Confidence, sc.op.Encoder != nil))
		}
		if err := sc.check(); err != nil {
			require.Fail(t, fmt.Sprintf("decoded but fails its check: %v", err))
		}
		require.False(t, sc.op.Classes != nil && (len(sc.op.Thresholds) != sc.net.out || len(sc.op.Classes) != sc.net.out), "%d classes, %d thresholds, %d outputs", len(sc.op.Classes), len(sc.op.Thresholds), sc.net.out)
		if sc.version == 1 {
			return
		}
		js, err := sc.encode()
		if err != nil {
			require.Fail(t, fmt.Sprintf("encoding a decoded sidecar: %v", err))
		}
		again, err := decodeSidecar(js)
		if err != nil {
			require.Fail(t, fmt.Sprintf("re-encoded sidecar: %v\n%s", err, js))
		}
		again.net, sc.net = layers{}, layers{}
		if a, b := again.op.clone(), sc.op.clone(); !equalOp(a, b) || again.version != sc.version ||
			again.model != sc.model || again.spec != sc.spec || !equalFloats(again.st.Mean, sc.st.Mean) ||
			!equalFloats(again.st.Std, sc.st.Std) || strings.Join(again.features, "\x00") != strings.Join(sc.features, "\x00") {
			require.Fail(t, fmt.Sprintf("re-encoded sidecar decodes to\n%+v\nnot\n%+v", again, sc))
		}
	})
}

// equalOp reports whether two operating points hold the same values.
func equalOp(a, b OperatingPoint) bool {
	return a.Alpha == b.Alpha && a.Threshold == b.Threshold && a.ValFPR == b.ValFPR && a.ValTPR == b.ValTPR &&
		a.TestFPR == b.TestFPR && a.TestTPR == b.TestTPR && a.Label == b.Label && a.Run == b.Run &&
		a.Confidence == b.Confidence && a.Recall == b.Recall && equalEncoders(a.Encoder, b.Encoder) &&
		strings.Join(a.Classes, "\x00") == strings.Join(b.Classes, "\x00") && len(a.Classes) == len(b.Classes) &&
		a.Multilabel == b.Multilabel && a.Probabilities == b.Probabilities && equalFloats(a.Thresholds, b.Thresholds) &&
		equalFloats(a.ClassValFPR, b.ClassValFPR) && equalFloats(a.ClassValTPR, b.ClassValTPR) &&
		equalFloats(a.ClassTestFPR, b.ClassTestFPR) && equalFloats(a.ClassTestTPR, b.ClassTestTPR)
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzScoreCSVClasses: ScoreCSV of a multi-class model on any CSV text writes rows that parse,
// each with its row number, a label field when the input has the label column, three scores
// and three flags equal to score ≥ the class's threshold, or fails with a *data.CSVError;
// never a panic.
func FuzzScoreCSVClasses(f *testing.F) {
	t := &testing.T{}
	fx := newClassFixture(t, 6, false, true)
	path, err := Save(f.TempDir(), "mc", fx.m, fx.op, fx.st, fx.features)
	if err != nil {
		f.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(classRowsCSV(20, false))
	f.Add("a,b,c\n1,2,3\n")
	f.Add("a,b,c,y\n1,2,3,\"dog, big\"\n1,2,3, fox \n")
	f.Add("y,a,b,c\nNA,1,2,3\n")
	f.Fuzz(func(t *testing.T, text string) {
		var out bytes.Buffer
		rows, flagged, err := s.ScoreCSV(strings.NewReader(text), &out)
		if err != nil {
			standardise := errors.Is(err, rocops.ErrRange) && strings.Contains(err.Error(), "standardises to")
			if _, ok := errors.AsType[*data.CSVError](err); !ok && !standardise {
				require.Fail(t, fmt.Sprintf("%T %v", err, err))
			}
		}
		if out.Len() == 0 {
			return
		}
		recs, perr := csv.NewReader(&out).ReadAll()
		require.NoError(t, perr, "output does not parse: %v", perr)
		require.True(t, len(recs)-1 == rows, "%d rows written, %d returned", len(recs)-1, rows)
		nl := len(recs[0]) - 7
		require.False(t, nl != 0 && (nl != 1 || recs[0][1] != "y"), "header %q", recs[0])
		some := 0
		for i, rec := range recs[1:] {
			require.Equal(t, strconv.Itoa(i+1), rec[0], "row %d numbered %s", i+1, rec[0])
			any1 := false
			for k := range 3 {
				score, err := strconv.ParseFloat(rec[1+nl+k], 64)
				require.False(t, err != nil || !(score >= 0 && score <= 1) || math.IsNaN(score), "row %d: score %q", i+1, rec[1+nl+k])
				if want := map[bool]string{false: "0", true: "1"}[score >= fx.op.Thresholds[k]]; rec[1+nl+3+k] != want {
					require.Fail(t, fmt.Sprintf("row %d, class %d: flag %s for score %v", i+1, k, rec[1+nl+3+k], score))
				}
				any1 = any1 || rec[1+nl+3+k] == "1"
			}
			if any1 {
				some++
			}
		}
		require.True(t, some == flagged, "%d rows with a flag, %d counted", some, flagged)
	})
}

// equalEncoders reports whether a and b encode the same way: both nil, or the same columns,
// classes and label values.
func equalEncoders(a, b *data.Encoder) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(a.Columns, b.Columns) && slices.Equal(a.Classes, b.Classes) && slices.Equal(a.LabelValues, b.LabelValues)
}
