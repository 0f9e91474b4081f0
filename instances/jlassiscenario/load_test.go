package jlassiscenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func base(t *testing.T) *Scenario {
	t.Helper()
	sc, err := Generate(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(sc *Scenario)
		want string
	}{
		{"kind", func(sc *Scenario) { sc.Kind = "mrcp" }, `kind: must be "jlassi"`},
		{"version", func(sc *Scenario) { sc.SchemaVersion = 2 }, "schema_version: must be 1, got 2"},
		{"map without block", func(sc *Scenario) { sc.Jobs[1].Maps[1].Blocks = nil }, "jobs[1].maps[1].blocks: a map task needs at least one block"},
		{"zero duration", func(sc *Scenario) { sc.Jobs[0].Maps[0].Durations["m2"][1] = 0 }, "jobs[0].maps[0].durations.m2[1]: must be a positive finite number, got 0"},
		{"negative duration", func(sc *Scenario) { sc.Jobs[0].Reduces[1].Durations["m1"][0] = -3 }, "jobs[0].reduces[1].durations.m1[0]: must be a positive"},
		{"unknown machine in durations", func(sc *Scenario) { sc.Jobs[0].Maps[2].Durations["m9"] = []float64{1} }, `jobs[0].maps[2].durations.m9: unknown machine id "m9"`},
		{"wrong slot count", func(sc *Scenario) { sc.Jobs[0].Maps[0].Durations["m1"] = []float64{1} }, "jobs[0].maps[0].durations.m1: expected one duration per map slot of m1 (5), got 1"},
		{"unknown home", func(sc *Scenario) { sc.Blocks[3].Homes = []string{"x"} }, `blocks[3].homes[0]: unknown machine id "x"`},
		{"no home", func(sc *Scenario) { sc.Blocks[3].Homes = nil }, "blocks[3].homes: a block needs at least one home machine"},
		{"unknown block", func(sc *Scenario) { sc.Jobs[1].Maps[0].Blocks = []string{"b99"} }, `jobs[1].maps[0].blocks[0]: unknown block id "b99"`},
		{"duplicate id", func(sc *Scenario) { sc.Jobs[1].ID = "j1" }, `jobs[1].id: id "j1" already used at jobs[0].id`},
		{"no reduce slots", func(sc *Scenario) {
			for i := range sc.Machines {
				sc.Machines[i].ReduceSlots = nil
			}
			for k := range sc.Jobs {
				for x := range sc.Jobs[k].Reduces {
					sc.Jobs[k].Reduces[x].Durations = map[string][]float64{"m1": {}}
				}
			}
		}, "machines: no machine has a reduce slot, but jobs[0].reduces[0] is a reduce task"},
		{"zero ram", func(sc *Scenario) { sc.Machines[2].RAMMB = 0 }, "machines[2].ram_mb: must be a positive"},
		{"task RAM beyond every machine", func(sc *Scenario) { sc.Jobs[1].Maps[0].RAMMB = 1e19 }, "jobs[1].maps[0].ram_mb: the task needs 1e+19 MB of RAM, more than any machine it can run on has (at most "},
		{"task disk beyond every machine", func(sc *Scenario) { sc.Jobs[0].Reduces[0].DiskMB = 1e12 }, "jobs[0].reduces[0].disk_mb: the task needs 1e+12 MB of disk, more than any machine it can run on has"},
		{"negative task disk", func(sc *Scenario) { sc.Jobs[0].Maps[1].DiskMB = -1 }, "jobs[0].maps[1].disk_mb: must be a non-negative"},
		{"no bwd", func(sc *Scenario) { sc.MigrationBandwidth = 0 }, "migration_bandwidth: must be a positive"},
		{"shuffle to foreign map", func(sc *Scenario) { sc.Jobs[0].Reduces[0].Shuffle["j2.m1"] = 1 }, `jobs[0].reduces[0].shuffle.j2.m1: "j2.m1" is not a map task of job "j1"`},
		{"network misses a machine", func(sc *Scenario) {
			sc.Network.Links = sc.Network.Links[:len(sc.Network.Links)-1]
		}, "network"},
		{"link to unknown node", func(sc *Scenario) { sc.Network.Links[0].B = "zz" }, `network.links[0].b: unknown machine or switch id "zz"`},
		{"link without capacity", func(sc *Scenario) { sc.Network.Links[1].Capacity = 0 }, "network.links[1].capacity: must be a positive"},
		{"cycle", func(sc *Scenario) {
			sc.Network.Links = append(sc.Network.Links, Link{A: sc.Machines[0].ID, B: sc.Machines[1].ID, Capacity: 1})
		}, "the network must be a tree"},
		{"no jobs", func(sc *Scenario) { sc.Jobs = nil }, "jobs: at least one job is needed"},
		{"bad objective", func(sc *Scenario) { sc.Objective = "fast" }, `objective: unknown objective "fast"`},
		{"bad scenario", func(sc *Scenario) { sc.Scenario = 8 }, "scenario: must be 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := base(t)
			c.edit(sc)
			data, err := sc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse("scenario.json", data)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.HasPrefix(err.Error(), "scenario.json: ") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want it to contain %q", err, c.want)
			}
			if !errors.Is(err, badinput.Err) {
				t.Fatalf("error %v does not wrap badinput.Err", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
}

func TestLoadSyntaxErrors(t *testing.T) {
	cases := []struct{ data, want string }{
		{"{\n  \"kind\": \"jlassi\",\n  \"schema_version\": 1,,\n}", "scenario.json:3:23: "},
		{`{"kind": "jlassi", "schema_version": 1, "colour": 3}`, `unknown field "colour"`},
		{`{"kind": "jlassi", "schema_version": "one"}`, "scenario.json: schema_version: expected int, got JSON string"},
		// the path carries the array index the decoder's own field name lacks
		{`{"kind": "jlassi", "schema_version": 1, "machines": [{"id": "m1"}, {"id": 2}]}`, "scenario.json: machines[1].id: expected string, got JSON number"},
		{`{"kind": "jlassi", "schema_version": 1} {}`, "scenario.json:1:41: data after the top-level JSON value"},
	}
	for _, c := range cases {
		_, err := Parse("scenario.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want %q", c.data, err, c.want)
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for sc := 1; sc <= 7; sc++ {
		a, _ := Generate(sc, 4)
		b, _ := Generate(sc, 4)
		c, _ := Generate(sc, 5)
		da, _ := a.Marshal()
		db, _ := b.Marshal()
		dc, _ := c.Marshal()
		if !bytes.Equal(da, db) {
			t.Errorf("scenario %d: same seed, different instances", sc)
		}
		if bytes.Equal(da, dc) {
			t.Errorf("scenario %d: seeds 4 and 5 give the same instance", sc)
		}
	}
	if _, err := Generate(8, 1); err == nil {
		t.Error("Generate(8) succeeded")
	}
}

// TestGenerateTable5 checks every generated instance against Table 5's N and M
// and eq 17, and that it loads and validates against schema.json.
func TestGenerateTable5(t *testing.T) {
	schema := compileSchema(t)
	// eq 17 by hand: ⌊Nm/ΣSm + Nr/ΣSr⌋ + 2.
	wantEq17 := [8]int{0, 3, 4, 4, 14, 5, 8, 6}
	for s := 1; s <= 7; s++ {
		sc, _ := Generate(s, 1)
		data, _ := sc.Marshal()
		in, err := Parse("gen.json", data)
		if err != nil {
			t.Fatalf("scenario %d: %v", s, err)
		}
		if len(in.Tasks) != Scenarios[s].N || len(in.Machines) != Scenarios[s].M || len(in.Blocks) != 10 {
			t.Errorf("scenario %d: %d tasks, %d machines, %d blocks; Table 5 says %d, %d, 10",
				s, len(in.Tasks), len(in.Machines), len(in.Blocks), Scenarios[s].N, Scenarios[s].M)
		}
		if got := in.Eq17(); got != wantEq17[s] {
			t.Errorf("scenario %d: eq 17 gives %d, want %d", s, got, wantEq17[s])
		}
		if in.Source.Horizon != Scenarios[s].T {
			t.Errorf("scenario %d: horizon %d, Table 5 says %d", s, in.Source.Horizon, Scenarios[s].T)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("scenario %d: schema: %v", s, err)
		}
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchemaRejects checks that the schema catches what editors should flag.
func TestSchemaRejects(t *testing.T) {
	schema := compileSchema(t)
	sc := base(t)
	sc.Jobs[0].Maps[0].Blocks = nil
	data, _ := sc.Marshal()
	var doc any
	json.Unmarshal(data, &doc)
	if err := schema.Validate(doc); err == nil {
		t.Error("schema accepts a map with no block")
	}
}

// TestExampleScenario5 checks that examples/scenario5.json is what
// `mrbound generate jlassi --scenario 5 --seed 3` writes.
func TestExampleScenario5(t *testing.T) {
	data, err := os.ReadFile("../../examples/scenario5.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := Generate(5, 3)
	want, _ := sc.Marshal()
	if !bytes.Equal(data, want) {
		t.Error("examples/scenario5.json differs from Generate(5, 3); regenerate it")
	}
	if _, err := Parse("scenario5.json", data); err != nil {
		t.Error(err)
	}
}

func TestMinHorizon(t *testing.T) {
	for s := 1; s <= 7; s++ {
		sc, _ := Generate(s, 1)
		in, _ := Compile("", sc)
		if lb := in.MinHorizon(); lb < 2 || lb > Scenarios[s].T {
			t.Errorf("scenario %d: MinHorizon %d outside [2, %d]", s, lb, Scenarios[s].T)
		}
	}
}
