package nn

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// TestCheckpointBytesUnchanged: the checkpoints of two fixed models (a float64 MLP with a
// hidden layer and a float32 linear one) hash to the SHA-256 of the bytes this package
// wrote before the framing moved to internal/frame, so files written by either version read
// with the other.
func TestCheckpointBytesUnchanged(t *testing.T) {
	for _, tc := range []struct {
		m    Model
		want string
	}{
		{newMLP(t, MLPConfig{In: 3, Hidden: []int{4}, Seed: 7}), "6d5b3d58571493d1958aa8d85f073256a30cadb8f426337f056973f2f58a21bc"},
		{newMLP(t, MLPConfig{In: 5, Seed: 2, Dtype: tensor.Float32}), "a3832f52f899580e496e691af2009814b09d59705bbd742edb5bffc7ce8a552f"},
	} {
		sum := sha256.Sum256(encoded(t, tc.m))
		got := hex.EncodeToString(sum[:])
		require.Equal(t, tc.want, got, "%s: checkpoint SHA-256 %s, want %s", architecture(tc.m), got, tc.want)
	}
}

// FuzzRead: Read into an MLP with one hidden layer never panics, fails only with its errors and leaves the model unchanged
// when it fails, and what it accepts Write writes back to the same bytes.
func FuzzRead(f *testing.F) {
	m, err := NewMLP(MLPConfig{In: 2, Hidden: []int{2}, Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:40])
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		target := newMLP(t, MLPConfig{In: 2, Hidden: []int{2}, Seed: 2})
		before := fmt.Sprint(paramBits(t, target))
		err := Read(bytes.NewReader(data), target)
		if err != nil {
			known := false
			for _, e := range []error{ErrNotCheckpoint, ErrVersion, ErrDamaged, ErrArchitecture} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			require.Equal(t, before, fmt.Sprint(paramBits(t, target)), "a failed Read changed the model")
			return
		}
		again := encoded(t, target)
		require.True(t, bytes.Equal(again, data), "Read accepted %x, Write gives %x", data, again)
	})
}
