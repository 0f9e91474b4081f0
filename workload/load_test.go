package workload

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

func TestLoadMRCP(t *testing.T) {
	w, err := Load("../examples/mrcp-stream.json", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// time_unit_seconds 10: j2 releases at 2 units = 20 s, deadline 9 units = 90 s, maps of 3 units
	j := w.Jobs[2]
	if len(w.Cluster.Nodes) != 4 || j.Arrival != 20000 || j.Deadline != 90000 || j.Maps[0].Work != 30000 || j.Reduces[0].Work != 20000 {
		t.Errorf("job 2 = %+v on %d nodes", j, len(w.Cluster.Nodes))
	}
}

func TestLoadCOSHH(t *testing.T) {
	w, err := Load("../examples/coshh-facebook.json", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 100 || len(w.Cluster.Nodes) != 6 || len(w.Users) == 0 {
		t.Fatalf("%d jobs, %d nodes, %d users", len(w.Jobs), len(w.Cluster.Nodes), len(w.Users))
	}
	for j, job := range w.Jobs {
		if len(job.Maps) != 1 || len(job.Maps[0].ByGroup()) != 6 || job.Deadline != sim.NoDeadline {
			t.Fatalf("job %d: %+v", j, job)
		}
	}
}

func TestLoadSWIMFromBytes(t *testing.T) {
	data, err := os.ReadFile("swim/testdata/fb2009-first20.tsv")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Parse("x.tsv", data, DefaultOptions())
	if err != nil || len(w.Jobs) != 20 || len(w.Cluster.Nodes) != 600 {
		t.Fatalf("%v, %+v", err, w)
	}
}

func TestLoadBad(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"a.json", `{"kind": "jlassi2"}`, `a.json: kind: "jlassi2" cannot be simulated (mrcp, coshh, jlassi, tumm, or a .tsv SWIM trace)`},
		{"a.json", `{}`, `a.json: kind: missing (one of mrcp, coshh, jlassi, tumm; or a trace: .tsv SWIM, a job file, SLS or Rumen JSON)`},
		{"a.json", `nope`, `a.json:1:2: not a SWIM trace (.tsv), a JSON scenario, a job file, an SLS or a Rumen trace: invalid character 'o' in literal null (expecting 'u')`},
	} {
		_, err := Parse(c.name, []byte(c.data), DefaultOptions())
		if err == nil || err.Error() != c.want || !errors.Is(err, badinput.Err) {
			t.Errorf("%s: %v, want %q", c.data, err, c.want)
		}
	}
}

// TestLoadJlassi: per-machine durations, RAM/disk limits and block homes
// carry over, and FIFO's run on it verifies.
func TestLoadJlassi(t *testing.T) {
	w, err := Load("../examples/scenario5.json", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Cluster.Nodes) != 3 || w.Cluster.Nodes[0].MapSlots != 5 || w.Cluster.Nodes[0].RAM <= 0 {
		t.Fatalf("nodes %+v", w.Cluster.Nodes)
	}
	m := w.Jobs[0].Maps[0]
	if len(m.ByGroup()) != 3 || len(m.Replicas()) == 0 || m.RAM() <= 0 {
		t.Fatalf("map %+v", m)
	}
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	res, err := sim.Run(w, policy.MustNew("fifo"), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Trace {
		if a.Kind != sim.Map {
			continue
		}
		homes := w.Jobs[a.Job].Maps[a.Index].Replicas()
		if a.Local != slices.Contains(homes, int(a.Node)) {
			t.Errorf("map %d on node %d: local=%v, homes %v", a.Task, a.Node, a.Local, homes)
		}
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) {
		t.Errorf("%d of %d jobs", res.Metrics.CompletedJobs, len(w.Jobs))
	}
}
