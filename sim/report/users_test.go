package report

import (
	"math"
	"testing"

	"github.com/mrbound/mrbound/sim"
)

// TestUserReadingsByHand: the three readings of A-C17. U1 (min share 2) has
// a job of two 10 s maps, U2 (min share 0) one 10 s map, run back to back on
// one slot from t = 0.
// [0,10): U1 runs 1 of its 2-slot share with demand 1: dissatisfaction 0.5;
// Δ = (−1, 0), fairness 1. [10,20): U1's demand is 0: dissatisfaction 0,
// fairness 1. At 20 (U1 done, U2 runs): Δ = (−2, 1), fairness 3. At 30:
// Δ = (−2, 0), fairness 2.
func TestUserReadingsByHand(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1}}},
		Users:   []sim.User{{Name: "U1", MinShare: 2, Weight: 1}, {Name: "U2", Weight: 1}},
		Jobs: []sim.Job{
			{User: 0, Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 10000}, {Work: 10000}}},
			{User: 1, Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 10000}}},
		},
	}
	res := &sim.Result{
		Jobs: []sim.JobOutcome{{Arrived: true, Done: true, Completion: 20000}, {Arrived: true, Done: true, Completion: 30000}},
		Trace: []sim.Attempt{
			{Task: 0, Job: 0, Kind: sim.Map, Launch: 0, Start: 0, End: 10000, Outcome: sim.Completed},
			{Task: 1, Job: 0, Kind: sim.Map, Index: 1, Launch: 10000, Start: 10000, End: 20000, Outcome: sim.Completed},
			{Task: 2, Job: 1, Kind: sim.Map, Launch: 20000, Start: 20000, End: 30000, Outcome: sim.Completed},
		},
	}
	got, ok := (&Report{Workload: w, Result: res}).UserReadings()
	if !ok {
		t.Fatal("no readings")
	}
	want := UserReadings{
		Dissatisfaction: Reading{AtCompletions: 0, TimeAverage: 0.5 * 10 / 30, Last: 0},
		Fairness:        Reading{AtCompletions: 2.5, TimeAverage: 50.0 / 30, Last: 2},
	}
	for _, c := range []struct {
		name      string
		got, want Reading
	}{{"dissatisfaction", got.Dissatisfaction, want.Dissatisfaction}, {"fairness", got.Fairness, want.Fairness}} {
		if math.Abs(c.got.AtCompletions-c.want.AtCompletions) > 1e-12 || math.Abs(c.got.TimeAverage-c.want.TimeAverage) > 1e-12 ||
			math.Abs(c.got.Last-c.want.Last) > 1e-12 {
			t.Errorf("%s = %+v, want %+v", c.name, c.got, c.want)
		}
	}
}
