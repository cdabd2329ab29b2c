package deploy

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// cancelAfter is a reader that cancels its context once it has delivered n bytes.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p[:min(len(p), 64)])
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}

// ScoreCSVContext stops between rows once its context is done, writes the rows it read and
// returns the context's error; the rows after it are never read to the end.
func TestScoreCSVContextStopsBetweenRows(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	const n = 3 * chunk
	text := rowsCSV(n)
	ctx, cancel := context.WithCancel(context.Background())
	in := &cancelAfter{r: strings.NewReader(text), n: len(text) / 10, cancel: cancel}
	var out bytes.Buffer
	rows, _, err := s.ScoreCSVContext(ctx, in, &out)
	require.ErrorIs(t, err, context.Canceled)
	require.Greater(t, rows, 0)
	require.Less(t, rows, n/2)
	require.Equal(t, rows, strings.Count(out.String(), "\n")-1, "every row read is written")
}
