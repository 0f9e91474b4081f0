package hfsp_test

import (
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// TestSlowStartDeadlockEnds is the run that kept the cross-check alive
// without a horizon: on a 1-slot fungible node HFSP gives the slot to a
// reduce once slow-start allows it (after the first map), the reduce waits
// for maps that can get no slot, and hfsp-kill's and hfsp-suspend's
// periodic update timer fires for ever. The simulator's stuck rule ends
// those runs (status stuck, since the reduce's launch at 12 s); plain hfsp
// sets no timer, so its run stalls when no event is left. Every trace
// passes the checker.
func TestSlowStartDeadlockEnds(t *testing.T) {
	w := &sim.Workload{Cluster: sim.Cluster{Fungible: true, Nodes: []sim.Node{{TotalSlots: 1}}}}
	for j := range 2 {
		job := sim.Job{Arrival: sim.Time(j * 3000), Deadline: sim.NoDeadline, Parent: -1}
		for range 8 {
			job.Maps = append(job.Maps, sim.TaskSpec{Work: 10000})
		}
		for range 3 {
			job.Reduces = append(job.Reduces, sim.TaskSpec{Work: 5000})
		}
		w.Jobs = append(w.Jobs, job)
	}
	o := sim.DefaultOptions()
	o.Estimates = sim.EstimateNone
	for name, want := range map[string]sim.Status{"hfsp": sim.Stalled, "hfsp-kill": sim.Stuck, "hfsp-suspend": sim.Stuck} {
		res, err := sim.Run(w, policy.MustNew(name), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != want || res.Unfinished() != 2 {
			t.Errorf("%s: status %v with %d unfinished, want %v with 2", name, res.Status, res.Unfinished(), want)
		}
		if want == sim.Stuck && (res.StuckSince != 12000 || !strings.HasPrefix(res.Incomplete(), "stuck at 12.000 s with 2 unfinished jobs")) {
			t.Errorf("%s: %s", name, res.Incomplete())
		}
		if err := check.Verify(w, res); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
