package simbridge

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
)

// TestProblemDurations: every task's duration on every group is its work
// over the group's (integral) speed, rounded with halves down (no noise
// here); equal durations within a job share one slice and different ones
// do not.
func TestProblemDurations(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	for range 50 {
		w := randomWorkload(rng, 6)
		// repeat a task so that some job has two equal ones in a row
		job := &w.Jobs[rng.IntN(len(w.Jobs))]
		job.Maps = append(job.Maps, job.Maps[len(job.Maps)-1])
		p, err := Problem(w, IdealOptions(), false)
		if err != nil {
			t.Fatal(err)
		}
		shared := 0
		for j := range w.Jobs {
			for i, ts := range w.Jobs[j].Maps {
				lt := p.Jobs[j].Maps[i]
				for g, d := range lt.Dur {
					// work/s rounded, a half down (the bound must not exceed
					// what the simulator's rounding gives): ⌊(2·work + s − 1)/(2s)⌋
					s := int64(speedOf(w, p.Nodes, g))
					if want := (2*int64(ts.Work) + s - 1) / (2 * s); d != want {
						t.Fatalf("jobs[%d].maps[%d] on group %d: %d ms, want %d", j, i, g, d, want)
					}
				}
				if i > 0 {
					prev := p.Jobs[j].Maps[i-1]
					same := &prev.Dur[0] == &lt.Dur[0]
					if same != (w.Jobs[j].Maps[i-1].Work == ts.Work) {
						t.Fatalf("jobs[%d].maps[%d]: works %d and %d, slices shared %v", j, i, w.Jobs[j].Maps[i-1].Work, ts.Work, same)
					}
					if same {
						shared++
					}
				}
			}
		}
		if shared == 0 {
			t.Fatal("no task shares its durations with the one before it")
		}
	}
}

// speedOf is the speed of the nodes of problem group g.
func speedOf(w *sim.Workload, nodes []lowerbound.Node, g int) float64 {
	for x, n := range nodes {
		if n.Group == g {
			if s := w.Cluster.Nodes[x].Speed; s != 0 {
				return s
			}
			return 1
		}
	}
	return math.NaN()
}
