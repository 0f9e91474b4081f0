package simbridge

import (
	"context"
	"testing"
	"time"

	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/workload"
)

// TestCompareMixedStreamOptimum: a 6-job MRCP mixed stream (λ 0.05, seed
// 3, 65 tasks: far beyond the enumerator) compared on late jobs, max
// turnaround and the MRCP product. Each time the offline side is the proven
// optimum, equal to formulations/mrcp's own solve of the file (the
// lexicographic objective's late count; with every deadline at the release,
// its maximum turnaround; the product objective, in ms), and every verified
// policy lies at or above it.
func TestCompareMixedStreamOptimum(t *testing.T) {
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 6, Lambda: 0.05, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	w, err := workload.FromMRCP("mixed", in)
	if err != nil {
		t.Fatal(err)
	}
	solveMRCP := func(in *mrcpscenario.Instance, kind mrcp.ObjectiveKind) *mrcp.Schedule {
		out, err := mrcp.RunInstance(context.Background(), "mixed", in, mrcp.Options{Objective: mrcp.Objective{Kind: kind},
			Solve: solve.Options{Solver: "native", TimeLimit: testLimit}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Result.Status != solve.Optimal || !out.Verified {
			t.Fatalf("mrcp %v: %v, verified %v", kind, out.Result.Status, out.Verified)
		}
		return out.Schedule
	}
	lex := solveMRCP(in, mrcp.Lexicographic)
	prod := solveMRCP(in, mrcp.Product)
	allLate := *in
	allLate.Jobs = append([]mrcpscenario.Job(nil), in.Jobs...)
	for j := range allLate.Jobs {
		allLate.Jobs[j].Deadline = allLate.Jobs[j].Release
	}
	turn := solveMRCP(&allLate, mrcp.Lexicographic)
	want := map[lowerbound.Metric]float64{
		lowerbound.LateJobs:      float64(lex.LateJobs),
		lowerbound.MaxTurnaround: float64(turn.MaxTurnaround) * 1000,
		lowerbound.MRCPProduct:   float64(prod.LateJobs+1) * float64(prod.MaxTurnaround) * 1000,
	}
	if lex.LateJobs == 0 {
		t.Fatal("the stream needs a late job for the late count to be tested")
	}
	for m, v := range want {
		out, err := Compare(context.Background(), "mixed", w, NameAll(fifo.New(), fifo.NewEDF(), fair.New()),
			Options{Metric: m, Sim: IdealOptions(), OptimumJobs: 30, Solve: solve.Options{Solver: "native", TimeLimit: testLimit}})
		if err != nil {
			t.Fatal(err)
		}
		r := out.Report
		if r.BoundStatus != "optimal" || r.Optimum == nil || !r.OfflineVerified || out.Stream == nil {
			t.Fatalf("%v: bound status %q, optimum %v, verified %v, stream solve %+v", m, r.BoundStatus, r.Optimum, r.OfflineVerified, out.Stream)
		}
		if *r.Optimum != v {
			t.Errorf("%v: compare's optimum %v, formulations/mrcp's %v", m, *r.Optimum, v)
		}
		for _, row := range r.Policies {
			if !row.Verified || row.Value < *r.Optimum {
				t.Errorf("%v: %+v below the optimum %v or unverified", m, row, *r.Optimum)
			}
		}
	}
}

// testLimit keeps a stuck solve from stalling the suite (each here takes
// well under a second).
const testLimit = time.Minute

// TestExactDurationsNeedSlotsOnly: a node RAM or disk limit makes the
// problem (slots only) a relaxation of the run, so its optimum is not
// claimed. Two maps of 2 s that each need the whole node's RAM on a node
// with two map slots: the slot problem's optimum total turnaround is 4 s
// (both at once), the run's is 2 + 4 = 6 s.
func TestExactDurationsNeedSlotsOnly(t *testing.T) {
	base := sim.Workload{Name: "ram", Cluster: sim.Cluster{Nodes: []sim.Node{{Name: "n0", MapSlots: 2, ReduceSlots: 1}}}}
	spec := sim.TaskSpec{Work: 2000, Estimate: 2000, RAM: 1, Disk: 1}
	base.Jobs = []sim.Job{{Name: "a", Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{spec}},
		{Name: "b", Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{spec}}}
	for _, c := range []struct {
		name      string
		ram, disk float64
		exact     bool
		want      float64 // FIFO's total turnaround
	}{
		{"no limit", 0, 0, true, 4000},
		{"RAM", 1, 0, false, 6000},
		{"disk", 0, 1, false, 6000},
	} {
		w := base
		w.Cluster.Nodes = []sim.Node{base.Cluster.Nodes[0]}
		w.Cluster.Nodes[0].RAM, w.Cluster.Nodes[0].Disk = c.ram, c.disk
		if got := exactDurations(&w, IdealOptions()); got != c.exact {
			t.Errorf("%s: exactDurations %v, want %v", c.name, got, c.exact)
		}
		out, err := Compare(context.Background(), c.name, &w, NameAll(fifo.New()), Options{Metric: lowerbound.TotalTurnaround, Sim: IdealOptions()})
		if err != nil {
			t.Fatal(err)
		}
		r := out.Report
		if v := r.Policies[0].Value; v != c.want || !r.Policies[0].Verified {
			t.Errorf("%s: FIFO %v (verified %v), want %v", c.name, v, r.Policies[0].Verified, c.want)
		}
		if (r.Optimum != nil) != c.exact || (c.exact && *r.Optimum != 4000) {
			t.Errorf("%s: optimum %v claimed=%v, want claimed=%v", c.name, r.Optimum, r.Optimum != nil, c.exact)
		}
		if !c.exact && r.Bound > 4000 {
			t.Errorf("%s: bound %v above the slot problem's optimum 4000", c.name, r.Bound)
		}
	}
}
