package check

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/mrbound/mrbound/sim"
)

// maxViolations caps the report: the first ones say enough.
const maxViolations = 20

// metricTol is the relative tolerance for recomputed float metrics (they
// are sums of the same integers in another order).
const metricTol = 1e-9

// ErrViolation is wrapped by a failed verification.
var ErrViolation = errors.New("check: trace violates the workload")

// checker holds per-task state in compact flat arrays (int32 indices, one
// allocation each, no per-task slices) so that verifying a trace of tens of
// millions of tasks costs a few dozen bytes per task beside the trace itself.
type checker struct {
	w     *sim.Workload
	res   *sim.Result
	opt   sim.Options
	out   []string
	jobOf []int32 // task id → job; kind and index follow from first
	first []int   // job → first task id
}

// segments lists trace indices grouped by a key (a task or a node) in
// compressed rows: the key k's segments are list[start[k]:start[k+1]], in
// trace order.
type segments struct {
	start []int32
	list  []int32
}

func (g *segments) of(k int) []int32 { return g.list[g.start[k]:g.start[k+1]] }

// group builds the rows of n keys from key(i) for each trace index i; a
// negative key leaves the segment out.
func group(n, m int, key func(i int) int) segments {
	g := segments{start: make([]int32, n+1)}
	for i := range m {
		if k := key(i); k >= 0 {
			g.start[k+1]++
		}
	}
	for k := range n {
		g.start[k+1] += g.start[k]
	}
	g.list = make([]int32, g.start[n])
	fill := slices.Clone(g.start[:n])
	for i := range m {
		if k := key(i); k >= 0 {
			g.list[fill[k]] = int32(i)
			fill[k]++
		}
	}
	return g
}

func (c *checker) fail(format string, a ...any) {
	if len(c.out) < maxViolations {
		c.out = append(c.out, fmt.Sprintf(format, a...))
	}
}

// Verify checks res against w. It returns nil when the run is valid, else an
// error wrapping ErrViolation that lists the first violations.
func Verify(w *sim.Workload, res *sim.Result) error {
	c := &checker{w: w, res: res, opt: res.Options}
	c.number()
	segs := c.segmentsByTask()
	if len(c.out) == 0 {
		completion := c.taskLives(segs)
		arrival := c.jobs(completion)
		c.releases(arrival)
		c.capacity()
		c.reduces(segs)
		c.locality()
		c.metrics(arrival)
	}
	if len(c.out) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d violation(s)", len(c.out))
	if len(c.out) == maxViolations {
		msg = fmt.Sprintf("at least %d violations", maxViolations)
	}
	errs := []error{fmt.Errorf("%w: %s", ErrViolation, msg)}
	for _, v := range c.out {
		errs = append(errs, errors.New(v))
	}
	return errors.Join(errs...)
}

func (c *checker) number() {
	c.jobOf = make([]int32, 0, c.w.NumTasks())
	c.first = make([]int, 0, len(c.w.Jobs))
	for j, job := range c.w.Jobs {
		c.first = append(c.first, len(c.jobOf))
		for range len(job.Maps) + len(job.Reduces) {
			c.jobOf = append(c.jobOf, int32(j))
		}
	}
	if len(c.res.Jobs) != len(c.w.Jobs) {
		c.fail("result has %d jobs, workload %d", len(c.res.Jobs), len(c.w.Jobs))
	}
}

// kindIndex is task t's kind and index within its kind: a job's maps come
// first, then its reduces.
func (c *checker) kindIndex(t int) (sim.Kind, int) {
	j := c.jobOf[t]
	i := t - c.first[j]
	if n := len(c.w.Jobs[j].Maps); i >= n {
		return sim.Reduce, i - n
	}
	return sim.Map, i
}

func (c *checker) spec(t int) *sim.TaskSpec {
	job := &c.w.Jobs[c.jobOf[t]]
	k, i := c.kindIndex(t)
	if k == sim.Reduce {
		return &job.Reduces[i]
	}
	return &job.Maps[i]
}

// segmentsByTask validates each segment's fields and groups segment indices
// by task, in trace order (which is time order per task).
func (c *checker) segmentsByTask() segments {
	tr := c.res.Trace
	for i, a := range tr {
		t := int(a.Task)
		if t < 0 || t >= len(c.jobOf) {
			c.fail("trace[%d]: no task %d", i, t)
			continue
		}
		kind, index := c.kindIndex(t)
		switch {
		case a.Job != c.jobOf[t] || a.Kind != kind || int(a.Index) != index:
			c.fail("trace[%d]: task %d is job %d %s %d, not job %d %s %d", i, t, c.jobOf[t], kind, index, a.Job, a.Kind, a.Index)
		case a.Node < 0 || int(a.Node) >= len(c.w.Cluster.Nodes):
			c.fail("trace[%d]: no node %d", i, a.Node)
		case a.End >= 0 && !(a.Launch <= a.Start && a.Start <= a.End):
			c.fail("trace[%d] (task %d): launch %d, start %d, end %d out of order", i, t, a.Launch, a.Start, a.End)
		}
	}
	return group(len(c.jobOf), len(tr), func(i int) int {
		if t := int(tr[i].Task); t >= 0 && t < len(c.jobOf) {
			return t
		}
		return -1
	})
}

// taskLives checks each task's sequence of segments and returns its
// completion time (-1 if it never completed).
func (c *checker) taskLives(segs segments) []sim.Time {
	completion := make([]sim.Time, len(c.jobOf))
	for t := range completion {
		list := segs.of(t)
		completion[t] = -1
		var worked sim.Time
		prevEnd := sim.Time(math.MinInt64)
		prev := sim.OutcomeUnknown
		prevNode := int32(-1)
		for k, i := range list {
			a := c.res.Trace[i]
			if a.Launch < prevEnd {
				c.fail("task %d: segment at %d ms overlaps the previous one (ended %d ms)", t, a.Launch, prevEnd)
			}
			switch prev {
			case sim.Completed:
				c.fail("task %d: runs again after completing", t)
			case sim.Suspended:
				if !a.Resumed || a.Node != prevNode {
					c.fail("task %d: after a suspension on node %d it must resume there (got node %d, resumed=%v)", t, prevNode, a.Node, a.Resumed)
				}
			case sim.OutcomeUnknown:
				if k > 0 {
					c.fail("task %d: a segment follows one that never ended", t)
				}
			default:
				if a.Resumed {
					c.fail("task %d: resumed after a kill", t)
				}
			}
			if !a.Resumed {
				worked = 0
			}
			if a.End >= 0 {
				worked += a.End - a.Start
			}
			switch a.Outcome {
			case sim.Completed:
				if worked != a.Duration {
					c.fail("task %d: completed after %d ms of work, its duration is %d ms", t, worked, a.Duration)
				}
				completion[t] = a.End
			case sim.Killed:
				worked = 0
			}
			if a.Outcome == sim.Suspended && worked > a.Duration {
				c.fail("task %d: suspended after %d ms of work, more than its duration %d ms", t, worked, a.Duration)
			}
			prev, prevEnd, prevNode = a.Outcome, max(a.End, a.Launch), a.Node
		}
	}
	return completion
}

// jobs recomputes each job's arrival and completion and compares them with
// the reported outcomes; it returns the arrivals (-1 = never arrived).
func (c *checker) jobs(completion []sim.Time) []sim.Time {
	finished := func(j int) (bool, sim.Time) {
		n := len(c.w.Jobs[j].Maps) + len(c.w.Jobs[j].Reduces)
		last := sim.Time(-1)
		for t := c.first[j]; t < c.first[j]+n; t++ {
			if completion[t] < 0 {
				return false, last
			}
			last = max(last, completion[t])
		}
		return true, last
	}
	return jobOutcomes(c.w, c.res, finished, func(_, _ int, format string, a ...any) { c.fail(format, a...) })
}

// jobOutcomes is the job check both forms share: each arrived job's
// arrival (a chained job's is its parent's completion) and, from finished
// (all its tasks completed, and the last completion), its done flag and
// completion are compared with res.Jobs. fail gets the job and which
// comparison (0 done or completion, 1 arrival). It returns the arrivals
// (-1 = never arrived).
func jobOutcomes(w *sim.Workload, res *sim.Result, finished func(j int) (bool, sim.Time), fail func(j, which int, format string, a ...any)) []sim.Time {
	arrival := make([]sim.Time, len(w.Jobs))
	done := make([]sim.Time, len(w.Jobs))
	for j, job := range w.Jobs {
		arrival[j] = job.Arrival
		if job.Parent >= 0 {
			arrival[j] = done[job.Parent]
		}
		done[j] = -1
		if arrival[j] < 0 {
			continue
		}
		all, last := finished(j)
		if all {
			done[j] = last
		}
		o := res.Jobs[j]
		switch {
		case o.Done != all:
			fail(j, 0, "job %d: reported done=%v, the trace says %v", j, o.Done, all)
		case all && o.Completion != last:
			fail(j, 0, "job %d: reported completion %d ms, the trace says %d ms", j, o.Completion, last)
		}
		if o.Arrived && o.Arrival != arrival[j] {
			fail(j, 1, "job %d: reported arrival %d ms, the workload says %d ms", j, o.Arrival, arrival[j])
		}
	}
	return arrival
}

func (c *checker) releases(arrival []sim.Time) {
	for i, a := range c.res.Trace {
		j := int(a.Job)
		if arrival[j] < 0 {
			c.fail("trace[%d]: task %d runs though its job %d never arrived", i, a.Task, j)
		} else if a.Launch < arrival[j] {
			c.fail("trace[%d]: task %d launches at %d ms, before its job's arrival %d ms", i, a.Task, a.Launch, arrival[j])
		}
	}
}

type change struct {
	at        sim.Time
	delta     int // +1 acquire, -1 release
	kind      sim.Kind
	ram, disk float64
	seg       int
}

// capacity sweeps each node's slot intervals: at equal times releases come
// first, since [Launch, End) is half-open.
func (c *checker) capacity() {
	tr := c.res.Trace
	byNode := group(len(c.w.Cluster.Nodes), len(tr), func(i int) int { return int(tr[i].Node) })
	var list []change // one node's, reused
	for x := range c.w.Cluster.Nodes {
		list = list[:0]
		for _, i := range byNode.of(x) {
			a := &tr[i]
			end := a.End
			if end < 0 {
				end = math.MaxInt64
			}
			if end == a.Launch {
				continue // holds no slot
			}
			s := c.spec(int(a.Task))
			list = append(list, change{a.Launch, 1, a.Kind, s.RAM(), s.Disk(), int(i)}, change{end, -1, a.Kind, s.RAM(), s.Disk(), int(i)})
		}
		n := c.w.Cluster.Nodes[x]
		// launches at one instant in trace order, as the contention count
		// and the streaming form (Stream) take them
		sort.Slice(list, func(i, k int) bool {
			if list[i].at != list[k].at {
				return list[i].at < list[k].at
			}
			if list[i].delta != list[k].delta {
				return list[i].delta < list[k].delta
			}
			return list[i].seg < list[k].seg
		})
		var maps, reds int
		var ram, disk float64
		for _, ch := range list {
			if ch.kind == sim.Map {
				maps += ch.delta
			} else {
				reds += ch.delta
			}
			ram += float64(ch.delta) * ch.ram
			disk += float64(ch.delta) * ch.disk
			if ch.delta < 0 {
				continue
			}
			if c.w.Cluster.Fungible {
				if maps+reds > n.TotalSlots {
					c.fail("node %d at %d ms: %d tasks on %d slots (trace[%d])", x, ch.at, maps+reds, n.TotalSlots, ch.seg)
				}
			} else if maps > n.MapSlots || reds > n.ReduceSlots {
				c.fail("node %d at %d ms: %d maps on %d map slots, %d reduces on %d reduce slots (trace[%d])", x, ch.at, maps, n.MapSlots, reds, n.ReduceSlots, ch.seg)
			}
			if n.RAM > 0 && ram > n.RAM*(1+metricTol) {
				c.fail("node %d at %d ms: RAM %g over %g (trace[%d])", x, ch.at, ram, n.RAM, ch.seg)
			}
			if n.Disk > 0 && disk > n.Disk*(1+metricTol) {
				c.fail("node %d at %d ms: disk %g over %g (trace[%d])", x, ch.at, disk, n.Disk, ch.seg)
			}
		}
	}
}

// reduces checks slow-start at each reduce launch and precedence of reduce
// work after the job's last map: of an attempt's work (its segments since the
// last kill, whatever their outcome) at most d − ceil((1−ω)·d) may lie before
// the last map end, d being the attempt's duration (ω = 0: none).
func (c *checker) reduces(segs segments) {
	var mapEnds []sim.Time // one job's, reused
	for j, job := range c.w.Jobs {
		if len(job.Reduces) == 0 {
			continue
		}
		mapEnds = mapEnds[:0]
		for t := c.first[j]; t < c.first[j]+len(job.Maps); t++ {
			for _, i := range segs.of(t) {
				if a := c.res.Trace[i]; a.Outcome == sim.Completed {
					mapEnds = append(mapEnds, a.End)
				}
			}
		}
		sort.Slice(mapEnds, func(a, b int) bool { return mapEnds[a] < mapEnds[b] })
		need := int(math.Ceil(c.opt.SlowStart*float64(len(job.Maps)) - 1e-9))
		allMaps := len(mapEnds) == len(job.Maps)
		lastMap := sim.Time(-1)
		if allMaps && len(mapEnds) > 0 {
			lastMap = mapEnds[len(mapEnds)-1]
		}
		for t := c.first[j] + len(job.Maps); t < c.first[j]+len(job.Maps)+len(job.Reduces); t++ {
			var early sim.Time // the attempt's work so far before lastMap
			for _, i := range segs.of(t) {
				a := c.res.Trace[i]
				if !a.Resumed {
					early = 0
					done := sort.Search(len(mapEnds), func(k int) bool { return mapEnds[k] > a.Launch })
					if done < need {
						c.fail("trace[%d]: reduce %d launched at %d ms with %d maps done; slow-start %v needs %d", i, t, a.Launch, done, c.opt.SlowStart, need)
					}
				}
				if a.End < 0 || a.End == a.Start {
					continue
				}
				if !allMaps {
					c.fail("trace[%d]: reduce %d works though its job's maps never all completed", i, t)
					continue
				}
				if a.Start >= lastMap {
					continue
				}
				// only the part ω·d may overlap the map phase; the engine
				// rounds the rest, (1−ω)·d, up to whole ms
				early += min(a.End, lastMap) - a.Start
				if budget := a.Duration - sim.Time(math.Ceil((1-c.opt.Overlap)*float64(a.Duration))); early > budget {
					c.fail("trace[%d]: reduce %d works from %d ms, before its job's last map ends at %d ms (%d ms of its attempt before it, ω = %v allows %d ms)",
						i, t, a.Start, lastMap, early, c.opt.Overlap, budget)
				}
			}
		}
	}
}

func (c *checker) locality() {
	rep := c.res.Rep
	if len(c.res.Replicas) != rep*len(c.jobOf) {
		c.fail("replicas: %d entries, want %d", len(c.res.Replicas), rep*len(c.jobOf))
		return
	}
	nodes := c.w.Cluster.Nodes
	for t := range c.jobOf {
		reps := c.res.Replicas[t*rep : (t+1)*rep]
		for k, x := range reps {
			if x < 0 {
				continue
			}
			if int(x) >= len(nodes) {
				c.fail("task %d: replica on node %d", t, x)
				continue
			}
			if s := nodes[x].StorageBytes; c.w.Cluster.BlockBytes > 0 && s > 0 && s < c.w.Cluster.BlockBytes {
				c.fail("task %d: replica on node %d, which cannot store a %d-byte block", t, x, c.w.Cluster.BlockBytes)
			}
			for _, y := range reps[:k] {
				if y == x {
					c.fail("task %d: two replicas on node %d", t, x)
				}
			}
		}
	}
	running, maybe := c.runningAtLaunch()
	for i, a := range c.res.Trace {
		t := int(a.Task)
		local := false
		if a.Kind == sim.Map {
			for _, x := range c.res.Replicas[t*rep : (t+1)*rep] {
				local = local || x == a.Node
			}
		}
		if a.Local != local {
			c.fail("trace[%d]: task %d on node %d flagged local=%v; its replicas say %v", i, t, a.Node, a.Local, local)
		}
		if a.Resumed {
			continue
		}
		n, m := 0, 0
		if running != nil {
			n = int(running[i])
		}
		if maybe != nil {
			m = int(maybe[i])
		}
		c.duration(i, a, local, n, m)
	}
}

// runningAtLaunch counts, for each non-resumed segment, the same-kind tasks
// holding a slot on its node at its launch, itself included (count), and
// how many more may have held one then (maybe, see mayHoldAtEnd). At equal
// times releases come first and launches in trace order; a segment killed
// or suspended at its launch instant holds no slot in the sweep, but met
// those holding one at its launch, itself included. Without contention
// nobody reads the counts and it returns nil, nil; maybe is nil when no
// launch has such a neighbour (most runs: the check then costs no memory).
func (c *checker) runningAtLaunch() (count, maybe []int32) {
	if c.opt.MapContention == 0 && c.opt.ReduceContention == 0 {
		return nil, nil
	}
	tr := c.res.Trace
	count = make([]int32, len(tr))
	lastMap := make([]sim.Time, len(c.w.Jobs))
	for j := range lastMap {
		lastMap[j] = -1
	}
	for _, a := range tr {
		if a.Kind == sim.Map && a.Outcome == sim.Completed {
			lastMap[a.Job] = max(lastMap[a.Job], a.End)
		}
	}
	var amb [2][]int32 // one node's maps and reduces that may have held a slot at their end
	type ev struct {
		at    sim.Time
		delta int
		seg   int
	}
	byNode := group(len(c.w.Cluster.Nodes), len(tr), func(i int) int { return int(tr[i].Node) })
	var lists [2][]ev // one node's maps and reduces, reused
	for x := range c.w.Cluster.Nodes {
		lists[0], lists[1] = lists[0][:0], lists[1][:0]
		amb[0], amb[1] = amb[0][:0], amb[1][:0]
		for _, i := range byNode.of(x) {
			a := &tr[i]
			k := 0
			if a.Kind != sim.Map {
				k = 1
			}
			if mayHoldAtEnd(a, lastMap[a.Job]) {
				amb[k] = append(amb[k], i)
			}
			end := a.End
			if end < 0 {
				end = math.MaxInt64
			}
			if end == a.Launch {
				if stoppedAtLaunch(a) {
					// a probe: counted at its place among the launches,
					// taking no slot
					lists[k] = append(lists[k], ev{a.Launch, 0, int(i)})
				}
				continue
			}
			lists[k] = append(lists[k], ev{a.Launch, 1, int(i)}, ev{end, -1, int(i)})
		}
		for k, list := range lists {
			sort.Slice(list, func(p, q int) bool {
				if list[p].at != list[q].at {
					return list[p].at < list[q].at
				}
				if rp, rq := list[p].delta < 0, list[q].delta < 0; rp != rq {
					return rp
				}
				return list[p].seg < list[q].seg
			})
			active := int32(0)
			for _, e := range list {
				active += int32(e.delta)
				switch {
				case e.delta > 0:
					count[e.seg] = active
				case e.delta == 0:
					count[e.seg] = active + 1
				}
			}
			if len(amb[k]) == 0 {
				continue
			}
			if maybe == nil {
				maybe = make([]int32, len(tr))
			}
			// by end, so that a launch finds those ending at its instant at
			// once (a day may have many zero-length reduces on a node)
			slices.SortStableFunc(amb[k], func(p, q int32) int { return cmp.Compare(tr[p].End, tr[q].End) })
			for _, e := range list {
				if e.delta < 0 {
					continue
				}
				at := tr[e.seg].Launch
				from := sort.Search(len(amb[k]), func(q int) bool { return tr[amb[k][q]].End >= at })
				for _, q := range amb[k][from:] {
					if b := &tr[q]; b.End != at {
						break
					} else if int(q) != e.seg && (b.Launch < b.End || int(q) < e.seg) {
						maybe[e.seg]++
					}
				}
			}
		}
	}
	return count, maybe
}

// stoppedAtLaunch: a was killed or suspended at the instant it launched (or
// resumed; a resumed segment's duration is not checked). It held its slot
// for no time, but its duration was drawn at its launch, beside the tasks
// holding a slot then and counting itself.
func stoppedAtLaunch(a *sim.Attempt) bool {
	return !a.Resumed && (a.Outcome == sim.Killed || a.Outcome == sim.Suspended) && a.End == a.Launch
}

// mayHoldAtEnd reports whether segment a may still have held its slot at
// a launch at the instant it ended, though the sweep releases it first:
// the trace orders the launches of an instant, not its releases among
// them. Task ends due before an instant come before its launches in the
// engine, but two releases may come later:
//
//   - a kill or suspend: the policy's action, before or after its launches
//     at that instant;
//   - a reduce's completion at the instant its job's map phase ended
//     (lastMap, its last map completion). The engine counts a reduce
//     waiting for its map phase in the contention of a reduce launched
//     beside it (the package doc of sim), and a zero-length map launched at
//     an instant ends the map phase only after the policy's call that
//     launched it: a reduce launched in the same call, after the map, still
//     met the waiting one, which the trace shows as released at that
//     instant (launched then too: Launch == End) as it does when the
//     reduce was launched after the map phase ended.
//
// A launch at that instant may then have met one more task per such
// segment (launched before it) than the sweep's count: the duration check
// accepts either.
func mayHoldAtEnd(a *sim.Attempt, lastMap sim.Time) bool {
	switch a.Outcome {
	case sim.Killed, sim.Suspended:
		return a.End >= 0
	case sim.Completed:
		return a.Kind == sim.Reduce && a.End >= 0 && a.End == lastMap
	}
	return false
}

// duration recomputes an attempt's true duration from the workload.
func (c *checker) duration(i int, a sim.Attempt, local bool, running, maybe int) {
	if lo, hi, ok := duration(c.w, &c.opt, c.spec(int(a.Task)), &a, local, running, maybe); !ok {
		c.fail("trace[%d]: task %d on node %d has duration %d ms, the workload gives [%d, %d] ms", i, a.Task, a.Node, a.Duration, lo, hi)
	}
}

// duration is the range [lo, hi] of an attempt's true duration by the
// workload (spec is its task's) and whether a.Duration lies in it: per
// group or work/speed, times the contention of the running same-kind tasks
// (running, or up to maybe more: mayHoldAtEnd), within the noise band, plus
// the non-local penalty for a map.
func duration(w *sim.Workload, opt *sim.Options, s *sim.TaskSpec, a *sim.Attempt, local bool, running, maybe int) (lo, hi sim.Time, ok bool) {
	n := &w.Cluster.Nodes[a.Node] // not a copy: a Node is 11 words, two read
	var base float64
	if len(s.ByGroup()) > 0 {
		base = float64(s.ByGroup()[n.Group])
	} else {
		speed := n.Speed
		if speed == 0 {
			speed = 1
		}
		base = float64(s.Work) / speed
	}
	gamma := opt.MapContention
	if a.Kind == sim.Reduce {
		gamma = opt.ReduceContention
	}
	top := base
	if gamma > 0 {
		top = base * (1 + gamma*float64(running+maybe-1))
		base *= 1 + gamma*float64(running-1)
	}
	pen := sim.Time(0)
	if a.Kind == sim.Map && !local {
		pen = w.Cluster.NonLocalPenalty
	}
	lo = sim.Time(math.Round(base*(1-opt.Noise))) + pen
	hi = sim.Time(math.Round(top*(1+opt.Noise))) + pen
	if opt.Noise > 0 {
		lo, hi = lo-1, hi+1 // rounding of the drawn factor
	}
	return lo, hi, a.Duration >= lo && a.Duration <= hi
}

// metrics recomputes the headline metrics from the trace.
func (c *checker) metrics(arrival []sim.Time) {
	var launches, local, killed int
	for _, a := range c.res.Trace {
		if a.Kind == sim.Map && !a.Resumed {
			launches++
			if a.Local {
				local++
			}
		}
		if a.Outcome == sim.Killed {
			killed++
		}
	}
	compareMetrics(c.w, c.res, arrival, launches, local, killed, func(_ int, format string, a ...any) { c.fail(format, a...) })
}

// compareMetrics is the metric check both forms share: the job counts and
// times from res.Jobs and the arrivals, and the launch counts the caller
// took from the trace, against res.Metrics. fail gets which comparison (0
// the counts, then makespan, mean turnaround, late fraction, locality).
func compareMetrics(w *sim.Workload, res *sim.Result, arrival []sim.Time, launches, local, killed int, fail func(which int, format string, a ...any)) {
	got := res.Metrics
	var completed, late int
	first, last := sim.Time(math.MaxInt64), sim.Time(math.MinInt64)
	sumT := 0.0
	for j, o := range res.Jobs {
		if !o.Done {
			continue
		}
		completed++
		sumT += float64(o.Completion - arrival[j])
		first = min(first, arrival[j])
		last = max(last, o.Completion)
		if d := w.Jobs[j].Deadline; d != sim.NoDeadline && o.Completion > d {
			late++
		}
	}
	eq := func(which int, name string, x, y float64) {
		if math.Abs(x-y) > metricTol*math.Max(1, math.Abs(y)) {
			fail(which, "metric %s: reported %v, the trace gives %v", name, x, y)
		}
	}
	if got.Jobs != len(w.Jobs) || got.CompletedJobs != completed || got.LateJobs != late || got.MapLaunches != launches || got.LocalLaunches != local || got.Killed != killed {
		fail(0, "metric counts: reported jobs %d completed %d late %d map launches %d local %d killed %d; the trace gives %d %d %d %d %d %d",
			got.Jobs, got.CompletedJobs, got.LateJobs, got.MapLaunches, got.LocalLaunches, got.Killed,
			len(w.Jobs), completed, late, launches, local, killed)
	}
	if completed > 0 {
		eq(1, "makespan", got.Makespan, float64(last-first)/1000)
		eq(2, "mean_turnaround", got.MeanTurnaround, sumT/1000/float64(completed))
		eq(3, "late_fraction", got.LateFraction, float64(late)/float64(completed))
	}
	if launches > 0 {
		eq(4, "locality", got.Locality, float64(local)/float64(launches))
	}
}
