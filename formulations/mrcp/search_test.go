package mrcp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/solve"
)

// TestRelaxationAdmitsSchedules: the preemptive relaxation (with the
// energetic check after it, energetic.go) never rejects the
// completions of a real schedule (greedy schedules in random job orders on
// 1-s 20-job mixed streams), rejects a job given less than it needs alone,
// and minTurnaround lies between TurnaroundLowerBound and every schedule's Z.
func TestRelaxationAdmitsSchedules(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 20, Lambda: 0.02, Seed: seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		rx := newRelaxation(in)
		lb := rx.minTurnaround(TurnaroundLowerBound(in))
		if lb < TurnaroundLowerBound(in) {
			t.Errorf("seed %d: minTurnaround %d below TurnaroundLowerBound %d", seed, lb, TurnaroundLowerBound(in))
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		for trial := 0; trial < 20; trial++ {
			s := Greedy(in, rng.Perm(len(in.Jobs)))
			d := make([]int, len(in.Jobs))
			for j := range d {
				d[j] = s.Jobs[j].Completion
			}
			if !rx.feasible(d) {
				t.Fatalf("seed %d: the relaxation rejects a greedy schedule's completions %v", seed, d)
			}
			if s.MaxTurnaround < lb {
				t.Fatalf("seed %d: greedy Z %d below the relaxation's bound %d", seed, s.MaxTurnaround, lb)
			}
			j := rng.IntN(len(in.Jobs))
			d[j] = in.Jobs[j].Release + rx.phase[j] + rx.maxRed[j] - 1
			if rx.feasible(d) {
				t.Fatalf("seed %d: job %d completing 1 before its map phase + reduce passes", seed, j)
			}
		}
	}
}

// TestSearchMatchesMILP solves seeded small streams (1 or 2 resources,
// tight or loose deadlines) by the decomposition with its combinatorial
// phase (relaxation and deadline search, the default) and without it
// (every late count by the MILP) on HiGHS, and expects the same optimum;
// the combinatorial phase must have settled some late count by itself.
func TestSearchMatchesMILP(t *testing.T) {
	usable(t, "highs")
	type stream struct {
		w         mrcpscenario.Workload
		jobs      int
		seed      uint64
		lambda    float64
		resources int
		unit      float64
	}
	streams := []stream{
		{mrcpscenario.Small, 4, 1, 0.05, 1, 10}, {mrcpscenario.Mixed, 3, 2, 0.05, 2, 10}, {mrcpscenario.Small, 5, 3, 0.1, 2, 10},
		{mrcpscenario.Small, 4, 4, 0.08, 1, 5}, {mrcpscenario.Mixed, 3, 5, 0.03, 1, 10},
	}
	if testing.Short() {
		streams = streams[:2]
	}
	searched := 0
	for _, s := range streams {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: s.w, Jobs: s.jobs, Lambda: s.lambda, Seed: s.seed, TimeUnit: s.unit, Resources: s.resources})
		if err != nil {
			t.Fatal(err)
		}
		var vals []float64
		for _, noSearch := range []bool{false, true} {
			out, err := RunInstance(context.Background(), t.Name(), in, Options{NoSearch: noSearch,
				Solve: solve.Options{Solver: "highs", TimeLimit: testTimeLimit}})
			if err != nil {
				t.Fatal(err)
			}
			if out.Result.Status != solve.Optimal || !out.Verified {
				t.Fatalf("%v noSearch=%v: %v, verified %v (%v)", s, noSearch, out.Result.Status, out.Verified, out.CheckErr)
			}
			for _, sub := range out.Subproblems {
				if sub.Search && sub.Status != solve.NodeLimit {
					if noSearch {
						t.Errorf("%v: a search subproblem with NoSearch", s)
					}
					searched++
				}
			}
			t.Logf("%v noSearch=%v: %v (%d late, Z %d), %d subproblems", s, noSearch, out.Recomputed,
				out.Schedule.LateJobs, out.Schedule.MaxTurnaround, len(out.Subproblems))
			vals = append(vals, out.Recomputed)
		}
		if vals[0] != vals[1] {
			t.Errorf("%v: with search %v, MILP only %v", s, vals[0], vals[1])
		}
	}
	if searched == 0 {
		t.Error("the deadline search settled no late count")
	}
}

// TestSearchDeadlinesByHand: two jobs on one map and one reduce slot. Job a
// (release 0): maps 3 + 3, reduce 2; job b (release 1): map 2, reduce 2.
// b can complete by 5 (map [1,3), reduce [3,5)) only if a's maps wait until
// 3, so a completes at 3 + 6 + 2 = 11 at best; a by 8 (maps [0,6), reduce
// [6,8)) forces b's map to [6,8) and its completion to 10. Deadlines (8, 10)
// and (11, 5) are feasible; (8, 9) and (10, 5) are not.
func TestSearchDeadlinesByHand(t *testing.T) {
	in := parse(t, `{"kind": "mrcp", "schema_version": 1,
 "resources": [{"map_slots": 1, "reduce_slots": 1}],
 "jobs": [{"release": 0, "deadline": 100, "maps": [{"duration": 3}, {"duration": 3}], "reduces": [{"duration": 2}]},
          {"release": 1, "deadline": 100, "maps": [{"duration": 2}], "reduces": [{"duration": 2}]}]}`)
	for _, c := range []struct {
		d    []int
		want searchResult
	}{{[]int{8, 10}, searchFound}, {[]int{11, 5}, searchFound}, {[]int{8, 9}, searchInfeasible}, {[]int{10, 5}, searchInfeasible}} {
		s, r, _ := searchDeadlines(in, c.d, 1000)
		if _, rr, _ := searchDeadlinesDir(in, c.d, 1000, 0, true, nil); rr != r {
			t.Errorf("deadlines %v: reversed %v, forward %v", c.d, rr, r)
		}
		if r != c.want {
			t.Errorf("deadlines %v: %v, want %v", c.d, r, c.want)
			continue
		}
		if s != nil {
			if err := Check(in, s); err != nil {
				t.Errorf("deadlines %v: %v", c.d, err)
			}
			for j, jo := range s.Jobs {
				if jo.Completion > c.d[j] {
					t.Errorf("deadlines %v: job %d completes at %d", c.d, j, jo.Completion)
				}
			}
		}
	}
}

// TestGreedyMatchesPlainScan: Greedy (which skips past conflicts) places
// every task exactly where the plain instant-by-instant scan does, on 1-s
// mixed streams in random job orders and on a two-resource stream with
// demands above 1.
func TestGreedyMatchesPlainScan(t *testing.T) {
	var ins []*mrcpscenario.Instance
	for seed := uint64(1); seed <= 2; seed++ {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 10, Lambda: 0.02, Seed: seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	ins = append(ins, parse(t, `{"kind": "mrcp", "schema_version": 1,
 "resources": [{"map_slots": 2, "reduce_slots": 1}, {"map_slots": 3, "reduce_slots": 2}],
 "jobs": [{"release": 0, "deadline": 9, "maps": [{"duration": 3, "demand": 2}, {"duration": 2, "demand": 3}], "reduces": [{"duration": 4, "demand": 2}]},
          {"release": 1, "deadline": 8, "maps": [{"duration": 2}, {"duration": 5, "demand": 2}], "reduces": [{"duration": 1}]},
          {"release": 2, "deadline": 20, "maps": [{"duration": 4, "demand": 3}], "reduces": [{"duration": 3}]}]}`))
	rng := rand.New(rand.NewPCG(3, 4))
	for i, in := range ins {
		for trial := 0; trial < 10; trial++ {
			order := rng.Perm(len(in.Jobs))
			a, b := Greedy(in, order), greedyReference(in, order)
			for x := range a.Tasks {
				if a.Tasks[x] != b.Tasks[x] {
					t.Fatalf("instance %d order %v: %+v, plain scan %+v", i, order, a.Tasks[x], b.Tasks[x])
				}
			}
		}
	}
}

// greedyReference is the plain Greedy: every instant from the ready time,
// every resource in order.
func greedyReference(in *mrcpscenario.Instance, order []int) *Schedule {
	// usage[r][k][τ] is the demand on resource r's kind-k slots at instant τ.
	usage := make([][3][]int, len(in.Resources))
	fits := func(r int, k mrcpscenario.TaskKind, q, from, dur int) bool {
		c := in.Resources[r].Slots(k)
		if c < q {
			return false
		}
		u := usage[r][k]
		for τ := from; τ < from+dur && τ < len(u); τ++ {
			if u[τ]+q > c {
				return false
			}
		}
		return true
	}
	place := func(t mrcpscenario.TaskRef, ready int) Assignment {
		task := in.Task(t)
		for τ := ready; ; τ++ {
			for r := range in.Resources {
				if fits(r, t.Kind, task.Demand, τ, task.Duration) {
					u := &usage[r][t.Kind]
					for len(*u) < τ+task.Duration {
						*u = append(*u, 0)
					}
					for x := τ; x < τ+task.Duration; x++ {
						(*u)[x] += task.Demand
					}
					return Assignment{Task: t, Resource: r, Start: τ}
				}
			}
		}
	}
	var tasks []Assignment
	for _, j := range order {
		job := in.Jobs[j]
		end := job.Release
		for i, m := range job.Maps {
			a := place(mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Map, Index: i}, job.Release)
			tasks = append(tasks, a)
			end = max(end, a.Start+m.Duration)
		}
		for i := range job.Reduces {
			tasks = append(tasks, place(mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Reduce, Index: i}, end))
		}
	}
	s := newSchedule(in, tasks)
	assignSlots(in, s)
	return s
}

// TestReversedSearchAgrees: on small random instances (1–5 jobs of 1–3
// maps and 1–2 reduces with durations 1–5, one or two resources) and random
// completion deadlines, the deadline search run on the mirror image of the
// instance decides exactly what the forward search decides, every schedule
// either returns passes the checker and meets the deadlines, and
// decideDeadlines agrees with both; the subsetProver never finds an
// infeasible subset of jobs when the search finds a schedule.
func TestReversedSearchAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	decided := [2]int{}
	bySubsets := 0
	for trial := 0; trial < 300; trial++ {
		in, text := tinyInstance(t, rng, 5)
		d := make([]int, len(in.Jobs))
		for j, job := range in.Jobs {
			d[j] = job.Release + mapPhaseBound(in, job) + 1 + rng.IntN(12)
		}
		fs, fr, _ := searchDeadlinesDir(in, d, 1<<20, 0, false, nil)
		rs, rr, _ := searchDeadlinesDir(in, d, 1<<20, 0, true, nil)
		bs, br, _ := decideDeadlines(in, d, 1<<20, 0, nil, nil)
		if fr == searchAborted || rr == searchAborted || br == searchAborted {
			t.Fatalf("trial %d: a search ran out of 2^20 nodes", trial)
		}
		if fr != rr || fr != br {
			t.Fatalf("trial %d %s deadlines %v: forward %v, reversed %v, both %v", trial, text, d, fr, rr, br)
		}
		decided[fr]++
		if sub, _ := newSubsetProver(in, d, 0).round(1<<20, 1<<20); sub {
			bySubsets++
			if fr != searchInfeasible {
				t.Fatalf("trial %d %s deadlines %v: subsetProver says infeasible, the search %v", trial, text, d, fr)
			}
		}
		for _, s := range []*Schedule{fs, rs, bs} {
			if (s != nil) != (fr == searchFound) {
				t.Fatalf("trial %d: schedule %v with result %v", trial, s != nil, fr)
			}
			if s == nil {
				continue
			}
			if err := Check(in, s); err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			for j, jo := range s.Jobs {
				if jo.Completion > d[j] {
					t.Fatalf("trial %d: job %d completes at %d > %d", trial, j, jo.Completion, d[j])
				}
			}
		}
	}
	t.Logf("%d found, %d infeasible, %d by a subset of the jobs", decided[searchFound], decided[searchInfeasible], bySubsets)
	if decided[searchFound] < 30 || decided[searchInfeasible] < 30 {
		t.Errorf("too one-sided: %d found, %d infeasible", decided[searchFound], decided[searchInfeasible])
	}
}

// tinyInstance draws a small random instance: 1–maxJobs jobs (releases
// 0–7, deadlines 6–25 later) of 1–3 maps and 1–2 reduces with durations 1–5, on one or two
// resources with 1–2 map slots and one reduce slot; it returns the instance
// and its JSON.
func tinyInstance(t *testing.T, rng *rand.Rand, maxJobs int) (*mrcpscenario.Instance, string) {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`{"kind": "mrcp", "schema_version": 1, "resources": [`)
	nres := 1 + rng.IntN(2)
	for r := 0; r < nres; r++ {
		if r > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"map_slots": %d, "reduce_slots": 1}`, 1+rng.IntN(2))
	}
	sb.WriteString(`], "jobs": [`)
	njobs := 1 + rng.IntN(maxJobs)
	for j := 0; j < njobs; j++ {
		if j > 0 {
			sb.WriteString(",")
		}
		rel := rng.IntN(8)
		fmt.Fprintf(&sb, `{"release": %d, "deadline": %d, "maps": [`, rel, rel+6+rng.IntN(20))
		for m := 0; m < 1+rng.IntN(3); m++ {
			if m > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, `{"duration": %d}`, 1+rng.IntN(5))
		}
		sb.WriteString(`], "reduces": [`)
		for r := 0; r < 1+rng.IntN(2); r++ {
			if r > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, `{"duration": %d}`, 1+rng.IntN(5))
		}
		sb.WriteString(`]}`)
	}
	sb.WriteString(`]}`)
	return parse(t, sb.String()), sb.String()
}
