package tummscenario

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// FuzzParseErrors: no input makes Parse panic, and whatever it rejects is
// one line of bad input that names the file first (then the JSON path or
// line:column, as the message goes on). The examples are the seeds.
func FuzzParseErrors(f *testing.F) {
	for _, p := range []string{"../../examples/tumm-static.json", "../../examples/tumm-heterogeneous.json", "../../examples/tumm-mixed.json", "../../examples/tumm-fig6.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"tumm","schema_version":1}`))
	f.Add([]byte(`{"kind":"tumm","schema_version":1,"resources":[{"name":"r","map_slots":1e300}]}`))
	f.Add([]byte(`[1e999, "\\u0000", {"kind":null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("fuzz.json", data)
		if err == nil {
			return
		}
		msg := err.Error()
		if !errors.Is(err, badinput.Err) || !strings.HasPrefix(msg, "fuzz.json: ") || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error %q is not one line of bad input naming the file", msg)
		}
	})
}
