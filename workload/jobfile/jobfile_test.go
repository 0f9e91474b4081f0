package jobfile

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/sls"
	"github.com/mrbound/mrbound/workload/trace"
)

const example = "../../examples/jobs.jsonl"

func readExample(t testing.TB) []byte {
	b, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestExample: the worked example of docs/traces.md reads as 4 jobs (11
// maps, 4 reduces) on 3 nodes of 2 map and 1 reduce slots, two pools of
// weights 2 and 1, etl-2 chained to etl-1, two deadlines; FIFO runs it to
// the end and the checker passes the trace.
func TestExample(t *testing.T) {
	tr, err := Read(bytes.NewReader(readExample(t)), "jobs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w, rec, err := trace.Build(tr, trace.ClusterSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if rec != nil {
		t.Error("a job file records no schedule")
	}
	if len(w.Jobs) != 4 || w.NumTasks() != 15 || len(w.Cluster.Nodes) != 3 || w.Cluster.Nodes[2].MapSlots != 2 || w.Cluster.Nodes[2].ReduceSlots != 1 {
		t.Fatalf("%d jobs, %d tasks, nodes %+v", len(w.Jobs), w.NumTasks(), w.Cluster.Nodes)
	}
	wantUsers := []sim.User{{Name: "etl", Weight: 2}, {Name: "adhoc"}}
	if !reflect.DeepEqual(w.Users, wantUsers) || w.Jobs[1].Parent != 0 || w.Jobs[2].Deadline != 45000 || w.Jobs[3].User != 1 || w.Jobs[0].Deadline != sim.NoDeadline {
		t.Errorf("users %+v, jobs %+v", w.Users, w.Jobs)
	}
	res, err := sim.Run(w, fifo.New(), sim.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil || res.Metrics.CompletedJobs != 4 {
		t.Errorf("%v; %d jobs completed", err, res.Metrics.CompletedJobs)
	}
}

// TestRoundTrips: job file → job file is byte for byte; job file → SLS
// JSON → job file gives the same jobs and the same bytes once the cluster
// line (which SLS JSON has not) is put back.
func TestRoundTrips(t *testing.T) {
	in := readExample(t)
	tr, err := Read(bytes.NewReader(in), "jobs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, tr); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(in) {
		t.Errorf("job file → job file:\n%s\nwant\n%s", out.String(), in)
	}
	var s bytes.Buffer
	if err := sls.WriteJobs(&s, tr); err != nil {
		t.Fatal(err)
	}
	back, err := sls.ReadJobs(s.Bytes(), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	back.NodeCount, back.MapSlots, back.ReduceSlots = tr.NodeCount, tr.MapSlots, tr.ReduceSlots
	out.Reset()
	if err := Write(&out, back); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(in) {
		t.Errorf("job file → SLS → job file:\n%s\nwant\n%s", out.String(), in)
	}
}

func TestBadLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"id": "a", "maps_ms": [1]}`, `t.jsonl:1: submit_ms: missing`},
		{"\n" + `{"id": "a", "submit_ms": 0, "maps_ms": [1], "map_ms": [2]}`, `t.jsonl:2: map_ms: unknown field (docs/traces.md lists the fields)`},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [1, -4]}`, `t.jsonl:1: maps_ms[1]: -4 is out of range [0, 1125899906842624]`},
		{`{"id": "a", "submit_ms": 1.5, "maps_ms": [1]}`, `t.jsonl:1: submit_ms: number 1.5 where a whole number was expected`},
		{`{"id": "a", "submit_ms": 1, "maps_ms": [1, "2"]}`, `t.jsonl:1: maps_ms[1]: string where a whole number was expected`},
		{`{"id": "a", "submit_ms": 0, "maps_ms": []}`, `t.jsonl:1: maps_ms: the job has no task`},
		{`{"id": "a", "submit_ms": 9, "deadline_ms": 3, "maps_ms": [1]}`, `t.jsonl:1: deadline_ms: 3 is before submit_ms 9`},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [1]}` + "\n" + `{"cluster": {"nodes": 2}}`, `t.jsonl:2: cluster: the cluster line must be the first line`},
		{`{"cluster": {"nodes": 0}}`, `t.jsonl:1: cluster: nodes 0 must be positive`},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [1]`, `t.jsonl:1: JSON syntax: the object is not closed`},
		{"\n\n", `t.jsonl: no job lines`},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [1], "submit_ms": 5}`, `t.jsonl:1: submit_ms: key "submit_ms" repeats the one at line 1, column 13; mrbound refuses repeated keys rather than keep one`},
		{`{"cluster": {"nodes": 2, "nodes": 3}}`, `t.jsonl:1: cluster.nodes: key "nodes" repeats the one at line 1, column 14; mrbound refuses repeated keys rather than keep one`},
	} {
		_, err := Read(strings.NewReader(c.in), "t.jsonl")
		if err == nil || err.Error() != c.want || !errors.Is(err, badinput.Err) {
			t.Errorf("%q:\n error %v\n want  %s", c.in, err, c.want)
		}
	}
	// what a line cannot say alone: Build names the job's line
	tr, err := Read(strings.NewReader(`{"id": "a", "submit_ms": 0, "maps_ms": [1]}`+"\n"+`{"id": "a", "submit_ms": 0, "maps_ms": [1]}`), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := trace.Build(tr, trace.ClusterSpec{Nodes: 1}); err == nil || err.Error() != `t.jsonl:2: job "a": a second job with this id` {
		t.Errorf("duplicate id: %v", err)
	}
}

// TestSchemaAgreesWithReader: docs/jobfile.schema.json accepts every line
// of the example and each good line below, and rejects each bad line, as
// the reader does.
func TestSchemaAgreesWithReader(t *testing.T) {
	sch, err := jsonschema.NewCompiler().Compile("../../docs/jobfile.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	valid := func(line string) bool {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
		return err == nil && sch.Validate(v) == nil
	}
	for i, line := range strings.Split(strings.TrimSpace(string(readExample(t))), "\n") {
		if !valid(line) {
			t.Errorf("the schema rejects example line %d", i+1)
		}
	}
	reads := func(line string) bool {
		_, err := Read(strings.NewReader(line), "x")
		return err == nil
	}
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{`{"id": "a", "submit_ms": 0, "maps_ms": [], "reduces_ms": [5]}`, true},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [0]}`, true},
		{`{"id": "a", "submit_ms": 0, "maps_ms": []}`, false},
		{`{"id": "", "submit_ms": 0, "maps_ms": [1]}`, false},
		{`{"id": "a", "submit_ms": -1, "maps_ms": [1]}`, false},
		{`{"id": "a", "submit_ms": 0.5, "maps_ms": [1]}`, false},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [1], "extra": 1}`, false},
		{`{"id": "a", "submit_ms": 0, "maps_ms": [1], "weight": -2}`, false},
		{`{"id": "a", "submit_ms": 0}`, false},
		{`{"cluster": {"nodes": 2, "map_slots": 1}}`, false}, // a cluster line alone: the reader wants jobs, the schema one line
		{`{"cluster": {"nodes": 0}}`, false},
	} {
		if got := valid(c.line); got != c.ok && !strings.HasPrefix(c.line, `{"cluster": {"nodes": 2`) {
			t.Errorf("schema on %s: %v, want %v", c.line, got, c.ok)
		}
		if got := reads(c.line); got != c.ok {
			t.Errorf("reader on %s: %v, want %v", c.line, got, c.ok)
		}
	}
}

// FuzzRead: any input is read or refused with one bad-input line; what is
// read writes and reads back to the same jobs.
func FuzzRead(f *testing.F) {
	f.Add(readExample(f))
	f.Add([]byte(`{"id": "a", "submit_ms": 0, "maps_ms": [1], "parent": "b"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		tr, err := Read(bytes.NewReader(in), "f")
		if err != nil {
			if !errors.Is(err, badinput.Err) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not a one-line bad-input error", err)
			}
			return
		}
		var out bytes.Buffer
		if err := Write(&out, tr); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&out, "f")
		if err != nil {
			t.Fatalf("written file refused: %v", err)
		}
		for i := range back.Jobs {
			back.Jobs[i].Where = tr.Jobs[i].Where
			if back.Jobs[i].ReducesMs == nil && len(tr.Jobs[i].ReducesMs) == 0 {
				back.Jobs[i].ReducesMs = tr.Jobs[i].ReducesMs
			}
		}
		if !reflect.DeepEqual(back.Jobs, tr.Jobs) {
			t.Fatalf("round trip: %+v\nwant %+v", back.Jobs, tr.Jobs)
		}
	})
}
