// Package enum is the module's one idiom for named settings: an integer type whose values have
// names, printed by String, parsed case-insensitively, and marshalled as text so that the type
// works as a JSON field and as a command-line flag through flag.TextVar.
//
// A setting type declares its names once and forwards its methods:
//
//	var surrogates = enum.New[Surrogate]("surrogate", errConfig, "logistic", "exp", …)
//
//	func (s Surrogate) String() string                 { return surrogates.String(s) }
//	func (s Surrogate) MarshalText() ([]byte, error)   { return surrogates.MarshalText(s) }
//	func (s *Surrogate) UnmarshalText(b []byte) error  { return surrogates.UnmarshalText(s, b) }
package enum

import (
	"fmt"
	"strings"
)

// Names holds the names of the values 0, 1, … of an enumerated type E.
type Names[E ~int] struct {
	kind  string   // what a value is, for messages: "surrogate"
	err   error    // the sentinel errors wrap
	names []string // names[v] names value v
}

// New returns the names of E's values 0 … len(names)−1; kind says what a value is, and err is
// the sentinel that parse and marshal errors wrap.
func New[E ~int](kind string, err error, names ...string) Names[E] {
	return Names[E]{kind: kind, err: err, names: names}
}

// Valid reports whether e has a name.
func (n Names[E]) Valid(e E) bool { return e >= 0 && int(e) < len(n.names) }

// String returns e's name, or "kind(e)" for a value without one.
func (n Names[E]) String(e E) string {
	if !n.Valid(e) {
		return fmt.Sprintf("%s(%d)", n.kind, int(e))
	}
	return n.names[e]
}

// List returns the names joined for a message or a flag's usage: "a, b or c".
func (n Names[E]) List() string {
	if len(n.names) < 2 {
		return strings.Join(n.names, "")
	}
	return strings.Join(n.names[:len(n.names)-1], ", ") + " or " + n.names[len(n.names)-1]
}

// Parse returns the value named s, in any case, or an error wrapping the sentinel.
func (n Names[E]) Parse(s string) (E, error) {
	for v, name := range n.names {
		if strings.EqualFold(s, name) {
			return E(v), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown %s %q (want %s)", n.err, n.kind, s, n.List())
}

// MarshalText returns e's name, or an error wrapping the sentinel for a value without one.
func (n Names[E]) MarshalText(e E) ([]byte, error) {
	if !n.Valid(e) {
		return nil, fmt.Errorf("%w: unknown %s %d", n.err, n.kind, int(e))
	}
	return []byte(n.names[e]), nil
}

// UnmarshalText sets *e to the value named text, as Parse does; *e is unchanged on error.
func (n Names[E]) UnmarshalText(e *E, text []byte) error {
	v, err := n.Parse(string(text))
	if err != nil {
		return err
	}
	*e = v
	return nil
}
