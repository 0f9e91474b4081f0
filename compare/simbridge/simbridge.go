package simbridge

import (
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
)

// durationSlack (ms) is taken off a product before it is rounded, so that
// float error in base·(1 − Noise) cannot round it above the simulator's.
const durationSlack = 1e-6

// Problem converts w, as run with opt, into a lowerbound.Problem.
// preemptive says whether the runs may suspend tasks (HFSP).
func Problem(w *sim.Workload, opt sim.Options, preemptive bool) (*lowerbound.Problem, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if opt.Overlap > 0 {
		return nil, badinput.Errorf("compare: the bounds assume reduce overlap ω = 0, not %g", opt.Overlap)
	}
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Preemptive: preemptive}
	if w.Cluster.Fungible {
		p.Mode = lowerbound.Fungible
	}
	type gkey struct {
		group int
		speed float64
	}
	groupOf := map[gkey]int{}
	var keys []gkey
	for _, n := range w.Cluster.Nodes {
		speed := n.Speed
		if speed == 0 {
			speed = 1
		}
		k := gkey{n.Group, speed}
		g, ok := groupOf[k]
		if !ok {
			g = len(keys)
			groupOf[k] = g
			keys = append(keys, k)
		}
		p.Nodes = append(p.Nodes, lowerbound.Node{Group: g, MapSlots: n.MapSlots, ReduceSlots: n.ReduceSlots, Slots: n.TotalSlots})
	}
	p.Groups = len(keys)
	shrink := 1 - opt.Noise
	// dur returns t's durations by group. Equal durations share one slice
	// (the bounds only read them): a day's maps mostly have the same size
	// within a job, so most tasks cost their slice header and nothing more.
	// The path is formatted only for an error (a string per task was half
	// of this function's allocations on a day of millions of tasks).
	var prev []int64
	scratch := make([]int64, len(keys))
	dur := func(t *sim.TaskSpec, j int, kind string, i int) (lowerbound.Task, error) {
		for g, k := range keys {
			var base float64
			if len(t.ByGroup()) > 0 {
				if k.group >= len(t.ByGroup()) {
					return lowerbound.Task{}, badinput.Errorf("compare: jobs[%d].%s[%d]: no duration for node group %d", j, kind, i, k.group)
				}
				base = float64(t.ByGroup()[k.group])
			} else {
				base = float64(t.Work) / k.speed
			}
			// The simulator rounds base·factor (factor ≥ 1 − Noise) to whole ms,
			// and rounding is monotone: rounding base·(1 − Noise), less a
			// hair for float error, gives at most what it gives.
			scratch[g] = max(0, int64(math.Round(base*shrink-durationSlack)))
		}
		if !slices.Equal(prev, scratch) {
			prev = slices.Clone(scratch)
		}
		return lowerbound.Task{Dur: prev}, nil
	}
	if len(w.Jobs) > 0 {
		p.Jobs = make([]lowerbound.Job, 0, len(w.Jobs))
	}
	for j := range w.Jobs {
		job := &w.Jobs[j]
		lj := lowerbound.Job{Arrival: int64(job.Arrival)}
		if job.Deadline != sim.NoDeadline {
			lj.HasDeadline, lj.Deadline = true, int64(job.Deadline)
		}
		if len(job.Maps) > 0 {
			lj.Maps = make([]lowerbound.Task, len(job.Maps))
		}
		for i := range job.Maps {
			t, err := dur(&job.Maps[i], j, "maps", i)
			if err != nil {
				return nil, err
			}
			lj.Maps[i] = t
		}
		if len(job.Reduces) > 0 {
			lj.Reduces = make([]lowerbound.Task, len(job.Reduces))
		}
		for i := range job.Reduces {
			t, err := dur(&job.Reduces[i], j, "reduces", i)
			if err != nil {
				return nil, err
			}
			lj.Reduces[i] = t
		}
		p.Jobs = append(p.Jobs, lj)
	}
	if Chained(w) {
		// A chained job is submitted when its parent completes, at least the
		// parent's (relaxed) arrival plus its critical path after it.
		cp, err := lowerbound.CriticalPaths(p)
		if err != nil {
			return nil, err
		}
		for j := range w.Jobs {
			if q := w.Jobs[j].Parent; q >= 0 {
				p.Jobs[j].Arrival = p.Jobs[q].Arrival + int64(math.Floor(cp[q]))
				p.Jobs[j].HasDeadline = false // the deadline is relative to an unknown arrival
			}
		}
	}
	return p, nil
}

// Chained reports whether some job of w is submitted by its parent's
// completion (TPC-H chains). The problem then has lower bounds for those
// arrivals, which keeps the makespan bounds valid but not the turnaround
// ones (Compare refuses them).
func Chained(w *sim.Workload) bool {
	for j := range w.Jobs {
		if w.Jobs[j].Parent >= 0 {
			return true
		}
	}
	return false
}

// Completions returns each job's completion time (ms), or an error naming
// the first job that did not complete and how the run ended (stuck,
// stalled, horizon).
func Completions(res *sim.Result) ([]int64, error) {
	out := make([]int64, len(res.Jobs))
	for j, o := range res.Jobs {
		if !o.Done {
			return nil, fmt.Errorf("compare: %s: job %d did not complete (%s)", res.Policy, j, res.Incomplete())
		}
		out[j] = int64(o.Completion)
	}
	return out, nil
}

// Suspends reports whether the run suspended a task.
func Suspends(res *sim.Result) bool {
	for _, a := range res.Trace {
		if a.Outcome == sim.Suspended {
			return true
		}
	}
	return false
}
