package enum

import (
	"fmt"
	"reflect"
)

// Names lists the name of each value of E, by value: Names[0] names the zero
// (unknown) value.
type Names[E ~int8] []string

// String returns v's name, or Type(v) for a value out of range.
func (n Names[E]) String(v E) string {
	if int(v) >= 0 && int(v) < len(n) {
		return n[v]
	}
	return fmt.Sprintf("%s(%d)", reflect.TypeFor[E]().Name(), int(v))
}

// Text is String as MarshalText returns it.
func (n Names[E]) Text(v E) ([]byte, error) { return []byte(n.String(v)), nil }

// Parse returns the value named s. The zero value's name never matches: it
// is not a choice.
func (n Names[E]) Parse(s string) (E, bool) {
	for i, name := range n {
		if i > 0 && name == s {
			return E(i), true
		}
	}
	return 0, false
}

// Decode is Parse that also reads back the zero value's name, so that
// whatever Text wrote decodes.
func (n Names[E]) Decode(s string) (E, bool) {
	if len(n) > 0 && s == n[0] {
		return 0, true
	}
	return n.Parse(s)
}
