package mrcpsched

import (
	"math"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// noDeadline marks a job without a deadline in the current problem.
const noDeadline = math.MaxInt32

// group is a set of identical unstarted tasks of one job (same kind and
// estimate): maps of one job share an integer count per start time, a reduce
// is a group of its own (precedence needs each reduce's own start).
type group struct {
	job   int // index into problem.jobs
	kind  sim.Kind
	dur   int          // estimate, whole seconds (ceil), ≥ 1
	tasks []sim.TaskID // ascending ids
}

// pjob is one arrived, unfinished job of the current problem. Times are in
// whole seconds from now (the problem's origin).
type pjob struct {
	id       int // simulator job id
	arrival  sim.Time
	deadline int // seconds from now; noDeadline if none; may be ≤ 0
	// runMapEnd, runEnd: the latest end of the job's running maps, and of
	// all its running tasks (0 when none), per A-M3.
	runMapEnd, runEnd int
	mapGroups         []int // indices into problem.groups
	redGroups         []int
	maxRed            int // longest unstarted reduce (0 if none)
}

// running is a task in progress: it holds a slot of its node until end.
type running struct {
	task sim.TaskID
	kind sim.Kind
	node int
	end  int // seconds from now, ≥ 1
}

// problem is MRCP's current problem (policies.md §2.4): the arrived,
// unfinished jobs, their unstarted tasks released at now, the running tasks
// fixed on their nodes until max(start + e, now + 1). With every release
// raised to now, the Table 1 objective is (late + 1) · (latest completion −
// now).
type problem struct {
	nowMs  sim.Time
	nowSec int64 // ⌈now⌉ in whole seconds (A-M5)
	jobs   []pjob
	groups []group
	run    []running
	slots  [3][]int    // per kind, per node: slots
	cap    [3]int      // per kind: total slots
	jobOf  map[int]int // simulator job id → index into jobs
	// jobOfTask and dur: each unstarted task's job index and estimate.
	jobOfTask map[sim.TaskID]int
	dur       map[sim.TaskID]int
	anyTask   bool // some unstarted task exists
}

// ceilSec is ⌈ms / 1000⌉ for ms ≥ 0.
func ceilSec(ms sim.Time) int64 { return (int64(ms) + 999) / 1000 }

// snapshot builds the current problem from the simulator's state. jobs are
// the arrived, unfinished job ids.
func snapshot(s *sim.Sim, jobs []int, est func(sim.TaskID) int) *problem {
	p := &problem{nowMs: s.Now(), nowSec: ceilSec(s.Now()), jobOf: make(map[int]int, len(jobs)),
		jobOfTask: map[sim.TaskID]int{}, dur: map[sim.TaskID]int{}}
	c := s.Cluster()
	for k := range p.slots {
		p.slots[k] = make([]int, len(c.Nodes))
	}
	for x, n := range c.Nodes {
		p.slots[sim.Map][x], p.slots[sim.Reduce][x] = n.MapSlots, n.ReduceSlots
		p.cap[sim.Map] += n.MapSlots
		p.cap[sim.Reduce] += n.ReduceSlots
	}
	origin := sim.Time(p.nowSec * 1000)
	for _, j := range jobs {
		v := s.Job(j)
		pj := pjob{id: j, arrival: v.Arrival, deadline: noDeadline}
		if v.Deadline != sim.NoDeadline {
			// late iff C > d: with C in whole seconds from origin, C > d ⇔
			// C > ⌊(d − origin)/1000⌋.
			pj.deadline = int(math.Floor(float64(v.Deadline-origin) / 1000))
		}
		p.jobOf[j] = len(p.jobs)
		p.jobs = append(p.jobs, pj)
	}
	for _, id := range s.Running() {
		t := s.Task(id)
		ji, ok := p.jobOf[t.Job]
		if !ok {
			continue
		}
		e := sim.Time(est(id)) * 1000
		end := max(int(ceilSec(max(t.Launch+e-origin, 0))), 1)
		p.run = append(p.run, running{task: id, kind: t.Kind, node: t.Node, end: end})
		pj := &p.jobs[ji]
		pj.runEnd = max(pj.runEnd, end)
		if t.Kind == sim.Map {
			pj.runMapEnd = max(pj.runMapEnd, end)
		}
	}
	slices.SortFunc(p.run, func(a, b running) int { return int(a.task - b.task) })
	for ji := range p.jobs {
		pj := &p.jobs[ji]
		v := s.Job(pj.id)
		// pending calls f with each unstarted task of [first, first+n) and
		// its estimate, after recording both.
		pending := func(first sim.TaskID, n int, f func(id sim.TaskID, d int)) {
			for i := range n {
				id := first + sim.TaskID(i)
				if s.Task(id).State == sim.TaskPending {
					d := est(id)
					p.jobOfTask[id], p.dur[id] = ji, d
					f(id, d)
				}
			}
		}
		byDur := map[int]int{}
		pending(v.FirstMap, v.NumMaps, func(id sim.TaskID, d int) {
			g, ok := byDur[d]
			if !ok {
				g = len(p.groups)
				byDur[d] = g
				p.groups = append(p.groups, group{job: ji, kind: sim.Map, dur: d})
				pj.mapGroups = append(pj.mapGroups, g)
			}
			p.groups[g].tasks = append(p.groups[g].tasks, id)
		})
		pending(v.FirstRed, v.NumReduces, func(id sim.TaskID, d int) {
			pj.redGroups = append(pj.redGroups, len(p.groups))
			pj.maxRed = max(pj.maxRed, d)
			p.groups = append(p.groups, group{job: ji, kind: sim.Reduce, dur: d, tasks: []sim.TaskID{id}})
		})
		p.anyTask = p.anyTask || len(pj.mapGroups)+len(pj.redGroups) > 0
	}
	return p
}

// redEST is the earliest start of job j's reduces: after its running maps
// and, when maps are unstarted, after the shortest of them.
func (p *problem) redEST(j int) int {
	pj := &p.jobs[j]
	e := pj.runMapEnd
	for _, g := range pj.mapGroups {
		e = max(e, p.groups[g].dur)
	}
	return e
}

// busy is the number of slots of kind k held by running tasks at instant τ
// (those with end > τ).
func (p *problem) busy(k sim.Kind, tau int) int {
	n := 0
	for _, r := range p.run {
		if r.kind == k && r.end > tau {
			n++
		}
	}
	return n
}

// lowerBounds returns a lower bound on the latest completion (Z, from now)
// valid for every schedule, and the jobs that are late in every schedule.
//
//	Z ≥ C_j ≥ max(runEnd_j, mapEnd_j + maxRed_j) per job, mapEnd_j ≥ the
//	job's map work spread over the free map slots;
//	Z ≥ ⌈(Σ running map rest + unstarted map work) / map slots⌉ + the
//	shortest reduce of the jobs that still have unstarted maps; likewise
//	Z ≥ ⌈reduce work / reduce slots⌉.
func (p *problem) lowerBounds() (zlb int, late []bool) {
	late = make([]bool, len(p.jobs))
	var work [3]int
	for _, r := range p.run {
		work[r.kind] += r.end
	}
	minRed := math.MaxInt
	for _, g := range p.groups {
		work[g.kind] += g.dur * len(g.tasks)
	}
	for j := range p.jobs {
		pj := &p.jobs[j]
		mw, longest := 0, 0
		for _, g := range pj.mapGroups {
			mw += p.groups[g].dur * len(p.groups[g].tasks)
			longest = max(longest, p.groups[g].dur)
		}
		mapEnd := pj.runMapEnd
		if len(pj.mapGroups) > 0 {
			mapEnd = max(mapEnd, longest, ceilDiv(mw+pj.runMapEnd, max(p.cap[sim.Map], 1)))
		}
		if len(pj.mapGroups) > 0 || pj.runMapEnd > 0 {
			// this job may own the last map to end: its reduces follow
			if len(pj.redGroups) > 0 {
				minRed = min(minRed, minRedOf(p, pj))
			} else {
				minRed = 0
			}
		}
		cj := max(pj.runEnd, mapEnd+pj.maxRed)
		zlb = max(zlb, cj)
		late[j] = cj > pj.deadline
	}
	if minRed == math.MaxInt {
		minRed = 0
	}
	if work[sim.Map] > 0 && p.cap[sim.Map] > 0 {
		zlb = max(zlb, ceilDiv(work[sim.Map], p.cap[sim.Map])+minRed)
	}
	if work[sim.Reduce] > 0 && p.cap[sim.Reduce] > 0 {
		zlb = max(zlb, ceilDiv(work[sim.Reduce], p.cap[sim.Reduce]))
	}
	return max(zlb, p.twoStageBound()), late
}

// twoStageBound is a fluid bound over the jobs with unstarted reduces, n of
// them. Order them by when their maps end: the k-th to end does so no
// earlier than T_k, the time the map slots (busy with the running maps until
// their ends) can absorb the k smallest unstarted map works, nor than the
// k-th smallest own map end; the jobs k…n then still need their reduces,
// at least the n−k+1 shortest of them, on the reduce slots after T_k
// (running reduces hold theirs until their ends). So for every k
//
//	Z ≥ T_k + fill_r(T_k, the n−k+1 shortest reduces)
//
// where fill(t, W) is how long after t the slots of the kind take to absorb
// the work W.
func (p *problem) twoStageBound() int {
	if p.cap[sim.Map] == 0 || p.cap[sim.Reduce] == 0 {
		return 0
	}
	var mw, mc, own, red []int
	pm := math.MaxInt // shortest unstarted map
	for _, g := range p.groups {
		if g.kind == sim.Map {
			pm = min(pm, g.dur)
		}
	}
	for j := range p.jobs {
		pj := &p.jobs[j]
		if len(pj.redGroups) == 0 {
			continue
		}
		w, cnt, longest := 0, 0, 0
		for _, g := range pj.mapGroups {
			w += p.groups[g].dur * len(p.groups[g].tasks)
			cnt += len(p.groups[g].tasks)
			longest = max(longest, p.groups[g].dur)
		}
		mw = append(mw, w)
		mc = append(mc, cnt)
		own = append(own, max(pj.runMapEnd, longest))
		// a job's reduces are counted by its shortest one (one per job
		// keeps the bound valid however the reduces are spread)
		red = append(red, minRedOf(p, pj))
	}
	n := len(mw)
	if n == 0 {
		return 0
	}
	slices.Sort(mw)
	slices.Sort(mc)
	slices.Sort(own)
	slices.Sort(red)
	var mapBusy, redBusy []int
	for _, r := range p.run {
		if r.kind == sim.Map {
			mapBusy = append(mapBusy, r.end)
		} else {
			redBusy = append(redBusy, r.end)
		}
	}
	lb, sum, cnt := 0, 0, 0
	for k := 1; k <= n; k++ {
		sum += mw[k-1]
		cnt += mc[k-1]
		tk := max(fill(mapBusy, p.cap[sim.Map], 0, sum), own[k-1])
		if cnt > 0 {
			tk = max(tk, listEnd(mapBusy, p.cap[sim.Map], 0, cnt, pm))
		}
		rw := 0
		for _, d := range red[:n-k+1] {
			rw += d
		}
		lb = max(lb, fill(redBusy, p.cap[sim.Reduce], tk, rw), listEnd(redBusy, p.cap[sim.Reduce], tk, n-k+1, red[0]))
	}
	return lb
}

// listEnd is when the last of count tasks of duration d ends when each goes
// to the earliest free of c slots (those in busy held until the given ends,
// none before t). With tasks at least d long this bounds from below the
// count-th completion of any schedule: among equal tasks the greedy makes
// every i-th completion as early as possible.
func listEnd(busy []int, c, t, count, d int) int {
	free := make([]int, c)
	for i := range free {
		free[i] = t
		if i < len(busy) {
			free[i] = max(t, busy[i])
		}
	}
	end := t
	for range count {
		i := 0
		for k := range free {
			if free[k] < free[i] {
				i = k
			}
		}
		free[i] += d
		end = free[i]
	}
	return end
}

// fill is the least integer time T ≥ t by which slots (c of them, those in
// busy held until the given ends) can absorb work w started no earlier than t:
// Σ_slots (T − max(t, free_s))⁺ ≥ w.
func fill(busy []int, c, t, w int) int {
	if w <= 0 {
		return t
	}
	free := make([]int, c)
	for i := range free {
		free[i] = t
		if i < len(busy) {
			free[i] = max(t, busy[i])
		}
	}
	slices.Sort(free)
	// add slots one by one while the next becomes free before T
	acc := 0
	for i := 0; i < c; i++ {
		acc += free[i]
		// T with the first i+1 slots: (i+1)·T − acc ≥ w
		T := ceilDiv(w+acc, i+1)
		if i+1 == c || T <= free[i+1] {
			return T
		}
	}
	return t
}

func minRedOf(p *problem, pj *pjob) int {
	m := math.MaxInt
	for _, g := range pj.redGroups {
		m = min(m, p.groups[g].dur)
	}
	return m
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// lateLowerBound returns a lower bound on the number of late jobs of every
// schedule: the jobs of late (late in every schedule) plus, per slot kind,
// the fewest jobs the fluid relaxation of mooreHodgson must leave late.
func (p *problem) lateLowerBound(late []bool) int {
	fixed := 0
	for _, l := range late {
		if l {
			fixed++
		}
	}
	_, dm := p.mooreHodgson(sim.Map, late)
	_, dr := p.mooreHodgson(sim.Reduce, late)
	return fixed + max(dm, dr)
}

// mooreHodgson solves a fluid relaxation of "fewest late jobs" on the slots
// of kind k. A job on time ends by d_j, so its unstarted maps end by D_j =
// d_j − (its longest unstarted reduce) and its unstarted reduces by D_j =
// d_j; the work w_j of the on-time jobs with D_j ≤ t must then fit in the
// slot time of the kind free before t,
//
//	Σ_{j on time, D_j ≤ t} w_j ≤ cap(t) = Σ_slots (t − busy_s)⁺,
//
// with busy_s the end of the running task holding slot s (0 when free).
// Ordered by D_j, these are the conditions of one machine with deadlines
// cap(D_j) (nondecreasing in D_j), whose most on-time jobs Moore and
// Hodgson's rule finds exactly: add the jobs by D_j and, whenever the total
// passes cap(D_j), drop the largest work so far. It returns the jobs kept on
// time in order of D_j (jobs of late and jobs without a deadline excluded)
// and how many were dropped, a lower bound on the late jobs among the others.
func (p *problem) mooreHodgson(k sim.Kind, late []bool) (kept []int, dropped int) {
	free := make([]int, p.cap[k])
	i := 0
	for _, r := range p.run {
		if r.kind == k && i < len(free) {
			free[i] = r.end // running tasks hold slots of their kind
			i++
		}
	}
	capAt := func(t int) int {
		c := 0
		for _, f := range free {
			c += max(t-f, 0)
		}
		return c
	}
	type item struct{ job, due, work int }
	var items []item
	for j := range p.jobs {
		pj := &p.jobs[j]
		if late[j] || pj.deadline == noDeadline {
			continue
		}
		it := item{job: j, due: pj.deadline}
		gs := pj.redGroups
		if k == sim.Map {
			gs = pj.mapGroups
			it.due -= pj.maxRed
		}
		for _, g := range gs {
			it.work += p.groups[g].dur * len(p.groups[g].tasks)
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.due - b.due })
	var on []item
	total := 0
	for _, it := range items {
		on = append(on, it)
		total += it.work
		if total > capAt(it.due) {
			big := 0
			for x := range on {
				if on[x].work > on[big].work {
					big = x
				}
			}
			total -= on[big].work
			on = slices.Delete(on, big, big+1)
			dropped++
		}
	}
	for _, it := range on {
		kept = append(kept, it.job)
	}
	return kept, dropped
}
