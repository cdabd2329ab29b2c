package nn

import (
	"bytes"
	"errors"
	"testing"

	"github.com/rocops/rocops/internal/frame"
	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// Describe returns the architecture and dtype a checkpoint records, and the errors of Read for
// a damaged file.
func TestDescribe(t *testing.T) {
	for _, cfg := range []MLPConfig{{In: 3}, {In: 5, Hidden: []int{4, 2}, Activation: Tanh, Dtype: tensor.Float32}} {
		m, err := NewMLP(cfg)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, Write(&buf, m))
		b := buf.Bytes()
		arch, dt, err := Describe(bytes.NewReader(b))
		require.NoError(t, err, "Describe = %q, %v, %v; want %q, %v", arch, dt, err, m.Architecture(), m.Dtype())
		require.Equal(t, m.Architecture(), arch, "Describe = %q, %v, %v; want %q, %v", arch, dt, err, m.Architecture(), m.Dtype())
		require.False(t, dt != m.Dtype(), "Describe = %q, %v, %v; want %q, %v", arch, dt, err, m.Architecture(), m.Dtype())
		if _, _, err := Describe(bytes.NewReader(b[:len(b)-1])); !errors.Is(err, ErrDamaged) || !errors.Is(err, frame.ErrTruncated) {
			t.Errorf("truncated: %v, want ErrDamaged (truncated)", err)
		}
		if _, _, err := Describe(bytes.NewReader(append(b, 0))); !errors.Is(err, ErrDamaged) || !errors.Is(err, frame.ErrTrailingData) {
			t.Errorf("trailing byte: %v, want ErrDamaged (trailing data)", err)
		}
	}
}
