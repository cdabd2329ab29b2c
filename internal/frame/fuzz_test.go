package frame

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzFrame: on any bytes Read never panics, reads the same at once and a byte at a time,
// and fails only with the format's three errors, a damaged frame's with one kind of damage; a frame it accepts Append writes back to the
// same bytes; and a Cursor reading the payload (or the raw bytes) in any order of reads never
// panics and fails only with ErrPayload.
func FuzzFrame(f *testing.F) {
	f.Add(testFormat.Append(nil, []byte("seed payload")))
	f.Add(testFormat.Append(nil, nil))
	f.Add([]byte("TEST"))
	f.Add(seal("TEST", 4, []byte{1, 2}))
	f.Fuzz(func(t *testing.T, data []byte) {
		payload, err := both(t, testFormat, data)
		if err != nil {
			known := false
			for _, e := range []error{ErrNotFrame, ErrVersion, ErrDamaged} {
				known = known || errors.Is(err, e)
			}
			if errors.Is(err, ErrDamaged) {
				require.True(t, errors.Is(err, ErrTruncated) || errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTrailingData), "%v", err)
			}
			require.True(t, known, "unexpected error %v", err)
			payload = data // read the raw bytes with a Cursor instead
		} else {
			require.True(t, bytes.Equal(data, testFormat.Append(nil, payload)))
		}
		c := NewCursor(payload)
		for c.Err() == nil && c.Len() > 0 {
			switch c.U8() % 7 {
			case 0:
				c.U16()
			case 1:
				c.U32()
			case 2:
				c.U64()
			case 3:
				c.Float64()
			case 4:
				c.Float64s(c.Count(8))
			case 5:
				c.Take(int(c.U8()))
			case 6:
				c.Float64s(int(c.U32()))
			}
		}
		if c.Err() != nil {
			require.ErrorIs(t, c.Err(), ErrPayload)
		}
	})
}
