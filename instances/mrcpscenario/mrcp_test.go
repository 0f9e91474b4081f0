package mrcpscenario

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mrbound/mrbound/badinput"
)

const tinyJSON = `{"kind": "mrcp", "schema_version": 1,
 "resources": [{"map_slots": 1, "reduce_slots": 1}, {"name": "b", "map_slots": 2, "reduce_slots": 0}],
 "jobs": [
  {"release": 0, "deadline": 10, "maps": [{"duration": 3}, {"duration": 2, "demand": 2}], "reduces": [{"duration": 4}]},
  {"name": "late", "release": 5, "deadline": 5, "maps": [{"duration": 1}], "reduces": [{"duration": 1}]}
 ]}`

func TestParse(t *testing.T) {
	in, err := Parse("tiny.json", []byte(tinyJSON))
	if err != nil {
		t.Fatal(err)
	}
	if in.Resources[0].Name != "r0" || in.Resources[1].Name != "b" || in.Jobs[0].Name != "j0" || in.Jobs[1].Name != "late" {
		t.Errorf("default names: %+v %+v", in.Resources, in.Jobs)
	}
	if got := in.Jobs[0].Maps[0].Demand; got != 1 {
		t.Errorf("default demand %d, want 1", got)
	}
	if got := len(in.Tasks()); got != 5 {
		t.Errorf("%d tasks, want 5", got)
	}
	var buf bytes.Buffer
	if err := in.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Parse("back.json", buf.Bytes())
	if err != nil {
		t.Fatalf("round trip: %v\n%s", err, buf.String())
	}
	var buf2 bytes.Buffer
	back.Write(&buf2)
	if buf.String() != buf2.String() {
		t.Errorf("round trip differs:\n%s\n%s", buf.String(), buf2.String())
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{`{"duration": 3}`, `{"duration": 0}`, "s.json: jobs[0].maps[0].duration: must be a positive integer"},
		{`{"duration": 3}`, `{"duration": 2.5}`, "jobs[0].maps[0].duration: must be a positive integer"},
		{`{"duration": 3}`, `{"duration": "3"}`, "jobs[0].maps[0].duration: must be a positive integer"},
		{`{"duration": 4}`, `{"duration": 4, "demand": 2}`, "jobs[0].reduces[0].demand: 2 exceeds the reduce slots of every resource (at most 1)"},
		{`"deadline": 5,`, `"deadline": 4,`, "jobs[1].deadline: 4 is before the release 5"},
		{`"schema_version": 1`, `"schema_version": 2`, "schema_version: unsupported version 2"},
		{`"kind": "mrcp"`, `"kind": "jlassi"`, `kind: must be "mrcp"`},
		{`"name": "b"`, `"name": "r0"`, `resources[1].name: "r0" already names resources[0]`},
		{`"reduces": [{"duration": 1}]`, `"reduces": []`, "jobs[1].reduces: must be a non-empty array"},
		{`"release": 5,`, `"release": 5, "weight": 2,`, "jobs[1].weight: unknown field"},
		{`"map_slots": 2,`, `"map_slots": -1,`, "resources[1].map_slots: must be a non-negative integer"},
		{`]}`, `]`, "s.json:5:3: invalid character"},
	}
	for _, c := range cases {
		if !strings.Contains(tinyJSON, c.from) {
			t.Fatalf("bad case: %q not in the document", c.from)
		}
		doc := strings.Replace(tinyJSON, c.from, c.to, 1)
		_, err := Parse("s.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, badinput.Err) {
			t.Errorf("%s → %s: err = %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

func TestSchemaAgreesWithLoader(t *testing.T) {
	sch, err := jsonschema.NewCompiler().Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	valid := func(doc string) bool {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			return false
		}
		return sch.Validate(v) == nil
	}
	if !valid(tinyJSON) {
		t.Error("schema rejects the tiny scenario")
	}
	for _, bad := range []string{
		strings.Replace(tinyJSON, `{"duration": 3}`, `{"duration": 0}`, 1),
		strings.Replace(tinyJSON, `"release": 5,`, `"release": 5, "weight": 2,`, 1),
		strings.Replace(tinyJSON, `"schema_version": 1`, `"schema_version": 2`, 1),
	} {
		if valid(bad) {
			t.Errorf("schema accepts an invalid scenario")
		}
		if _, err := Parse("x", []byte(bad)); err == nil {
			t.Errorf("loader accepts an invalid scenario")
		}
	}
	in, err := Generate(GenOptions{Workload: Mixed, Jobs: 5, Lambda: 0.02, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	in.Write(&buf)
	if !valid(buf.String()) {
		t.Error("schema rejects a generated scenario")
	}
}

func TestGenerate(t *testing.T) {
	for w, alone := range map[Workload]int{Small: 50, Medium: 80, Large: 100} {
		in, err := Generate(GenOptions{Workload: w, Jobs: 30, Lambda: 0.01, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		for j, job := range in.Jobs {
			if got := AloneTime(job, in.Resources); got != alone {
				t.Errorf("%v job alone takes %d s, want %d", w, got, alone)
			}
			slack := float64(job.Deadline-job.Release) / float64(alone)
			if slack < 1-1e-9 || slack > 5+0.01 {
				t.Errorf("%v job %d: e_m = %v outside [1, 5]", w, j, slack)
			}
		}
	}
	a, _ := Generate(GenOptions{Workload: Mixed, Jobs: 20, Lambda: 0.02, Seed: 1})
	b, _ := Generate(GenOptions{Workload: Mixed, Jobs: 20, Lambda: 0.02, Seed: 1})
	c, _ := Generate(GenOptions{Workload: Mixed, Jobs: 20, Lambda: 0.02, Seed: 2})
	var ba, bb, bc bytes.Buffer
	a.Write(&ba)
	b.Write(&bb)
	c.Write(&bc)
	if ba.String() != bb.String() {
		t.Error("same seed, different streams")
	}
	if ba.String() == bc.String() {
		t.Error("different seeds, same stream")
	}
	// Mean inter-arrival time near 1/λ over a long stream.
	long, _ := Generate(GenOptions{Workload: Small, Jobs: 2000, Lambda: 0.02, Seed: 5})
	mean := float64(long.Jobs[len(long.Jobs)-1].Release) / float64(len(long.Jobs)-1)
	if mean < 45 || mean > 55 {
		t.Errorf("mean gap %v s, want ≈ 50", mean)
	}
	// A coarser time unit divides every time.
	u, _ := Generate(GenOptions{Workload: Large, Jobs: 1, Lambda: 0.02, Seed: 1, TimeUnit: 4})
	if got := u.Jobs[0].Maps[0].Duration; got != 4 {
		t.Errorf("16 s map at 4 s per unit = %d units, want 4", got)
	}
	if _, err := Generate(GenOptions{Workload: Mixed, Jobs: 0, Lambda: 1}); err == nil {
		t.Error("zero jobs accepted")
	}
}

func TestGenerateDurationFit(t *testing.T) {
	in, err := Generate(GenOptions{Workload: Mixed, Duration: 18000, Lambda: 1.0 / 35, Durations: Fit, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	// 18000/35 ≈ 514 expected arrivals; a Poisson count stays within ±5 σ
	if n := len(in.Jobs); n < 400 || n > 630 {
		t.Errorf("%d jobs in 5 h at λ = 1/35", n)
	}
	for _, j := range in.Jobs {
		if j.Release >= 18000 {
			t.Fatalf("%s released at %d, after the duration", j.Name, j.Release)
		}
		if j.Maps[0].Duration != FitMapSeconds || j.Reduces[0].Duration != FitReduceSeconds {
			t.Fatalf("%s: durations %d/%d, want the fit", j.Name, j.Maps[0].Duration, j.Reduces[0].Duration)
		}
		alone := AloneTime(j, in.Resources)
		if want := map[int]int{3: 51, 10: 75, 20: 99}[len(j.Maps)]; alone != want {
			t.Fatalf("%s: alone %d, want %d (A-M7)", j.Name, alone, want)
		}
	}
	if _, err := Generate(GenOptions{Workload: Small, Duration: 10, Jobs: 2, Lambda: 1}); err == nil {
		t.Error("a job count and a duration together were accepted")
	}
}

func TestLambdaGrid(t *testing.T) {
	for w, want := range map[Workload][]float64{
		Small: {1 / 22.5, 1 / 20.0, 1 / 17.5, 1 / 15.0}, Mixed: {1 / 50.0, 1 / 47.5, 1 / 45.0, 1 / 42.5, 1 / 40.0, 1 / 37.5, 1 / 35.0},
	} {
		got := LambdaGrid(w)
		if len(got) != len(want) {
			t.Fatalf("%s: %v", w, got)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s[%d] = %v, want %v", w, i, got[i], want[i])
			}
		}
	}
}
