package lowerbound

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomWithOptimum draws randomProblem(rng, 7) and enumerates its
// optimum: the opening of the property tests that compare a bound with it.
func randomWithOptimum(t *testing.T, rng *rand.Rand) (*Problem, *Optimum) {
	t.Helper()
	p := randomProblem(rng, 7)
	opt, err := Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, opt
}

// randomProblem draws a tiny instance: 1–2 nodes, 1–2 slots of each kind (or
// 1–3 fungible slots), 1–3 jobs, at most maxTasks tasks, durations in whole
// ms at one of two scales, optional per-group durations, arrivals and
// deadlines.
func randomProblem(rng *rand.Rand, maxTasks int) *Problem {
	p := &Problem{Mode: Fixed, Groups: 1}
	if rng.IntN(3) == 0 {
		p.Mode = Fungible
	}
	hetero := rng.IntN(2) == 0
	nNodes := 1 + rng.IntN(2)
	if hetero && nNodes == 2 {
		p.Groups = 2
	}
	for x := range nNodes {
		n := Node{Group: x % p.Groups}
		if p.Mode == Fungible {
			n.Slots = 1 + rng.IntN(3)
		} else {
			n.MapSlots = rng.IntN(3)
			n.ReduceSlots = rng.IntN(3)
			if x == 0 {
				n.MapSlots = max(1, n.MapSlots)
				n.ReduceSlots = max(1, n.ReduceSlots)
			}
		}
		p.Nodes = append(p.Nodes, n)
	}
	scale := int64(1)
	if rng.IntN(3) == 0 {
		scale = 997 // ms-sized, odd, so fluid bounds are fractional
	}
	dur := func() Task {
		if p.Groups == 2 {
			return Task{Dur: []int64{scale * (1 + rng.Int64N(12)), scale * (1 + rng.Int64N(12))}}
		}
		return Task{Dur: []int64{scale * rng.Int64N(13)}}
	}
	nTasks := 2 + rng.IntN(maxTasks-1)
	nJobs := 1 + rng.IntN(min(4, nTasks))
	for range nJobs {
		j := Job{Arrival: scale * rng.Int64N(15)}
		p.Jobs = append(p.Jobs, j)
	}
	for range nTasks {
		j := &p.Jobs[rng.IntN(nJobs)]
		if rng.IntN(3) < 2 {
			j.Maps = append(j.Maps, dur())
		} else {
			j.Reduces = append(j.Reduces, dur())
		}
	}
	for j := range p.Jobs {
		if rng.IntN(3) > 0 {
			p.Jobs[j].HasDeadline = true
			p.Jobs[j].Deadline = p.Jobs[j].Arrival + scale*(2+rng.Int64N(30))
		}
	}
	return p
}

// TestExactPruningMatchesBruteForce: the pruned enumeration (start order,
// earliest-free slot, mirror nodes, identical tasks) finds the same optima as
// trying every build order on every slot.
func TestExactPruningMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 19))
	for i := range 300 {
		p := randomProblem(rng, 6)
		pruned := newEnumerator(p, true)
		pruned.run()
		brute := newEnumerator(p, false)
		brute.run()
		a, b := pruned.best, brute.best
		a.Leaves, b.Leaves = 0, 0
		if a != b {
			t.Fatalf("instance %d: pruned %+v, brute force %+v\n%s", i, a, b, dump(p))
		}
	}
}

// TestBoundsNeverExceedOptimum is the property test of every bound: on
// hundreds of seeded random instances, no component of any metric exceeds the
// enumerated optimum, and the certified (rounded) value does not either.
func TestBoundsNeverExceedOptimum(t *testing.T) {
	n, maxTasks := 800, 8
	if testing.Short() {
		n, maxTasks = 300, 7
	}
	rng := rand.New(rand.NewPCG(2, 19))
	tight := map[Metric]int{}
	for i := range n {
		p := randomProblem(rng, maxTasks)
		checkAgainstExact(t, fmt.Sprintf("instance %d", i), p, tight)
	}
	for _, m := range Metrics() {
		t.Logf("%-16s bound = optimum on %d of %d instances", m, tight[m], n)
	}
}

// checkAgainstExact fails when a bound of p exceeds its enumerated optimum,
// and counts the metrics where the certified bound is the optimum.
func checkAgainstExact(t *testing.T, name string, p *Problem, tight map[Metric]int) {
	t.Helper()
	opt, err := Exact(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := Compute(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, m := range Metrics() {
		o := opt.Value(m, len(p.Jobs))
		bd := b.Get(m)
		if bd.Certified > o {
			t.Errorf("%s: %s certified bound %g > optimum %g (by %s)\n%s", name, m, bd.Certified, o, bd.By, dump(p))
		}
		for _, c := range bd.Components {
			if c.Value > o+roundingSlack(o) {
				t.Errorf("%s: %s component %s = %.9g > optimum %g\n%s", name, m, c.Name, c.Value, o, dump(p))
			}
		}
		if bd.Certified == o {
			tight[m]++
		}
	}
}

func dump(p *Problem) string {
	s := fmt.Sprintf("mode %v groups %d nodes %+v\n", p.Mode, p.Groups, p.Nodes)
	for j, job := range p.Jobs {
		s += fmt.Sprintf("job %d: a=%d d=%d(%v) maps %v reduces %v\n", j, job.Arrival, job.Deadline, job.HasDeadline, job.Maps, job.Reduces)
	}
	return s
}

// TestExactHugeSlotCounts: a node's slots beyond the tasks change nothing
// (at most n tasks of a kind are ever busy at once), so on random problems
// every positive slot count raised to 10^12 gives Exact the optimum of the
// same count raised to the task count — without per-slot tables of 10^12
// entries, which used to be allocated (8 TB).
func TestExactHugeSlotCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	for i := range 60 {
		p := randomProblem(rng, 6)
		n := p.NumTasks()
		raise := func(to int) *Problem {
			q := *p
			q.Nodes = slices.Clone(p.Nodes)
			for x := range q.Nodes {
				for _, s := range []*int{&q.Nodes[x].Slots, &q.Nodes[x].MapSlots, &q.Nodes[x].ReduceSlots} {
					if *s > 0 {
						*s = to
					}
				}
			}
			return &q
		}
		want, err := Exact(raise(n))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Exact(raise(1e12))
		if err != nil {
			t.Fatal(err)
		}
		a, b := *want, *got
		a.Leaves, b.Leaves = 0, 0
		if a != b {
			t.Fatalf("instance %d: %d slots a node %+v, 10^12 slots %+v\n%s", i, n, a, b, dump(p))
		}
	}
}

// TestLongTimesBounded: times far above the old per-value cap of 2^40 ms
// (a COSHH stream without task counts has single tasks of 3·10^12 ms) are
// bounded, not refused. Every time of a random instance is multiplied by an
// odd factor that takes its horizon (latest arrival plus all durations) to
// about 2^49 ms, so single durations reach 10^13–10^14 ms; the enumerated optimum scales exactly (an
// independent check of the enumerator at that scale), no bound exceeds it,
// and the time bounds stay within float error of the factor times the
// unscaled ones.
func TestLongTimesBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 19))
	for i := range 60 {
		p := randomProblem(rng, 6)
		var h, d int64 // the horizon (latest arrival plus every longest duration), the latest deadline
		for _, job := range p.Jobs {
			h, d = max(h, job.Arrival), max(d, job.Deadline)
		}
		for _, job := range p.Jobs {
			for _, tk := range append(slices.Clone(job.Maps), job.Reduces...) {
				h += slices.Max(tk.Dur)
			}
		}
		if h == 0 {
			continue
		}
		f := maxTime/(2*max(h, d)) | 1
		q := scaleTimes(p, f)
		want, err := Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Exact(q)
		if err != nil {
			t.Fatalf("instance %d scaled: %v", i, err)
		}
		name := fmt.Sprintf("instance %d scaled by %d", i, f)
		ff := float64(f)
		for _, m := range []Metric{Makespan, TotalTurnaround, MaxTurnaround} {
			if got.Value(m, len(q.Jobs)) != ff*want.Value(m, len(p.Jobs)) {
				t.Fatalf("%s: %s optimum %g, unscaled %g\n%s", name, m, got.Value(m, len(q.Jobs)), want.Value(m, len(p.Jobs)), dump(p))
			}
		}
		checkAgainstExact(t, name, q, map[Metric]int{})
		lag, err := IntervalLagrangian(context.Background(), q, lagrangeGrids[i%len(lagrangeGrids)])
		if err != nil {
			t.Fatal(err)
		}
		if o := float64(got.TotalTurnaround); lag.Value > o+roundingSlack(o) {
			t.Errorf("%s: Lagrangian %.9g > optimum %g\n%s", name, lag.Value, o, dump(p))
		}
		bp, err := Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		bq, err := Compute(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Metric{Makespan, TotalTurnaround, MaxTurnaround} {
			// Certified values are rounded up to whole ms, so the unscaled
			// bound may be up to 1 ms (f ms scaled) above the exact one.
			lo, hi := ff*(bp.Get(m).Certified-1), ff*bp.Get(m).Certified
			if v := bq.Get(m).Certified; v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				t.Errorf("%s: %s bound %g, unscaled %g × f", name, m, v, bp.Get(m).Certified)
			}
		}
	}
}

// scaleTimes returns p with every arrival, deadline and duration times f.
func scaleTimes(p *Problem, f int64) *Problem {
	q := *p
	q.Jobs = slices.Clone(p.Jobs)
	for j := range q.Jobs {
		job := &q.Jobs[j]
		job.Arrival *= f
		job.Deadline *= f
		for _, ts := range []*[]Task{&job.Maps, &job.Reduces} {
			*ts = slices.Clone(*ts)
			for i := range *ts {
				d := slices.Clone((*ts)[i].Dur)
				for g := range d {
					d[g] *= f
				}
				(*ts)[i].Dur = d
			}
		}
	}
	return &q
}
