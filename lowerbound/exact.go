package lowerbound

import (
	"fmt"
	"math"
	"slices"
)

// ExactMaxTasks is the most tasks Exact accepts: enumeration grows like
// n!·nodes^n before pruning.
const ExactMaxTasks = 9

// ExactMaxJobs is the most jobs (with tasks or not) Exact accepts, so that MRCP's
// product (late + 1)·max turnaround, at most 2^12 · 2^50 ms (maxTime), stays
// inside int64.
const ExactMaxJobs = 1 << 12

// Optimum holds the exact minimum of each metric, each over all schedules
// (they may be attained by different schedules).
type Optimum struct {
	MaxCompletion   int64 `json:"maxCompletion"`
	Makespan        int64 `json:"makespan"`
	TotalTurnaround int64 `json:"totalTurnaround"`
	MaxTurnaround   int64 `json:"maxTurnaround"`
	LateJobs        int64 `json:"lateJobs"`
	MRCPProduct     int64 `json:"mrcpProduct"`
	// Leaves is the number of complete schedules enumerated.
	Leaves int64 `json:"leaves"`
}

// Value returns the optimum of m, as a float for comparison with a Bound.
func (o *Optimum) Value(m Metric, jobs int) float64 {
	switch m {
	case Makespan:
		return float64(o.Makespan)
	case TotalTurnaround:
		return float64(o.TotalTurnaround)
	case MeanTurnaround:
		return float64(o.TotalTurnaround) / float64(max(1, jobs))
	case MaxTurnaround:
		return float64(o.MaxTurnaround)
	case LateJobs:
		return float64(o.LateJobs)
	case MRCPProduct:
		return float64(o.MRCPProduct)
	}
	return math.NaN()
}

// Exact returns the optimum of every metric of a tiny problem by enumerating
// semi-active schedules.
//
// Why an optimum is among them: every metric here is regular (non-decreasing
// in each C_j). Take an optimal schedule S, list its tasks by (start, index)
// — zero-length tasks first at equal starts (they hold no slot at their start,
// a positive one does), then by index, all maps having lower indices than all
// reduces, so a job's maps come before its reduces — and rebuild: each task, in that order, on the
// node S used, on that node's earliest-free slot of its kind, at the earliest
// time its slot, arrival and (for a reduce) the job's last map end allow. By
// induction each task starts no later than in S: the earlier tasks end no
// later, so fewer than the node's slot count of them still hold a slot of the
// node at the task's start in S, and the earliest-free slot is free by then.
// The rebuilt schedule is optimal too; repeating the rebuild lowers integer
// start times, so it stops at a schedule whose (start, index) order is the
// order it was built in. Exact therefore enumerates exactly those build
// orders whose keys (start, positive length, index) come out increasing, places each task on
// every node (the earliest-free slot), and skips a node whose slots are in
// the same state as an earlier identical node's (mirror subtrees) and a task
// identical to an earlier unplaced one of its job (relabelling).
func Exact(p *Problem) (*Optimum, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Preemptive {
		return nil, fmt.Errorf("lowerbound: Exact enumerates non-preemptive schedules only")
	}
	if n := p.NumTasks(); n > ExactMaxTasks {
		return nil, fmt.Errorf("lowerbound: Exact takes at most %d tasks, not %d", ExactMaxTasks, n)
	}
	if n := len(p.Jobs); n > ExactMaxJobs {
		return nil, fmt.Errorf("lowerbound: Exact takes at most %d jobs, not %d", ExactMaxJobs, n)
	}
	e := newEnumerator(p, true)
	e.run()
	return &e.best, nil
}

// enumerator is the depth-first search of Exact. With prune off it tries
// every build order and every slot (a brute force that tests the pruning).
type enumerator struct {
	p     *Problem
	prune bool
	tasks []etask
	// free[x][k] lists the free times of node x's slots of kind k (kMap only
	// when fungible), sorted ascending.
	free     [][2][]int64
	placed   []bool
	mapsLeft []int
	lme      []int64 // last map end so far (a_j before any)
	done     []int64 // C_j so far: latest task end (a_j before any)
	minA     int64
	best     Optimum
}

type etask struct {
	job, kind int
	dur       []int64 // per node
	same      int     // index of an earlier identical task of the job, or −1
}

func newEnumerator(p *Problem, prune bool) *enumerator {
	e := &enumerator{p: p, prune: prune}
	for k := range 2 {
		for j := range p.Jobs {
			tasks := p.Jobs[j].Maps
			if k == kRed {
				tasks = p.Jobs[j].Reduces
			}
			for i := range tasks {
				t := etask{job: j, kind: k, same: -1}
				for _, n := range p.Nodes {
					t.dur = append(t.dur, tasks[i].dur(n.Group))
				}
				for prev := len(e.tasks) - 1; prev >= 0; prev-- {
					q := e.tasks[prev]
					if q.job == j && q.kind == k && slices.Equal(q.dur, t.dur) {
						t.same = prev
						break
					}
				}
				e.tasks = append(e.tasks, t)
			}
		}
	}
	// A node's slots beyond the tasks that could use them are never
	// chosen (each task takes the earliest-free slot, and with at most n
	// tasks of a kind at most n slots are ever busy), so each node keeps
	// min(slots, tasks) of them: the per-slot tables are bounded by the
	// task count (≤ ExactMaxTasks), not by a node's slot count, which a
	// scenario may give as 10^12. Identical nodes stay identical.
	var nk [2]int
	for _, t := range e.tasks {
		nk[t.kind]++
	}
	e.free = make([][2][]int64, len(p.Nodes))
	for x, n := range p.Nodes {
		if p.Mode == Fungible {
			e.free[x][kMap] = make([]int64, min(n.Slots, len(e.tasks)))
		} else {
			e.free[x][kMap] = make([]int64, min(n.MapSlots, nk[kMap]))
			e.free[x][kRed] = make([]int64, min(n.ReduceSlots, nk[kRed]))
		}
	}
	e.placed = make([]bool, len(e.tasks))
	e.mapsLeft = make([]int, len(p.Jobs))
	e.lme = make([]int64, len(p.Jobs))
	e.done = make([]int64, len(p.Jobs))
	for j := range p.Jobs {
		e.mapsLeft[j] = len(p.Jobs[j].Maps)
		e.lme[j] = p.Jobs[j].Arrival
		e.done[j] = p.Jobs[j].Arrival
		if j == 0 || p.Jobs[j].Arrival < e.minA {
			e.minA = p.Jobs[j].Arrival
		}
	}
	inf := int64(math.MaxInt64)
	e.best = Optimum{inf, inf, inf, inf, inf, inf, 0}
	return e
}

func (e *enumerator) run() { e.dfs(0, orderKey{-1, false, -1}) }

// slotKind maps a task kind to the index of free[x] its slots are in.
func (e *enumerator) slotKind(k int) int {
	if e.p.Mode == Fungible {
		return kMap
	}
	return k
}

// orderKey orders a build: the (start, positive length, index) of the last
// task placed.
type orderKey struct {
	start    int64
	positive bool
	idx      int
}

func (k orderKey) less(o orderKey) bool {
	if k.start != o.start {
		return k.start < o.start
	}
	if k.positive != o.positive {
		return o.positive
	}
	return k.idx < o.idx
}

func (e *enumerator) dfs(nPlaced int, last orderKey) {
	if nPlaced == len(e.tasks) {
		e.leaf()
		return
	}
	for i := range e.tasks {
		t := &e.tasks[i]
		if e.placed[i] || (t.kind == kRed && e.mapsLeft[t.job] > 0) {
			continue
		}
		if e.prune && t.same >= 0 && !e.placed[t.same] {
			continue
		}
		sk := e.slotKind(t.kind)
		for x := range e.p.Nodes {
			slots := e.free[x][sk]
			if len(slots) == 0 || (e.prune && e.mirrors(x, sk)) {
				continue
			}
			tried := int64(-1)
			for s := range slots {
				if e.prune && s > 0 {
					break // the earliest-free slot only
				}
				if slots[s] == tried {
					continue // identical slot state
				}
				tried = slots[s]
				job := &e.p.Jobs[t.job]
				start := max(slots[s], job.Arrival)
				if t.kind == kRed {
					start = max(start, e.lme[t.job])
				}
				end := start + t.dur[x]
				key := orderKey{start, end > start, i}
				if e.prune && !last.less(key) {
					continue
				}
				// Place.
				oldFree, oldLme, oldDone := slots[s], e.lme[t.job], e.done[t.job]
				slots[s] = end
				sortOne(slots, s)
				e.placed[i] = true
				if t.kind == kMap {
					e.mapsLeft[t.job]--
					e.lme[t.job] = max(e.lme[t.job], end)
				}
				e.done[t.job] = max(e.done[t.job], end)
				e.dfs(nPlaced+1, key)
				// Undo.
				e.done[t.job], e.lme[t.job] = oldDone, oldLme
				if t.kind == kMap {
					e.mapsLeft[t.job]++
				}
				e.placed[i] = false
				for q := range slots {
					if slots[q] == end {
						slots[q] = oldFree
						sortOne(slots, q)
						break
					}
				}
			}
		}
	}
}

// mirrors reports whether an earlier node of the same group and slot counts
// has its slots in the same state as node x: placing on either gives mirror
// subtrees.
func (e *enumerator) mirrors(x, sk int) bool {
	nx := e.p.Nodes[x]
	for y := range x {
		ny := e.p.Nodes[y]
		if ny == nx && slices.Equal(e.free[x][kMap], e.free[y][kMap]) && slices.Equal(e.free[x][kRed], e.free[y][kRed]) {
			return true
		}
	}
	return false
}

// sortOne restores ascending order after slots[i] changed.
func sortOne(s []int64, i int) {
	for i > 0 && s[i] < s[i-1] {
		s[i], s[i-1] = s[i-1], s[i]
		i--
	}
	for i+1 < len(s) && s[i] > s[i+1] {
		s[i], s[i+1] = s[i+1], s[i]
		i++
	}
}

func (e *enumerator) leaf() {
	e.best.Leaves++
	var maxC, total, maxT, late int64
	for j := range e.p.Jobs {
		job := &e.p.Jobs[j]
		c := e.done[j]
		maxC = max(maxC, c)
		total += c - job.Arrival
		maxT = max(maxT, c-job.Arrival)
		if job.HasDeadline && c > job.Deadline {
			late++
		}
	}
	b := &e.best
	b.MaxCompletion = min(b.MaxCompletion, maxC)
	b.Makespan = min(b.Makespan, maxC-e.minA)
	b.TotalTurnaround = min(b.TotalTurnaround, total)
	b.MaxTurnaround = min(b.MaxTurnaround, maxT)
	b.LateJobs = min(b.LateJobs, late)
	b.MRCPProduct = min(b.MRCPProduct, (late+1)*maxT)
}
