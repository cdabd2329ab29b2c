package nn

import (
	"encoding"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rocops/rocops"
)

// named is what Activation and Init share: an enumeration with names for flags.
type named interface {
	~int
	fmt.Stringer
	encoding.TextMarshaler
}

// testNames checks String, the parser, the text methods and flag.TextVar for an
// enumeration whose valid values are all, named names.
func testNames[T named, P interface {
	*T
	encoding.TextUnmarshaler
}](t *testing.T, parse func(string) (T, error), all []T, names []string) {
	for i, v := range all {
		if got := v.String(); got != names[i] {
			t.Errorf("%d.String() = %q, want %q", int(v), got, names[i])
		}
		for _, s := range []string{names[i], strings.ToUpper(names[i])} {
			if got, err := parse(s); err != nil || got != v {
				t.Errorf("parse(%q) = %v, %v; want %v", s, got, err, v)
			}
		}
		text, err := v.MarshalText()
		if err != nil || string(text) != names[i] {
			t.Errorf("%v.MarshalText() = %q, %v", v, text, err)
		}
	}
	for _, s := range []string{"sigmoid", "", " " + names[0]} {
		if _, err := parse(s); !errors.Is(err, rocops.ErrConfig) {
			t.Errorf("parse(%q): error %v, want rocops.ErrConfig", s, err)
		}
	}
	bad := T(len(all) + 3)
	if got := bad.String(); !strings.HasSuffix(got, fmt.Sprintf("(%d)", len(all)+3)) {
		t.Errorf("String of an invalid value = %q, want it to show the number", got)
	}
	if _, err := bad.MarshalText(); !errors.Is(err, rocops.ErrConfig) {
		t.Errorf("MarshalText of an invalid value: error %v, want rocops.ErrConfig", err)
	}

	var v T
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.TextVar(P(&v), "f", all[0], "")
	if err := fs.Parse([]string{"-f", names[len(names)-1]}); err != nil || v != all[len(all)-1] {
		t.Errorf("-f %s gave %v, %v", names[len(names)-1], v, err)
	}
	if err := fs.Parse([]string{"-f", "bogus"}); err == nil {
		t.Error("-f bogus was accepted")
	}
}

func TestActivationNames(t *testing.T) {
	testNames[Activation](t, ParseActivation, []Activation{ReLU, Tanh, Identity}, []string{"relu", "tanh", "identity"})
	if Activation(0) != ReLU {
		t.Error("the zero Activation is not ReLU")
	}
}

func TestInitNames(t *testing.T) {
	testNames[Init](t, ParseInit, []Init{AutoInit, Glorot, He}, []string{"auto", "glorot", "he"})
}
