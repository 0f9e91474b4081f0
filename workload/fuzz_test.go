package workload

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// FuzzParseJSON: no JSON scenario of any kind makes Parse (the reader of
// `mrbound simulate` and `compare`) panic; whatever it rejects is one line of
// bad input that names the file first; whatever it accepts is a workload
// that validates. The examples are the seeds. The budget is 256 MiB so that
// a fuzzed slot or task count is refused instead of allocated.
func FuzzParseJSON(f *testing.F) {
	defer sizelimit.SetBudget(256 << 20)()
	paths := []string{"../examples/mrcp-stream.json", "../examples/coshh-paper.json", "../examples/coshh-facebook.json",
		"../examples/scenario5.json", "../examples/tumm-static.json", "../examples/tumm-heterogeneous.json",
		"../examples/tumm-mixed.json", "../examples/tumm-fig6.json"}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"mrcp","schema_version":1,"resources":[{"name":"r","map_slots":1000000000000,"reduce_slots":1}],"jobs":[]}`))
	f.Add([]byte(`{"kind":"tumm"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("fuzz.json", data, DefaultOptions())
		if err != nil {
			msg := err.Error()
			if !errors.Is(err, badinput.Err) || !strings.HasPrefix(msg, "fuzz.json") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line of bad input naming the file", msg)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("an accepted scenario gives a workload that fails validation: %v", err)
		}
	})
}
