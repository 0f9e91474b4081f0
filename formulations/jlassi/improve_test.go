package jlassi

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/solve"
)

// TestAnnealer: on scenarios 4 and 6 (seed 1, Table 5's T) the local
// search starts from the heuristic's schedule and ends no worse; its
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
		var values [2]float64
		var a *annealer
		for r := range values {
			a = newAnnealer(in, T)
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
		t.Logf("scenario %d seed 1: heuristic %g, local search %g (%d task intervals)", sc, h.RealTime, s.RealTime, K)
	}
}
