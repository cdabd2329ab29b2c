// Package frame writes and reads the checksummed framing that rocops's binary formats (nn's
// checkpoints, train's PESG states) share, and reads their payloads with a [Cursor].
//
// A frame is laid out as follows, every integer little-endian:
//
//	magic         len(Magic) bytes
//	version       uint16    Version
//	payload size  uint64    P
//	header CRC    uint32    CRC-32C (Castagnoli) of the len(Magic) + 10 bytes above
//	payload       P bytes
//	file CRC      uint32    CRC-32C of everything before it
//
// The header CRC lets a reader trust P before reading the payload, so that a damaged size is
// reported as corruption and a short file as truncation.
package frame

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// The errors of a Format whose Errors fields are nil, each wrapped with the details.
var (
	// ErrNotFrame: the data does not start with the format's magic.
	ErrNotFrame = errors.New("not a frame of this format")
	// ErrVersion: the frame's version is not the format's.
	ErrVersion = errors.New("unsupported version")
	// ErrDamaged: the data are damaged, in one of the ways below.
	ErrDamaged = errors.New("damaged")
)

// The kinds of damage. Every damaged frame's error wraps one of them beside the format's
// Damaged error, so that the formats need one sentinel for damage while their tests (and
// any caller inside the module) still tell the kinds apart.
var (
	// ErrTruncated: the data end before the frame does.
	ErrTruncated = errors.New("truncated")
	// ErrCorrupt: a checksum does not match, the payload size is impossible, or (the
	// formats' own, from [Format.Corrupt]) the payload is inconsistent.
	ErrCorrupt = errors.New("corrupt")
	// ErrTrailingData: more data follow the frame.
	ErrTrailingData = errors.New("unexpected data after the end")
)

// Errors are the sentinels a Format's reader wraps, so that each format keeps its own; a nil
// field stands for the package's error of that name (NotFrame for ErrNotFrame, and so on).
type Errors struct {
	NotFrame, Version, Damaged error
}

// Format is one framed format. Its zero value is a format with an empty magic, version 0
// and the package's errors, usable but meant to be filled in.
type Format struct {
	// Magic is the format's first bytes.
	Magic string
	// Version is the one version this format writes and reads.
	Version uint16
	// Errors are the sentinels of Read.
	Errors Errors
	// Prefix starts the messages of every error of Read and Corrupt, such as "nn" or
	// "train: PESG state"; "" stands for "frame". The reader's own errors read
	// "<Prefix>: reading: …".
	Prefix string
}

func (f Format) prefix() string { return cmp.Or(f.Prefix, "frame") }

// damaged returns the error of a frame damaged in the way kind (ErrTruncated, ErrCorrupt or
// ErrTrailingData): "<Prefix>: <Damaged>: <kind>: <details>".
func (f Format) damaged(kind error, format string, args ...any) error {
	d := fmt.Sprintf(format, args...)
	if d != "" {
		d = ": " + d
	}
	return fmt.Errorf("%s: %w: %w%s", f.prefix(), cmp.Or(f.Errors.Damaged, ErrDamaged), kind, d)
}

// Corrupt returns the error of a payload that passed its checksums but is inconsistent, as
// a faulty writer would make it: "<Prefix>: <Damaged>: corrupt: <details>", wrapping the
// format's Damaged error, ErrCorrupt and any error among args that format's %w verbs name.
func (f Format) Corrupt(format string, args ...any) error {
	return fmt.Errorf("%s: %w: %w: %w", f.prefix(), cmp.Or(f.Errors.Damaged, ErrDamaged), ErrCorrupt, fmt.Errorf(format, args...))
}

const sumSize = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Append appends the frame of payload to dst and returns the extended slice.
func (f Format) Append(dst, payload []byte) []byte {
	le, start := binary.LittleEndian, len(dst)
	dst = le.AppendUint64(le.AppendUint16(append(dst, f.Magic...), f.Version), uint64(len(payload)))
	dst = le.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
	dst = append(dst, payload...)
	return le.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// Read reads one frame of f from r, to r's end, and returns its payload. It checks the magic,
// the version as soon as its bytes are there, the header CRC, the length, the file CRC and
// that nothing follows, in this order. A version other than f.Version with a failing header
// CRC wraps both Errors.Version and Errors.Damaged (with ErrCorrupt): it is a damaged header,
// or a version whose header this package cannot check. Read allocates memory as data arrives,
// not as the header claims, so a short or hostile stream cannot make it allocate much more than
// its own size. Its errors wrap those of f.Errors (a damaged frame's with one of ErrTruncated,
// ErrCorrupt and ErrTrailingData) or are r's own, wrapped.
func (f Format) Read(r io.Reader) ([]byte, error) {
	le, e, m := binary.LittleEndian, f.Errors, len(f.Magic)
	fail := func(err error) ([]byte, error) {
		return nil, fmt.Errorf("%s: reading: %w", f.prefix(), err)
	}
	head := make([]byte, m+2+8+sumSize)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fail(err)
	}
	if k := min(n, m); string(head[:k]) != f.Magic[:k] {
		return nil, fmt.Errorf("%s: %w: it does not start with %q", f.prefix(), cmp.Or(e.NotFrame, ErrNotFrame), f.Magic)
	}
	var badVersion error
	if n >= m+2 && le.Uint16(head[m:]) != f.Version {
		badVersion = fmt.Errorf("%w: version %d (this package reads version %d)", cmp.Or(e.Version, ErrVersion), le.Uint16(head[m:]), f.Version)
	}
	if n < len(head) {
		if badVersion != nil {
			return nil, fmt.Errorf("%s: %w", f.prefix(), badVersion)
		}
		return nil, f.damaged(ErrTruncated, "%d bytes, shorter than the header (%d bytes)", n, len(head))
	}
	if got, want := crc32.Checksum(head[:n-sumSize], castagnoli), le.Uint32(head[n-sumSize:]); got != want {
		if badVersion != nil {
			return nil, fmt.Errorf("%s: %w, and %w: %w: header checksum %08x, recorded %08x",
				f.prefix(), badVersion, cmp.Or(e.Damaged, ErrDamaged), ErrCorrupt, got, want)
		}
		return nil, f.damaged(ErrCorrupt, "header checksum %08x, recorded %08x", got, want)
	}
	if badVersion != nil {
		return nil, fmt.Errorf("%s: %w", f.prefix(), badVersion)
	}
	size := le.Uint64(head[m+2:])
	if size > math.MaxInt64 {
		return nil, f.damaged(ErrCorrupt, "payload size %d", size)
	}
	var payload bytes.Buffer
	if got, err := io.CopyN(&payload, r, int64(size)); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, f.damaged(ErrTruncated, "the payload has %d of its %d bytes", got, size)
		}
		return fail(err)
	}
	var tail [sumSize]byte
	if _, err := io.ReadFull(r, tail[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, f.damaged(ErrTruncated, "the file checksum is missing")
		}
		return fail(err)
	}
	if got, want := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, payload.Bytes()), le.Uint32(tail[:]); got != want {
		return nil, f.damaged(ErrCorrupt, "file checksum %08x, recorded %08x", got, want)
	}
	switch _, err := io.ReadFull(r, tail[:1]); {
	case err == nil:
		return nil, f.damaged(ErrTrailingData, "")
	case !errors.Is(err, io.EOF):
		return fail(err)
	}
	return payload.Bytes(), nil
}
