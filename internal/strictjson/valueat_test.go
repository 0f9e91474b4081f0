package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestValueAtNamesTheIndexedPath decodes documents with one mistyped value
// and asserts that ValueAt, fed the decoder's offset, names the value's path
// with its array indexes and the place where the value starts.
func TestValueAtNamesTheIndexedPath(t *testing.T) {
	type attempt struct {
		Start int64 `json:"startTime"`
	}
	type task struct {
		Attempts []attempt `json:"attempts"`
	}
	type job struct {
		ID    string `json:"jobID"`
		Maps  []task `json:"mapTasks"`
		Count int    `json:"count"`
		List  []int  `json:"list"`
	}
	cases := []struct{ doc, path, value string }{
		{`{"jobID":"a","mapTasks":[{"attempts":[{"startTime":1}]},{"attempts":[{"startTime":2},{"startTime": "oops"}]}]}`,
			"mapTasks[1].attempts[1].startTime", `"oops"`},
		{`{"jobID": 7}`, "jobID", `7`},
		{"{\n \"count\" :\n  true }", "count", "true"},
		{`{"list":[1, 2,  "x"]}`, "list[2]", `"x"`},
		{`{"list":[ "x"]}`, "list[0]", `"x"`},
		{`{"list":[],"count":[1]}`, "count", `[1]`},
		{`{"mapTasks":[{"attempts":{"startTime":1}}]}`, "mapTasks[0].attempts", `{"startTime":1}`},
	}
	for _, c := range cases {
		var j job
		err := json.Unmarshal([]byte(c.doc), &j)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Fatalf("%s: want a type error, got %v", c.doc, err)
		}
		path, start := ValueAt([]byte(c.doc), int(te.Offset))
		if path != c.path {
			t.Errorf("%s: path %q, want %q (decoder's field %q)", c.doc, path, c.path, te.Field)
		}
		if got := c.doc[start:min(start+len(c.value), len(c.doc))]; got != c.value {
			t.Errorf("%s: value starts at %q, want %q", c.doc, got, c.value)
		}
	}
}

// FuzzValueAt: on any document a typed decode stops in with a type error,
// ValueAt neither panics nor places the value outside the document, and the
// value it places starts where a JSON value can (not on white space, a
// comma or a colon).
func FuzzValueAt(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x"]}`, `{"b":{"c":[true]}}`, `{"a":[],"b":{"c":["y"]}}`, `{"d":"1"}`} {
		f.Add(s)
	}
	type doc struct {
		A []int                `json:"a"`
		B struct{ C []string } `json:"b"`
		D int                  `json:"d"`
		E map[string][]float64 `json:"e"`
		F []struct{ G *bool }  `json:"f"`
	}
	f.Fuzz(func(t *testing.T, s string) {
		var d doc
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(s), &d); !errors.As(err, &te) || te.Offset <= 0 {
			return
		}
		path, start := ValueAt([]byte(s), int(te.Offset))
		if start < 0 || start > len(s) {
			t.Fatalf("%q: value start %d outside the document (offset %d)", s, start, te.Offset)
		}
		if start < len(s) && strings.ContainsRune(" \t\r\n,:", rune(s[start])) {
			t.Fatalf("%q: value placed at %q (offset %d, path %q)", s, s[start:], te.Offset, path)
		}
	})
}
