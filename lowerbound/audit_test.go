package lowerbound

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/mrbound/mrbound/solve"
)

// wideProblem draws a tiny instance in shapes randomProblem leaves out
// (issue 26's audit, s18audit): up to three duration groups, each node in
// one, with its own slot counts and per-group durations that differ from
// group to group; no slot of a kind at all when no job needs it; jobs with
// maps only, reduces only or no task; jobs drawn from a few types (many
// identical jobs) with tied arrivals; 1-ms and 0-ms tasks; at one instance
// in five every time multiplied by a large odd factor (times near 2^40 ms)
// and at another in five arrivals far apart; deadlines on some jobs.
func wideProblem(rng *rand.Rand, maxTasks int) *Problem {
	p := &Problem{Mode: Fixed, Groups: 1 + rng.IntN(3)}
	if rng.IntN(3) == 0 {
		p.Mode = Fungible
	}
	nNodes := 1 + rng.IntN(3)
	for x := range nNodes {
		n := Node{Group: x % p.Groups}
		if p.Mode == Fungible {
			n.Slots = rng.IntN(3)
		} else {
			n.MapSlots, n.ReduceSlots = rng.IntN(3), rng.IntN(3)
		}
		p.Nodes = append(p.Nodes, n)
	}
	dur := func() int64 {
		switch rng.IntN(6) {
		case 0:
			return 1
		case 1:
			return 0
		}
		return 1 + rng.Int64N(9)
	}
	task := func(base int64) Task {
		if p.Groups == 1 || rng.IntN(3) == 0 {
			return Task{Dur: []int64{base}}
		}
		d := make([]int64, p.Groups)
		for g := range d {
			d[g] = max(0, base+rng.Int64N(5)-2)
		}
		return Task{Dur: d}
	}
	type shape struct {
		nm, nr int
		dm, dr int64
	}
	types := make([]shape, 1+rng.IntN(3))
	for i := range types {
		types[i] = shape{rng.IntN(4), rng.IntN(3), dur(), dur()}
	}
	spread := int64(1 + rng.IntN(12))
	if rng.IntN(5) == 0 {
		spread = 1 << 30 // arrivals far apart
	}
	tasks := 0
	for range 1 + rng.IntN(5) {
		t := types[rng.IntN(len(types))]
		if tasks+t.nm+t.nr > maxTasks {
			continue
		}
		tasks += t.nm + t.nr
		j := Job{Arrival: rng.Int64N(spread)}
		for range t.nm {
			j.Maps = append(j.Maps, task(t.dm))
		}
		for range t.nr {
			j.Reduces = append(j.Reduces, task(t.dr))
		}
		if rng.IntN(2) == 0 {
			j.HasDeadline, j.Deadline = true, j.Arrival+rng.Int64N(25)
		}
		p.Jobs = append(p.Jobs, j)
	}
	// Give each kind a slot when some job needs it (and leave it without
	// one otherwise, half the time).
	var need [2]bool
	for _, j := range p.Jobs {
		need[0] = need[0] || len(j.Maps) > 0
		need[1] = need[1] || len(j.Reduces) > 0
	}
	x := rng.IntN(nNodes)
	if p.Mode == Fungible {
		if need[0] || need[1] {
			p.Nodes[x].Slots = max(1, p.Nodes[x].Slots)
		}
	} else {
		if need[0] {
			p.Nodes[x].MapSlots = max(1, p.Nodes[x].MapSlots)
		}
		if need[1] {
			p.Nodes[(x+1)%nNodes].ReduceSlots = max(1, p.Nodes[(x+1)%nNodes].ReduceSlots)
		}
	}
	if spread < 1<<30 && rng.IntN(5) == 0 {
		p = scaleTimes(p, int64(1)<<34+2*rng.Int64N(1<<20)+1)
	}
	return p
}

// auditN returns n, or MRBOUND_AUDIT_N when set (the audit's scratch runs).
func auditN(n int) int {
	if v, err := strconv.Atoi(os.Getenv("MRBOUND_AUDIT_N")); err == nil && v > 0 {
		return v
	}
	return n
}

// TestAuditWideBoundsNeverExceedOptimum: the audit's property test
// (s18audit) on wideProblem's shapes. For every metric no component and no
// certified value of Compute exceeds Exact's optimum; with every optional
// component of ComputeWith (the bucketed LP, the interval Lagrangian with
// and without column generation, the time-indexed LP from the semi-active
// horizon and from the optimum as incumbent) the total and mean turnaround
// bounds do not either, and each optional component is below the optimum.
func TestAuditWideBoundsNeverExceedOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 18))
	n := auditN(40)
	ctx := context.Background()
	native := solve.Options{Solver: "native"}
	for i := range n {
		p := wideProblem(rng, 7)
		name := fmt.Sprintf("instance %d", i)
		checkAgainstExact(t, name, p, map[Metric]int{})
		opt, err := Exact(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lag := lagrangeGrids[i%2] // the small grids: the large ones cost seconds here
		for _, o := range []Options{
			{LP: &LPOptions{Solve: native, Buckets: 1 + i%40}},
			{Lagrange: &lag},
			{Lagrange: &lag, LagrangeCG: &CGOptions{Rounds: 5, Solve: native}},
			{TimeIndexed: &TimeIndexedOptions{Solve: native}},
			{TimeIndexed: &TimeIndexedOptions{Solve: native, Incumbent: opt.TotalTurnaround}},
		} {
			if o.TimeIndexed != nil && timeIndexedTooBig(p) {
				continue
			}
			b, err := ComputeWith(ctx, p, o)
			if err != nil {
				t.Fatalf("%s %+v: %v\n%s", name, o, err, dump(p))
			}
			for _, m := range []Metric{TotalTurnaround, MeanTurnaround} {
				ov := opt.Value(m, len(p.Jobs))
				bd := b.Get(m)
				if bd.Certified > ov {
					t.Fatalf("%s %+v: %s certified %g > optimum %g (by %s)\n%s", name, o, m, bd.Certified, ov, bd.By, dump(p))
				}
				for _, c := range bd.Components {
					if c.Value > ov+roundingSlack(ov) {
						t.Fatalf("%s %+v: %s component %s = %.9g > optimum %g\n%s", name, o, m, c.Name, c.Value, ov, dump(p))
					}
				}
			}
		}
	}
}

// timeIndexedTooBig skips the time-indexed LP on the scaled instances,
// whose horizons in whole units would be columns by the billion (the
// option is for instances of a few dozen jobs on small grids).
func timeIndexedTooBig(p *Problem) bool {
	var h int64
	for _, j := range p.Jobs {
		h = max(h, j.Arrival)
		for _, ts := range [2][]Task{j.Maps, j.Reduces} {
			for _, tk := range ts {
				for _, d := range tk.Dur {
					h += d
				}
			}
		}
	}
	return h > 5_000
}
