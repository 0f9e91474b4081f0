package mrcp

import (
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// TestEnergeticByHand: cases the preemptive relaxation admits and the
// energetic check must reject, and their feasible neighbours.
func TestEnergeticByHand(t *testing.T) {
	var en energetic
	pack16 := newPackTable([]int{16})
	for _, c := range []struct {
		name string
		ts   []eTask
		c    int
		free []int
		pack *packTable
		want bool
	}{
		// b fills [3, 7) on the only slot; a (4 units in [0, 10)) would
		// need 1 unit of it whichever way it is shifted.
		{"compulsory part", []eTask{{n: 1, p: 4, q: 1, r: 0, d: 10}, {n: 1, p: 4, q: 1, r: 3, d: 7}}, 1, nil, nil, false},
		{"compulsory part, room", []eTask{{n: 1, p: 4, q: 1, r: 0, d: 11}, {n: 1, p: 4, q: 1, r: 3, d: 7}}, 1, nil, nil, true},
		// 9 tasks of 16 on 4 slots need three waves, 48 units: 47 is short
		// though 144 ≤ 4·47 and no task has a compulsory part (a slot
		// holds two whole tasks, 32 units, in 47).
		{"packing", []eTask{{n: 5, p: 16, q: 1, r: 0, d: 47}, {n: 4, p: 16, q: 1, r: 0, d: 47}}, 4, nil, pack16, false},
		{"packing, room", []eTask{{n: 5, p: 16, q: 1, r: 0, d: 48}, {n: 4, p: 16, q: 1, r: 0, d: 48}}, 4, nil, pack16, true},
		{"packing off", []eTask{{n: 5, p: 16, q: 1, r: 0, d: 47}, {n: 4, p: 16, q: 1, r: 0, d: 47}}, 4, nil, nil, true},
		// Slots free at 0, 0, 20, 40: five tasks of 16 by 36 fit (two on
		// each of the first slots, one on the third); six by 40 do not,
		// though 96 ≤ 40 + 40 + 20.
		{"profile", []eTask{{n: 5, p: 16, q: 1, r: 0, d: 36}}, 4, []int{0, 0, 20, 40}, pack16, true},
		{"profile, short", []eTask{{n: 6, p: 16, q: 1, r: 0, d: 40}}, 4, []int{0, 0, 20, 40}, pack16, false},
		// Compulsory parts: 5 tasks of 16 in [0, 31) all cover [15, 16).
		{"compulsory parts", []eTask{{n: 5, p: 16, q: 1, r: 0, d: 31}}, 4, nil, nil, false},
		// A group of 6 on 2 slots in [0, 30) with p = 10 needs all of it;
		// a single task forced into [10, 20) breaks it.
		{"group", []eTask{{n: 6, p: 10, q: 1, r: 0, d: 30}, {n: 1, p: 10, q: 1, r: 10, d: 20}}, 2, nil, nil, false},
	} {
		en.pack = c.pack
		if got := en.feasible(c.ts, c.c, c.free, true); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestEnergeticAdmitsSchedules: the energetic check (with the packing term)
// never rejects a real schedule. Greedy schedules in random job orders on
// 1-s 20-job mixed streams give, per slot kind, tasks with windows around
// where they actually run (slack 0–3 at each end, for the first 6 jobs, or
// per job group the span of its tasks), checked on constant capacity and, for the tasks
// starting at or after a random instant F, on the slot profile that the
// earlier tasks leave (each slot free from the end of its last task, at
// least F), with the cheap interval set of the search as well as the full one.
func TestEnergeticAdmitsSchedules(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 20, Lambda: 0.02, Seed: seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		mpack, rpack := kindPacks(in)
		caps := [3]int{}
		caps[mrcpscenario.Map], caps[mrcpscenario.Reduce] = slotTotals(in)
		rng := rand.New(rand.NewPCG(seed, 11))
		var en energetic
		for trial := 0; trial < 4; trial++ {
			s := Greedy(in, rng.Perm(len(in.Jobs)))
			if err := Check(in, s); err != nil {
				t.Fatal(err)
			}
			for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
				en.pack = mpack
				if k == mrcpscenario.Reduce {
					en.pack = rpack
				}
				var single []eTask
				span := map[int]*eTask{}
				for _, a := range s.Tasks {
					if a.Kind != k {
						continue
					}
					p := a.End - a.Start
					if a.Task.Job < 6 { // one task each: keep the O(n³) check short
						single = append(single, eTask{n: 1, p: p, q: 1, r: a.Start - rng.IntN(4), d: a.End + rng.IntN(4)})
					}
					key := a.Task.Job*1000 + p
					if g := span[key]; g != nil {
						g.n++
						g.r, g.d = min(g.r, a.Start), max(g.d, a.End)
					} else {
						span[key] = &eTask{n: 1, p: p, q: 1, r: a.Start, d: a.End}
					}
				}
				var grouped []eTask
				for _, g := range span {
					grouped = append(grouped, *g)
				}
				for _, ts := range [][]eTask{single, grouped} {
					if !en.feasible(ts, caps[k], nil, true) {
						t.Fatalf("seed %d %v: the energetic check rejects a greedy schedule", seed, k)
					}
				}
				// The slot profile at F.
				F := s.Tasks[rng.IntN(len(s.Tasks))].Start
				free := map[[2]int]int{}
				for r, res := range in.Resources {
					for i := 0; i < res.Slots(k); i++ {
						free[[2]int{r, i}] = F
					}
				}
				var rest []eTask
				for _, a := range s.Tasks {
					if a.Kind != k {
						continue
					}
					if a.Start < F {
						key := [2]int{a.Resource, a.Slot}
						free[key] = max(free[key], a.End)
					} else {
						rest = append(rest, eTask{n: 1, p: a.End - a.Start, q: 1, r: max(F, a.Start-rng.IntN(4)), d: a.End + rng.IntN(4)})
					}
				}
				var fr []int
				for _, f := range free {
					fr = append(fr, f)
				}
				for _, full := range []bool{false, true} {
					if !en.feasible(rest, caps[k], fr, full) {
						t.Fatalf("seed %d %v: the energetic check rejects the rest of a greedy schedule at %d (full %v)", seed, k, F, full)
					}
				}
			}
		}
	}
}

// TestPackTable: S(L) is the largest sum of the durations at most L.
func TestPackTable(t *testing.T) {
	pt := newPackTable([]int{30, 16, 20, 16})
	all := pt.bit(16) | pt.bit(20) | pt.bit(30)
	for _, c := range []struct {
		mask    uint
		l, want int
	}{{all, 0, 0}, {all, 15, 0}, {all, 16, 16}, {all, 31, 30}, {all, 33, 32}, {all, 35, 32}, {all, 36, 36},
		{all, 353, 352}, {all, 354, 354}, {all, maxPackLen + 1, maxPackLen + 1}, {0, 35, 32},
		{pt.bit(20), 79, 60}, {pt.bit(20) | pt.bit(30), 79, 70}, {pt.bit(16) | pt.bit(30), 45, 32}, {pt.bit(16) | pt.bit(30), 46, 46}} {
		if got := pt.s(c.mask, c.l); got != c.want {
			t.Errorf("S_%b(%d) = %d, want %d", c.mask, c.l, got, c.want)
		}
	}
	if got := newPackTable([]int{1, 2, 3, 4, 5, 6, 70}).s(1, 69); got != 69 {
		t.Errorf("more than maxPackDurs durations: S(69) = %d, want 69 (all durations)", got)
	}
}

// TestRelaxLateBound: the relaxation's least Z per late count never exceeds
// the Z of a real schedule with that many late jobs (the heuristic's and
// greedy schedules in random job orders on 1-s 20-job mixed streams), and
// does not grow when more jobs may be late.
func TestRelaxLateBound(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 20, Lambda: 0.02, Seed: seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		rx := newRelaxation(in)
		zmin := rx.minTurnaround(TurnaroundLowerBound(in))
		scheds := []*Schedule{heuristic(in, Objective{Kind: Product})}
		rng := rand.New(rand.NewPCG(seed, 13))
		for trial := 0; trial < 3; trial++ {
			scheds = append(scheds, Greedy(in, rng.Perm(len(in.Jobs))))
		}
		for _, s := range scheds {
			if b := relaxLateBound(in, rx, s.LateJobs, zmin, s.MaxTurnaround); b > s.MaxTurnaround {
				t.Errorf("seed %d: a schedule with %d late jobs has Z %d, below the bound %d", seed, s.LateJobs, s.MaxTurnaround, b)
			}
		}
		prev := 1 << 40
		for k := 0; k <= 2; k++ {
			b := relaxLateBound(in, rx, k, zmin, 1000)
			if b > prev {
				t.Errorf("seed %d: bound %d with %d late above %d with fewer", seed, b, k, prev)
			}
			prev = b
		}
	}
}

// TestLateLowerBound: the late-count bound at a schedule's own maximum
// turnaround never exceeds its late jobs, on greedy schedules of overloaded
// and ordinary streams (seeds 7 and 10 have 4 or more late jobs at best).
func TestLateLowerBound(t *testing.T) {
	type stream struct {
		seed   uint64
		jobs   int
		lambda float64
	}
	hits := 0
	for _, st := range []stream{{7, 20, 0.02}, {10, 20, 0.02}, {3, 8, 0.05}, {4, 10, 0.08}, {5, 6, 0.1}} {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: st.jobs, Lambda: st.lambda, Seed: st.seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		rx := newRelaxation(in)
		rng := rand.New(rand.NewPCG(st.seed, 29))
		scheds := []*Schedule{heuristic(in, Objective{Kind: Product})}
		for trial := 0; trial < 40; trial++ {
			scheds = append(scheds, Greedy(in, rng.Perm(len(in.Jobs))))
		}
		d := make([]int, len(in.Jobs))
		for _, s := range scheds {
			r := capDeadlines(in, s.MaxTurnaround, d)
			lb := rx.lateLowerBound(s.MaxTurnaround, r)
			if lb > s.LateJobs {
				t.Errorf("seed %d, %d jobs: a schedule with Z %d has %d late jobs, below the bound %d",
					st.seed, st.jobs, s.MaxTurnaround, s.LateJobs, lb)
			}
			if lb > 0 {
				hits++
			}
		}
	}
	if hits == 0 {
		t.Error("the bound was never above 0: the test checks nothing")
	}
}

// TestLateSetPasses: the branch and bound over late sets says "none passes"
// only when enumerating every late set of at most k jobs finds none that
// the relaxation admits, on small tight streams at every cap and late count.
func TestLateSetPasses(t *testing.T) {
	none, some := 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 7, Lambda: 0.08, Seed: seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		rx := newRelaxation(in)
		zmin := rx.minTurnaround(TurnaroundLowerBound(in))
		d := make([]int, len(in.Jobs))
		for z := zmin; z <= zmin+120; z += 7 {
			r := capDeadlines(in, z, d)
			for k := 0; k <= min(4, len(r)); k++ {
				want := false
				for mask := 0; mask < 1<<len(r) && !want; mask++ {
					pick := []int{}
					for i := range r {
						if mask>>i&1 == 1 {
							pick = append(pick, i)
						}
					}
					if len(pick) > k {
						continue
					}
					capDeadlines(in, z, d)
					lateSetDeadlines(in, r, pick, z, d)
					want = rx.feasible(d)
				}
				got := rx.lateSetPasses(z, r, k)
				if want && !got {
					t.Errorf("seed %d, z %d, k %d: a late set passes, the branch and bound says none", seed, z, k)
				}
				if got {
					some++
				} else {
					none++
				}
			}
		}
	}
	t.Logf("%d (z, k) with no late set, %d with one", none, some)
	if none == 0 || some == 0 {
		t.Errorf("only one answer (%d none, %d some): the test checks nothing", none, some)
	}
}
