package trace

import (
	"errors"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
)

func job(id string, maps ...int64) Job {
	return Job{ID: id, DeadlineMs: -1, MapsMs: maps, Where: "f:" + id}
}

// TestBuildCluster: the flags win over the source, the source over the
// record, the record over the defaults.
func TestBuildCluster(t *testing.T) {
	tr := &Trace{Name: "t", Jobs: []Job{job("a", 5, 5)}, Hosts: []string{"/r/x", "/r/y"},
		Recorded: []Container{{Job: 0, Kind: sim.Map, Index: 0, Host: "/r/x", StartMs: 0, EndMs: 5, Successful: true},
			{Job: 0, Kind: sim.Map, Index: 1, Host: "/r/x", StartMs: 0, EndMs: 5, Successful: true}}}
	for _, c := range []struct {
		cs               ClusterSpec
		source           int
		nodes, maps, red int
	}{
		{ClusterSpec{}, 0, 2, 2, DefaultReduceSlots}, // 2 maps at once on /r/x
		{ClusterSpec{}, 3, 2, 3, DefaultReduceSlots}, // the source says 3
		{ClusterSpec{Nodes: 5, MapSlots: 1, ReduceSlots: 4}, 3, 5, 1, 4},
	} {
		tr.MapSlots = c.source
		w, _, err := Build(tr, c.cs)
		if err != nil {
			t.Fatal(err)
		}
		n := w.Cluster.Nodes
		if len(n) != c.nodes || n[0].MapSlots != c.maps || n[0].ReduceSlots != c.red || n[0].Name != "/r/x" {
			t.Errorf("%+v, source %d: nodes %+v", c.cs, c.source, n)
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	weighted := func(id, pool string, w float64) Job { j := job(id, 1); j.Pool, j.Weight = pool, w; return j }
	chained := job("b", 1)
	chained.Parent = "zz"
	for _, c := range []struct {
		tr   Trace
		want string
	}{
		{Trace{Name: "t", Jobs: []Job{job("a", 1)}}, "t: the trace names no node: give --nodes or --nodes-file"},
		{Trace{Name: "t", NodeCount: 1, Jobs: []Job{weighted("a", "p", 2), weighted("b", "p", 3)}},
			`f:b: job "b": weight 3, but an earlier job of pool "p" has 2 (the Fair scheduler weighs pools)`},
		{Trace{Name: "t", NodeCount: 1, Jobs: []Job{job("a", 1), chained}}, `f:b: job "b": parent "zz" is not an earlier job`},
		{Trace{Name: "t", NodeCount: 1, Jobs: []Job{job("a")}}, `f:a: job "a": no tasks`},
	} {
		_, _, err := Build(&c.tr, ClusterSpec{})
		if err == nil || err.Error() != c.want || !errors.Is(err, badinput.Err) {
			t.Errorf("error %v\nwant %s", err, c.want)
		}
	}
}
