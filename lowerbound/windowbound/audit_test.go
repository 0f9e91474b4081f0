package windowbound

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// auditDraw is one instance of the audit with the unit to pass and
// whether the package must refuse it whatever the unit.
type auditDraw struct {
	p *lowerbound.Problem
	// unitMs is Options.UnitMs (0: the package's default).
	unitMs int64
	// refuse: Bound must return an error wrapping badinput.Err.
	refuse bool
	// why names the draw's shape in failure messages.
	why string
}

// wideStream draws a stream in shapes randomStream leaves out (issue 26's
// audit of this package, s19wb): 1–3 nodes in 1–3 duration groups with
// their own map and reduce slot counts (a group may have no slot of a
// kind, so its durations must not be the ones rounded to); jobs of 0–3
// maps and 1–2 reduces (now and then none); in half the draws durations
// that differ per group, so the fastest eligible group is taken; times in
// a base unit of 500–3000 ms, in some draws off it by multiples of a finer
// grain (a quarter of the base, or 1 ms); tied arrivals, one job at times
// arriving long after the others; deadlines on some jobs, aligned or not,
// now and then before the arrival; UnitMs explicit (the base, half of it,
// 1000 ms) or the default. At most maxTasks tasks (lowerbound.Exact takes
// 9).
//
// One draw in ten is bad input of a kind the package refuses whatever the
// unit: fungible slots, preemption, a group out of range. (A task shorter
// than the unit, which Bound drops, comes from the 500 ms base with
// a unit of 1000 ms, explicit or the default.)
func wideStream(rng *rand.Rand, maxTasks int) auditDraw {
	base := []int64{500, 1000, 1000, 1500, 2000, 3000}[rng.IntN(6)]
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1 + rng.IntN(3)}
	nNodes := 1 + rng.IntN(3)
	for x := range nNodes {
		p.Nodes = append(p.Nodes, lowerbound.Node{Group: (x + rng.IntN(2)) % p.Groups, MapSlots: rng.IntN(3), ReduceSlots: rng.IntN(3)})
	}
	p.Nodes[rng.IntN(nNodes)].MapSlots |= 1
	p.Nodes[rng.IntN(nNodes)].ReduceSlots |= 1
	// grain: what the times are multiples of (base: nothing to round).
	grain := []int64{base, base, base / 4, 1}[rng.IntN(4)]
	jitter := func() int64 {
		if grain < base && rng.IntN(2) == 0 {
			return grain * (1 + rng.Int64N(base/grain-1))
		}
		return 0
	}
	perGroup := p.Groups > 1 && rng.IntN(2) == 0
	task := func() lowerbound.Task {
		d := base*(1+rng.Int64N(3)) + jitter()
		ds := make([]int64, p.Groups)
		for g := range ds {
			ds[g] = d
			if perGroup {
				// Slower or faster by whole units or by a jitter; never below one base.
				ds[g] = max(base, d+base*(rng.Int64N(3)-1)+jitter())
			}
		}
		if rng.IntN(3) == 0 || !perGroup {
			// One entry for every group (the same duration either way
			// when not perGroup).
			return lowerbound.Task{Dur: ds[:1]}
		}
		return lowerbound.Task{Dur: ds}
	}
	tasks := 0
	var last int64
	for j := range 1 + rng.IntN(4) {
		nm, nr := rng.IntN(4), 1+rng.IntN(2)
		if rng.IntN(10) == 0 {
			nr = 0
		}
		if tasks+nm+nr > maxTasks {
			break
		}
		tasks += nm + nr
		job := lowerbound.Job{}
		switch {
		case j > 0 && rng.IntN(4) == 0:
			job.Arrival = last // tied with the previous job
		case j > 0 && rng.IntN(8) == 0:
			// Long after the others; one in twelve of these 2^20 bases
			// after (≈ 2^30 ms: a window spanning such a gap is solved in
			// parts, gapParts).
			g := 40 + rng.Int64N(60)
			if g >= 95 {
				g = 1 << 20
			}
			job.Arrival = last + base*g
		default:
			job.Arrival = base*rng.Int64N(5) + jitter()
		}
		last = job.Arrival
		for range nm {
			job.Maps = append(job.Maps, task())
		}
		for range nr {
			job.Reduces = append(job.Reduces, task())
		}
		if rng.IntN(4) > 0 {
			job.HasDeadline = true
			job.Deadline = job.Arrival + base*rng.Int64N(10) + jitter()
			if rng.IntN(10) == 0 {
				job.Deadline = max(0, job.Arrival-base*rng.Int64N(3)-jitter()) // late in every schedule
			}
		}
		p.Jobs = append(p.Jobs, job)
	}
	d := auditDraw{p: p, why: fmt.Sprintf("base %d ms, grain %d ms, per group %v", base, grain, perGroup)}
	switch rng.IntN(5) {
	case 0:
		d.unitMs = base
	case 1:
		d.unitMs = base / 2 // still divides every aligned time
	case 2:
		d.unitMs = 1000 // rounds, or drops 500 ms tasks
	}
	if rng.IntN(10) == 0 {
		switch rng.IntN(3) {
		case 0:
			p.Mode = lowerbound.Fungible
			for x := range p.Nodes {
				p.Nodes[x].Slots = 1
			}
			d.why += ", fungible"
		case 1:
			p.Preemptive = true
			d.why += ", preemptive"
		case 2:
			p.Nodes[0].Group = p.Groups
			d.why += ", a group out of range"
		}
		d.refuse = true
	}
	return d
}

// boundUnit is the unit Bound works in: o.UnitMs, or the gcd of every
// duration when it is at least 1000 ms, else 1000 ms.
func boundUnit(p *lowerbound.Problem, unitMs int64) int64 {
	if unitMs > 0 {
		return unitMs
	}
	var g int64
	for _, job := range p.Jobs {
		for _, t := range slices.Concat(job.Maps, job.Reduces) {
			for _, d := range t.Dur {
				for v := d; v != 0; {
					g, v = v, g%v
				}
			}
		}
	}
	return max(g, 1000)
}

// shorterThanUnit reports whether a task MRCP would keep (of a job with
// maps and reduces) lasts less than u ms on every node with a slot of its
// kind: Bound drops such a task and must say so.
func shorterThanUnit(p *lowerbound.Problem, u int64) bool {
	for _, job := range p.Jobs {
		if len(job.Maps) == 0 || len(job.Reduces) == 0 {
			continue
		}
		for k, ts := range [2][]lowerbound.Task{job.Maps, job.Reduces} {
			for _, t := range ts {
				fastest := int64(math.MaxInt64)
				for _, n := range p.Nodes {
					if [2]int{n.MapSlots, n.ReduceSlots}[k] > 0 {
						fastest = min(fastest, t.Dur[min(n.Group, len(t.Dur)-1)])
					}
				}
				if fastest < u {
					return true
				}
			}
		}
	}
	return false
}

// auditCount is n, or MRBOUND_AUDIT_N when set (the audit's wide runs).
func auditCount(n int) int {
	if v, err := strconv.Atoi(os.Getenv("MRBOUND_AUDIT_N")); err == nil && v > 0 {
		return v
	}
	return n
}

// dumpStream prints p for a failure message.
func dumpStream(p *lowerbound.Problem, unitMs int64) string {
	s := fmt.Sprintf("mode %v groups %d preemptive %v unit %d nodes %+v\n", p.Mode, p.Groups, p.Preemptive, unitMs, p.Nodes)
	for j, job := range p.Jobs {
		s += fmt.Sprintf("job %d: a=%d deadline %v/%d maps %v reduces %v\n", j, job.Arrival, job.HasDeadline, job.Deadline, job.Maps, job.Reduces)
	}
	return s
}

// isMRCPExactly reports whether p is an MRCP instance in units of u
// without rounding or dropping anything: every arrival, duration (on every
// group) and, when deadlines count, deadline a multiple of u; one duration
// per task on every group; every job with maps, reduces and, when
// deadlines count, a deadline.
func isMRCPExactly(p *lowerbound.Problem, u int64, deadlines bool) bool {
	if u < 1 || p.Mode != lowerbound.Fixed || p.Preemptive {
		return false
	}
	for _, job := range p.Jobs {
		if len(job.Maps) == 0 || len(job.Reduces) == 0 || job.Arrival%u != 0 {
			return false
		}
		if deadlines && (!job.HasDeadline || job.Deadline%u != 0) {
			return false
		}
		for _, t := range slices.Concat(job.Maps, job.Reduces) {
			for _, d := range t.Dur {
				if d != t.Dur[0] || d%u != 0 {
					return false
				}
			}
		}
	}
	return true
}

// timeGCD is the gcd of every arrival, deadline and duration of p.
func timeGCD(p *lowerbound.Problem) int64 {
	var g int64
	add := func(v int64) {
		for v != 0 {
			g, v = v, g%v
		}
	}
	for _, job := range p.Jobs {
		add(job.Arrival)
		if job.HasDeadline {
			add(job.Deadline)
		}
		for _, t := range slices.Concat(job.Maps, job.Reduces) {
			for _, d := range t.Dur {
				add(d)
			}
		}
	}
	return g
}

// arrivalOrder lists p's jobs by arrival, ties by index (as Bound does).
func arrivalOrder(p *lowerbound.Problem) []int {
	order := make([]int, len(p.Jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return p.Jobs[order[x]].Arrival < p.Jobs[order[y]].Arrival })
	return order
}

// checkPlacements verifies a schedule of p independently of
// formulations/mrcp: every task placed once on a node with a slot of its
// kind, for its duration on that node's group, no earlier than its job's
// arrival, reduces after all the job's maps, at no instant more tasks of a
// kind on a node than its slots; it returns the schedule's value of m.
func checkPlacements(p *lowerbound.Problem, pl []Placement, m lowerbound.Metric) (float64, error) {
	type key struct {
		job, index int
		reduce     bool
	}
	seen := map[key]bool{}
	completion := make([]int64, len(p.Jobs))
	mapsEnd := make([]int64, len(p.Jobs))
	for j, job := range p.Jobs {
		completion[j], mapsEnd[j] = job.Arrival, job.Arrival
	}
	for _, a := range pl {
		if a.Job < 0 || a.Job >= len(p.Jobs) || a.Node < 0 || a.Node >= len(p.Nodes) {
			return 0, fmt.Errorf("placement %+v outside the problem", a)
		}
		job, node := &p.Jobs[a.Job], p.Nodes[a.Node]
		ts, slots := job.Maps, node.MapSlots
		if a.Reduce {
			ts, slots = job.Reduces, node.ReduceSlots
		}
		k := key{a.Job, a.Index, a.Reduce}
		if a.Index < 0 || a.Index >= len(ts) || seen[k] {
			return 0, fmt.Errorf("placement %+v: no such task, or placed twice", a)
		}
		seen[k] = true
		if slots == 0 {
			return 0, fmt.Errorf("placement %+v on a node without a slot of its kind", a)
		}
		t := ts[a.Index]
		want := t.Dur[min(node.Group, len(t.Dur)-1)]
		if a.End-a.Start != want || a.Start < job.Arrival {
			return 0, fmt.Errorf("placement %+v: lasts %d ms on its node, arrival %d", a, want, job.Arrival)
		}
		completion[a.Job] = max(completion[a.Job], a.End)
		if !a.Reduce {
			mapsEnd[a.Job] = max(mapsEnd[a.Job], a.End)
		}
	}
	tasks := 0
	for _, job := range p.Jobs {
		tasks += len(job.Maps) + len(job.Reduces)
	}
	if len(seen) != tasks {
		return 0, fmt.Errorf("%d tasks placed of %d", len(seen), tasks)
	}
	for _, a := range pl {
		if a.Reduce && a.Start < mapsEnd[a.Job] {
			return 0, fmt.Errorf("reduce %+v starts before its job's maps end at %d", a, mapsEnd[a.Job])
		}
		// Slots: the tasks of the kind on the node running at a.Start
		// (a start is where the count peaks).
		busy := 0
		for _, b := range pl {
			if b.Node == a.Node && b.Reduce == a.Reduce && b.Start <= a.Start && a.Start < b.End {
				busy++
			}
		}
		slots := p.Nodes[a.Node].MapSlots
		if a.Reduce {
			slots = p.Nodes[a.Node].ReduceSlots
		}
		if a.End > a.Start && busy > slots {
			return 0, fmt.Errorf("%d tasks on node %d's %d slots at %d ms", busy, a.Node, slots, a.Start)
		}
	}
	var maxC, total, maxT, late int64
	minA := int64(math.MaxInt64)
	for j, job := range p.Jobs {
		minA = min(minA, job.Arrival)
		maxC = max(maxC, completion[j])
		total += completion[j] - job.Arrival
		maxT = max(maxT, completion[j]-job.Arrival)
		if job.HasDeadline && completion[j] > job.Deadline {
			late++
		}
	}
	switch m {
	case lowerbound.Makespan:
		return float64(maxC - minA), nil
	case lowerbound.TotalTurnaround:
		return float64(total), nil
	case lowerbound.MeanTurnaround:
		return float64(total) / float64(len(p.Jobs)), nil
	case lowerbound.MaxTurnaround:
		return float64(maxT), nil
	case lowerbound.LateJobs:
		return float64(late), nil
	case lowerbound.MRCPProduct:
		return float64(late+1) * float64(maxT), nil
	}
	return 0, fmt.Errorf("no metric %v", m)
}

// sameValue compares metric values that may be means (a total over n).
func sameValue(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// auditStats counts what the audit exercised, so that a path it never
// reaches shows up as a failure rather than as silent coverage.
type auditStats struct {
	draws, refused, shortBounded, windows, windowsStopped, exactWindows, exactStreams, rounded int
	optimumSolved, optimumProven, optimumNil, optimumSkipped, optimumStopped, withLate         int
	fineStopped, splitWindows                                                                  int
	cancelledProven                                                                            bool
}

// auditBound checks Bound on d for 1 job, 2 jobs and all jobs per window
// against opt (the stream's optimum): the late-job and max-turnaround
// bounds never above it, and each window's never above the window's own
// optimum (Exact on the window's jobs), equal to it when the window is
// Exact; a one-window run reported Exact gives the stream's optima, and so
// must a stream that is an MRCP instance exactly when its solves are proven.
func auditBound(t *testing.T, name string, d auditDraw, opt *lowerbound.Optimum, st *auditStats) {
	t.Helper()
	p := d.p
	order := arrivalOrder(p)
	runs := []struct {
		per       int
		limit     solve.Options
		cancelled bool
	}{{1, solve.Options{}, false}, {2, solve.Options{}, false}, {len(p.Jobs), solve.Options{}, false},
		// Stopped solves: their dual bounds must hold too.
		{len(p.Jobs), solve.Options{NodeLimit: 1}, false}, {2, solve.Options{IterationLimit: 1}, false},
		{len(p.Jobs), solve.Options{}, true}}
	for _, run := range runs {
		per := run.per
		what := fmt.Sprintf("%s, %d per window, node limit %d, iteration limit %d, cancelled %v",
			name, per, run.limit.NodeLimit, run.limit.IterationLimit, run.cancelled)
		so := run.limit
		so.Solver = "native"
		ctx := context.Background()
		if run.cancelled {
			ctx = solvertest.Cancelled()
		}
		r, err := Bound(ctx, p, Options{WindowJobs: per, UnitMs: d.unitMs, Solve: so})
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, dumpStream(p, d.unitMs))
		}
		if int64(r.LateJobs) > opt.LateJobs || r.MaxTurnaroundMs > opt.MaxTurnaround {
			t.Fatalf("%s: late ≥ %d, max turnaround ≥ %d ms; optimum %d, %d ms\n%s", what,
				r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround, dumpStream(p, d.unitMs))
		}
		if d.unitMs > 0 && r.UnitMs != d.unitMs {
			t.Fatalf("%s: unit %d, asked for %d", what, r.UnitMs, d.unitMs)
		}
		for _, w := range r.Windows {
			st.windows++
			if w.Parts > 1 {
				st.splitWindows++
			}
			if w.LateStatus != solve.Optimal || w.TurnStatus != solve.Optimal {
				st.windowsStopped++
			}
			sub := *p
			sub.Jobs = nil
			for _, j := range order[w.First : w.Last+1] {
				sub.Jobs = append(sub.Jobs, p.Jobs[j])
			}
			wopt, err := lowerbound.Exact(&sub)
			if err != nil {
				t.Fatalf("%s: window %d–%d: %v", what, w.First, w.Last, err)
			}
			if int64(w.LateJobs) > wopt.LateJobs || w.MaxTurnaroundMs > wopt.MaxTurnaround {
				t.Fatalf("%s: window %d–%d: late ≥ %d, max turnaround ≥ %d ms; its optimum %d, %d ms\n%s", what, w.First, w.Last,
					w.LateJobs, w.MaxTurnaroundMs, wopt.LateJobs, wopt.MaxTurnaround, dumpStream(p, d.unitMs))
			}
			exactly := isMRCPExactly(&sub, r.UnitMs, true)
			if exactly && w.LateStatus == solve.Optimal && w.TurnStatus == solve.Optimal && !w.Exact {
				t.Errorf("%s: window %d–%d is an MRCP instance exactly, proven, but not reported exact", what, w.First, w.Last)
			}
			if w.Exact && !exactly {
				t.Fatalf("%s: window %d–%d reported exact, but something was rounded or dropped\n%s", what, w.First, w.Last, dumpStream(p, d.unitMs))
			}
			if !exactly {
				st.rounded++
			}
			if w.Exact {
				st.exactWindows++
				if int64(w.LateJobs) != wopt.LateJobs || w.MaxTurnaroundMs != wopt.MaxTurnaround {
					t.Fatalf("%s: exact window %d–%d gives late %d, max turnaround %d ms; its optimum %d, %d ms\n%s", what, w.First, w.Last,
						w.LateJobs, w.MaxTurnaroundMs, wopt.LateJobs, wopt.MaxTurnaround, dumpStream(p, d.unitMs))
				}
			}
		}
		if r.Exact != (len(r.Windows) == 1 && r.Windows[0].Exact) {
			t.Errorf("%s: exact %v with %d windows", what, r.Exact, len(r.Windows))
		}
		if r.Exact {
			st.exactStreams++
			if int64(r.LateJobs) != opt.LateJobs || r.MaxTurnaroundMs != opt.MaxTurnaround {
				t.Fatalf("%s: exact, late %d, max turnaround %d ms; optimum %d, %d ms\n%s", what,
					r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround, dumpStream(p, d.unitMs))
			}
		}
	}
}

// auditMaxUnits: auditOptimum solves streams whose horizon is at most this
// many units to the end; longer ones (1-ms data: horizons of 10^4 units,
// whose makespan decisions took minutes, docs/results.md, issue 26 s19wb)
// get auditFineUnits' stopped runs only. The package allows
// maxOptimumUnits.
const auditMaxUnits = 2000

// auditFineUnits runs Optimum on a stream over auditMaxUnits for every
// metric stopped early — at a node limit of 1 and after 200 context checks
// (solvertest.Countdown: deterministic) — which before s20wb did not stop
// the makespan's decisions: the answer must come back with a bound not
// above the optimum, a verified schedule no better than it, and Optimal
// only at the optimum (checkStreamOptimum).
func auditFineUnits(t *testing.T, name string, d auditDraw, opt *lowerbound.Optimum, st *auditStats) {
	t.Helper()
	p := d.p
	for _, m := range optimumMetrics {
		want := opt.Value(m, len(p.Jobs))
		for _, stop := range earlyStops() {
			what := fmt.Sprintf("%s %v (fine units), %s", name, m, stop.name)
			r, err := Optimum(stop.ctx, p, m, Options{UnitMs: d.unitMs, Solve: stop.solve, MaxColumns: 1200})
			if err != nil {
				t.Fatalf("%s: %v\n%s", what, err, dumpStream(p, d.unitMs))
			}
			if r == nil {
				continue
			}
			st.fineStopped++
			checkStreamOptimum(t, what, p, m, r, want)
		}
	}
}

// earlyStop is one way of stopping Optimum long before it could prove
// anything at fine units.
type earlyStop struct {
	name  string
	ctx   context.Context
	solve solve.Options
}

// earlyStops are a node limit of 1 and a context done after 200 checks
// (solvertest.Countdown: deterministic); fresh for every run, as the
// countdown is used up.
func earlyStops() []earlyStop {
	return []earlyStop{
		{"node limit 1", context.Background(), solve.Options{Solver: "native", NodeLimit: 1}},
		{"countdown 200", solvertest.Countdown(200), solve.Options{Solver: "native"}},
	}
}

// optimumMetrics are the metrics Optimum solves.
var optimumMetrics = []lowerbound.Metric{lowerbound.LateJobs, lowerbound.MaxTurnaround, lowerbound.MRCPProduct,
	lowerbound.TotalTurnaround, lowerbound.MeanTurnaround, lowerbound.Makespan}

// auditOptimum checks Optimum on d for every metric it offers against
// opt: it solves exactly the streams that are MRCP instances in its unit,
// never reports a bound above the optimum, and an Optimal answer has the
// optimum as value and bound and a schedule that checkPlacements accepts
// at that value; with the optimum as incumbent (total, mean, makespan) it
// proves the same optimum; stopped at one node or one iteration, or with
// a cancelled context, it still reports no bound above the optimum.
func auditOptimum(t *testing.T, name string, d auditDraw, opt *lowerbound.Optimum, withIncumbent, withLimits bool, st *auditStats) {
	t.Helper()
	p := d.p
	unit := d.unitMs
	if unit <= 0 {
		unit = timeGCD(p)
	}
	if unit >= 1 && spanMs(p)/unit > auditMaxUnits {
		st.optimumSkipped++
		auditFineUnits(t, name, d, opt, st)
		return
	}
	for _, m := range optimumMetrics {
		what := fmt.Sprintf("%s %v", name, m)
		want := opt.Value(m, len(p.Jobs))
		deadlines := m == lowerbound.LateJobs || m == lowerbound.MRCPProduct
		// The turnaround MILP only on models compare would try
		// (simbridge.TurnaroundOptimumColumns): it is weak on long horizons.
		o := Options{UnitMs: d.unitMs, Solve: solve.Options{Solver: "native"}, MaxColumns: 1200}
		so, err := Optimum(context.Background(), p, m, o)
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, dumpStream(p, d.unitMs))
		}
		if so == nil {
			st.optimumNil++
			turnaround := m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround
			if isMRCPExactly(p, unit, deadlines) && spanMs(p)/unit <= maxOptimumUnits && !turnaround {
				t.Errorf("%s: refused a stream that is an MRCP instance in %d ms units\n%s", what, unit, dumpStream(p, d.unitMs))
			}
			continue
		}
		st.optimumSolved++
		if !isMRCPExactly(p, so.UnitMs, deadlines) {
			t.Fatalf("%s: solved in %d ms units a stream that is not an MRCP instance in them\n%s", what, so.UnitMs, dumpStream(p, d.unitMs))
		}
		checkStreamOptimum(t, what, p, m, so, want)
		for x, limit := range []solve.Options{{NodeLimit: 1}, {IterationLimit: 1}, {}} {
			if !withLimits {
				break
			}
			lo := o
			lo.Solve = limit
			lo.Solve.Solver = "native"
			ctx := context.Background()
			if x == 2 {
				ctx = solvertest.Cancelled()
			}
			so, err := Optimum(ctx, p, m, lo)
			if err != nil || so == nil {
				t.Fatalf("%s, node limit %d, iteration limit %d, cancelled %v: %v, %v\n%s",
					what, limit.NodeLimit, limit.IterationLimit, x == 2, so, err, dumpStream(p, d.unitMs))
			}
			checkStreamOptimum(t, fmt.Sprintf("%s, node limit %d, iteration limit %d, cancelled %v",
				what, limit.NodeLimit, limit.IterationLimit, x == 2), p, m, so, want)
			if so.Status != solve.Optimal {
				st.optimumStopped++
			}
			if x == 2 && so.Status == solve.Optimal && !st.cancelledProven {
				st.cancelledProven = true
				t.Logf("%s: proven optimal with a cancelled context", what)
			}
		}
		if withIncumbent && (m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround || m == lowerbound.Makespan) {
			o.Incumbent = want
			so, err := Optimum(context.Background(), p, m, o)
			if err != nil || so == nil {
				t.Fatalf("%s: incumbent at the optimum %v: %v, %v\n%s", what, want, so, err, dumpStream(p, d.unitMs))
			}
			checkStreamOptimum(t, what+" (incumbent at the optimum)", p, m, so, want)
			if so.Status != solve.Optimal {
				t.Errorf("%s: incumbent at the optimum %v: %v", what, want, so.Status)
			}
		}
		if so.Status == solve.Optimal {
			st.optimumProven++
		}
	}
}

// checkStreamOptimum: so's bound is at most want; Optimal means value and
// bound equal want; a schedule is feasible and has the value reported.
func checkStreamOptimum(t *testing.T, what string, p *lowerbound.Problem, m lowerbound.Metric, so *StreamOptimum, want float64) {
	t.Helper()
	if so.Bound > want+1e-9*math.Max(1, want) {
		t.Fatalf("%s: bound %v above the optimum %v\n%s", what, so.Bound, want, dumpStream(p, so.UnitMs))
	}
	if so.Status == solve.Optimal {
		if !so.Verified || !sameValue(so.Value, want) || !sameValue(so.Bound, want) {
			t.Fatalf("%s: optimal, verified %v, value %v, bound %v; enumerated optimum %v\n%s", what,
				so.Verified, so.Value, so.Bound, want, dumpStream(p, so.UnitMs))
		}
	}
	if so.Placements != nil {
		v, err := checkPlacements(p, so.Placements, m)
		if err != nil || !sameValue(v, so.Value) {
			t.Fatalf("%s: schedule %v, value %v, reported %v\n%s", what, err, v, so.Value, dumpStream(p, so.UnitMs))
		}
		if v < want && !sameValue(v, want) {
			t.Fatalf("%s: a feasible schedule of value %v below the enumerated optimum %v\n%s", what, v, want, dumpStream(p, so.UnitMs))
		}
	} else if so.Status == solve.Optimal || !math.IsNaN(so.Value) {
		t.Fatalf("%s: %v, value %v without a schedule", what, so.Status, so.Value)
	}
}

// TestAuditWindowsAndOptimumAgainstExact: the audit's property test on
// wideStream's shapes. Bound (1, 2 and all jobs per window) and Optimum
// (every metric) against lowerbound.Exact: no bound above the optimum, an
// exact window or a proven stream equal to it, every schedule feasible,
// and every draw the package refuses refused as bad input, never a panic.
// MRBOUND_AUDIT_N sets the number of draws (the audit's wide run).
func TestAuditWindowsAndOptimumAgainstExact(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 100
	}
	n = auditCount(n)
	rng := rand.New(rand.NewPCG(26, 19))
	var st auditStats
	for i := range n {
		d := wideStream(rng, lowerbound.ExactMaxTasks)
		name := fmt.Sprintf("draw %d (%s)", i, d.why)
		st.draws++
		if d.refuse {
			st.refused++
			_, err := Bound(context.Background(), d.p, Options{UnitMs: d.unitMs, Solve: solve.Options{Solver: "native"}})
			if !errors.Is(err, badinput.Err) {
				t.Fatalf("%s: Bound gave %v, want bad input\n%s", name, err, dumpStream(d.p, d.unitMs))
			}
			for _, m := range optimumMetrics {
				// Optimum answers nil (not an MRCP instance) or bad input.
				so, err := Optimum(context.Background(), d.p, m, Options{UnitMs: d.unitMs, Solve: solve.Options{Solver: "native"}})
				if so != nil || (err != nil && !errors.Is(err, badinput.Err)) {
					t.Fatalf("%s %v: Optimum gave %+v, %v; want nil or bad input\n%s", name, m, so, err, dumpStream(d.p, d.unitMs))
				}
			}
			continue
		}
		opt, err := lowerbound.Exact(d.p)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, dumpStream(d.p, d.unitMs))
		}
		if opt.LateJobs > 0 {
			st.withLate++
		}
		if shorterThanUnit(d.p, boundUnit(d.p, d.unitMs)) {
			// Bound drops the short tasks (they were refused before
			// s20wb): the same checks, and the drop must be reported.
			st.shortBounded++
			r, err := Bound(context.Background(), d.p, Options{UnitMs: d.unitMs, Solve: solve.Options{Solver: "native"}})
			if err != nil || r.DroppedTasks == 0 || r.Exact {
				t.Fatalf("%s: a task shorter than the unit, Bound gave %+v, %v; want dropped tasks, not exact\n%s", name, r, err, dumpStream(d.p, d.unitMs))
			}
		}
		auditBound(t, name, d, opt, &st)
		auditOptimum(t, name, d, opt, i%3 == 0, i%3 == 1, &st)
	}
	t.Logf("%+v", st)
	if st.refused == 0 || st.shortBounded == 0 || st.exactWindows == 0 || st.exactStreams == 0 || st.rounded == 0 ||
		st.optimumProven == 0 || st.optimumNil == 0 || st.fineStopped == 0 || st.splitWindows == 0 || st.withLate == 0 || st.windowsStopped == 0 || st.optimumStopped == 0 {
		t.Errorf("a path is untested: %+v", st)
	}
}
