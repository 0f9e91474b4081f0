package sls

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/trace"
)

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInputSLS: Hadoop's inputsls.json holds 2 jobs of 3 and 2 map
// containers on 3 hosts (counted with python3's json.JSONDecoder.raw_decode
// over the stream); each map's duration is its container's end − start.
func TestInputSLS(t *testing.T) {
	tr, err := ReadJobs(read(t, "testdata/inputsls.json"), "inputsls.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []trace.Job{
		{ID: "job_1", SubmitMs: 0, User: "default", Pool: "sls_queue_1", DeadlineMs: -1, MapsMs: []int64{17043, 14928, 17843}, Where: "inputsls.json:1:1"},
		{ID: "job_2", SubmitMs: 105204, User: "default", Pool: "sls_queue_2", DeadlineMs: -1, MapsMs: []int64{22163, 19589}, Where: "inputsls.json:35:1"},
	}
	if !reflect.DeepEqual(tr.Jobs, want) {
		t.Errorf("jobs = %+v\nwant %+v", tr.Jobs, want)
	}
	if len(tr.Recorded) != 5 || len(tr.Hosts) != 3 {
		t.Errorf("%d containers on %d hosts, want 5 on 3", len(tr.Recorded), len(tr.Hosts))
	}
	// the record on its own hosts, one map slot each inferred from it, is a
	// valid run of the workload
	w, rec, err := trace.Build(tr, trace.ClusterSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Cluster.Nodes) != 3 || w.Cluster.Nodes[0].MapSlots != 1 || w.Cluster.Nodes[1].Name != "/default-rack/node3" {
		t.Errorf("cluster %+v: want 3 nodes in the order of first use, with 1 map slot (no host ran two maps at once)", w.Cluster.Nodes)
	}
	if rec == nil || rec.Result == nil {
		t.Fatalf("no recorded run: %+v", rec)
	}
	if err := check.Verify(w, rec.Result); err != nil {
		t.Fatal(err)
	}
	if rec.Completion[0] != 86613 || rec.Completion[1] != 133985 {
		t.Errorf("completions %v, want the last container ends 86613 and 133985", rec.Completion)
	}
	// on 2 nodes the record's third host has no node
	if _, rec2, err := trace.Build(tr, trace.ClusterSpec{Nodes: 2}); err != nil || rec2.Result != nil ||
		rec2.Problem != `inputsls.json:1:1: host "/default-rack/node2" of the record is not a node of the cluster (2 nodes)` {
		t.Errorf("2 nodes: %v, %+v", err, rec2)
	}
	// job_2's two maps (overlapping) moved to node1, on one map slot per
	// node, break capacity: the checker says so
	tr.Recorded[4].Host = tr.Recorded[3].Host
	w1, rec1, err := trace.Build(tr, trace.ClusterSpec{MapSlots: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w1, rec1.Result); err == nil || !strings.Contains(err.Error(), "2 maps on 1 map slots") {
		t.Errorf("one slot: verdict %v, want a capacity violation", err)
	}
}

// TestDAGRefused: sls_dag.json's first container asks for its slot 1000 ms
// after the job starts, which the model cannot represent.
func TestDAGRefused(t *testing.T) {
	_, err := ReadJobs(read(t, "testdata/sls_dag.json"), "sls_dag.json")
	want := "sls_dag.json:1:1: job.tasks[0].container.request.delay: 1000 ms: the model releases all of a job's tasks at its submission, so a DAG job's delayed requests cannot be represented"
	if err == nil || err.Error() != want || !errors.Is(err, badinput.Err) {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestNodes: nodes.json lists 5 racks and 20 node entries, one of them
// empty (19 named); nodes-with-resources.json one rack of 4.
func TestNodes(t *testing.T) {
	n, err := ReadNodes(read(t, "testdata/nodes.json"), "nodes.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Names) != 19 || n.Skipped != 1 || n.Names[0] != "/rack1/node1" || n.Names[18] != "/rack5/node19" {
		t.Errorf("%d names (%v), %d skipped; want 19 from /rack1/node1 to /rack5/node19 and 1 skipped", len(n.Names), n.Names, n.Skipped)
	}
	n, err = ReadNodes(read(t, "testdata/nodes-with-resources.json"), "nodes-with-resources.json")
	if err != nil || len(n.Names) != 4 {
		t.Errorf("nodes-with-resources: %v, %+v; want 4 nodes", err, n)
	}
}

// TestSynth: syn.json asks for 10 jobs on 20 nodes, 4 per rack, all in one
// workload of class_1 (user foobar, queue sls_queue_1), submitted between
// 1 s and 60 s; the same seed gives the same trace, another seed another.
func TestSynth(t *testing.T) {
	s, err := ReadSynth(read(t, "testdata/syn.json"), "syn.json")
	if err != nil {
		t.Fatal(err)
	}
	tr := s.Generate("syn.json", s.Seed())
	if len(tr.Jobs) != 10 || len(tr.Hosts) != 20 || tr.Hosts[4] != "/rack2/node5" {
		t.Fatalf("%d jobs on %d hosts (%v)", len(tr.Jobs), len(tr.Hosts), tr.Hosts)
	}
	for i, j := range tr.Jobs {
		if j.SubmitMs < 1000 || j.SubmitMs >= 60000 || j.User != "foobar" || j.Pool != "sls_queue_1" || len(j.MapsMs) < 1 {
			t.Errorf("job %d: %+v", i, j)
		}
		if i > 0 && j.SubmitMs < tr.Jobs[i-1].SubmitMs {
			t.Errorf("job %d submitted before job %d", i, i-1)
		}
	}
	if again := s.Generate("syn.json", s.Seed()); !reflect.DeepEqual(again, tr) {
		t.Error("the same seed gave another trace")
	}
	if other := s.Generate("syn.json", s.Seed()+1); reflect.DeepEqual(other.Jobs, tr.Jobs) {
		t.Error("another seed gave the same jobs")
	}
	if _, _, err := trace.Build(tr, trace.ClusterSpec{}); err != nil {
		t.Fatal(err)
	}
}

// TestSynthLaws: over many jobs the drawn task counts and durations have the
// class's means (log-normal of mean 5 and sd 1 tasks, 10 s sd 2 s maps, 20 s
// sd 4 s reduces), a reservation (deadline) comes with probability 0.5, and
// the submissions are uniform over [1, 60) s (weight 100 on the first
// point, 0 on the last).
func TestSynthLaws(t *testing.T) {
	s, err := ReadSynth(read(t, "testdata/syn.json"), "syn.json")
	if err != nil {
		t.Fatal(err)
	}
	s.NumJobs = 4000
	tr := s.Generate("syn", 7)
	var maps, reds, mapMs, redMs, deadlines, submit float64
	var nm, nr float64
	for _, j := range tr.Jobs {
		maps += float64(len(j.MapsMs))
		reds += float64(len(j.ReducesMs))
		for _, d := range j.MapsMs {
			mapMs += float64(d)
			nm++
		}
		for _, d := range j.ReducesMs {
			redMs += float64(d)
			nr++
		}
		if j.DeadlineMs >= 0 {
			deadlines++
		}
		submit += float64(j.SubmitMs)
	}
	n := float64(len(tr.Jobs))
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"maps per job", maps / n, 5, 0.1}, {"reduces per job", reds / n, 5, 0.1},
		{"map ms", mapMs / nm, 10000, 150}, {"reduce ms", redMs / nr, 20000, 300},
		{"reservations", deadlines / n, 0.5, 0.04}, {"submit ms", submit / n, 30500, 1200},
	} {
		if d := c.got - c.want; d > c.tol || d < -c.tol {
			t.Errorf("%s: mean %.4g, want %.4g ± %.3g", c.name, c.got, c.want, c.tol)
		}
	}
}

func TestBadJobs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"job.start.ms": 0, "job.tasks": [{"container.type": "map", "container.start.ms": 1, "container.end.ms": 2}]}` + "\n" + `{"job.start.ms": 5,` + "\n" + `  "job.tasks": [{"container.type": "gpu", "container.duration.ms": 3}]}`,
			`t.json:2:1: job.tasks[0].container.type: "gpu" is not map or reduce`},
		{`{"job.start.ms": 0, "job.tasks": []}`, `t.json:1:1: job.tasks: no tasks`},
		{`{"job.tasks": [{"container.type": "map", "container.duration.ms": 3}]}`, `t.json:1:1: job.start.ms: missing`},
		{`{"job.start.ms": 0, "job.count": 3, "job.tasks": [{"container.type": "map", "container.duration.ms": 3}]}`, `t.json:1:1: job.count: 3 copies of a job are not read (write the copies out)`},
		{`{"job.start.ms": 0, "job.tasks": [{"container.type": "map", "container.start.ms": 9, "container.end.ms": 2}]}`, `t.json:1:1: job.tasks[0]: container.start.ms 9 and container.end.ms 2 are not an interval`},
		{"{\"job.start.ms\": 0,\n \"job.tasks\": [}", `t.json:2:16: JSON syntax: invalid character '}' looking for beginning of value`},
		{`[1]`, `t.json:1:1: a top-level value that is not a JSON object`},
		{`{"job.start.ms": "x1", "job.tasks": []}`, `t.json:1:1: job.start.ms: "x1" where a whole number was expected`},
		{"{\"job.start.ms\": [{\n}], \"job.tasks\": []}", `t.json:1:1: job.start.ms: a list where a whole number was expected`},
		{`{"job.start.ms": {"a": 1}, "job.tasks": []}`, `t.json:1:1: job.start.ms: an object where a whole number was expected`},
		{`{"job.start.ms": "` + strings.Repeat("é", 50) + `", "job.tasks": []}`, `t.json:1:1: job.start.ms: "` + strings.Repeat("é", 36) + `… where a whole number was expected`},
		{`{"job.start.ms": 0, "job.tasks": [{"container.type": "map", "container.start.ms": 1.5, "container.end.ms": 2}]}`,
			`t.json:1:1: job.tasks.container.start.ms: 1.5 where a whole number was expected`},
		{`{"job.start.ms": 0, "job.tasks": [{"container.type": "map", "container.type": "reduce", "container.duration.ms": 3}]}`,
			`t.json:1:1: job.tasks[0].container.type: key "container.type" repeats the one at line 1, column 36; mrbound refuses repeated keys rather than keep one`},
	} {
		_, err := ReadJobs([]byte(c.in), "t.json")
		if err == nil || err.Error() != c.want || !errors.Is(err, badinput.Err) {
			t.Errorf("%q:\n error %v\n want  %s", c.in, err, c.want)
		}
	}
}

// TestWriteReadBack: a trace without a record, written as SLS JSON, reads
// back as the same jobs; one with a record keeps the record.
func TestWriteReadBack(t *testing.T) {
	tr, err := ReadJobs(read(t, "testdata/inputsls.json"), "in")
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{true, false} {
		src := *tr
		if !keep {
			src.Recorded = nil
		}
		var b strings.Builder
		if err := WriteJobs(&b, &src); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJobs([]byte(b.String()), "in")
		if err != nil {
			t.Fatal(err)
		}
		for i := range back.Jobs {
			back.Jobs[i].Where = src.Jobs[i].Where
		}
		if !reflect.DeepEqual(back.Jobs, src.Jobs) || (back.Recorded != nil) != keep {
			t.Errorf("record %v: read back %+v (record %v)\nwant %+v", keep, back.Jobs, back.Recorded != nil, src.Jobs)
		}
		if keep && !reflect.DeepEqual(back.Recorded, src.Recorded) {
			t.Errorf("record: %+v\nwant %+v", back.Recorded, src.Recorded)
		}
	}
}

// FuzzReadJobs: any input is read or refused with one bad-input line; what
// is read builds a valid workload or is refused the same way.
func FuzzReadJobs(f *testing.F) {
	for _, p := range []string{"testdata/inputsls.json", "testdata/sls_dag.json"} {
		f.Add(read(f, p))
	}
	f.Add([]byte(`{"job.start.ms": "5", "job.tasks": [{"container.type": "reduce", "container.count": 2, "container.duration.ms": 3}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		tr, err := ReadJobs(in, "f")
		if err != nil {
			oneLine(t, err)
			return
		}
		w, rec, err := trace.Build(tr, trace.ClusterSpec{Nodes: 2})
		if err != nil {
			oneLine(t, err)
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatal(err)
		}
		if rec != nil && rec.Result != nil {
			_ = check.Verify(w, rec.Result) // must not panic
		}
	})
}

// FuzzReadSynth: any description is read or refused with one line; what
// is read generates jobs that build a valid workload (at most 64 jobs).
func FuzzReadSynth(f *testing.F) {
	f.Add(read(f, "testdata/syn.json"))
	f.Add([]byte(`{"num_jobs": 2, "workloads": [{"workload_weight": 1, "job_classes": [{"class_weight": 1}], "time_distribution": [{"time": 0, "weight": 1}]}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := ReadSynth(in, "f")
		if err != nil {
			oneLine(t, err)
			return
		}
		s.NumJobs = min(s.NumJobs, 64)
		for i := range s.Workloads {
			for k := range s.Workloads[i].Classes {
				c := &s.Workloads[i].Classes[k]
				c.MtasksAvg, c.RtasksAvg = min(c.MtasksAvg, 50), min(c.RtasksAvg, 50)
			}
		}
		tr := s.Generate("f", 1)
		if _, _, err := trace.Build(tr, trace.ClusterSpec{Nodes: 1}); err != nil {
			t.Fatalf("a generated trace is refused: %v", err)
		}
	})
}

// FuzzReadNodes: any nodes file is read or refused with one line.
func FuzzReadNodes(f *testing.F) {
	f.Add(read(f, "testdata/nodes.json"))
	f.Add(read(f, "testdata/nodes-with-resources.json"))
	f.Fuzz(func(t *testing.T, in []byte) {
		n, err := ReadNodes(in, "f")
		if err != nil {
			oneLine(t, err)
			return
		}
		if len(n.Names) == 0 {
			t.Fatal("read without nodes")
		}
	})
}

func oneLine(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, badinput.Err) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %q is not a one-line bad-input error", err)
	}
}

// TestSynthSizeRefused: a description whose jobs × tasks exceed the memory
// budget is refused before a job is generated, naming num_jobs; syn.json
// itself passes under a small budget.
func TestSynthSizeRefused(t *testing.T) {
	defer sizelimit.SetBudget(64 << 20)()
	if _, err := ReadSynth(read(t, "testdata/syn.json"), "syn.json"); err != nil {
		t.Fatalf("syn.json: %v", err)
	}
	var d map[string]any
	if err := json.Unmarshal(read(t, "testdata/syn.json"), &d); err != nil {
		t.Fatal(err)
	}
	d["num_jobs"] = 1 << 20
	for _, w := range d["workloads"].([]any) {
		for _, c := range w.(map[string]any)["job_classes"].([]any) {
			c.(map[string]any)["mtasks_avg"] = 60000
		}
	}
	b, _ := json.Marshal(d)
	_, err := ReadSynth(b, "big.json")
	if err == nil || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(err.Error(), "big.json:1:1: num_jobs: ") {
		t.Fatalf("error %v, want a size refusal naming big.json and num_jobs", err)
	}
}
