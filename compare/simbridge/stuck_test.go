package simbridge

import (
	"context"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
)

// TestCompareStuckRun: a policy that deadlocks (hfsp-kill on a 2-slot
// fungible node whose slots slow-start reduces take) no longer keeps Compare
// running: the simulator's stuck rule ends its run and Compare fails with
// the job that did not complete and how the run ended.
func TestCompareStuckRun(t *testing.T) {
	w := &sim.Workload{Name: "deadlock", Cluster: sim.Cluster{Fungible: true, Nodes: []sim.Node{{TotalSlots: 2}}}}
	for range 2 {
		job := sim.Job{Deadline: sim.NoDeadline, Parent: -1}
		for range 20 {
			job.Maps = append(job.Maps, sim.TaskSpec{Work: 10000})
		}
		for range 3 {
			job.Reduces = append(job.Reduces, sim.TaskSpec{Work: 5000})
		}
		w.Jobs = append(w.Jobs, job)
	}
	o := Options{Sim: sim.DefaultOptions()}
	o.Sim.Estimates = sim.EstimateNone
	_, err := Compare(context.Background(), w.Name, w, []Named{{"hfsp-kill", policy.MustNew("hfsp-kill")}}, o)
	if err == nil || !strings.Contains(err.Error(), "did not complete (stuck at 12.000 s with 2 unfinished jobs") {
		t.Errorf("Compare: %v, want the stuck run reported", err)
	}
}
