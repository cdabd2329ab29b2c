package train

import (
	"errors"
	"strings"
	"testing"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// TestFitRejectsFeaturesBeyondFloat32: training rows are narrowed to the model's dtype; a
// feature a float32 model cannot hold is rocops.ErrRange naming the row, not a batch of ±Inf.
func TestFitRejectsFeaturesBeyondFloat32(t *testing.T) {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Dtype: tensor.Float32})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0, 1, 2, 3, 1e39, 5, 6, 7}
	ds, err := data.New(x, []float64{0, 1, 0, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = fit(t, m, Config{Epochs: 1}, ds, nil)
	if !errors.Is(err, rocops.ErrRange) || !strings.Contains(err.Error(), "row 2, feature 0") {
		t.Fatalf("Fit: %v, want rocops.ErrRange naming row 2, feature 0", err)
	}
}
