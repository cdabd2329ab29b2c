package train

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"github.com/rocops/rocops/internal/atomicfile"
)

// Errors of [PESGState.UnmarshalBinary] and [LoadPESGState], each wrapped with the details;
// the state is left unchanged whenever one is returned.
var (
	// ErrPESGFile: the data does not start with the PESG state magic (another file).
	ErrPESGFile = errors.New("train: not a rocops PESG state")
	// ErrPESGVersion: the state's format version is not one this package reads.
	ErrPESGVersion = errors.New("train: unsupported PESG state version")
	// ErrPESGTruncated: the data ends before the state does.
	ErrPESGTruncated = errors.New("train: PESG state is truncated")
	// ErrPESGCorrupt: a checksum does not match, the content is inconsistent, or more data
	// follows the state.
	ErrPESGCorrupt = errors.New("train: PESG state is corrupt")
)

// A PESG state (format version 1) is laid out as follows, every integer little-endian and
// every float an IEEE 754 binary64:
//
//	magic          11 bytes  "ROCOPS-PESG"
//	version        uint16    1
//	payload size   uint64    P
//	header CRC     uint32    CRC-32C (Castagnoli) of the 21 bytes above
//	payload        P bytes:
//	  k            uint32    the loss's columns, ≥ 1 (1 for binary data)
//	  a, b, α      3k floats, a_1 … a_k, then b, then α
//	  η            float
//	  steps, since reset, epochs   3 × uint64
//	  tensors      uint32    T, then for each tensor (the model's in Params order, then a
//	                         and b): its length n (uint32), then n floats of the reference
//	                         point, n of the iterate sum and n of the momentum buffer
//	file CRC       uint32    CRC-32C of everything before it
//
// As in nn's checkpoints, the header CRC lets a reader trust P before reading the payload.
const (
	pesgMagic    = "ROCOPS-PESG"
	pesgVersion  = 1
	pesgHeader   = len(pesgMagic) + 2 + 8 + 4
	pesgChecksum = 4
)

var pesgCRC = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary implements encoding.BinaryMarshaler: the state in the versioned,
// checksummed format above, which [PESGState.UnmarshalBinary] reads back bit for bit. A
// state that no run could have produced — a, b and α of different or zero lengths, Ref, Acc
// and Momentum of different shapes, or negative counts — is ErrPESG.
func (s PESGState) MarshalBinary() ([]byte, error) {
	k := len(s.A)
	switch {
	case k == 0 || len(s.B) != k || len(s.Alpha) != k:
		return nil, fmt.Errorf("%w: a, b and α of %d, %d and %d elements", ErrPESG, len(s.A), len(s.B), len(s.Alpha))
	case len(s.Acc) != len(s.Ref) || len(s.Momentum) != len(s.Ref):
		return nil, fmt.Errorf("%w: %d, %d and %d Ref, Acc and Momentum tensors", ErrPESG, len(s.Ref), len(s.Acc), len(s.Momentum))
	case s.Steps < 0 || s.SinceReset < 0 || s.Epochs < 0:
		return nil, fmt.Errorf("%w: negative counts %d, %d, %d", ErrPESG, s.Steps, s.SinceReset, s.Epochs)
	case k > math.MaxUint32 || len(s.Ref) > math.MaxUint32:
		return nil, fmt.Errorf("%w: too many columns or tensors", ErrPESG)
	}
	var p bytes.Buffer
	u32 := func(v int) { _ = binary.Write(&p, binary.LittleEndian, uint32(v)) }
	u64 := func(v int) { _ = binary.Write(&p, binary.LittleEndian, uint64(v)) }
	fs := func(xs []float64) { _ = binary.Write(&p, binary.LittleEndian, xs) }
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
			return nil, fmt.Errorf("%w: tensor %d has %d, %d and %d Ref, Acc and Momentum elements",
				ErrPESG, i, n, len(s.Acc[i]), len(s.Momentum[i]))
		}
		u32(n)
		fs(ref)
		fs(s.Acc[i])
		fs(s.Momentum[i])
	}
	out := make([]byte, 0, pesgHeader+p.Len()+pesgChecksum)
	out = append(out, pesgMagic...)
	out = binary.LittleEndian.AppendUint16(out, pesgVersion)
	out = binary.LittleEndian.AppendUint64(out, uint64(p.Len()))
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, pesgCRC))
	out = append(out, p.Bytes()...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, pesgCRC)), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it reads a state written by
// [PESGState.MarshalBinary]. Errors: ErrPESGFile (another kind of data), ErrPESGVersion,
// ErrPESGTruncated (the data ends early) and ErrPESGCorrupt (a checksum mismatch, lengths
// that do not add up, or trailing data). It does not judge the values: [AUCM].Resume checks
// them against the run (ErrPESG).
func (s *PESGState) UnmarshalBinary(data []byte) error {
	if len(data) < len(pesgMagic) {
		if bytes.HasPrefix([]byte(pesgMagic), data) {
			return fmt.Errorf("%w: %d bytes", ErrPESGTruncated, len(data))
		}
		return fmt.Errorf("%w: %d bytes", ErrPESGFile, len(data))
	}
	if string(data[:len(pesgMagic)]) != pesgMagic {
		return fmt.Errorf("%w: starts with %q", ErrPESGFile, data[:len(pesgMagic)])
	}
	if len(data) < pesgHeader {
		return fmt.Errorf("%w: %d bytes, the header alone is %d", ErrPESGTruncated, len(data), pesgHeader)
	}
	hdr := data[:pesgHeader]
	if got, want := binary.LittleEndian.Uint32(hdr[pesgHeader-4:]), crc32.Checksum(hdr[:pesgHeader-4], pesgCRC); got != want {
		return fmt.Errorf("%w: header checksum %08x, want %08x", ErrPESGCorrupt, got, want)
	}
	if v := binary.LittleEndian.Uint16(hdr[len(pesgMagic):]); v != pesgVersion {
		return fmt.Errorf("%w: version %d, this package reads %d", ErrPESGVersion, v, pesgVersion)
	}
	size := binary.LittleEndian.Uint64(hdr[len(pesgMagic)+2:])
	rest := uint64(len(data) - pesgHeader)
	switch {
	case size > rest || rest-size < pesgChecksum:
		return fmt.Errorf("%w: a payload of %d bytes and a checksum in %d bytes", ErrPESGTruncated, size, rest)
	case rest-size > pesgChecksum:
		return fmt.Errorf("%w: %d bytes after the state", ErrPESGCorrupt, rest-size-pesgChecksum)
	}
	end := pesgHeader + int(size)
	if got, want := binary.LittleEndian.Uint32(data[end:]), crc32.Checksum(data[:end], pesgCRC); got != want {
		return fmt.Errorf("%w: checksum %08x, want %08x", ErrPESGCorrupt, got, want)
	}
	r := stateReader{b: data[pesgHeader:end]}
	var st PESGState
	k := r.count(3 * 8)
	if k == 0 && r.err == nil {
		r.err = errors.New("k = 0 columns")
	}
	st.A, st.B, st.Alpha = r.floats(k), r.floats(k), r.floats(k)
	st.LearningRate = r.float()
	st.Steps, st.SinceReset, st.Epochs = r.int(), r.int(), r.int()
	tensors := r.count(4)
	for range tensors {
		n := r.count(3 * 8)
		st.Ref, st.Acc, st.Momentum = append(st.Ref, r.floats(n)), append(st.Acc, r.floats(n)), append(st.Momentum, r.floats(n))
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%d payload bytes left over", len(r.b))
	}
	if r.err != nil {
		return fmt.Errorf("%w: %w", ErrPESGCorrupt, r.err)
	}
	*s = st
	return nil
}

// stateReader reads the payload; after its first error every read returns zeros. The
// checksums have passed, so an error here is an inconsistent writer or a crafted file.
type stateReader struct {
	b   []byte
	err error
}

func (r *stateReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.err = fmt.Errorf("the payload ends %d bytes early", n-len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// count reads a uint32 count of items of at least per bytes each, refusing one that the rest
// of the payload cannot hold (so that a crafted count allocates nothing).
func (r *stateReader) count(per int) int {
	b := r.take(4)
	if b == nil {
		return 0
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n > len(r.b)/per {
		r.err = fmt.Errorf("a count of %d in %d bytes", n, len(r.b))
		return 0
	}
	return n
}

func (r *stateReader) int() int {
	b := r.take(8)
	if b == nil {
		return 0
	}
	v := binary.LittleEndian.Uint64(b)
	if v > math.MaxInt32 { // no run takes 2^31 steps; keeps int conversions safe everywhere
		r.err = fmt.Errorf("a count of %d", v)
		return 0
	}
	return int(v)
}

func (r *stateReader) float() float64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

func (r *stateReader) floats(n int) []float64 {
	b := r.take(8 * n)
	if b == nil {
		return nil
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
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
		return PESGState{}, fmt.Errorf("train: %w", err)
	}
	var st PESGState
	if err := st.UnmarshalBinary(data); err != nil {
		return PESGState{}, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}
