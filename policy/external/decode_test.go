package external

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// slowDecode is what exchange did before the fast path, and still does
// when the fast path gives up: encoding/json with unknown fields refused.
func slowDecode(line []byte) ([]act, bool) {
	var r reply
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if dec.Decode(&r) != nil {
		return nil, false
	}
	return r.acts(), true
}

// replyCases are replies the fast path must read (the first group) and
// lines it must leave to encoding/json, which may accept them (escapes,
// null, other cases of a key, a repeated key, trailing bytes) or not.
var replyCases = []string{
	`{"actions":[]}`,
	` { "actions" : [ ] } `,
	`{"actions":[{"type":"launch","task":1,"node":0},{"type":"launch","task":12345,"node":599}]}`,
	`{"actions":[{"node":3,"task":-7,"type":"kill"}]}`,
	`{"actions":[{"type":"timer","at":60000,"tag":-2},{"type":"wake"},{"type":"suspend","task":0},{"type":"resume","task":0}]}`,
	`{"actions":[{"type":"explode"}]}`,
	`{"actions":[{"type":"launch","task":1}]}`,
	`{"actions":[{}]}`,
	"{\"actions\":[{\"type\":\"launch\",\"task\":1,\"node\":2}]}\t\r",
	`{"actions":[{"type":"launch","task":999999999999999999,"node":0}]}`,
	// left to encoding/json
	`{"actions":[{"type":"launch","task":9999999999999999999,"node":0}]}`,
	`{"actions":[{"type":"launch","task":1.0,"node":0}]}`,
	`{"actions":[{"type":"launch","task":1e2,"node":0}]}`,
	`{"actions":[{"type":"launch","task":01,"node":0}]}`,
	`{"actions":[{"type":"launch","task":-,"node":0}]}`,
	`{"actions":[{"type":"launch","task":null,"node":0}]}`,
	`{"actions":[{"type":"l\u0061unch","task":1,"node":0}]}`,
	`{"actions":[{"Type":"launch","task":1,"node":0}]}`,
	`{"Actions":[]}`,
	`{"actions":[{"type":"launch","task":1,"task":2,"node":0}]}`,
	`{"actions":[{"type":"launch","task":1,"node":0,"extra":1}]}`,
	`{"actions":[],"extra":1}`,
	`{"actions":null}`,
	`{"actions":[]} trailing`,
	`{"actions":[]}{"actions":[]}`,
	`{"actions":[{"type":"launch","task":"1","node":0}]}`,
	`{"actions":[{"type":"launch","task":1,"node":0},]}`,
	`{"actions":[{"type":"launch","task":1,"node":0}`,
	`{"actions": [`,
	`launching map 0 now`,
	``,
	`{}`,
	`[]`,
}

// TestDecodeReplyAgrees: whenever the fast decoder reads a reply, it reads
// what encoding/json reads; it reads every reply the Python client writes
// (the first group of replyCases) and gives up on the others.
func TestDecodeReplyAgrees(t *testing.T) {
	var d replyDecoder
	fast := 0
	for i, c := range replyCases {
		got, ok := d.decode([]byte(c))
		if i < 10 && !ok {
			t.Errorf("the fast path gave up on %s", c)
		}
		if i >= 10 && ok {
			t.Errorf("the fast path read %s, which it should leave to encoding/json", c)
		}
		if !ok {
			continue
		}
		fast++
		want, wok := slowDecode([]byte(c))
		if !wok || !reflect.DeepEqual(append([]act{}, got...), append([]act{}, want...)) {
			t.Errorf("%s: fast %+v, encoding/json %+v (ok %v)", c, got, want, wok)
		}
	}
	if fast != 10 {
		t.Errorf("the fast path read %d of the 10 replies meant for it", fast)
	}
}

// FuzzDecodeReply: on any line, the fast decoder either gives up or agrees
// with encoding/json (go test runs the seeds; -fuzz explores).
func FuzzDecodeReply(f *testing.F) {
	for _, c := range replyCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var d replyDecoder
		got, ok := d.decode(line)
		if !ok {
			return
		}
		want, wok := slowDecode(line)
		if !wok || !reflect.DeepEqual(append([]act{}, got...), append([]act{}, want...)) {
			t.Errorf("%q: fast %+v, encoding/json %+v (ok %v)", line, got, want, wok)
		}
	})
}
