package nn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// testNames checks String and the parser (nil for none) of an enumeration whose valid values
// are all, named names.
func testNames[T interface {
	~int
	fmt.Stringer
}](t *testing.T, parse func(string) (T, error), all []T, names []string) {
	for i, v := range all {
		got := v.String()
		require.Equal(t, names[i], got, "%d.String() = %q, want %q", int(v), got, names[i])
		if parse == nil {
			continue
		}
		for _, s := range []string{names[i], strings.ToUpper(names[i])} {
			got, err := parse(s)
			require.NoError(t, err, "parse(%q) = %v, %v; want %v", s, got, err, v)
			require.False(t, got != v, "parse(%q) = %v, %v; want %v", s, got, err, v)
		}
	}
	if parse != nil {
		for _, s := range []string{"sigmoid", "", " " + names[0]} {
			_, err := parse(s)
			require.ErrorIs(t, err, rocops.ErrConfig, "parse(%q): error %v, want rocops.ErrConfig", s, err)
			require.True(t, strings.HasPrefix(err.Error(), "nn: invalid setting: "), "parse(%q): error %v, want rocops.ErrConfig", s, err)
		}
	}
	bad := T(len(all) + 3)
	got := bad.String()
	require.True(t, strings.HasSuffix(got, fmt.Sprintf("(%d)", len(all)+3)), "String of an invalid value = %q, want it to show the number", got)
}

func TestActivationNames(t *testing.T) {
	testNames(t, ParseActivation, []Activation{ReLU, Tanh, Identity}, []string{"relu", "tanh", "identity"})
	require.Equal(t, ReLU, Activation(0), "the zero Activation is not ReLU")
}

func TestInitNames(t *testing.T) {
	testNames(t, nil, []Init{AutoInit, Glorot, He}, []string{"auto", "glorot", "he"})
}
