package optim

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The header size and checksum table of the PESG state layout, for tests that seal data.
var (
	pesgHeader = len(pesgMagic) + 2 + 8 + 4
	pesgCRC    = crc32.MakeTable(crc32.Castagnoli)
)

// TestPESGStateBytesUnchanged: testdata/pesg-v1.pesg, validState as format version 1 wrote
// it, hashes to the SHA-256 of the bytes MarshalBinary wrote before the framing moved to
// internal/frame, and still loads, as validState with no model's SHA-256; validState's binary
// form today, format version 2, is pinned by its own SHA-256, and is version 1's payload
// followed by the model's SHA-256.
func TestPESGStateBytesUnchanged(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("testdata", "pesg-v1.pesg"))
	require.NoError(t, err)
	sum := sha256.Sum256(v1)
	require.Equal(t, "cc0a2ba0c8b37056eaf430a22a8862e03e610de9f2a3241d106f5862f0382107", hex.EncodeToString(sum[:]))
	old, err := LoadPESGState(filepath.Join("testdata", "pesg-v1.pesg"))
	require.NoError(t, err)
	require.Equal(t, validState(), old)

	st := validState()
	st.ModelSHA256 = sha256.Sum256([]byte("model"))
	raw, err := st.MarshalBinary()
	require.NoError(t, err)
	sum = sha256.Sum256(raw)
	require.Equal(t, "a468c0a2b8ed1895949517cd6072207372b911982704138ae18818b44bf6090d", hex.EncodeToString(sum[:]))
	require.Equal(t, v1[pesgHeader:len(v1)-4], raw[pesgHeader:len(raw)-4-32], "version 1's payload")
	require.Equal(t, st.ModelSHA256[:], raw[len(raw)-4-32:len(raw)-4])
	var back PESGState
	require.NoError(t, back.UnmarshalBinary(raw))
	require.Equal(t, st, back)
}
