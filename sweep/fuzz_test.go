package sweep

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// FuzzParse: no manifest, however malformed, makes Parse panic or answer
// with anything but one line of bad input that starts with the file name;
// a manifest it accepts marshals back to one it reads as the same.
// Seeded with a valid test-square sweep and the shapes TestManifestBad
// refuses.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"kind":"sweep","schema_version":1,"sweep":"test-square","title":"squares","params":{"offset":1},"limits":{"time_per_item":"1m30s","memory_mb":512},"items":[{"id":"a","spec":{"x":2}},{"id":"b","spec":{"x":3}}]}`,
		`{"kind":"jlassi","schema_version":1}`,
		`{"kind":"sweep","schema_version":1,"sweep":"test-square","items":[{"id":"a"},{"id":"a"}]}`,
		`{"kind":"sweep","schema_version":1,"sweep":"test-square","limits":{"time_per_item":"soon"},"items":[{"id":"a"}]}`,
		`{"kind":"sweep","schema_version":1,"sweep":"test-square","title":"x\ntouch /tmp/p","items":[{"id":"a"}]}`,
		"{\"kind\":\"sweep\",\n\"items\": [}",
		`{"kind":"sweep","kind":"sweep"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("sweep.json", data)
		if err != nil {
			if !errors.Is(err, badinput.Err) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "sweep.json") {
				t.Fatalf("error not one line of bad input naming the file: %q (%T)", err, err)
			}
			return
		}
		b, err := m.marshal()
		if err != nil {
			t.Fatalf("an accepted manifest does not marshal: %v", err)
		}
		back, err := Parse("sweep.json", b)
		if err != nil {
			t.Fatalf("an accepted manifest, marshalled, is refused: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(m, back) {
			t.Fatalf("round trip changed the manifest:\n%+v\n%+v", m, back)
		}
	})
}
