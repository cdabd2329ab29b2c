package frame

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

var (
	errMine    = errors.New("not mine")
	errMineV   = errors.New("version")
	errMineD   = errors.New("damaged")
	testFormat = Format{Magic: "TEST", Version: 3}
	mine       = Format{Magic: "TEST", Version: 3, Prefix: "mine",
		Errors: Errors{NotFrame: errMine, Version: errMineV, Damaged: errMineD}}
)

// seal builds a frame by hand from the documented layout, with any magic and version.
func seal(magic string, version uint16, payload []byte) []byte {
	table := crc32.MakeTable(crc32.Castagnoli)
	le := binary.LittleEndian
	b := le.AppendUint64(le.AppendUint16([]byte(magic), version), uint64(len(payload)))
	b = le.AppendUint32(b, crc32.Checksum(b, table))
	b = append(b, payload...)
	return le.AppendUint32(b, crc32.Checksum(b, table))
}

// both reads data at once and a byte at a time, and requires the same outcome.
func both(t *testing.T, f Format, data []byte) ([]byte, error) {
	t.Helper()
	p1, err1 := f.Read(bytes.NewReader(data))
	p2, err2 := f.Read(iotest.OneByteReader(bytes.NewReader(data)))
	require.Equal(t, err1 == nil, err2 == nil, "Decode: %v, Read: %v", err1, err2)
	if err1 == nil {
		require.Equal(t, p1, p2)
	}
	return p1, err1
}

// TestAppendLayout: Append writes the documented layout (a hand-built frame, and the bytes
// worked out by hand for an empty payload), after what dst holds.
func TestAppendLayout(t *testing.T) {
	payload := []byte("hello, frame")
	require.Equal(t, seal("TEST", 3, payload), testFormat.Append(nil, payload))
	require.Equal(t, append([]byte("xy"), seal("TEST", 3, payload)...), testFormat.Append([]byte("xy"), payload))
	// "TEST", version 3, size 0, then the CRCs: 4 + 2 + 8 + 4 + 0 + 4 = 22 bytes.
	empty := testFormat.Append(nil, nil)
	require.Len(t, empty, 22)
	require.Equal(t, []byte("TEST\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00"), empty[:14])
	require.Equal(t, crc32.Checksum(empty[:14], crc32.MakeTable(crc32.Castagnoli)), binary.LittleEndian.Uint32(empty[14:]))
}

func TestRoundTrip(t *testing.T) {
	for _, p := range [][]byte{nil, {0}, []byte("a payload"), bytes.Repeat([]byte{0xff}, 5000)} {
		got, err := both(t, testFormat, testFormat.Append(nil, p))
		require.NoError(t, err)
		require.Equal(t, len(p), len(got))
		require.True(t, bytes.Equal(p, got))
	}
}

// TestBadFrames: the error of every kind of damage, with the package's sentinels and with a
// caller's, read at once and a byte at a time.
func TestBadFrames(t *testing.T) {
	good := testFormat.Append(nil, []byte("payload bytes"))
	huge := seal("TEST", 3, nil)[:18] // a valid header claiming 2^63 bytes
	binary.LittleEndian.PutUint64(huge[6:], 1<<63)
	binary.LittleEndian.PutUint32(huge[14:], crc32.Checksum(huge[:14], castagnoli))
	claims := bytes.Clone(huge) // a valid header claiming 2^40 bytes, then 3 bytes
	binary.LittleEndian.PutUint64(claims[6:], 1<<40)
	binary.LittleEndian.PutUint32(claims[14:], crc32.Checksum(claims[:14], castagnoli))
	claims = append(claims, 1, 2, 3)
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x21; return b }
	cases := []struct {
		name     string
		data     []byte
		want     []error // of testFormat; mine's are the same index in the list below
		wantMine []error
	}{
		{"empty", nil, []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"inside the magic", good[:3], []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"inside the version", good[:5], []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"inside the header", good[:17], []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"no payload", good[:18], []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"no file CRC", good[:len(good)-4], []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"half the file CRC", good[:len(good)-2], []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"other magic", append([]byte("TESU"), good[4:]...), []error{ErrNotFrame}, []error{errMine}},
		{"short other magic", []byte("X"), []error{ErrNotFrame}, []error{errMine}},
		{"other version", seal("TEST", 4, []byte("payload bytes")), []error{ErrVersion}, []error{errMineV}},
		{"short header of another version", seal("TEST", 4, nil)[:9], []error{ErrVersion}, []error{errMineV}},
		{"flipped version", flip(4), []error{ErrVersion, ErrDamaged, ErrCorrupt}, []error{errMineV, errMineD, ErrCorrupt}},
		{"flipped size", flip(7), []error{ErrDamaged, ErrCorrupt}, []error{errMineD, ErrCorrupt}},
		{"flipped header CRC", flip(15), []error{ErrDamaged, ErrCorrupt}, []error{errMineD, ErrCorrupt}},
		{"flipped payload", flip(20), []error{ErrDamaged, ErrCorrupt}, []error{errMineD, ErrCorrupt}},
		{"flipped file CRC", flip(len(good) - 1), []error{ErrDamaged, ErrCorrupt}, []error{errMineD, ErrCorrupt}},
		{"size beyond int64", huge, []error{ErrDamaged, ErrCorrupt}, []error{errMineD, ErrCorrupt}},
		{"size beyond the data", claims, []error{ErrDamaged, ErrTruncated}, []error{errMineD, ErrTruncated}},
		{"one more byte", append(bytes.Clone(good), 0), []error{ErrDamaged, ErrTrailingData}, []error{errMineD, ErrTrailingData}},
		{"two frames", append(bytes.Clone(good), good...), []error{ErrDamaged, ErrTrailingData}, []error{errMineD, ErrTrailingData}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range []struct {
				f    Format
				want []error
			}{{testFormat, c.want}, {mine, c.wantMine}} {
				for _, err := range []error{
					func() error { _, err := f.f.Read(bytes.NewReader(c.data)); return err }(),
					func() error { _, err := f.f.Read(iotest.OneByteReader(bytes.NewReader(c.data))); return err }(),
				} {
					for _, w := range f.want {
						require.ErrorIs(t, err, w)
					}
					// Exactly one kind of damage, and the message starts with the prefix.
					kinds := 0
					for _, k := range []error{ErrTruncated, ErrCorrupt, ErrTrailingData} {
						if errors.Is(err, k) {
							kinds++
						}
					}
					require.Equal(t, kinds, min(1, kinds), "%v", err)
					require.Equal(t, kinds == 1, errors.Is(err, cmp.Or(f.f.Errors.Damaged, ErrDamaged)), "%v", err)
					require.Regexp(t, "^"+cmp.Or(f.f.Prefix, "frame")+": ", err.Error())
				}
			}
		})
	}
}

// TestEveryPrefixAndByte: every proper prefix of a frame is truncated, and a changed byte at
// every position is caught by the check the layout puts first.
func TestEveryPrefixAndByte(t *testing.T) {
	good := testFormat.Append(nil, []byte("some payload"))
	for n := range len(good) {
		_, err := both(t, testFormat, good[:n])
		require.ErrorIs(t, err, ErrTruncated, "prefix of %d bytes", n)
		require.ErrorIs(t, err, ErrDamaged, "prefix of %d bytes", n)
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x80
		_, err := both(t, testFormat, bad)
		switch {
		case i < 4:
			require.ErrorIs(t, err, ErrNotFrame, "byte %d", i)
		case i < 6:
			require.ErrorIs(t, err, ErrVersion, "byte %d", i)
			require.ErrorIs(t, err, ErrCorrupt, "byte %d", i)
			require.ErrorIs(t, err, ErrDamaged, "byte %d", i)
		default:
			require.ErrorIs(t, err, ErrCorrupt, "byte %d", i)
			require.ErrorIs(t, err, ErrDamaged, "byte %d", i)
		}
	}
}

// TestReadIOErrors: the reader's own error, wherever it occurs, is returned wrapped with the
// format's prefix, and not taken for truncation.
func TestReadIOErrors(t *testing.T) {
	good := mine.Append(nil, []byte("some payload"))
	errIO := errors.New("device unplugged")
	for _, n := range []int{0, 5, 20, len(good) - 2, len(good)} {
		t.Run(fmt.Sprintf("after=%d", n), func(t *testing.T) {
			_, err := mine.Read(io.MultiReader(bytes.NewReader(good[:n]), iotest.ErrReader(errIO)))
			require.ErrorIs(t, err, errIO)
			require.Regexp(t, "^mine: reading: ", err.Error())
			_, err = testFormat.Read(io.MultiReader(bytes.NewReader(good[:n]), iotest.ErrReader(errIO)))
			require.Regexp(t, "^frame: reading: ", err.Error())
		})
	}
	got, err := mine.Read(iotest.OneByteReader(bytes.NewReader(good)))
	require.NoError(t, err)
	require.Equal(t, []byte("some payload"), got)
}

// TestReadAllocatesAsDataArrives: a header claiming 2^40 payload bytes, followed by 3, makes
// Read allocate about what arrives, not what the header claims.
func TestReadAllocatesAsDataArrives(t *testing.T) {
	claims := seal("TEST", 3, nil)[:18]
	binary.LittleEndian.PutUint64(claims[6:], 1<<40)
	binary.LittleEndian.PutUint32(claims[14:], crc32.Checksum(claims[:14], castagnoli))
	claims = append(claims, 1, 2, 3)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := testFormat.Read(bytes.NewReader(claims))
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrTruncated)
	require.ErrorIs(t, err, ErrDamaged)
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated by Read")
}

// TestCorrupt: a format's error for an inconsistent payload wraps its Damaged error,
// ErrCorrupt and the cause, after its prefix.
func TestCorrupt(t *testing.T) {
	cause := NewCursor(nil)
	cause.U8()
	err := mine.Corrupt("%w", cause.Err())
	require.ErrorIs(t, err, errMineD)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorIs(t, err, ErrPayload)
	require.Equal(t, "mine: damaged: corrupt: inconsistent payload: a record needs 1 bytes, 0 are left", err.Error())
	err = testFormat.Corrupt("unknown code %d", 7)
	require.ErrorIs(t, err, ErrDamaged)
	require.Equal(t, "frame: damaged: corrupt: unknown code 7", err.Error())
}

func TestCursor(t *testing.T) {
	le := binary.LittleEndian
	b := []byte{7}
	b = le.AppendUint16(b, 0x1234)
	b = le.AppendUint32(b, 2) // a count of 2 floats
	b, _ = binary.Append(b, le, []float64{1.5, -0.25})
	b = le.AppendUint64(b, 1<<40)
	b, _ = binary.Append(b, le, 3.75)
	b = append(b, "tail"...)
	c := NewCursor(b)
	require.Equal(t, uint8(7), c.U8())
	require.Equal(t, uint16(0x1234), c.U16())
	n := c.Count(8)
	require.Equal(t, 2, n)
	require.Equal(t, []float64{1.5, -0.25}, c.Float64s(n))
	require.Equal(t, uint64(1<<40), c.U64())
	require.Equal(t, 3.75, c.Float64())
	require.Equal(t, 4, c.Len())
	require.Equal(t, []byte("tail"), c.Take(4))
	require.NoError(t, c.Err())
	require.Equal(t, []float64{}, c.Float64s(0))

	// The first failure sticks: later reads give zero values and the error stays the first.
	c = NewCursor([]byte{1, 2, 3})
	require.Zero(t, c.U32())
	first := c.Err()
	require.ErrorIs(t, first, ErrPayload)
	require.Zero(t, c.U8())
	require.Nil(t, c.Take(0))
	c.Fail(errors.New("later"))
	require.Equal(t, first, c.Err())
	require.Equal(t, 3, c.Len())

	for name, tc := range map[string]struct {
		b   []byte
		per int
	}{
		"count beyond the bytes": {append(le.AppendUint32(nil, 3), make([]byte, 23)...), 8},
		"count of 2^32 − 1":      {append(le.AppendUint32(nil, 1<<32-1), make([]byte, 100)...), 1},
	} {
		c := NewCursor(tc.b)
		require.Zero(t, c.Count(tc.per), name)
		require.ErrorIs(t, c.Err(), ErrPayload, name)
	}
	c = NewCursor(append(le.AppendUint32(nil, 3), 0, 0, 0))
	require.Equal(t, 3, c.Count(1)) // exactly enough bytes
	c = NewCursor(make([]byte, 16))
	for _, n := range []int{-1, 3, 1 << 62} {
		c := *c
		require.Nil(t, c.Float64s(n), "n=%d", n)
		require.ErrorIs(t, c.Err(), ErrPayload, "n=%d", n)
	}
	require.Zero(t, new(Cursor).U8()) // the zero value reads an empty payload
}
