package nn

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"gorgonia.org/tensor"
)

// TestCheckpointBytesUnchanged: the checkpoints of two fixed models (a float64 MLP with a
// hidden layer and a float32 Linear model) hash to the SHA-256 of the bytes this package
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
		if got := hex.EncodeToString(sum[:]); got != tc.want {
			t.Errorf("%s: checkpoint SHA-256 %s, want %s", architecture(tc.m), got, tc.want)
		}
	}
}
