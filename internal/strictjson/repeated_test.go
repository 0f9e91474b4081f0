package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// repeatedSeeds are well-formed documents, with and without repeated keys
// (escaped, nested, in arrays, inside strings that look like keys).
var repeatedSeeds = []string{
	`{"a":1,"b":2}`,
	`{"a":1,"a":2}`,
	`{"a":{"b":[1,{"c":1,"c":2}]}}`,
	`{"a":"\"a\":","b":{"a":1},"c":[{"a":1},{"a":2}]}`,
	`{"a":1,"\u0061":2}`,
	"[{\"x\":[]},\n {\"y\":1,\n  \"y\":{}}]",
	`{"job.tasks":[{"container.type":"map","container.type":"reduce"}]}`,
	`"just a string"`,
	`{"k\\":1,"k\\":2}`,
}

// TestRepeatedKeyAgreesWithCheck: on well-formed JSON the fast scan reports
// exactly what Check reports for a repeated key (place, path and problem),
// and nothing where Check finds nothing.
func TestRepeatedKeyAgreesWithCheck(t *testing.T) {
	found := 0
	for _, doc := range repeatedSeeds {
		if agree(t, []byte(doc)) {
			found++
		}
	}
	if found != 6 {
		t.Errorf("%d of the seeds have a repeated key, want 6", found)
	}
}

func agree(t *testing.T, data []byte) (repeated bool) {
	t.Helper()
	if !json.Valid(data) {
		return false
	}
	want, got := Check("f.json", data), RepeatedKey("f.json", data)
	var pe *badinput.PathError
	if !errors.As(want, &pe) || !strings.Contains(pe.Problem, "repeats the one at") {
		want = nil // not a repeated key (a key "" at the top has the path "")
	}
	switch {
	case want == nil && got == nil:
		return false
	case want == nil || got == nil || want.Error() != got.Error():
		t.Errorf("%q:\n Check       %v\n RepeatedKey %v", data, want, got)
	case !errors.Is(got, badinput.Err):
		t.Errorf("%q: %v does not wrap badinput.Err", data, got)
	}
	return true
}

func FuzzRepeatedKey(f *testing.F) {
	for _, s := range repeatedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { agree(t, data) })
}
