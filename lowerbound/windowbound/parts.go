package windowbound

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// optimumInParts is Optimum for a stream that gapParts cuts at idle gaps
// (parts in arrival order, at least two). Each part is solved as a stream
// of its own (its own unit, origin and 50,000-unit limit) and the parts'
// schedules, each left-shifted so that it ends before the next part's
// first arrival, are one schedule of the stream, checked whole
// (checkStream). The optima combine as docs/bounds.md §10 shows: the
// sum for late jobs and the total (and mean) turnaround, the maximum for
// the maximum turnaround, and for the makespan the last part's plus its
// first arrival's offset from the stream's, the earlier parts needing only
// a schedule (the greedy one). The MRCP product (K+1)·Z is not a function
// of the parts' optimal products — a part may trade a late job for a
// shorter turnaround — so it is not solved in parts (nil). Any part stopped
// by a limit leaves the combination of the parts' bounds, never an
// optimum. It returns nil when a part is not an MRCP instance exactly (or
// its turnaround model is over o.MaxColumns), before anything is solved.
func optimumInParts(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options, parts [][]int) (*StreamOptimum, error) {
	if m == lowerbound.MRCPProduct {
		return nil, nil
	}
	t0 := time.Now()
	pm := m // the metric each part is solved for
	if m == lowerbound.MeanTurnaround {
		pm = lowerbound.TotalTurnaround
	}
	first := p.Jobs[parts[0][0]].Arrival
	last := len(parts) - 1
	offset := p.Jobs[parts[last][0]].Arrival - first // the makespan's, ms
	type piece struct {
		q  lowerbound.Problem // the part alone; its job i is p's jobs[i]
		o  Options
		st *streamInstance
	}
	pieces := make([]piece, len(parts))
	var unit int64
	for i, part := range parts {
		pc := &pieces[i]
		pc.q = *p
		pc.q.Jobs = make([]lowerbound.Job, len(part))
		for x, j := range part {
			pc.q.Jobs[x] = p.Jobs[j]
		}
		// A stream's incumbent says nothing on one part of a sum; the
		// makespan's is the offset plus the last part's (§10).
		pc.o = o
		pc.o.Incumbent = 0
		if m == lowerbound.Makespan && i == last && o.Incumbent > 0 {
			if o.Incumbent <= float64(offset) {
				return nil, fmt.Errorf("windowbound: an incumbent makespan of %g ms is not above the last part's offset %d ms", o.Incumbent, offset)
			}
			pc.o.Incumbent = o.Incumbent - float64(offset)
		}
		st, err := prepare(&pc.q, pm, pc.o)
		if st == nil || err != nil || tooManyColumns(st, pc.o) {
			return nil, err
		}
		pc.st = st
		unit = gcd(unit, st.unit)
	}
	objective := pieces[0].st.mo.Objective.Kind.String()
	if m == lowerbound.Makespan {
		objective = "makespan (late-count decisions)"
	}
	so := &StreamOptimum{Metric: m, UnitMs: unit, Objective: fmt.Sprintf("%s, in %d parts at idle gaps", objective, len(parts)),
		Status: solve.Optimal, Value: math.NaN(), Parts: len(parts)}
	var pls []Placement
	have := true    // every part has a checked schedule
	var bound int64 // the parts' bounds combined: jobs, or ms (the total for the mean)
	for i := range pieces {
		pc := &pieces[i]
		var sub *StreamOptimum
		if m != lowerbound.Makespan || i == last {
			po := pc.o
			if o.Solve.TimeLimit > 0 {
				po.Solve.TimeLimit = o.Solve.TimeLimit - time.Since(t0)
			}
			if o.Solve.TimeLimit > 0 && po.Solve.TimeLimit <= 0 {
				// The time is spent: this part bounds nothing (0) and
				// keeps the greedy schedule.
				if so.Status == solve.Optimal {
					so.Status = solve.TimeLimit
				}
			} else {
				var err error
				if sub, err = solvePrepared(ctx, &pc.q, pm, po, pc.st); err != nil {
					return nil, err
				}
				if sub.Status != solve.Optimal && so.Status == solve.Optimal {
					so.Status = sub.Status
				}
				// Every part's bound is a whole number of ms (jobs).
				b := int64(math.Round(sub.Bound))
				switch m {
				case lowerbound.MaxTurnaround:
					bound = max(bound, b)
				case lowerbound.Makespan:
					bound = offset + b
				default:
					bound += b
				}
			}
		}
		var own []Placement
		if sub != nil && sub.Placements != nil && sub.Verified {
			own = sub.Placements
		} else {
			own = greedyPlacements(pc.st)
		}
		if own == nil {
			have = false
			continue
		}
		for k := range own {
			own[k].Job = parts[i][own[k].Job]
		}
		leftShift(p, own)
		pls = append(pls, own...)
	}
	so.Wall = time.Since(t0)
	n := int64(1)
	if m == lowerbound.MeanTurnaround {
		n = int64(len(p.Jobs))
	}
	so.Bound = float64(bound) / float64(n)
	if !have {
		if so.Status == solve.Optimal {
			so.Status = solve.StatusUnknown // no schedule to show the optimum: cannot happen
		}
		return so, nil
	}
	if err := checkStream(p, pls); err != nil {
		// The parts' schedules, each checked, fail together: a bug
		// somewhere; claim nothing, as Optimum does for a rejected schedule.
		so.Status, so.Bound = solve.StatusUnknown, 0
		return so, nil
	}
	late, maxT, total, makespan := streamValues(p, pls)
	value := map[lowerbound.Metric]int64{lowerbound.LateJobs: int64(late), lowerbound.MaxTurnaround: maxT,
		lowerbound.TotalTurnaround: total, lowerbound.MeanTurnaround: total, lowerbound.Makespan: makespan}[m]
	if value < bound {
		return nil, fmt.Errorf("windowbound: the parts' schedules give %d, below the %d their bounds prove", value, bound)
	}
	if so.Status == solve.Optimal && value != bound {
		return nil, fmt.Errorf("windowbound: the parts' optima combine to %d, their schedules to %d", bound, value)
	}
	so.Value = float64(value) / float64(n)
	if so.Status == solve.Optimal {
		so.Bound = so.Value
	}
	so.LateJobs, so.MaxTurnaroundMs, so.Verified, so.Placements = late, maxT, true, pls
	return so, nil
}

// greedyPlacements is the greedy schedule of st's instance in arrival
// order, once formulations/mrcp's checker passes it (else nil), in the
// problem's terms (st.jobs' indices).
func greedyPlacements(st *streamInstance) []Placement {
	order := make([]int, len(st.in.Jobs))
	for i := range order {
		order[i] = i
	}
	g := mrcp.Greedy(st.in, order)
	if mrcp.Check(st.in, g) != nil {
		return nil
	}
	return placements(g, st.jobs, st.unit, st.origin)
}

// leftShift moves every task of pls, a schedule of some of p's jobs, to the
// earliest start at which its job has arrived, its job's maps are done (a
// reduce) and its node has a free slot of its kind throughout, taking the
// tasks in start order. No task starts later: at its old start s every task
// already moved that runs at any t ≥ s ran at t before (it started no later
// and is no longer), so s is still free. The earliest start is its job's
// arrival, its maps' end or the end of a task already moved on its node (a
// free stretch only begins there), so every task starts at an arrival or
// right after another task of pls, and the schedule ends by the latest
// arrival plus the sum of the durations — before the next part's first
// arrival (gapParts; docs/bounds.md §10).
func leftShift(p *lowerbound.Problem, pls []Placement) {
	sort.SliceStable(pls, func(a, b int) bool { return pls[a].Start < pls[b].Start })
	type lane struct {
		node   int
		reduce bool
	}
	placed := map[lane][]Placement{}
	mapsEnd := map[int]int64{}
	for k := range pls {
		pl := &pls[k]
		l := lane{pl.Node, pl.Reduce}
		slots := p.Nodes[pl.Node].MapSlots
		if pl.Reduce {
			slots = p.Nodes[pl.Node].ReduceSlots
		}
		lo := p.Jobs[pl.Job].Arrival
		if pl.Reduce {
			lo = max(lo, mapsEnd[pl.Job]) // the maps started earlier, so are moved
		}
		d := pl.End - pl.Start
		free := func(s int64) bool {
			// The most tasks running at once in [s, s+d) is reached at s or
			// at a start inside it.
			at := []int64{s}
			for _, q := range placed[l] {
				if q.Start > s && q.Start < s+d {
					at = append(at, q.Start)
				}
			}
			for _, t := range at {
				busy := 0
				for _, q := range placed[l] {
					if q.Start <= t && t < q.End {
						busy++
					}
				}
				if busy >= slots {
					return false
				}
			}
			return true
		}
		best := pl.Start // free, as argued above
		if lo < best && free(lo) {
			best = lo
		}
		for _, q := range placed[l] {
			if q.End >= lo && q.End < best && free(q.End) {
				best = q.End
			}
		}
		pl.Start, pl.End = best, best+d
		placed[l] = append(placed[l], *pl)
		if !pl.Reduce {
			mapsEnd[pl.Job] = max(mapsEnd[pl.Job], pl.End)
		}
	}
}

// checkStream checks pls as a schedule of every task of p, on p's own
// terms (independently of formulations/mrcp): each task placed once, on a
// node with a slot of its kind, for its duration on that node's group, not
// before its job's arrival, reduces after all of the job's maps, and no
// node's slots of a kind over-full at any instant.
func checkStream(p *lowerbound.Problem, pls []Placement) error {
	type ref struct {
		job, index int
		reduce     bool
	}
	seen := map[ref]bool{}
	mapsEnd := make([]int64, len(p.Jobs))
	reducesStart := make([]int64, len(p.Jobs))
	for j := range reducesStart {
		reducesStart[j] = math.MaxInt64
	}
	type event struct {
		at    int64
		delta int
	}
	lanes := map[[2]int][]event{}
	for _, pl := range pls {
		if pl.Job < 0 || pl.Job >= len(p.Jobs) || pl.Node < 0 || pl.Node >= len(p.Nodes) {
			return fmt.Errorf("windowbound: a task of job %d on node %d, out of range", pl.Job, pl.Node)
		}
		job, node := &p.Jobs[pl.Job], &p.Nodes[pl.Node]
		tasks, slots, kind := job.Maps, node.MapSlots, 0
		if pl.Reduce {
			tasks, slots, kind = job.Reduces, node.ReduceSlots, 1
		}
		r := ref{pl.Job, pl.Index, pl.Reduce}
		switch {
		case pl.Index < 0 || pl.Index >= len(tasks):
			return fmt.Errorf("windowbound: job %d has no task %d of its kind", pl.Job, pl.Index)
		case seen[r]:
			return fmt.Errorf("windowbound: task %d of job %d placed twice", pl.Index, pl.Job)
		case slots < 1:
			return fmt.Errorf("windowbound: task %d of job %d on node %d, which has no slot of its kind", pl.Index, pl.Job, pl.Node)
		case pl.Start < job.Arrival:
			return fmt.Errorf("windowbound: task %d of job %d starts at %d ms, before its arrival %d", pl.Index, pl.Job, pl.Start, job.Arrival)
		}
		seen[r] = true
		dur := tasks[pl.Index].Dur
		if want := dur[min(node.Group, len(dur)-1)]; pl.End-pl.Start != want {
			return fmt.Errorf("windowbound: task %d of job %d runs %d ms, not its %d", pl.Index, pl.Job, pl.End-pl.Start, want)
		}
		if pl.Reduce {
			reducesStart[pl.Job] = min(reducesStart[pl.Job], pl.Start)
		} else {
			mapsEnd[pl.Job] = max(mapsEnd[pl.Job], pl.End)
		}
		l := [2]int{pl.Node, kind}
		lanes[l] = append(lanes[l], event{pl.Start, 1}, event{pl.End, -1})
	}
	for j := range p.Jobs {
		job := &p.Jobs[j]
		for i := range job.Maps {
			if !seen[ref{j, i, false}] {
				return fmt.Errorf("windowbound: map %d of job %d not placed", i, j)
			}
		}
		for i := range job.Reduces {
			if !seen[ref{j, i, true}] {
				return fmt.Errorf("windowbound: reduce %d of job %d not placed", i, j)
			}
		}
		if reducesStart[j] < mapsEnd[j] {
			return fmt.Errorf("windowbound: job %d's reduce starts at %d ms, before its maps end at %d", j, reducesStart[j], mapsEnd[j])
		}
	}
	for l, ev := range lanes {
		// Ends before starts at the same instant: [s, e) intervals.
		sort.Slice(ev, func(a, b int) bool { return ev[a].at < ev[b].at || (ev[a].at == ev[b].at && ev[a].delta < ev[b].delta) })
		slots := [2]int{p.Nodes[l[0]].MapSlots, p.Nodes[l[0]].ReduceSlots}[l[1]]
		busy := 0
		for _, e := range ev {
			if busy += e.delta; busy > slots {
				return fmt.Errorf("windowbound: node %d runs %d tasks of a kind at %d ms, with %d slots", l[0], busy, e.at, slots)
			}
		}
	}
	return nil
}

// streamValues are the late count, maximum and total turnaround and the
// makespan (ms) of pls, a schedule of every task of p: a job completes at
// its last task's end.
func streamValues(p *lowerbound.Problem, pls []Placement) (late int, maxT, total, makespan int64) {
	done := make([]int64, len(p.Jobs))
	for _, pl := range pls {
		done[pl.Job] = max(done[pl.Job], pl.End)
	}
	first, end := int64(math.MaxInt64), int64(0)
	for j := range p.Jobs {
		job := &p.Jobs[j]
		if job.HasDeadline && done[j] > job.Deadline {
			late++
		}
		t := done[j] - job.Arrival
		maxT, total = max(maxT, t), total+t
		first, end = min(first, job.Arrival), max(end, done[j])
	}
	return late, maxT, total, end - first
}
