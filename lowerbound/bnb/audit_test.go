package bnb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// wideTiny draws a problem of the package's class in shapes that tiny and
// twinsTiny leave out (issue 26's audit, s18audit): two duration groups
// whose nodes have different slot counts (each task's durations equal on
// both, as the class requires, given as one entry or one per group), no
// reduce slot at all when no job has reduces, jobs with maps only, reduces
// only or no task, many jobs drawn from two or three types (twins, with
// ties in arrival), durations of 1 ms, and at one scale in four every time
// multiplied by a large odd factor, so that times reach about 2^40 ms.
func wideTiny(r *rand.Rand) *lowerbound.Problem {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1 + r.IntN(2)}
	nNodes := 1 + r.IntN(3)
	for x := range nNodes {
		p.Nodes = append(p.Nodes, lowerbound.Node{Group: x % p.Groups, MapSlots: r.IntN(4), ReduceSlots: r.IntN(3)})
	}
	p.Nodes[0].MapSlots = max(1, p.Nodes[0].MapSlots)
	p.Nodes[nNodes-1].ReduceSlots = max(1, p.Nodes[nNodes-1].ReduceSlots)
	type shape struct {
		nm, nr int
		dm, dr int64
	}
	dur := func() int64 {
		if r.IntN(3) == 0 {
			return 1
		}
		return int64(1 + r.IntN(6))
	}
	types := make([]shape, 1+r.IntN(3))
	for i := range types {
		types[i] = shape{r.IntN(4), r.IntN(3), dur(), dur()}
	}
	arrivalRange := 1 + r.IntN(12)
	tasks := 0
	for range 1 + r.IntN(6) {
		t := types[r.IntN(len(types))]
		if tasks+t.nm+t.nr > lowerbound.ExactMaxTasks {
			break
		}
		tasks += t.nm + t.nr
		j := lowerbound.Job{Arrival: int64(r.IntN(arrivalRange))}
		for range t.nm {
			j.Maps = append(j.Maps, classTask(p.Groups, t.dm, r))
		}
		for range t.nr {
			j.Reduces = append(j.Reduces, classTask(p.Groups, t.dr, r))
		}
		p.Jobs = append(p.Jobs, j)
	}
	if tasks == 0 {
		p.Jobs = append(p.Jobs, lowerbound.Job{Arrival: int64(r.IntN(arrivalRange)), Maps: []lowerbound.Task{classTask(p.Groups, dur(), r)}})
	}
	hasReduce := false
	for _, j := range p.Jobs {
		hasReduce = hasReduce || len(j.Reduces) > 0
	}
	if !hasReduce && r.IntN(2) == 0 {
		for x := range p.Nodes {
			p.Nodes[x].ReduceSlots = 0
		}
	}
	if r.IntN(4) == 0 {
		f := int64(1)<<36 + 2*r.Int64N(1<<20) + 1
		p = scaleAll(p, f)
	}
	return p
}

// classTask is a task of duration d on every group, written as one entry
// or (with several groups) as one equal entry per group.
func classTask(groups int, d int64, r *rand.Rand) lowerbound.Task {
	if groups == 1 || r.IntN(2) == 0 {
		return lowerbound.Task{Dur: []int64{d}}
	}
	ds := make([]int64, groups)
	for g := range ds {
		ds[g] = d
	}
	return lowerbound.Task{Dur: ds}
}

// scaleAll returns p with every arrival and duration times f.
func scaleAll(p *lowerbound.Problem, f int64) *lowerbound.Problem {
	q := *p
	q.Jobs = make([]lowerbound.Job, len(p.Jobs))
	for j, job := range p.Jobs {
		nj := lowerbound.Job{Arrival: job.Arrival * f, Deadline: job.Deadline * f, HasDeadline: job.HasDeadline}
		for k, ts := range [2][]lowerbound.Task{job.Maps, job.Reduces} {
			out := make([]lowerbound.Task, len(ts))
			for i, t := range ts {
				d := make([]int64, len(t.Dur))
				for g := range d {
					d[g] = t.Dur[g] * f
				}
				out[i] = lowerbound.Task{Dur: d}
			}
			if k == 0 {
				nj.Maps = out
			} else {
				nj.Reduces = out
			}
		}
		q.Jobs[j] = nj
	}
	return &q
}

// auditRuns returns n, or the count in the environment variable
// MRBOUND_AUDIT_N when set (the scratch runs of the audit).
func auditRuns(n int) int {
	if v, err := strconv.Atoi(os.Getenv("MRBOUND_AUDIT_N")); err == nil && v > 0 {
		return v
	}
	return n
}

// auditSolve runs every form of the search on p for m against Exact's
// optimum want: complete (split and whole, without the Lagrangian, with the
// improvement phase), from the optimum and the optimum + 1 as incumbent,
// and stopped at small node limits (depth-first, then best-first); every
// bound is at most want, every Optimal value is want, and every schedule
// passes the independent check (value) at the value reported.
func auditSolve(t *testing.T, name string, p *lowerbound.Problem, m lowerbound.Metric, want float64, limit int64) {
	t.Helper()
	ctx := context.Background()
	runs := []Options{
		{}, {whole: true}, {noLag: true}, {noTwins: true}, {MemoEntries: -1},
		{Incumbent: want}, {Incumbent: want + 1}, {Incumbent: want + 1, whole: true},
		{NodeLimit: limit}, {NodeLimit: limit, whole: true}, {NodeLimit: limit, BoundNodes: 1 + limit},
		{NodeLimit: limit, ImproveNodes: 3 * limit, BoundNodes: 2 * limit},
		{NodeLimit: limit, Incumbent: want + 1}, {Known: want},
	}
	for _, o := range runs {
		res, err := Solve(ctx, p, m, o)
		what := fmt.Sprintf("%s %v %+v", name, m, o)
		if err != nil || res == nil {
			t.Fatalf("%s: %v (nil %v)\n%s", what, err, res == nil, dumpP(p))
		}
		if res.Bound > want*(1+1e-12)+1e-9 {
			t.Fatalf("%s: bound %v above the optimum %v\n%s", what, res.Bound, want, dumpP(p))
		}
		if res.Status == solve.Optimal && math.Abs(res.Value-want) > 1e-9*math.Max(1, want) {
			t.Fatalf("%s: optimal %v, exact %v\n%s", what, res.Value, want, dumpP(p))
		}
		if res.Status == solve.Optimal && res.Bound != res.Value {
			t.Fatalf("%s: optimal with bound %v ≠ value %v\n%s", what, res.Bound, res.Value, dumpP(p))
		}
		if o.Incumbent == 0 && o.Known == 0 && o.NodeLimit == 0 && res.Status != solve.Optimal {
			t.Fatalf("%s: %v on a tiny problem with the default limit\n%s", what, res.Status, dumpP(p))
		}
		if res.Placements != nil {
			got, err := value(p, m, res.Placements)
			if err != nil || math.Abs(got-res.Value) > 1e-9*math.Max(1, got) {
				t.Fatalf("%s: schedule %v, value %v, reported %v\n%s", what, err, got, res.Value, dumpP(p))
			}
		} else if o.Incumbent == 0 && !math.IsNaN(res.Value) {
			t.Fatalf("%s: value %v without a schedule or an incumbent\n%s", what, res.Value, dumpP(p))
		}
	}
}

func dumpP(p *lowerbound.Problem) string {
	s := fmt.Sprintf("mode %v groups %d nodes %+v\n", p.Mode, p.Groups, p.Nodes)
	for j, job := range p.Jobs {
		s += fmt.Sprintf("job %d: a=%d maps %v reduces %v\n", j, job.Arrival, job.Maps, job.Reduces)
	}
	return s
}

// TestAuditWideMatchesExact: the audit's property test (s18audit) on
// wideTiny's shapes — several groups of nodes with different slot counts,
// no reduce slot, jobs with maps only, reduces only or neither, many twins
// with tied arrivals, 1-ms tasks and times near 2^40 ms — every form of the
// search against lowerbound.Exact (auditSolve).
func TestAuditWideMatchesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 18))
	n := auditRuns(150)
	for it := range n {
		p := wideTiny(r)
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatalf("problem %d: %v\n%s", it, err, dumpP(p))
		}
		for _, m := range metrics {
			auditSolve(t, fmt.Sprintf("problem %d", it), p, m, opt.Value(m, len(p.Jobs)), 1+int64(it%7))
		}
	}
}
