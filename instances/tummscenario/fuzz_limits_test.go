package tummscenario

import (
	"testing"

	"github.com/mrbound/mrbound/internal/parsefuzz"
)

// FuzzParseErrors: no input makes Parse panic, and whatever it rejects is
// one line of bad input that names the file first (then the JSON path or
// line:column, as the message goes on). The examples are the seeds.
func FuzzParseErrors(f *testing.F) {
	parsefuzz.OneLineBadInput(f, []string{"../../examples/tumm-static.json", "../../examples/tumm-heterogeneous.json", "../../examples/tumm-mixed.json", "../../examples/tumm-fig6.json"}, []string{
		`{"kind":"tumm","schema_version":1}`,
		`{"kind":"tumm","schema_version":1,"resources":[{"name":"r","map_slots":1e300}]}`,
		`[1e999, "\\u0000", {"kind":null}]`,
	}, func(name string, data []byte) error { _, err := Parse(name, data); return err })
}
