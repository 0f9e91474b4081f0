package tumm

import (
	"math"
)

// SimResult is the outcome of a task-level simulation.
type SimResult struct {
	// MapEnd[i] and Finish[i]: when job i's last map task and last task end.
	MapEnd, Finish []float64
	Makespan       float64
}

// Simulate runs a batch task by task on sm map slots and sr reduce slots under
// FIFO: every task of a job takes the job's mean task time; map tasks start
// in job order, each on the earliest free map slot; job i's reduce tasks may
// start once all of its map tasks have ended, in job order (a reduce task
// never starts before the one queued ahead of it), each on the earliest free
// reduce slot. It is the brute-force counterpart of Pipeline: its makespan is
// never below Pipeline's, and equals it when every job's task counts are
// multiples of its phase's slot count.
func Simulate(jobs []Job, sm, sr int) SimResult {
	r := SimResult{MapEnd: make([]float64, len(jobs)), Finish: make([]float64, len(jobs))}
	mapFree := make([]float64, max(sm, 0))
	redFree := make([]float64, max(sr, 0))
	lastStart, prevFinish := 0.0, 0.0
	for i, j := range jobs {
		end := 0.0
		if i > 0 {
			end = r.MapEnd[i-1] // a job with no maps is ready when the one ahead is
		}
		for k := 0; k < j.MapTasks; k++ {
			if sm <= 0 {
				end = math.Inf(1)
				break
			}
			s := earliest(mapFree)
			mapFree[s] += j.MapTime
			end = math.Max(end, mapFree[s])
		}
		r.MapEnd[i] = end
		fin := math.Max(end, prevFinish)
		for k := 0; k < j.ReduceTasks; k++ {
			if sr <= 0 {
				fin = math.Inf(1)
				break
			}
			s := earliest(redFree)
			start := math.Max(math.Max(redFree[s], end), lastStart)
			redFree[s] = start + j.ReduceTime
			lastStart = start
			fin = math.Max(fin, redFree[s])
		}
		r.Finish[i], prevFinish = fin, fin
		r.Makespan = math.Max(r.Makespan, fin)
	}
	return r
}

// earliest returns the index of the smallest entry (the lowest on ties).
func earliest(free []float64) int {
	return argmin(free)
}

func argmin(xs []float64) int {
	b := 0
	for i, x := range xs {
		if x < xs[b] {
			b = i
		}
	}
	return b
}
