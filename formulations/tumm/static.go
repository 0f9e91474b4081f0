package tumm

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/instances/tummscenario"
)

// Job is one job of a FIFO batch (see instances/tummscenario).
type Job = tummscenario.Job

// StaticResult is Algorithm 1's answer.
type StaticResult struct {
	// MapSlots and ReduceSlots are the best split (s_m, s_r), s_m + s_r = S;
	// the smallest s_m among equal makespans.
	MapSlots, ReduceSlots int
	// Makespan is ft(n) for that split.
	Makespan float64
	// Start[i] and Finish[i] are st(i) and ft(i).
	Start, Finish []float64
	// Makespans[s_m−1] is ft(n) for every s_m = 1..S (+Inf when s_r = 0 but
	// some job has reduce work).
	Makespans []float64
}

// Pipeline evaluates the FIFO two-stage recursion of Algorithm 1 for one split:
//
//	w_m(i) = n_m(i)·t̄_m(i),  w_r(i) = n_r(i)·t̄_r(i)
//	st(i)  = st(i−1) + w_m(i−1)/s_m
//	ft(i)  = max(st(i) + w_m(i)/s_m, ft(i−1)) + w_r(i)/s_r
//
// with st(1) = 0 and ft(0) = 0. A phase with no work takes no time, even on
// zero slots; a phase with work on zero slots makes ft infinite.
func Pipeline(jobs []Job, sm, sr int) (st, ft []float64) {
	st, ft = make([]float64, len(jobs)), make([]float64, len(jobs))
	prevSt, prevWm, prevFt := 0.0, 0.0, 0.0
	for i, j := range jobs {
		wm := float64(j.MapTasks) * j.MapTime
		wr := float64(j.ReduceTasks) * j.ReduceTime
		st[i] = prevSt + phase(prevWm, sm)
		ft[i] = math.Max(st[i]+phase(wm, sm), prevFt) + phase(wr, sr)
		prevSt, prevWm, prevFt = st[i], wm, ft[i]
	}
	return st, ft
}

func phase(w float64, slots int) float64 {
	if w == 0 {
		return 0
	}
	if slots <= 0 {
		return math.Inf(1)
	}
	return w / float64(slots)
}

// StaticConfig is Algorithm 1 (Yao et al., §3.2): it enumerates s_m = 1..S,
// evaluates Pipeline and keeps the split with the smallest makespan ft(n),
// the first one on ties. O(S·n).
func StaticConfig(jobs []Job, S int) (StaticResult, error) {
	if S < 1 {
		return StaticResult{}, fmt.Errorf("tumm: slot count %d is below 1", S)
	}
	if len(jobs) == 0 {
		return StaticResult{}, fmt.Errorf("tumm: empty job batch")
	}
	best := StaticResult{Makespan: math.Inf(1), Makespans: make([]float64, S)}
	for sm := 1; sm <= S; sm++ {
		st, ft := Pipeline(jobs, sm, S-sm)
		ms := ft[len(ft)-1]
		best.Makespans[sm-1] = ms
		if ms < best.Makespan {
			best.MapSlots, best.ReduceSlots, best.Makespan, best.Start, best.Finish = sm, S-sm, ms, st, ft
		}
	}
	if math.IsInf(best.Makespan, 1) {
		return best, fmt.Errorf("tumm: no split of %d slots can run the batch (reduce work needs S ≥ 2)", S)
	}
	return best, nil
}
