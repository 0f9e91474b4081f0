package coshh

import (
	"os"
	"testing"

	"github.com/mrbound/mrbound/instances/coshhscenario"
)

// FuzzProblems: any input either fails to parse with an error or yields
// capacity LPs that build; nothing panics.
func FuzzProblems(f *testing.F) {
	if b, err := os.ReadFile("../../examples/coshh-paper.json"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"},{"name":"R2"}],"users":[{"name":"U1","min_share":1,"priority":1},{"name":"U2","min_share":0,"priority":2}],"jobs":[{"id":"J1","user":"U1","arrival":0,"exec_time":[1,2]},{"id":"J2","user":"U2","arrival":0,"exec_time":[3,1e-300]},{"id":"J3","user":"U2","arrival":5,"exec_time":[1e300,1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := coshhscenario.Parse("", data)
		if err != nil {
			return
		}
		ps, _, err := Problems(s)
		if err != nil {
			return
		}
		for _, p := range ps {
			if p.Validate() == nil {
				if _, _, err := Build(p, 0); err != nil {
					t.Fatalf("valid problem does not build: %v", err)
				}
			}
		}
	})
}
