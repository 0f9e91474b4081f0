package tummscenario

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestExamplesRoundTrip(t *testing.T) {
	for _, f := range []string{"../../examples/tumm-static.json", "../../examples/tumm-heterogeneous.json"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse("", b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, _ := json.Marshal(s)
		back, err := Parse("", out)
		if err != nil || !reflect.DeepEqual(s, back) {
			t.Fatalf("%s: round trip: %v", f, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for js, want := range map[string]string{
		`{"kind":"mrcp","schema_version":1}`: "$.kind",
		`{"kind":"tumm","schema_version":1,"static":{"slots":1,"jobs":[{"name":"a","map_tasks":1,"reduce_tasks":1,"map_time":1,"reduce_time":1}]}}`: "$.static.slots",
		`{"kind":"tumm","schema_version":1,"heterogeneous":{"map_tasks":-1,"reduce_tasks":0,"nodes":[]}}`:                                           "$.heterogeneous.map_tasks",
		`{"kind":"tumm","schema_version":1,"extra":1}`:  "unknown field",
		"{\"kind\":\"tumm\",\n\"schema_version\":1,\n}": ":3:1: invalid character",
	} {
		if _, err := Parse("", []byte(js)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", js, err, want)
		}
	}
}
