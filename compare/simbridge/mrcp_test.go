package simbridge

import (
	"context"
	"testing"
	"time"

	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/lowerbound/windowbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/workload"
)

// TestCompareMixedStreamOptimum: a 6-job MRCP mixed stream (λ 0.05, seed
// 3, 65 tasks: far beyond the enumerator) compared on late jobs, max
// turnaround, the MRCP product and makespan, and a 2-job one (25 tasks) on
// total and mean turnaround. Each time the offline side is the proven
// optimum, equal to formulations/mrcp's own solve of the file (the
// lexicographic objective's late count; with every deadline at the
// release, its maximum turnaround; the product, makespan and total
// turnaround objectives, in ms), its schedule passes sim/check, every
// bound component lies at or below it and every verified policy and
// offline construction at or above it.
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
	mk := mrcp.Objective{Kind: mrcp.Makespan}.ScheduleValue(solveMRCP(in, mrcp.Makespan), 0)
	want := map[lowerbound.Metric]float64{
		lowerbound.LateJobs:      float64(lex.LateJobs),
		lowerbound.MaxTurnaround: float64(turn.MaxTurnaround) * 1000,
		lowerbound.MRCPProduct:   float64(prod.LateJobs+1) * float64(prod.MaxTurnaround) * 1000,
		lowerbound.Makespan:      mk * 1000,
	}
	if lex.LateJobs == 0 {
		t.Fatal("the stream needs a late job for the late count to be tested")
	}
	checkStreamOptimum(t, w, want, -1)
	// The branch and bound proves the metrics it offers itself, and the
	// MILP is then not run.
	delete(want, lowerbound.LateJobs)
	delete(want, lowerbound.MRCPProduct)
	checkStreamOptimum(t, w, want, 0)
	// The turnaround MILP is tried on models of at most
	// TurnaroundOptimumColumns columns: a 2-job mixed stream (25 tasks) and
	// a 3-job one (46 tasks, beyond the 30 tasks of the former gate).
	for _, c := range []struct{ jobs, seed int }{{2, 1}, {3, 1}} {
		in2, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: c.jobs, Lambda: 0.05, Seed: uint64(c.seed)})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(in2.Tasks()); n <= lowerbound.ExactMaxTasks {
			t.Fatalf("the %d-job stream has %d tasks: the enumerator would prove it", c.jobs, n)
		}
		w2, err := workload.FromMRCP("mixed2", in2)
		if err != nil {
			t.Fatal(err)
		}
		total := mrcp.Objective{Kind: mrcp.TotalTurnaround}.ScheduleValue(solveMRCP(in2, mrcp.TotalTurnaround), 0)
		for _, nodes := range []int64{-1, 0} {
			checkStreamOptimum(t, w2, map[lowerbound.Metric]float64{
				lowerbound.TotalTurnaround: total * 1000,
				lowerbound.MeanTurnaround:  total * 1000 / float64(len(in2.Jobs)),
			}, nodes)
		}
	}
}

// TestTurnaroundOptimumGate (the branch and bound off): compare tries the
// whole-stream MILP of the mean turnaround exactly when its model (built with compare's incumbent)
// has at most TurnaroundOptimumColumns columns: not on the 6-job stream
// above (thousands of columns), where the bound comes from the other
// components, each below every verified schedule; on the 3-job one, whose
// optimum it proves.
func TestTurnaroundOptimumGate(t *testing.T) {
	for _, c := range []struct {
		jobs  int
		tried bool
	}{{6, false}, {3, true}} {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: c.jobs, Lambda: 0.05, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		w, err := workload.FromMRCP("gate", in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Compare(context.Background(), "gate", w, NameAll(fifo.New(), fifo.NewEDF(), fair.New()),
			Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions(), OptimumJobs: 30, SearchNodes: -1, Solve: solve.Options{Solver: "native", TimeLimit: testLimit}})
		if err != nil {
			t.Fatal(err)
		}
		if (out.Stream != nil) != c.tried {
			t.Fatalf("%d jobs: stream solve %+v, want tried %v", c.jobs, out.Stream, c.tried)
		}
		r := out.Report
		if !c.tried {
			if r.Optimum != nil || r.BoundStatus == "optimal" {
				t.Errorf("%d jobs: optimum %v (%s) without the stream solve", c.jobs, r.Optimum, r.BoundStatus)
			}
			for _, row := range r.Policies {
				if row.Verified && row.Value < r.Bound {
					t.Errorf("%d jobs: policy %s = %v below the bound %v", c.jobs, row.Policy, row.Value, r.Bound)
				}
			}
			continue
		}
		if r.BoundStatus != "optimal" || r.Optimum == nil || out.StreamCheckErr != "" {
			t.Errorf("%d jobs: bound status %q, optimum %v, sim/check %q", c.jobs, r.BoundStatus, r.Optimum, out.StreamCheckErr)
		}
	}
}

// checkStreamOptimum compares w on each metric of want and checks that the
// offline side is the proven optimum want[m], verified by sim/check, with
// every bound component at or below it and every verified policy and
// offline construction at or above it. With search < 0 the optimum must
// come from the whole-stream MILP (the branch and bound off); otherwise
// (Options.SearchNodes = search) from the branch and bound, the MILP not
// run.
func checkStreamOptimum(t *testing.T, w *sim.Workload, want map[lowerbound.Metric]float64, search int64) {
	t.Helper()
	for m, v := range want {
		out, err := Compare(context.Background(), "mixed", w, NameAll(fifo.New(), fifo.NewEDF(), fair.New()),
			Options{Metric: m, Sim: IdealOptions(), OptimumJobs: 30, SearchNodes: search, Solve: solve.Options{Solver: "native", TimeLimit: testLimit}})
		if err != nil {
			t.Fatal(err)
		}
		r := out.Report
		if r.BoundStatus != "optimal" || r.Optimum == nil || !r.OfflineVerified {
			t.Fatalf("%v: bound status %q, optimum %v, verified %v", m, r.BoundStatus, r.Optimum, r.OfflineVerified)
		}
		if search < 0 && (out.Stream == nil || out.Search != nil) {
			t.Fatalf("%v: stream solve %+v, search %+v: want the MILP alone", m, out.Stream, out.Search)
		}
		if search >= 0 && (out.Search == nil || out.Search.Status != solve.Optimal || out.SearchCheckErr != "" || out.Stream != nil) {
			t.Fatalf("%v: search %+v (sim/check %q), stream solve %+v: want the search's optimum alone", m, out.Search, out.SearchCheckErr, out.Stream)
		}
		if *r.Optimum != v {
			t.Errorf("%v: compare's optimum %v, formulations/mrcp's %v", m, *r.Optimum, v)
		}
		if out.StreamCheckErr != "" {
			t.Errorf("%v: sim/check rejects the stream schedule: %s", m, out.StreamCheckErr)
		}
		for _, row := range r.Policies {
			if !row.Verified || row.Value < *r.Optimum {
				t.Errorf("%v: %+v below the optimum %v or unverified", m, row, *r.Optimum)
			}
		}
		for _, c := range r.Components {
			if c.Value > *r.Optimum {
				t.Errorf("%v: bound component %s = %v above the optimum %v", m, c.Name, c.Value, *r.Optimum)
			}
		}
		for _, sc := range r.Offline {
			if sc.Verified && sc.Value < *r.Optimum {
				t.Errorf("%v: offline schedule %s = %v below the optimum %v", m, sc.By, sc.Value, *r.Optimum)
			}
		}
	}
}

// testLimit keeps a stuck solve from stalling the suite (each here takes
// well under a second; the margin is for a loaded machine, where a wall
// limit of a minute once cut a proof short).
const testLimit = 5 * time.Minute

// TestExactDurationsNeedSlotsOnly: a node RAM or disk limit makes the
// problem (slots only) a relaxation of the run, so its optimum is not
// claimed. Two maps of 2 s that each need the whole node's RAM on a node
// with two map slots: the slot problem's optimum total turnaround is 4 s
// (both at once), the run's is 2 + 4 = 6 s.
func TestExactDurationsNeedSlotsOnly(t *testing.T) {
	base := sim.Workload{Name: "ram", Cluster: sim.Cluster{Nodes: []sim.Node{{Name: "n0", MapSlots: 2, ReduceSlots: 1}}}}
	spec := sim.TaskSpec{Work: 2000}
	spec.SetEstimate(2000)
	spec.SetDemand(1, 1)
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

// TestVerifyStreamRejects: sim/check, through verifyStream, accepts the
// whole-stream makespan schedule of a 2-job mixed stream and rejects it
// once a map is moved before its job's arrival, a reduce is shortened, or
// the value claimed differs from the completions' (so the optimum compare
// reports rests on a check that can fail).
func TestVerifyStreamRejects(t *testing.T) {
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 2, Lambda: 0.05, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	w, err := workload.FromMRCP("mixed2", in)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Problem(w, IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	st, err := windowbound.Optimum(context.Background(), p, lowerbound.Makespan, windowbound.Options{Solve: solve.Options{Solver: "native", TimeLimit: testLimit}})
	if err != nil {
		t.Fatal(err)
	}
	if st == nil || !st.Verified || len(st.Placements) == 0 {
		t.Fatalf("no verified stream schedule: %+v", st)
	}
	if err := verifyStream(w, IdealOptions(), p, lowerbound.Makespan, st); err != nil {
		t.Fatalf("the MRCP schedule is rejected: %v", err)
	}
	broken := map[string]func(s *windowbound.StreamOptimum){
		"map before arrival": func(s *windowbound.StreamOptimum) {
			for i := range s.Placements {
				if pl := &s.Placements[i]; !pl.Reduce && pl.Job == 1 {
					d := pl.End - pl.Start
					pl.Start = int64(w.Jobs[1].Arrival) - 1000
					pl.End = pl.Start + d
					return
				}
			}
		},
		"short reduce":  func(s *windowbound.StreamOptimum) { s.Placements[len(s.Placements)-1].End -= 1000 },
		"value claimed": func(s *windowbound.StreamOptimum) { s.Value -= 1000 },
	}
	for name, breakIt := range broken {
		c := *st
		c.Placements = append([]windowbound.Placement(nil), st.Placements...)
		breakIt(&c)
		if err := verifyStream(w, IdealOptions(), p, lowerbound.Makespan, &c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestStoppedStreamScheduleCompetes: a whole-stream solve stopped by a node
// limit (the 3-job stream of TestTurnaroundOptimumGate, mean turnaround)
// proves nothing, but the schedule it found passed both checkers: it is
// listed among the offline schedules as verified, with the stream's value,
// and the upper end is at most it; the bound stays at or below it.
func TestStoppedStreamScheduleCompetes(t *testing.T) {
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 3, Lambda: 0.05, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	w, err := workload.FromMRCP("stopped", in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compare(context.Background(), "stopped", w, NameAll(fifo.New(), fifo.NewEDF(), fair.New()),
		Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions(), OptimumJobs: 30, SearchNodes: -1,
			Solve: solve.Options{Solver: "native", TimeLimit: testLimit, NodeLimit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	st := out.Stream
	if st == nil || st.Status == solve.Optimal || !st.Verified || out.StreamCheckErr != "" {
		t.Fatalf("stream solve %+v (sim/check %q): want a verified schedule from a stopped solve", st, out.StreamCheckErr)
	}
	r := out.Report
	listed := false
	for _, sc := range r.Offline {
		if sc.By == "mrcp-stream" {
			listed = sc.Verified && sc.Value == st.Value
		}
	}
	if !listed {
		t.Errorf("the stopped solve's schedule (%v) is not listed as verified: %+v", st.Value, r.Offline)
	}
	if r.Upper == nil || *r.Upper > st.Value || r.Bound > st.Value {
		t.Errorf("upper %v, bound %v, stream schedule %v", r.Upper, r.Bound, st.Value)
	}
}

// TestSearchBeyondTheMILP: the 6-job stream of TestCompareMixedStreamOptimum
// on the total turnaround, whose MILP compare does not try (above
// TurnaroundOptimumColumns): the branch and bound proves its optimum, its
// schedule (or compare's best verified one) passes sim/check, every bound
// component lies at or below it and every verified schedule at or above.
// On a 3-job stream (seed 1, whose certified bound is below its optimum) a
// search stopped after 2 nodes claims no optimum, its bound lies at or below the optimum, and the
// MILP, then run, proves the optimum the full search proves.
func TestSearchBeyondTheMILP(t *testing.T) {
	run := func(jobs, seed int, nodes int64) *Outcome {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: jobs, Lambda: 0.05, Seed: uint64(seed)})
		if err != nil {
			t.Fatal(err)
		}
		w, err := workload.FromMRCP("mixed", in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Compare(context.Background(), "mixed", w, NameAll(fifo.New(), fifo.NewEDF(), fair.New()),
			Options{Metric: lowerbound.TotalTurnaround, Sim: IdealOptions(), OptimumJobs: 30, SearchNodes: nodes, Solve: solve.Options{Solver: "native", TimeLimit: testLimit}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := run(6, 3, 0)
	r := out.Report
	if r.BoundStatus != "optimal" || r.Optimum == nil || out.Search == nil || out.Search.Status != solve.Optimal || out.SearchCheckErr != "" || out.Stream != nil {
		t.Fatalf("6 jobs: %q, optimum %v, search %+v (sim/check %q), stream solve %+v", r.BoundStatus, r.Optimum, out.Search, out.SearchCheckErr, out.Stream)
	}
	for _, c := range r.Components {
		if c.Value > *r.Optimum {
			t.Errorf("bound component %s = %v above the optimum %v", c.Name, c.Value, *r.Optimum)
		}
	}
	for _, row := range r.Policies {
		if row.Verified && row.Value < *r.Optimum {
			t.Errorf("%s = %v below the optimum %v", row.Policy, row.Value, *r.Optimum)
		}
	}

	full := run(3, 1, 0)
	stopped := run(3, 1, 2)
	sr := stopped.Search
	if sr == nil || sr.Status == solve.Optimal || stopped.Stream == nil || stopped.Stream.Status != solve.Optimal {
		t.Fatalf("3 jobs, 2 nodes: search %+v, stream solve %+v: want a stopped search, then the MILP's optimum", sr, stopped.Stream)
	}
	if full.Report.Optimum == nil || full.Search == nil || full.Stream != nil || stopped.Report.Optimum == nil || *full.Report.Optimum != *stopped.Report.Optimum {
		t.Fatalf("3 jobs: the search's optimum %v, the MILP's %v", full.Report.Optimum, stopped.Report.Optimum)
	}
	if sr.Bound > *full.Report.Optimum {
		t.Errorf("the stopped search's bound %v is above the optimum %v", sr.Bound, *full.Report.Optimum)
	}
}
