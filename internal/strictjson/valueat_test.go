package strictjson

import (
	"encoding/json"
	"errors"
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
