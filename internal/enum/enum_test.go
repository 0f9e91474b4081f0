package enum

import "testing"

type color int8

var colorNames = Names[color]{"unknown", "red", "green"}

func TestNames(t *testing.T) {
	for v, want := range map[color]string{0: "unknown", 1: "red", 2: "green", 3: "color(3)", -1: "color(-1)"} {
		if got := colorNames.String(v); got != want {
			t.Errorf("String(%d) = %q, want %q", v, got, want)
		}
		if b, err := colorNames.Text(v); err != nil || string(b) != want {
			t.Errorf("Text(%d) = %q, %v", v, b, err)
		}
	}
	for _, c := range []struct {
		s             string
		parse, decode color
		pok, dok      bool
	}{
		{"red", 1, 1, true, true},
		{"green", 2, 2, true, true},
		{"unknown", 0, 0, false, true},
		{"blue", 0, 0, false, false},
		{"", 0, 0, false, false},
	} {
		if v, ok := colorNames.Parse(c.s); v != c.parse || ok != c.pok {
			t.Errorf("Parse(%q) = %d, %v", c.s, v, ok)
		}
		if v, ok := colorNames.Decode(c.s); v != c.decode || ok != c.dok {
			t.Errorf("Decode(%q) = %d, %v", c.s, v, ok)
		}
	}
}
