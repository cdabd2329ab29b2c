package frame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrPayload is wrapped by the errors of a Cursor: the payload ends before a read, or holds a
// count that the rest of it cannot hold.
var ErrPayload = errors.New("inconsistent payload")

// Cursor reads a payload front to back, every integer little-endian and every float an
// IEEE 754 binary64. Its first failure sticks: later reads return zero values (nil slices)
// and Err keeps the first error. The zero value reads an empty payload.
type Cursor struct {
	b   []byte
	err error
}

// NewCursor returns a Cursor at the start of b.
func NewCursor(b []byte) *Cursor { return &Cursor{b: b} }

// Err returns the cursor's first error, nil if every read so far succeeded.
func (c *Cursor) Err() error { return c.err }

// Len returns the number of bytes not yet read.
func (c *Cursor) Len() int { return len(c.b) }

// Fail makes err the cursor's error unless it already has one.
func (c *Cursor) Fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// Take returns the next n bytes, a subslice of the payload.
func (c *Cursor) Take(n int) []byte {
	if c.err != nil {
		return nil
	}
	if n < 0 || n > len(c.b) {
		c.err = fmt.Errorf("%w: a record needs %d bytes, %d are left", ErrPayload, n, len(c.b))
		return nil
	}
	out := c.b[:n:n]
	c.b = c.b[n:]
	return out
}

// U8 reads a byte.
func (c *Cursor) U8() uint8 { return uint8(c.uint(1)) }

// U16 reads a uint16.
func (c *Cursor) U16() uint16 { return uint16(c.uint(2)) }

// U32 reads a uint32.
func (c *Cursor) U32() uint32 { return uint32(c.uint(4)) }

// U64 reads a uint64.
func (c *Cursor) U64() uint64 { return c.uint(8) }

// uint reads an n-byte little-endian unsigned integer.
func (c *Cursor) uint(n int) uint64 {
	var v uint64
	for i, b := range c.Take(n) {
		v |= uint64(b) << (8 * i)
	}
	return v
}

// Count reads a uint32 count of items of at least per ≥ 1 bytes each and refuses (0 and an
// error) one that the rest of the payload cannot hold, so that a crafted count allocates
// nothing.
func (c *Cursor) Count(per int) int {
	n := int(c.U32())
	if c.err == nil && n > len(c.b)/per {
		c.err = fmt.Errorf("%w: a count of %d items of %d bytes in %d bytes", ErrPayload, n, per, len(c.b))
		return 0
	}
	return n
}

// Float64s reads n floats into a new slice.
func (c *Cursor) Float64s(n int) []float64 {
	if c.err == nil && (n < 0 || n > len(c.b)/8) { // before 8n, which may overflow
		c.err = fmt.Errorf("%w: %d floats, %d bytes are left", ErrPayload, n, len(c.b))
	}
	b := c.Take(8 * n)
	if b == nil {
		return nil
	}
	out := make([]float64, n)
	_, _ = binary.Decode(b, binary.LittleEndian, out)
	return out
}

// Float64 reads a float.
func (c *Cursor) Float64() float64 { return math.Float64frombits(c.U64()) }
