package mrboundcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestJSONReportsNameTheirUnit reads every CLI golden whose stdout is a JSON
// report (solve, simulate, compare of every kind) and requires a "unit" or a
// "units" field at its top level: a number without its unit is what issue 31
// found. Scenario files written by generate (they carry "schema_version")
// are inputs, not reports, and are exempt.
func TestJSONReportsNameTheirUnit(t *testing.T) {
	goldens, err := filepath.Glob("../mrbound/testdata/*/stdout.golden")
	if err != nil {
		t.Fatal(err)
	}
	reports := 0
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(b, &top) != nil {
			continue // text output, or a JSON array of rows
		}
		if _, ok := top["schema_version"]; ok {
			continue
		}
		reports++
		_, unit := top["unit"]
		_, units := top["units"]
		if !unit && !units {
			t.Errorf("%s: JSON report without a unit or units field", g)
		}
	}
	// The kinds whose reports gained a unit must be among those read, or
	// the loop above checked nothing that matters.
	for _, c := range []string{"coshh-paper-json", "tumm-hetero-json", "solve-tiny-native-json", "simulate-coshh-json"} {
		if _, err := os.Stat(filepath.Join("../mrbound/testdata", c, "stdout.golden")); err != nil {
			t.Errorf("case %s: %v", c, err)
		}
	}
	if reports < 10 {
		t.Errorf("only %d JSON reports among the goldens", reports)
	}
}
