package nn

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rocops/rocops"
)

// testNames checks String and the parser (nil for none) of an enumeration whose valid values
// are all, named names.
func testNames[T interface {
	~int
	fmt.Stringer
}](t *testing.T, parse func(string) (T, error), all []T, names []string) {
	for i, v := range all {
		if got := v.String(); got != names[i] {
			t.Errorf("%d.String() = %q, want %q", int(v), got, names[i])
		}
		if parse == nil {
			continue
		}
		for _, s := range []string{names[i], strings.ToUpper(names[i])} {
			if got, err := parse(s); err != nil || got != v {
				t.Errorf("parse(%q) = %v, %v; want %v", s, got, err, v)
			}
		}
	}
	if parse != nil {
		for _, s := range []string{"sigmoid", "", " " + names[0]} {
			if _, err := parse(s); !errors.Is(err, rocops.ErrConfig) || !strings.HasPrefix(err.Error(), "nn: invalid setting: ") {
				t.Errorf("parse(%q): error %v, want rocops.ErrConfig", s, err)
			}
		}
	}
	bad := T(len(all) + 3)
	if got := bad.String(); !strings.HasSuffix(got, fmt.Sprintf("(%d)", len(all)+3)) {
		t.Errorf("String of an invalid value = %q, want it to show the number", got)
	}
}

func TestActivationNames(t *testing.T) {
	testNames(t, ParseActivation, []Activation{ReLU, Tanh, Identity}, []string{"relu", "tanh", "identity"})
	if Activation(0) != ReLU {
		t.Error("the zero Activation is not ReLU")
	}
}

func TestInitNames(t *testing.T) {
	testNames(t, nil, []Init{AutoInit, Glorot, He}, []string{"auto", "glorot", "he"})
}
