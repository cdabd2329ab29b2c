package data

import (
	"errors"
	"strings"
	"testing"

	"github.com/rocops/rocops"
)

func TestTeacher(t *testing.T) {
	cfg := TeacherConfig{Rows: 1000, Cols: 5, Positive: 0.05, Noise: 0.2, Seed: 3}
	ds, err := Teacher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Rows != 1000 || ds.Cols != 5 || ds.Positives() != 50 {
		t.Errorf("rows %d, cols %d, positives %d; want 1000, 5, 50", ds.Rows, ds.Cols, ds.Positives())
	}
	clean, err := Teacher(TeacherConfig{Rows: 1000, Cols: 5, Positive: 0.05, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Same features; labels differ on exactly 2·round(0.2·50) = 20 rows.
	diff := 0
	for i := range ds.Y {
		if ds.X[i*5] != clean.X[i*5] {
			t.Fatal("the noise changed the features")
		}
		if ds.Y[i] != clean.Y[i] {
			diff++
		}
	}
	if diff != 20 {
		t.Errorf("%d labels flipped, want 20", diff)
	}
	again, _ := Teacher(cfg)
	for i := range ds.Y {
		if again.Y[i] != ds.Y[i] {
			t.Fatal("the same configuration gave different labels")
		}
	}
	for _, bad := range []TeacherConfig{{Rows: -1}, {Positive: 1}, {Noise: 2}, {Cols: -3}} {
		if _, err := Teacher(bad); !errors.Is(err, rocops.ErrConfig) || !strings.HasPrefix(err.Error(), "data: invalid setting: teacher with ") {
			t.Errorf("%+v: error %v, want rocops.ErrConfig", bad, err)
		}
	}
}
