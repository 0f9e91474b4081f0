package jlassiscenario

import (
	"errors"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// FuzzParse checks that no input makes the loader panic, and that whatever
// it rejects is a *PathError.
func FuzzParse(f *testing.F) {
	sc, _ := Generate(1, 1)
	data, _ := sc.Marshal()
	f.Add(data)
	f.Add([]byte(`{"kind":"jlassi","schema_version":1,"migration_bandwidth":1,"machines":[{"id":"a","ram_mb":1,"disk_mb":1,"cost_ram":0,"cost_disk":0,"map_slots":[{"ghz":1,"cost":0}],"reduce_slots":null}],"blocks":[{"id":"b","size_mb":1,"homes":["a"]}],"jobs":[{"id":"j","maps":[{"id":"m","ram_mb":0,"disk_mb":0,"blocks":["b"],"durations":{"a":[1]}}],"reduces":[]}],"network":{"switches":[],"links":[]}}`))
	f.Add([]byte(`{"kind":"jlassi","schema_version":1,"machines":[],"network":{"switches":["s"],"links":[{"a":"s","b":"s","capacity":1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse("fuzz.json", data)
		if err != nil {
			var pe *badinput.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *PathError", err)
			}
			return
		}
		in.Eq17()
		in.MinHorizon()
		for j := range in.Machines {
			for j2 := range in.Machines {
				in.Path(j, j2)
			}
		}
	})
}
