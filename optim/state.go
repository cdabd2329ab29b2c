package optim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/rocops/rocops/internal/atomicfile"
	"github.com/rocops/rocops/internal/frame"
	"github.com/rocops/rocops/nn"
)

// A PESG state (format version 2) is laid out as follows, every integer little-endian and
// every float an IEEE 754 binary64:
//
//	magic          11 bytes  "ROCOPS-PESG"
//	version        uint16    2
//	payload size   uint64    P
//	header CRC     uint32    CRC-32C (Castagnoli) of the 21 bytes above
//	payload        P bytes:
//	  k            uint32    the loss's columns, ≥ 1 (1 for binary data)
//	  a, b, α      3k floats, a_1 … a_k, then b, then α
//	  η            float
//	  steps, since reset, epochs   3 × uint64, each at most 2^31 − 1
//	  tensors      uint32    T, then for each tensor (the model's in Params order, then a
//	                         and b): its length n (uint32), then n floats of the reference
//	                         point, n of the iterate sum and n of the momentum buffer
//	  model        32 bytes  PESGState.ModelSHA256: the SHA-256 of the model file saved with
//	                         the state, all zeros for none
//	file CRC       uint32    CRC-32C of everything before it
//
// Version 1, which UnmarshalBinary reads as well, is version 2 without the model's SHA-256.
// It is a frame of internal/frame, as nn's checkpoints are: the header CRC lets a reader
// trust P before reading the payload.
const pesgMagic = "ROCOPS-PESG"

// pesgFormat is the format MarshalBinary writes, pesgFormatV1 the first one's frame; their
// errors are nn's checkpoint errors, "optim: PESG state: …".
var (
	pesgFormat = frame.Format{
		Magic:   pesgMagic,
		Version: 2,
		Errors:  frame.Errors{NotFrame: nn.ErrNotCheckpoint, Version: nn.ErrVersion, Damaged: nn.ErrDamaged},
		Prefix:  "optim: PESG state",
	}
	pesgFormatV1 = frame.Format{Magic: pesgMagic, Version: 1, Errors: pesgFormat.Errors, Prefix: pesgFormat.Prefix}
)

// MarshalBinary implements encoding.BinaryMarshaler: the state in the versioned,
// checksummed format above, which [PESGState.UnmarshalBinary] reads back bit for bit. A
// state that no run could have produced — a, b and α of different or zero lengths, Ref, Acc
// and Momentum of different shapes, or counts negative or beyond 2^31 − 1 (which the reader
// refuses) — is rocops.ErrConfig.
func (s PESGState) MarshalBinary() ([]byte, error) {
	k := len(s.A)
	switch {
	case k == 0 || len(s.B) != k || len(s.Alpha) != k:
		return nil, pesgError("a, b and α of %d, %d and %d elements", len(s.A), len(s.B), len(s.Alpha))
	case len(s.Acc) != len(s.Ref) || len(s.Momentum) != len(s.Ref):
		return nil, pesgError("%d, %d and %d Ref, Acc and Momentum tensors", len(s.Ref), len(s.Acc), len(s.Momentum))
	case s.Steps < 0 || s.SinceReset < 0 || s.Epochs < 0:
		return nil, pesgError("negative counts %d, %d, %d", s.Steps, s.SinceReset, s.Epochs)
	case s.Steps > maxCount || s.SinceReset > maxCount || s.Epochs > maxCount: // as UnmarshalBinary refuses
		return nil, pesgError("counts %d, %d, %d of steps, steps since the reset and epochs: at most %d each",
			s.Steps, s.SinceReset, s.Epochs, maxCount)
	case k > math.MaxUint32 || len(s.Ref) > math.MaxUint32:
		return nil, pesgError("too many columns or tensors")
	}
	var p []byte
	u32 := func(v int) { p = binary.LittleEndian.AppendUint32(p, uint32(v)) }
	u64 := func(v int) { p = binary.LittleEndian.AppendUint64(p, uint64(v)) }
	fs := func(xs []float64) { p, _ = binary.Append(p, binary.LittleEndian, xs) }
	u32(k)
	fs(s.A)
	fs(s.B)
	fs(s.Alpha)
	fs([]float64{s.LearningRate})
	u64(s.Steps)
	u64(s.SinceReset)
	u64(s.Epochs)
	u32(len(s.Ref))
	for i, ref := range s.Ref {
		n := len(ref)
		if len(s.Acc[i]) != n || len(s.Momentum[i]) != n || n > math.MaxUint32 {
			return nil, pesgError("tensor %d has %d, %d and %d Ref, Acc and Momentum elements",
				i, n, len(s.Acc[i]), len(s.Momentum[i]))
		}
		u32(n)
		fs(ref)
		fs(s.Acc[i])
		fs(s.Momentum[i])
	}
	p = append(p, s.ModelSHA256[:]...)
	return pesgFormat.Append(nil, p), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it reads a state written by
// [PESGState.MarshalBinary], of format version 2 or 1 (whose states have no ModelSHA256: it is
// left zero). Its errors are those of nn's checkpoints: [nn.ErrNotCheckpoint] (another kind of
// data, such as an nn checkpoint), [nn.ErrVersion] and [nn.ErrDamaged] (the data end early, a
// checksum mismatch, lengths that do not add up, or trailing data), and the state is left
// unchanged whenever one is returned. It does not judge the values: [AUCM].Resume checks them
// against the run (rocops.ErrConfig).
func (s *PESGState) UnmarshalBinary(data []byte) error {
	format, m := pesgFormat, len(pesgMagic)
	if len(data) >= m+2 && string(data[:m]) == pesgMagic && binary.LittleEndian.Uint16(data[m:]) == 1 {
		format = pesgFormatV1
	}
	payload, err := format.Read(bytes.NewReader(data))
	if err != nil {
		return err
	}
	c := frame.NewCursor(payload)
	var st PESGState
	k := c.Count(3 * 8)
	if k == 0 {
		c.Fail(errors.New("k = 0 columns"))
	}
	st.A, st.B, st.Alpha = c.Float64s(k), c.Float64s(k), c.Float64s(k)
	st.LearningRate = c.Float64()
	st.Steps, st.SinceReset, st.Epochs = stepCount(c), stepCount(c), stepCount(c)
	for range c.Count(4) {
		n := c.Count(3 * 8)
		st.Ref, st.Acc, st.Momentum = append(st.Ref, c.Float64s(n)), append(st.Acc, c.Float64s(n)), append(st.Momentum, c.Float64s(n))
	}
	if format.Version >= 2 {
		copy(st.ModelSHA256[:], c.Take(len(st.ModelSHA256)))
	}
	if c.Len() > 0 {
		c.Fail(fmt.Errorf("%d payload bytes left over", c.Len()))
	}
	if c.Err() != nil {
		return pesgFormat.Corrupt("%w", c.Err())
	}
	*s = st
	return nil
}

// maxCount is the largest count of steps or epochs a state holds. No run takes 2^31 steps:
// refusing larger counts keeps int conversions safe everywhere.
const maxCount = math.MaxInt32

// stepCount reads a uint64 count of steps or epochs, at most maxCount.
func stepCount(c *frame.Cursor) int {
	v := c.U64()
	if v > maxCount {
		c.Fail(fmt.Errorf("a count of %d", v))
		return 0
	}
	return int(v)
}

// SavePESGState writes st (see [PESGState.MarshalBinary]) to the file at path, replacing it
// atomically as nn.Save replaces a checkpoint: if it fails, path keeps its previous content.
func SavePESGState(path string, st PESGState) error {
	data, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// LoadPESGState reads a state that SavePESGState wrote; its errors are those of
// [PESGState.UnmarshalBinary] and of reading the file.
func LoadPESGState(path string) (PESGState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return PESGState{}, fmt.Errorf("optim: %w", err)
	}
	var st PESGState
	if err := st.UnmarshalBinary(data); err != nil {
		return PESGState{}, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}
