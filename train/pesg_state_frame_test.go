package train

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/require"
)

// The header size and checksum table of the PESG state layout, for tests that seal data.
var (
	pesgHeader = len(pesgMagic) + 2 + 8 + 4
	pesgCRC    = crc32.MakeTable(crc32.Castagnoli)
)

// TestPESGStateBytesUnchanged: validState's binary form hashes to the SHA-256 of the bytes
// MarshalBinary wrote before the framing moved to internal/frame, so saved states still load.
func TestPESGStateBytesUnchanged(t *testing.T) {
	raw, err := validState().MarshalBinary()
	require.NoError(t, err)
	sum := sha256.Sum256(raw)
	require.Equal(t, "cc0a2ba0c8b37056eaf430a22a8862e03e610de9f2a3241d106f5862f0382107", hex.EncodeToString(sum[:]))
}
