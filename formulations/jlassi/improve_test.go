package jlassi

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/solve"
)

// TestAnnealer: on scenarios 4 and 6 (seed 1, Table 5's T), for a chain
// without and one with the trade move, the local search starts from the heuristic's schedule and ends no worse; its
// result is deterministic; its placement puts every task once, within its
// slot classes, after its job's maps when a reduce, with the objective it
// claims; and completed into the full model it is a schedule the checker
// accepts with that RealTime, shorter than the heuristic's.
func TestAnnealer(t *testing.T) {
	scenarios := []int{4, 6}
	if testing.Short() {
		scenarios = scenarios[:1]
	}
	for _, sc := range scenarios {
		in := generated(t, sc, 1)
		T := jlassiscenario.Table5Horizon[sc]
		h := Heuristic(in, T)
		if h == nil {
			t.Fatalf("scenario %d: no heuristic schedule", sc)
		}
		for _, every := range []int{0, annealExchangeEvery} {
			annealerCase(t, in, sc, T, h, every)
		}
	}
}

// annealerCase is TestAnnealer for one scenario and one kind of chain
// (every: the trade move's rate, 0 for none).
func annealerCase(t *testing.T, in *jlassiscenario.Instance, sc, T int, h *Schedule, every int) {
	t.Helper()
	var values [2]float64
	var a *annealer
	for r := range values {
		a = newAnnealer(in, T)
		a.exchangeEvery = every
		if !a.fromSchedule(h) {
			t.Fatalf("scenario %d: the heuristic's schedule does not load", sc)
		}
		if math.Abs(a.total-h.RealTime) > 1e-9 {
			t.Fatalf("scenario %d: loaded placement costs %g, the schedule %g", sc, a.total, h.RealTime)
		}
		values[r] = a.run(0, func() bool { return false })
	}
	if values[0] != values[1] {
		t.Errorf("scenario %d: two runs end at %g and %g", sc, values[0], values[1])
	}
	if values[0] > h.RealTime {
		t.Errorf("scenario %d: local search %g worse than its start %g", sc, values[0], h.RealTime)
	}
	place, K := a.placements()
	length := make([]float64, K)
	seen := map[int]bool{}
	cnt := map[wKey]int{}
	at := make([]int, len(in.Tasks))
	for _, p := range place {
		if seen[p.I] {
			t.Fatalf("scenario %d: task %d placed twice", sc, p.I)
		}
		seen[p.I], at[p.I] = true, p.T
		length[p.T] = math.Max(length[p.T], taskP(in, a.classes, p.I, p.J, p.S))
		cnt[wKey{0, p.J, kindIndex(in.Tasks[p.I].Kind)*1000 + p.S, p.T}]++
	}
	if len(seen) != len(in.Tasks) {
		t.Fatalf("scenario %d: %d of %d tasks placed", sc, len(seen), len(in.Tasks))
	}
	for k, n := range cnt {
		if size := len(a.classes[k.J][k.S/1000][k.S%1000]); n > size {
			t.Errorf("scenario %d: %d tasks in a class of %d slots", sc, n, size)
		}
	}
	for _, jb := range in.Jobs {
		for _, r := range jb.Reduces {
			for _, m := range jb.Maps {
				if at[r] <= at[m] {
					t.Errorf("scenario %d: reduce %d in %d, map %d in %d", sc, r, at[r], m, at[m])
				}
			}
		}
	}
	total := 0.0
	for _, l := range length {
		total += l
	}
	if math.Abs(total-values[0]) > 1e-9 {
		t.Errorf("scenario %d: placement costs %g, the search says %g", sc, total, values[0])
	}
	m, err := Build(in, BuildOptions{T: T})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := completePlacement(context.Background(), in, m, place, K, solve.Options{Solver: "native"}, time.Now(), false, 0)
	if s == nil {
		t.Fatalf("scenario %d: the placement (RealTime %g) was not completed", sc, values[0])
	}
	if v := Check(in, s, RealTime, math.NaN()); !v.OK || math.Abs(s.RealTime-values[0]) > 1e-9 {
		t.Errorf("scenario %d: completed schedule %v, RealTime %g, want %g", sc, v, s.RealTime, values[0])
	}
	if s.RealTime >= h.RealTime {
		t.Errorf("scenario %d: local search %g no better than the heuristic %g", sc, s.RealTime, h.RealTime)
	}
	t.Logf("scenario %d seed 1, trade every %d: heuristic %g, local search %g (%d task intervals)", sc, every, h.RealTime, s.RealTime, K)
}

// TestExchange: on the heuristic's placement of scenario 4 seed 1, every
// trade of two positions either swaps their contents whole (the same Σ,
// every task's option kept, the link loads those of the traded placement)
// or, refused, leaves the annealer exactly as it was. Both happen: a trade
// that puts a job's reduces before its maps is refused.
func TestExchange(t *testing.T) {
	in := generated(t, 4, 1)
	T := jlassiscenario.Table5Horizon[4]
	h := Heuristic(in, T)
	a := newAnnealer(in, T)
	if h == nil || !a.fromSchedule(h) {
		t.Fatal("no heuristic placement")
	}
	type state struct {
		opt, pos []int
		total    float64
		load     [][]float64
	}
	snap := func() state {
		st := state{append([]int(nil), a.opt...), append([]int(nil), a.pos...), a.total, nil}
		for _, l := range a.load {
			st.load = append(st.load, append([]float64(nil), l...))
		}
		return st
	}
	sameLoads := func(x, y [][]float64) bool {
		for e := range x {
			for k := range x[e] {
				if math.Abs(x[e][k]-y[e][k]) > 1e-9 {
					return false
				}
			}
		}
		return true
	}
	traded, refused := 0, 0
	for t1 := 0; t1 < T; t1++ {
		for t2 := t1 + 1; t2 < T; t2++ {
			before := snap()
			a.exchange(t1, t2)
			after := snap()
			moved := false
			for i := range after.pos {
				if after.opt[i] != before.opt[i] {
					t.Fatalf("trade %d,%d changed task %d's option", t1, t2, i)
				}
				want := before.pos[i]
				switch want {
				case t1:
					want = t2
				case t2:
					want = t1
				}
				if after.pos[i] != before.pos[i] {
					moved = true
					if after.pos[i] != want {
						t.Fatalf("trade %d,%d put task %d in %d", t1, t2, i, after.pos[i])
					}
				}
			}
			if math.Abs(after.total-before.total) > 1e-9 {
				t.Fatalf("trade %d,%d changed Σ from %g to %g", t1, t2, before.total, after.total)
			}
			if !moved {
				if len(a.members[t1])+len(a.members[t2]) > 0 {
					refused++
				}
				if !sameLoads(before.load, after.load) {
					t.Fatalf("refused trade %d,%d changed the link loads", t1, t2)
				}
				continue
			}
			traded++
			// Trading back restores the loads: they follow the placement.
			a.exchange(t1, t2)
			if back := snap(); !sameLoads(before.load, back.load) || !slices.Equal(back.pos, before.pos) {
				t.Fatalf("trading %d,%d back does not restore the placement", t1, t2)
			}
		}
	}
	if traded == 0 || refused == 0 {
		t.Errorf("%d trades made, %d refused: want both", traded, refused)
	}
	t.Logf("%d trades made, %d refused", traded, refused)
}
