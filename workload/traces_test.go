package workload

import (
	"os"
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/trace"
)

// TestDetect: each sample is told by its content, whatever its name.
func TestDetect(t *testing.T) {
	for _, c := range []struct {
		path string
		want Format
	}{
		{"sls/testdata/inputsls.json", FormatSLS},
		{"sls/testdata/sls_dag.json", FormatSLS},
		{"sls/testdata/syn.json", FormatSynth},
		{"sls/testdata/nodes.json", FormatNodes},
		{"rumen/testdata/attempts.json", FormatRumen},
		{"../examples/jobs.jsonl", FormatJobFile},
		{"../examples/mrcp-stream.json", FormatScenario},
		{"swim/testdata/fb2009-first20.tsv", FormatSWIM},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect("renamed.txt", data); c.want != FormatSWIM && got != c.want {
			t.Errorf("%s: %v, want %v", c.path, got, c.want)
		}
		if got := Detect(c.path, data); got != c.want {
			t.Errorf("%s by its own name: %v, want %v", c.path, got, c.want)
		}
	}
}

// TestFromWorkloadRoundTrip: an MRCP stream written in the common form and
// built again gives the same cluster, arrivals, deadlines and durations.
func TestFromWorkloadRoundTrip(t *testing.T) {
	w, err := Load("../examples/mrcp-stream.json", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := FromWorkload("mrcp-stream.json", w)
	if err != nil {
		t.Fatal(err)
	}
	back, rec, err := trace.Build(tr, trace.ClusterSpec{})
	if err != nil || rec != nil {
		t.Fatal(err, rec)
	}
	if len(back.Cluster.Nodes) != len(w.Cluster.Nodes) || back.Cluster.Nodes[0].MapSlots != w.Cluster.Nodes[0].MapSlots ||
		back.Cluster.Nodes[0].ReduceSlots != w.Cluster.Nodes[0].ReduceSlots || len(back.Jobs) != len(w.Jobs) {
		t.Fatalf("cluster %+v, %d jobs; want %+v, %d", back.Cluster.Nodes, len(back.Jobs), w.Cluster.Nodes, len(w.Jobs))
	}
	work := func(ts []sim.TaskSpec) []sim.Time {
		var out []sim.Time
		for _, x := range ts {
			out = append(out, x.Work)
		}
		return out
	}
	for j := range w.Jobs {
		a, b := w.Jobs[j], back.Jobs[j]
		if a.Name != b.Name || a.Arrival != b.Arrival || a.Deadline != b.Deadline || a.Parent != b.Parent ||
			!equal(work(a.Maps), work(b.Maps)) || !equal(work(a.Reduces), work(b.Reduces)) {
			t.Errorf("job %d: %+v\nwant %+v", j, b, a)
		}
	}
}

func equal(a, b []sim.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
