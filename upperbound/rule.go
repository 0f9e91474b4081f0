package upperbound

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/mrbound/mrbound/internal/enum"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
)

// Rule is a construction's job priority. The zero value is unknown.
type Rule int8

const (
	RuleUnknown Rule = iota
	// SRPT: smallest remaining unlaunched work (true durations) first.
	SRPT
	// SRPTSpan: smallest remaining span first, the unlaunched work of each
	// kind over the slots the job could use at once, summed over kinds.
	SRPTSpan
	// RelaxSRPT: by completion in the preemptive SRPT relaxation on one
	// machine as fast as the cluster.
	RelaxSRPT
	// RelaxSRPTMid: by the α = ½ point in that relaxation (the time half of
	// the job's work is done).
	RelaxSRPTMid
	// LRPT: longest remaining span first.
	LRPT
	// CPFirst: longest critical path first (static).
	CPFirst
	// LatestStart: smallest a_j − CP_j first (the job that must start first
	// for a common turnaround target).
	LatestStart
	// Arrival: earliest arrival first (FIFO with true knowledge of nothing
	// else; kept as a baseline that the search starts from for max turnaround).
	Arrival
	// EDF: earliest deadline first, jobs without one last by arrival.
	EDF
	// Order: a given static order (the local search's candidate).
	Order
	// LatestStartKind: latest start per kind — maps by a_j − CP_j, reduces
	// by a_j minus the job's reduce span alone (its latest reduce start for
	// a common turnaround target).
	LatestStartKind
	// Johnson: maps in Johnson's two-stage flow-shop order of the jobs'
	// spans (map work over map slots, reduce work over reduce slots): jobs
	// whose map span is at most their reduce span first, by map span, then
	// the others by reduce span, longest first — the map stage feeds the
	// reduce stage, the bottleneck of a reduce-heavy day; reduces by latest
	// start as they launch (a_j minus the span of the job's unlaunched
	// reduces: least laxity first for a common turnaround target).
	Johnson
	// SRPTHold: srpt, except that a free reduce slot is kept idle for a job
	// srpt ranks first whose reduce will be ready soon, when the wait it
	// saves that job exceeds what the idle time costs the jobs waiting
	// (tryHold). Only where arrivals and durations are known in advance and
	// alike on every node (holdable); elsewhere it runs as plain srpt (so
	// that the conformance suite runs it everywhere) and Best skips it.
	SRPTHold
)

var ruleNames = enum.Names[Rule]{"unknown", "srpt", "srpt-span", "relax-srpt", "relax-srpt-mid", "lrpt",
	"cp-first", "latest-start", "arrival", "edf", "search", "latest-start-kind", "johnson", "srpt-hold"}

func (r Rule) String() string { return ruleNames.String(r) }

// MarshalText encodes the rule by name.
func (r Rule) MarshalText() ([]byte, error) { return ruleNames.Text(r) }

// Rules lists the constructions Best tries for metric m, the metric's own
// first (a tight evaluation budget then still runs them).
func Rules(m lowerbound.Metric) []Rule {
	first := map[lowerbound.Metric][]Rule{
		lowerbound.MeanTurnaround:  {SRPT, SRPTHold, SRPTSpan, RelaxSRPT, RelaxSRPTMid},
		lowerbound.TotalTurnaround: {SRPT, SRPTHold, SRPTSpan, RelaxSRPT, RelaxSRPTMid},
		lowerbound.Makespan:        {Johnson, LRPT, CPFirst},
		lowerbound.MaxTurnaround:   {Johnson, LatestStart, LatestStartKind, Arrival},
		lowerbound.LateJobs:        {EDF, LatestStart},
		lowerbound.MRCPProduct:     {EDF, LatestStart},
	}[m]
	out := append([]Rule{}, first...)
	for _, r := range constructions {
		found := false
		for _, f := range first {
			found = found || f == r
		}
		if !found {
			out = append(out, r)
		}
	}
	return out
}

// constructions are the rules Best runs whatever the metric (Order is the
// search's; SRPTHold joins them through Rules for the turnaround sums).
var constructions = []Rule{SRPT, SRPTSpan, RelaxSRPT, RelaxSRPTMid, LRPT, CPFirst, LatestStart, Arrival, EDF, LatestStartKind, Johnson}

// dynamic reports whether a rule's key changes as the job's tasks launch.
func (r Rule) dynamic() bool {
	return r == SRPT || r == SRPTSpan || r == LRPT || r == Johnson || r == SRPTHold
}

// jobStats are the true-duration figures the keys are made of.
type jobStats struct {
	work     [2]float64 // unlaunched work per kind (ms at the mean node)
	pending  [2]int     // unlaunched tasks per kind
	maxTask  [2]float64
	cp       float64 // critical path alone on the cluster
	arrival  float64
	deadline float64 // +Inf without one
}

// clair is what a construction knows before the run: every job's true task
// durations (the mean over the nodes, as a rank key) and the slots per kind.
type clair struct {
	jobs []jobStats
	// dur[k][j][i] is task i of kind k (maps, reduces) of job j.
	dur   [2][][]float64
	slots [2]float64 // map and reduce slots (fungible: both the total)

	w *sim.Workload
	// nodeKind[x] indexes kinds, the distinct (group, speed) of the nodes;
	// hetero: some task's duration differs between them.
	nodeKind  []int
	kinds     []nodeKindKey
	kindSlots [][2]bool
	hetero    bool
	// chained: some job arrives when its parent completes, so its arrival
	// is known only during the run.
	chained bool
	// reducePrice, when set, prices a reduce slot's idle time for
	// srpt-hold's holds (Options.Prices).
	reducePrice *priceCurve
}

type nodeKindKey struct {
	group int
	speed float64
}

// kindSlots[nk][k]: some node of kind nk has a slot for task kind k.

// slowCap: a "-fast" construction leaves a task to faster nodes when this
// node would take more than slowCap times its fastest duration (COSHH's
// clusters mix resources 100× apart; waiting for a fast slot beats a slow
// one by far). Any value gives valid schedules; 2 keeps nodes within a
// factor 2 of the best usable.
const slowCap = 2.0

// durOn is task i of kind k of job j's true base duration on node kind nk.
func (c *clair) durOn(j, k, i, nk int) float64 {
	job := &c.w.Jobs[j]
	t := &job.Maps
	if k == 1 {
		t = &job.Reduces
	}
	spec := &(*t)[i]
	key := c.kinds[nk]
	if len(spec.ByGroup()) > 0 {
		if key.group < len(spec.ByGroup()) {
			return float64(spec.ByGroup()[key.group])
		}
		return math.Inf(1)
	}
	return float64(spec.Work) / key.speed
}

// slow reports whether node x is more than slowCap times slower for the
// task than the fastest node kind.
func (c *clair) slow(j, k, i, x int) bool {
	if !c.hetero {
		return false
	}
	best := math.Inf(1)
	for nk := range c.kinds {
		if c.kindSlots[nk][k] {
			best = math.Min(best, c.durOn(j, k, i, nk))
		}
	}
	return c.durOn(j, k, i, c.nodeKind[x]) > slowCap*best
}

func newClair(w *sim.Workload) *clair {
	c := &clair{jobs: make([]jobStats, len(w.Jobs)), w: w}
	c.dur[0], c.dur[1] = make([][]float64, len(w.Jobs)), make([][]float64, len(w.Jobs))
	var speed float64
	groups := map[int]int{}
	for _, n := range w.Cluster.Nodes {
		sp := n.Speed
		if sp == 0 {
			sp = 1
		}
		speed += sp
		groups[n.Group]++
		key := nodeKindKey{n.Group, sp}
		nk := slices.Index(c.kinds, key)
		if nk < 0 {
			nk = len(c.kinds)
			c.kinds = append(c.kinds, key)
			c.kindSlots = append(c.kindSlots, [2]bool{})
		}
		c.nodeKind = append(c.nodeKind, nk)
		c.kindSlots[nk][0] = c.kindSlots[nk][0] || n.MapSlots > 0 || (w.Cluster.Fungible && n.TotalSlots > 0)
		c.kindSlots[nk][1] = c.kindSlots[nk][1] || n.ReduceSlots > 0 || (w.Cluster.Fungible && n.TotalSlots > 0)
		if w.Cluster.Fungible {
			c.slots[0] += float64(n.TotalSlots)
		} else {
			c.slots[0] += float64(n.MapSlots)
			c.slots[1] += float64(n.ReduceSlots)
		}
	}
	if w.Cluster.Fungible {
		c.slots[1] = c.slots[0]
	}
	nodes := float64(max(1, len(w.Cluster.Nodes)))
	speed = math.Max(speed/nodes, 1e-9)
	dur := func(t *sim.TaskSpec) float64 {
		if len(t.ByGroup()) == 0 {
			return float64(t.Work) / speed
		}
		s := 0.0
		for g, k := range groups {
			if g >= 0 && g < len(t.ByGroup()) {
				s += float64(t.ByGroup()[g]) * float64(k)
			}
		}
		return s / nodes
	}
	for j := range w.Jobs {
		job := &w.Jobs[j]
		st := &c.jobs[j]
		st.arrival = float64(job.Arrival)
		c.chained = c.chained || job.Parent >= 0
		st.deadline = math.Inf(1)
		if job.Deadline != sim.NoDeadline {
			st.deadline = float64(job.Deadline)
		}
		for k, ts := range [2][]sim.TaskSpec{job.Maps, job.Reduces} {
			c.dur[k][j] = make([]float64, len(ts))
			for i := range ts {
				d := dur(&ts[i])
				c.dur[k][j][i] = d
				st.work[k] += d
				st.maxTask[k] = math.Max(st.maxTask[k], d)
			}
			st.pending[k] = len(ts)
		}
		st.cp = c.span(st)
	}
	for j := range w.Jobs {
		for k, ts := range [2][]sim.TaskSpec{w.Jobs[j].Maps, w.Jobs[j].Reduces} {
			for i := range ts {
				for nk := 1; nk < len(c.kinds) && !c.hetero; nk++ {
					c.hetero = c.durOn(j, k, i, nk) != c.durOn(j, k, i, 0)
				}
			}
		}
	}
	return c
}

// span is the time a job's unlaunched tasks need alone on the cluster: per
// kind, its work over the slots it can use, at least its longest task.
func (c *clair) span(st *jobStats) float64 {
	s := 0.0
	for k := range 2 {
		if st.pending[k] == 0 {
			continue
		}
		use := math.Max(1, math.Min(float64(st.pending[k]), c.slots[k]))
		s += math.Max(st.work[k]/use, st.maxTask[k])
	}
	return s
}

// reduceSpan is the time the job's unlaunched reduces need alone.
func (c *clair) reduceSpan(st *jobStats) float64 {
	if st.pending[1] == 0 {
		return 0
	}
	use := math.Max(1, math.Min(float64(st.pending[1]), c.slots[1]))
	return math.Max(st.work[1]/use, st.maxTask[1])
}

// reduceKeys are LatestStartKind's reduce keys, a_j − reduce span.
func (c *clair) reduceKeys() []float64 {
	key := make([]float64, len(c.jobs))
	for j := range c.jobs {
		key[j] = c.jobs[j].arrival - c.reduceSpan(&c.jobs[j])
	}
	return key
}

// johnsonKeys are Johnson's map keys: with s_m and s_r the job's map and
// reduce spans (work over the slots of the kind), s_m − H when s_m ≤ s_r and
// H − s_r otherwise, where H exceeds every span, so that the first group
// precedes the second. Johnson's rule minimises the makespan of a two-machine
// flow shop; here it orders the map stage so that the reduce stage is fed
// first with the jobs that bring it the most work for the least map time.
func (c *clair) johnsonKeys() []float64 {
	key := make([]float64, len(c.jobs))
	span := func(st *jobStats, k int) float64 { return st.work[k] / math.Max(1, c.slots[k]) }
	h := 1.0
	for j := range c.jobs {
		h += span(&c.jobs[j], 0) + span(&c.jobs[j], 1)
	}
	for j := range c.jobs {
		st := &c.jobs[j]
		if sm, sr := span(st, 0), span(st, 1); sm <= sr {
			key[j] = sm - h
		} else {
			key[j] = h - sr
		}
	}
	return key
}

// staticKeys are a static rule's keys (smaller runs first).
func (c *clair) staticKeys(r Rule) ([]float64, error) {
	n := len(c.jobs)
	key := make([]float64, n)
	switch r {
	case RelaxSRPT, RelaxSRPTMid:
		done, mid := c.relaxSRPT()
		if r == RelaxSRPT {
			return done, nil
		}
		return mid, nil
	case CPFirst:
		for j := range c.jobs {
			key[j] = -c.jobs[j].cp
		}
	case LatestStart, LatestStartKind:
		for j := range c.jobs {
			key[j] = c.jobs[j].arrival - c.jobs[j].cp
		}
	case Arrival:
		for j := range c.jobs {
			key[j] = c.jobs[j].arrival
		}
	case EDF:
		for j := range c.jobs {
			key[j] = c.jobs[j].deadline
		}
	default:
		return nil, fmt.Errorf("upperbound: %v has no static keys", r)
	}
	return key, nil
}

// relaxSRPT runs preemptive SRPT on one machine whose rate is the cluster's
// slot count, each job released at its arrival with its total work: it
// returns each job's completion and α = ½ point in that relaxation (a
// classic source of list-scheduling orders, Hall–Schulz–Shmoys–Wein).
func (c *clair) relaxSRPT() (done, mid []float64) {
	n := len(c.jobs)
	done, mid = make([]float64, n), make([]float64, n)
	rate := c.slots[0]
	if c.slots[1] != c.slots[0] {
		rate += c.slots[1]
	}
	rate = math.Max(rate, 1)
	order := make([]int, n)
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return c.jobs[order[a]].arrival < c.jobs[order[b]].arrival })
	total := make([]float64, n)
	for j := range c.jobs {
		total[j] = c.jobs[j].work[0] + c.jobs[j].work[1]
	}
	rem := append([]float64{}, total...)
	h := newIndexHeap(n, func(a, b int) bool {
		if rem[a] != rem[b] {
			return rem[a] < rem[b]
		}
		return a < b
	})
	now, next := 0.0, 0
	for next < n || h.Len() > 0 {
		if h.Len() == 0 {
			now = math.Max(now, c.jobs[order[next]].arrival)
		}
		for next < n && c.jobs[order[next]].arrival <= now {
			h.push(order[next])
			next++
		}
		j := h.top()
		until := math.Inf(1)
		if next < n {
			until = c.jobs[order[next]].arrival
		}
		need := rem[j] / rate
		halfAt := now + math.Max(0, rem[j]-total[j]/2)/rate
		if now+need <= until {
			if rem[j] > total[j]/2 || total[j] == 0 {
				mid[j] = halfAt
			}
			now += need
			rem[j] = 0
			done[j] = now
			h.pop()
			continue
		}
		worked := (until - now) * rate
		if rem[j] > total[j]/2 && rem[j]-worked <= total[j]/2 {
			mid[j] = halfAt
		}
		rem[j] -= worked
		now = until
		h.fix(j)
	}
	return done, mid
}
