package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

func run(t *testing.T, w *sim.Workload) *Report {
	t.Helper()
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	res, err := sim.Run(w, fair.New(), o)
	if err != nil {
		t.Fatal(err)
	}
	r := New("x", w, res)
	if !r.Verified {
		t.Fatal(r.CheckError)
	}
	return r
}

// TestBarsNoOverlap: the slot lanes never hold two bars at once, and there
// are never more lanes of a node and kind than its slots.
func TestBarsNoOverlap(t *testing.T) {
	r := run(t, simtest.Random(4, simtest.RandomSpec{}))
	byLane := map[string][][2]float64{}
	for _, b := range r.Bars() {
		for _, o := range byLane[b.Lane] {
			if b.Start < o[1] && o[0] < b.End {
				t.Fatalf("lane %s: [%v,%v) overlaps [%v,%v)", b.Lane, b.Start, b.End, o[0], o[1])
			}
		}
		byLane[b.Lane] = append(byLane[b.Lane], [2]float64{b.Start, b.End})
		if strings.HasSuffix(b.Lane, " map 2") || strings.HasSuffix(b.Lane, " reduce 1") {
			t.Errorf("lane %s beyond the node's slots", b.Lane)
		}
	}
	var buf bytes.Buffer
	if err := r.WriteTrace(&buf); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(buf.String(), "\n"); lines != len(r.Result.Trace)+1 {
		t.Errorf("trace has %d lines for %d segments", lines, len(r.Result.Trace))
	}
}

// TestUserMetrics: two users with min share 2 each on one node with 2 map
// slots; user a's job (4 maps of 10 s) arrives first and takes both slots,
// user b's (1 map) arrives at 1 s and runs at 10 s, so the jobs end at
// 20 s and 30 s. Users() must agree with a direct count
// at each completion instant, and the values must not be trivial.
func TestUserMetrics(t *testing.T) {
	maps := func(n int) []sim.TaskSpec {
		out := make([]sim.TaskSpec, n)
		for i := range out {
			out[i] = sim.TaskSpec{Work: 10000}
		}
		return out
	}
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 2}}},
		Users:   []sim.User{{Name: "a", MinShare: 2, Weight: 1}, {Name: "b", MinShare: 2, Weight: 1}},
		Jobs: []sim.Job{
			{User: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(4)},
			{User: 1, Arrival: 1000, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(1)},
		},
	}
	r := run(t, w)
	m, ok := r.Users()
	if !ok {
		t.Fatal("no user metrics")
	}
	// recompute by hand from the trace at each completion instant
	var want UserMetrics
	n := 0
	for _, o := range r.Result.Jobs {
		at := o.Completion
		as := [2]int{}
		dem := [2]int{}
		for j, jo := range r.Result.Jobs {
			if jo.Arrival <= at {
				dem[w.Jobs[j].User] += len(w.Jobs[j].Maps)
			}
		}
		for _, a := range r.Result.Trace {
			u := w.Jobs[a.Job].User
			if a.Launch <= at {
				dem[u]--
			}
			if a.Launch <= at && at < a.End {
				as[u]++
			}
		}
		d, f := 0.0, 0.0
		mean := float64(as[0]+as[1]-4) / 2
		for u := range 2 {
			if dem[u] > 0 && as[u] < 2 {
				d += float64(2-as[u]) / 2
			}
			f += math.Abs(float64(as[u]-2) - mean)
		}
		want.Dissatisfaction += d
		want.Fairness += f
		n++
	}
	if r.Result.Jobs[0].Completion != 30000 || r.Result.Jobs[1].Completion != 20000 {
		t.Fatalf("completions %v, want 30 s and 20 s", r.Result.Jobs)
	}
	want.Dissatisfaction /= float64(n)
	want.Fairness /= float64(n)
	t.Logf("%+v", m)
	if m.Fairness == 0 && m.Dissatisfaction == 0 {
		t.Error("trivial user metrics")
	}
	if math.Abs(m.Dissatisfaction-want.Dissatisfaction) > 1e-12 || math.Abs(m.Fairness-want.Fairness) > 1e-12 {
		t.Errorf("user metrics %+v, by hand %+v", m, want)
	}
}
