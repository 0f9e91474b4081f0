package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// TestCheck: repeated keys are refused with their JSON path and both
// places; syntax errors with file:line:column at the offending character;
// well-formed documents (the same key in different objects included) pass.
func TestCheck(t *testing.T) {
	for doc, want := range map[string]string{
		`{"kind":"mrcp","kind":"coshh"}`:                                   `f.json:1:16: kind: key "kind" repeats the one at line 1, column 2`,
		"{\n \"jobs\": [\n  {\"id\": 1},\n  {\"id\": 2, \"id\": 3}\n ]\n}": `f.json:4:13: jobs[1].id: key "id" repeats the one at line 4, column 4`,
		`{"a":{"b":[1,{"c":1,"d":{},"c":2}]}}`:                             `f.json:1:28: a.b[1].c: key "c" repeats`,
		`{"a":1,"b":2,"a":3}`:                                              `f.json:1:14: a: key "a" repeats the one at line 1, column 2`,
		"{\n  \"kind\": \"mrcp\" \"x\": 1}":                                `f.json:2:18: invalid character '"' after object key:value pair`,
		"{\"a\": [1, 2,]}":                                                 `f.json:1:13: invalid character ']'`,
		"{\"a\": 1":                                                        `f.json:1:8: unexpected end of JSON input`,
		"{\"a\": 1}\n{}":                                                   `f.json:2:1: data after the top-level JSON value`,
		"":                                                                 `f.json:1:1: unexpected end of JSON input`,
	} {
		err := Check("f.json", []byte(doc))
		var pe *badinput.PathError
		if !errors.As(err, &pe) || !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v\nwant prefix %s", doc, err, want)
		}
		if json.Valid([]byte(doc)) && !strings.Contains(doc, "repeat") && strings.Contains(want, "invalid character") {
			t.Errorf("%q: encoding/json accepts it, yet Check called it a syntax error", doc)
		}
	}
	for _, doc := range []string{`{}`, `[]`, `3`, `"s"`, ` {"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]} `, `{"":1,"x":""}`, "[{\"k\":1},\n{\"k\":1}]"} {
		if err := Check("f.json", []byte(doc)); err != nil {
			t.Errorf("%q: %v", doc, err)
		}
	}
}

// FuzzCheck: Check accepts exactly the documents encoding/json accepts as
// one value, unless they repeat a key, and never panics.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"kind":"mrcp","kind":"coshh"}`, `{"a":[1,{"b":2}]}`, `[1,2`, `{"a":1}{}`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Check("f", data)
		valid := json.Valid(data)
		if err == nil && !valid {
			t.Errorf("%q: Check accepts what encoding/json refuses", data)
		}
		if err != nil && valid && !strings.Contains(err.Error(), "repeats") {
			t.Errorf("%q: %v, though encoding/json accepts it", data, err)
		}
	})
}
