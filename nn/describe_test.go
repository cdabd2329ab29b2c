package nn

import (
	"bytes"
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
		_, _, err = Describe(bytes.NewReader(b[:len(b)-1]))
		require.ErrorIs(t, err, ErrDamaged, "truncated: %v, want ErrDamaged (truncated)", err)
		require.ErrorIs(t, err, frame.ErrTruncated, "truncated: %v, want ErrDamaged (truncated)", err)
		_, _, err = Describe(bytes.NewReader(append(b, 0)))
		require.ErrorIs(t, err, ErrDamaged, "trailing byte: %v, want ErrDamaged (trailing data)", err)
		require.ErrorIs(t, err, frame.ErrTrailingData, "trailing byte: %v, want ErrDamaged (trailing data)", err)
	}
}
