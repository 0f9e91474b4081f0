package swim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/sim"
)

// perTask is the bytes → tasks model written out task by task, as the
// package doc states it: each map reads the next block of the input (the
// last what is left), a map-only job's output is split evenly over its
// maps, and every reduce gets an even share of the shuffle and output.
// Workload works a full block's duration out once per job; this is the
// reference it must equal.
func perTask(m Model, r Record) (maps, reds []sim.Time) {
	nMaps := max(int64(1), ceilDiv(r.Input, m.BlockBytes))
	nReds := int64(0)
	if r.Shuffle > 0 || (r.Output > 0 && !m.ReducesNeedShuffle) {
		nReds = max(1, ceilDiv(r.Shuffle, m.ReduceBytes))
	}
	rest := r.Input
	for range nMaps {
		b := min(rest, m.BlockBytes)
		rest -= b
		work := float64(b)
		if nReds == 0 {
			work += float64(r.Output) / float64(nMaps)
		}
		maps = append(maps, m.TaskOverhead+sim.FromSeconds(work/m.MapRate))
	}
	for range nReds {
		reds = append(reds, m.TaskOverhead+sim.FromSeconds(float64(r.Shuffle+r.Output)/float64(nReds)/m.ReduceRate))
	}
	return maps, reds
}

// TestWorkloadMatchesPerTask: on seeded random records (inputs on and off
// block boundaries, empty inputs, map-only jobs with output, odd rates and
// block sizes), every task's duration equals the per-task reference, and
// each job's maps and reduces are windows of their own (appending to one
// never overwrites another job's tasks).
func TestWorkloadMatchesPerTask(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 12))
	for round := range 40 {
		m := DefaultModel()
		m.BlockBytes = 1 + rng.Int64N(1<<20)
		m.ReduceBytes = 1 + rng.Int64N(4<<20)
		m.MapRate = 1 + rng.Float64()*(1<<20)
		m.ReduceRate = 1 + rng.Float64()*(1<<20)
		m.TaskOverhead = sim.Time(rng.IntN(2000))
		m.ReducesNeedShuffle = round%3 == 0
		recs := make([]Record, 1+rng.IntN(30))
		for k := range recs {
			r := Record{ID: fmt.Sprint("job", k), Submit: float64(k), Line: k + 1}
			switch rng.IntN(4) {
			case 0: // a whole number of blocks
				r.Input = m.BlockBytes * rng.Int64N(20)
			case 1:
				r.Input = 0
			default:
				r.Input = rng.Int64N(20 * m.BlockBytes)
			}
			if rng.IntN(2) == 0 {
				r.Shuffle = rng.Int64N(5 * m.ReduceBytes)
			}
			if rng.IntN(2) == 0 {
				r.Output = rng.Int64N(1 << 30)
			}
			recs[k] = r
		}
		w, err := m.Workload(recs, ClusterSpec{Nodes: 4, MapSlots: 2, ReduceSlots: 1, Replicas: 3}, "t.tsv")
		if err != nil {
			t.Fatal(err)
		}
		for k, r := range recs {
			maps, reds := perTask(m, r)
			job := w.Jobs[k]
			if len(job.Maps) != len(maps) || len(job.Reduces) != len(reds) {
				t.Fatalf("round %d %s: %d maps, %d reduces; want %d, %d", round, r.ID, len(job.Maps), len(job.Reduces), len(maps), len(reds))
			}
			for i, d := range maps {
				if job.Maps[i] != (sim.TaskSpec{Work: d}) {
					t.Fatalf("round %d %s: map %d works %d ms, want %d (block %d, input %d)", round, r.ID, i, job.Maps[i].Work, d, m.BlockBytes, r.Input)
				}
			}
			for i, d := range reds {
				if job.Reduces[i] != (sim.TaskSpec{Work: d}) {
					t.Fatalf("round %d %s: reduce %d works %d ms, want %d", round, r.ID, i, job.Reduces[i].Work, d)
				}
			}
			if cap(job.Maps) != len(job.Maps) || cap(job.Reduces) != len(job.Reduces) {
				t.Fatalf("round %d %s: maps %d/%d, reduces %d/%d (len/cap): a job's window must end at its own tasks",
					round, r.ID, len(job.Maps), cap(job.Maps), len(job.Reduces), cap(job.Reduces))
			}
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
