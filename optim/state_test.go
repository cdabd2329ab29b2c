package optim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/frame"
	"github.com/rocops/rocops/nn"
)

// validState is a small encodable state: k = 2, two tensors.
func validState() PESGState {
	return PESGState{
		A: []float64{0.5, 0.25}, B: []float64{0.1, 0.2}, Alpha: []float64{0.3, 0}, LearningRate: 0.01,
		Steps: 12, SinceReset: 3, Epochs: 2,
		Ref: [][]float64{{1, 2, 3}, {4}}, Acc: [][]float64{{5, 6, 7}, {8}}, Momentum: [][]float64{{-1, -2, -3}, {-4}},
	}
}

// TestPESGStateBadData: every proper prefix of a state is nn.ErrDamaged (truncated), other
// files nn.ErrNotCheckpoint, a changed byte anywhere nn.ErrDamaged (corrupt; or
// nn.ErrNotCheckpoint in the magic), a version other than 1 and 2 with a valid header checksum
// nn.ErrVersion, a byte after the state nn.ErrDamaged (trailing data), and the state that
// failed to decode is left as it was. Messages start "optim: PESG state: ".
func TestPESGStateBadData(t *testing.T) {
	raw, err := validState().MarshalBinary()
	require.NoError(t, err)
	keep := validState()
	for n := range len(raw) {
		st := keep
		err := st.UnmarshalBinary(raw[:n])
		require.ErrorIs(t, err, nn.ErrDamaged, "prefix of %d bytes", n)
		require.ErrorIs(t, err, frame.ErrTruncated, "prefix of %d bytes", n)
		require.Regexp(t, "^optim: PESG state: damaged checkpoint: truncated: ", err.Error())
		require.Equal(t, keep, st)
	}
	var ckpt bytes.Buffer
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
	require.NoError(t, err)
	require.NoError(t, nn.Write(&ckpt, m))
	var st PESGState
	require.ErrorIs(t, st.UnmarshalBinary(ckpt.Bytes()), nn.ErrNotCheckpoint, "an nn checkpoint")
	require.ErrorIs(t, st.UnmarshalBinary([]byte(`{"A":[0]}`)), nn.ErrNotCheckpoint, "JSON")
	for i := range raw {
		bad := bytes.Clone(raw)
		bad[i] ^= 0x10
		err := st.UnmarshalBinary(bad)
		if i < len(pesgMagic) {
			require.ErrorIs(t, err, nn.ErrNotCheckpoint, "byte %d", i)
			require.NotErrorIs(t, err, nn.ErrDamaged, "byte %d", i)
			continue
		}
		require.ErrorIs(t, err, nn.ErrDamaged, "byte %d", i)
		require.ErrorIs(t, err, frame.ErrCorrupt, "byte %d", i)
	}
	v3 := bytes.Clone(raw)
	binary.LittleEndian.PutUint16(v3[len(pesgMagic):], 3)
	binary.LittleEndian.PutUint32(v3[pesgHeader-4:], crc32.Checksum(v3[:pesgHeader-4], pesgCRC))
	require.ErrorIs(t, st.UnmarshalBinary(v3), nn.ErrVersion)
	require.NotErrorIs(t, st.UnmarshalBinary(v3), nn.ErrDamaged)
	err = st.UnmarshalBinary(append(bytes.Clone(raw), 0))
	require.ErrorIs(t, err, nn.ErrDamaged)
	require.ErrorIs(t, err, frame.ErrTrailingData)

	_, err = LoadPESGState(filepath.Join(t.TempDir(), "missing"))
	require.Error(t, err)

	for name, mod := range map[string]func(*PESGState){
		"no columns":        func(s *PESGState) { s.A, s.B, s.Alpha = nil, nil, nil },
		"b of other length": func(s *PESGState) { s.B = s.B[:1] },
		"acc of other rank": func(s *PESGState) { s.Acc = s.Acc[:1] },
		"ragged momentum":   func(s *PESGState) { s.Momentum[0] = s.Momentum[0][:2] },
		"negative steps":    func(s *PESGState) { s.Steps = -1 },
	} {
		s := validState()
		mod(&s)
		_, err := s.MarshalBinary()
		require.ErrorIs(t, err, rocops.ErrConfig, name)
		require.ErrorContains(t, err, "optim: invalid setting: PESG: ", name)
	}
}

// FuzzPESGState: UnmarshalBinary never panics, fails only with its three errors, and what it
// accepts MarshalBinary writes back to the same bytes (the encoding is canonical), or for a
// state of format version 1 to the version-2 bytes of the same state.
func FuzzPESGState(f *testing.F) {
	raw, err := validState().MarshalBinary()
	require.NoError(f, err)
	v1, err := os.ReadFile(filepath.Join("testdata", "pesg-v1.pesg"))
	require.NoError(f, err)
	f.Add(raw)
	f.Add(v1)
	f.Add(raw[:len(raw)/2])
	f.Add([]byte(pesgMagic))
	f.Add([]byte("ROCOPS-PARAMS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st PESGState
		err := st.UnmarshalBinary(data)
		if err != nil {
			known := false
			for _, e := range []error{nn.ErrNotCheckpoint, nn.ErrVersion, nn.ErrDamaged} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			return
		}
		again, err := st.MarshalBinary()
		require.NoError(t, err)
		if binary.LittleEndian.Uint16(data[len(pesgMagic):]) == 1 {
			var back PESGState
			require.NoError(t, back.UnmarshalBinary(again))
			require.Equal(t, st, back)
			require.Equal(t, data[pesgHeader:len(data)-4], again[pesgHeader:len(again)-4-32], "version 1's payload")
			return
		}
		require.Equal(t, data, again)
	})
}
