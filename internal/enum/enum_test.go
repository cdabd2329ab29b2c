package enum

import (
	"encoding/json"
	"errors"
	"flag"
	"strings"
	"testing"
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
		if c.String() != name {
			t.Errorf("String(%d) = %q, want %q", v, c.String(), name)
		}
		for _, s := range []string{name, strings.ToUpper(name)} {
			got, err := colors.Parse(s)
			if err != nil || got != c {
				t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, c)
			}
		}
	}
	if s := color(7).String(); s != "color(7)" {
		t.Errorf("String(7) = %q", s)
	}
	_, err := colors.Parse("mauve")
	if !errors.Is(err, errColor) || err.Error() != `test: bad color: unknown color "mauve" (want red, green or blue)` {
		t.Errorf("Parse(mauve) = %v", err)
	}
	if _, err := color(-1).MarshalText(); !errors.Is(err, errColor) {
		t.Errorf("MarshalText(-1) = %v, want errColor", err)
	}
}

func TestTextRoundTrip(t *testing.T) {
	b, err := json.Marshal(map[string]color{"c": 2})
	if err != nil || string(b) != `{"c":"blue"}` {
		t.Fatalf("json = %s, %v", b, err)
	}
	var back map[string]color
	if err := json.Unmarshal(b, &back); err != nil || back["c"] != 2 {
		t.Fatalf("unmarshal = %v, %v", back, err)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c := color(0)
	fs.TextVar(&c, "color", color(1), "a color")
	if c != 1 {
		t.Fatalf("default = %v, want green", c)
	}
	if err := fs.Parse([]string{"-color", "BLUE"}); err != nil || c != 2 {
		t.Fatalf("flag: %v, %v", c, err)
	}
	c = 1
	if err := c.UnmarshalText([]byte("x")); err == nil || c != 1 {
		t.Fatalf("bad text: %v, c = %v; want an error and c unchanged", err, c)
	}
}
