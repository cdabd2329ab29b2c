package enum

import (
	"encoding/json"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type color int

var errColor = errors.New("test: bad color")

var colors = New[color]("color", errColor, "red", "green", "blue")

func (c color) String() string                { return colors.String(c) }
func (c color) MarshalText() ([]byte, error)  { return colors.MarshalText(c) }
func (c *color) UnmarshalText(b []byte) error { return colors.UnmarshalText(c, b) }

func TestNames(t *testing.T) {
	for v, name := range []string{"red", "green", "blue"} {
		c := color(v)
		require.Equal(t, name, c.String(), "String(%d) = %q, want %q", v, c.String(), name)
		for _, s := range []string{name, strings.ToUpper(name)} {
			got, err := colors.Parse(s)
			require.NoError(t, err, "Parse(%q) = %v, %v; want %v", s, got, err, c)
			require.Equal(t, c, got, "Parse(%q) = %v, %v; want %v", s, got, err, c)
		}
	}
	s := color(7).String()
	require.Equal(t, "color(7)", s, "String(7) = %q", s)
	_, err := colors.Parse("mauve")
	require.ErrorIs(t, err, errColor, "Parse(mauve) = %v", err)
	require.Equal(t, `test: bad color: unknown color "mauve" (want red, green or blue)`, err.Error(), "Parse(mauve) = %v", err)
	_, err = color(-1).MarshalText()
	require.ErrorIs(t, err, errColor, "MarshalText(-1) = %v, want errColor", err)
}

func TestTextRoundTrip(t *testing.T) {
	b, err := json.Marshal(map[string]color{"c": 2})
	require.NoError(t, err, "json = %s, %v", b, err)
	require.Equal(t, `{"c":"blue"}`, string(b), "json = %s, %v", b, err)
	var back map[string]color
	err = json.Unmarshal(b, &back)
	require.NoError(t, err, "unmarshal = %v, %v", back, err)
	require.Equal(t, color(2), back["c"], "unmarshal = %v, %v", back, err)
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c := color(0)
	fs.TextVar(&c, "color", color(1), "a color")
	require.Equal(t, color(1), c, "default = %v, want green", c)
	err = fs.Parse([]string{"-color", "BLUE"})
	require.NoError(t, err, "flag: %v, %v", c, err)
	require.Equal(t, color(2), c, "flag: %v, %v", c, err)
	c = 1
	err = c.UnmarshalText([]byte("x"))
	require.Error(t, err, "bad text: %v, c = %v; want an error and c unchanged", err, c)
	require.Equal(t, color(1), c, "bad text: %v, c = %v; want an error and c unchanged", err, c)
}
