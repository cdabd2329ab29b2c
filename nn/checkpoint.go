package nn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/atomicfile"
	"github.com/rocops/rocops/internal/frame"
)

// Errors of Load, Read and Describe about the file itself, each wrapped with the details. They
// are also the errors of train's PESG state files (optim.LoadPESGState), which are checkpoints of
// an optimiser: their text names no package, the messages wrapping them do ("nn: damaged
// checkpoint: truncated: …", "train: PESG state: damaged checkpoint: …"). Load and Read leave
// the model unchanged whenever they return an error.
var (
	// ErrNotCheckpoint: the data do not start with the format's magic: another kind of file,
	// or a checkpoint of the other format (an nn checkpoint read as a PESG state).
	ErrNotCheckpoint = errors.New("not a checkpoint of this kind")
	// ErrVersion: the checkpoint's format version is not one this package reads.
	ErrVersion = errors.New("unsupported checkpoint version")
	// ErrDamaged: the data end before the checkpoint does, more data follow it, a checksum
	// does not match, or the content is inconsistent. The message says which.
	ErrDamaged = errors.New("damaged checkpoint")
)

// ErrArchitecture is the error of Load, Read and Restore for saved parameters that do not fit
// the model: another dtype, other parameters (in number or names), a parameter of another
// shape, or another architecture description (see Describer). The message says which.
var ErrArchitecture = errors.New("nn: architecture mismatch")

// A checkpoint (format version 1) is a frame of internal/frame, every integer little-endian:
//
//	magic         13 bytes  "ROCOPS-PARAMS"
//	version       uint16    1
//	payload size  uint64    P
//	header CRC    uint32    CRC-32C (Castagnoli) of the 23 bytes above
//	payload       P bytes:
//	  dtype         uint8   1 = float32, 2 = float64
//	  architecture  uint16 length, then the bytes of Describer.Architecture ("" if none)
//	  count         uint32  the number of parameters, then for each in Params order:
//	    name        uint16 length, then the bytes
//	    rank        uint8   r ≥ 1
//	    shape       r × uint32, each ≥ 1
//	    values      the elements in row-major order, IEEE 754 binary32 or binary64
//	file CRC      uint32    CRC-32C of everything before it
//
// The header CRC lets a reader trust P before reading the payload, so that a damaged size
// is reported as corruption and a short file as truncation.
const (
	magic          = "ROCOPS-PARAMS"
	dtypeCodeF32   = 1
	dtypeCodeF64   = 2
	maxShortString = math.MaxUint16
)

var checkpointFormat = frame.Format{
	Magic:   magic,
	Version: 1,
	Errors:  frame.Errors{NotFrame: ErrNotCheckpoint, Version: ErrVersion, Damaged: ErrDamaged},
	Prefix:  "nn",
}

// Save writes m's parameters to the file at path, replacing it atomically: the checkpoint
// is written to a temporary file in the same directory, synced to disk and renamed over
// path, and the directory is synced. If Save fails, path keeps its previous content. The
// file's mode is 0644. A save killed before its rename leaves its temporary file,
// ".<name>.tmp-<host>-<pid>-<digits>", in path's directory; the next Save of path removes
// those whose writing process no longer exists, and never another live writer's, so several
// processes may save to one directory at once.
func Save(path string, m Model) error {
	data, err := encode(m)
	if err != nil {
		return err
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return fmt.Errorf("nn: saving %s: %w", path, err)
	}
	return nil
}

// Write writes m's parameters to w as a checkpoint.
func Write(w io.Writer, m Model) error {
	data, err := encode(m)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("nn: writing checkpoint: %w", err)
	}
	return nil
}

// Load reads the checkpoint at path into m's parameters, as Read does.
func Load(path string, m Model) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("nn: loading checkpoint: %w", err)
	}
	defer f.Close()
	if err := Read(f, m); err != nil {
		return fmt.Errorf("%w (file %s)", err, path)
	}
	return nil
}

// Read reads a checkpoint from r, to its end, into m's parameters, in place. It first checks
// everything — magic, version, size, checksums, structure, no trailing data, then the dtype,
// parameter names and shapes, and architecture description against m — and changes m only
// if all is well. Its errors wrap ErrNotCheckpoint, ErrVersion, ErrDamaged, ErrArchitecture
// or ErrInput, or are I/O errors of r.
func Read(r io.Reader, m Model) error {
	ps, err := checkModel(m)
	if err != nil {
		return err
	}
	c, err := decode(r)
	if err != nil {
		return err
	}
	if c.dtype != m.Dtype() {
		return fmt.Errorf("%w: the checkpoint holds %v parameters, the model is %v", ErrArchitecture, c.dtype, m.Dtype())
	}
	if err := matchParams(ps, c.params); err != nil {
		return err
	}
	if want := architecture(m); currentArchitecture(c.arch) != want {
		return fmt.Errorf("%w: the checkpoint was written by %q, the model is %q", ErrArchitecture, c.arch, want)
	}
	return copyParams(ps, c.params)
}

// legacyLinear is how checkpoints of an MLP without hidden layers described it before the
// linear scorer became that MLP: with an activation that no layer applies.
var legacyLinear = regexp.MustCompile(`^MLP\(in=([0-9]+), hidden=\[\], activation=[a-z]+\)$`)

// currentArchitecture returns the architecture description arch of a checkpoint as the
// models of this version describe the same network, so that older checkpoints still load.
func currentArchitecture(arch string) string {
	return legacyLinear.ReplaceAllString(arch, "Linear(in=$1)")
}

// checkpoint is a decoded checkpoint.
type checkpoint struct {
	dtype  tensor.Dtype
	arch   string
	params []Param
}

// encode validates m and returns its checkpoint.
func encode(m Model) ([]byte, error) {
	ps, err := checkModel(m)
	if err != nil {
		return nil, err
	}
	arch := architecture(m)
	if len(arch) > maxShortString {
		return nil, fmt.Errorf("%w: the architecture description has %d bytes (at most %d)", ErrInput, len(arch), maxShortString)
	}
	code := byte(dtypeCodeF64)
	if m.Dtype() == tensor.Float32 {
		code = dtypeCodeF32
	}
	le := binary.LittleEndian
	payload := appendString([]byte{code}, arch)
	payload = le.AppendUint32(payload, uint32(len(ps)))
	for _, p := range ps {
		shape := p.Value.Shape()
		if len(p.Name) > maxShortString || len(shape) > math.MaxUint8 {
			return nil, fmt.Errorf("%w: parameter %q: name or rank too long for a checkpoint", ErrInput, p.Name)
		}
		payload = appendString(payload, p.Name)
		payload = append(payload, byte(len(shape)))
		for _, d := range shape {
			if uint64(d) > math.MaxUint32 {
				return nil, fmt.Errorf("%w: parameter %q has shape %v, too large for a checkpoint", ErrInput, p.Name, shape)
			}
			payload = le.AppendUint32(payload, uint32(d))
		}
		if payload, err = binary.Append(payload, le, p.Value.Data()); err != nil {
			return nil, fmt.Errorf("nn: encoding %q: %w", p.Name, err)
		}
	}

	return checkpointFormat.Append(nil, payload), nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint16(b, uint16(len(s))), s...)
}

// decode reads one checkpoint from r and checks that nothing follows it. It allocates memory
// as data arrives, not as the header claims, so a short or hostile file cannot make it
// allocate much more than its own size.
func decode(r io.Reader) (*checkpoint, error) {
	payload, err := checkpointFormat.Read(r)
	if err != nil {
		return nil, err
	}
	return parsePayload(payload)
}

// parsePayload decodes a payload whose checksum has been verified; an inconsistency here
// means the file was written wrongly, and is reported as damage (ErrDamaged).
func parsePayload(b []byte) (*checkpoint, error) {
	c := frame.NewCursor(b)
	code := c.U8()
	arch := str(c)
	count := c.Count(1) // every parameter takes at least one byte
	if c.Err() != nil {
		return nil, checkpointFormat.Corrupt("%w", c.Err())
	}
	cp := &checkpoint{arch: arch}
	switch code {
	case dtypeCodeF32:
		cp.dtype = tensor.Float32
	case dtypeCodeF64:
		cp.dtype = tensor.Float64
	default:
		return nil, checkpointFormat.Corrupt("unknown dtype code %d", code)
	}
	width := int(cp.dtype.Size())
	cp.params = make([]Param, count)
	for i := range cp.params {
		name := str(c)
		shape := make(tensor.Shape, c.U8())
		for d := range shape {
			shape[d] = int(c.U32())
		}
		if c.Err() != nil {
			return nil, checkpointFormat.Corrupt("%w", c.Err())
		}
		elems, ok := shapeSize(shape, c.Len()/width)
		if !ok {
			return nil, checkpointFormat.Corrupt("parameter %q has shape %v, with %d bytes left", name, shape, c.Len())
		}
		t := tensor.New(tensor.WithShape(shape...), tensor.Of(cp.dtype))
		if _, err := binary.Decode(c.Take(elems*width), binary.LittleEndian, t.Data()); err != nil {
			return nil, checkpointFormat.Corrupt("parameter %q: %v", name, err)
		}
		cp.params[i] = Param{Name: name, Value: t}
	}
	if c.Len() > 0 {
		return nil, checkpointFormat.Corrupt("%d bytes after the last parameter", c.Len())
	}
	return cp, nil
}

// shapeSize returns the number of elements of shape if its rank and every dimension are
// positive and the number is at most limit.
func shapeSize(shape tensor.Shape, limit int) (int, bool) {
	if len(shape) == 0 {
		return 0, false
	}
	n := 1
	for _, d := range shape {
		if d <= 0 || n > limit/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// str reads a string of at most 2^16 − 1 bytes: its uint16 length, then the bytes.
func str(c *frame.Cursor) string { return string(c.Take(int(c.U16()))) }
