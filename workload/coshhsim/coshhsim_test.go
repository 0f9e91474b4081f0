package coshhsim

import (
	"errors"
	"math"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/coshhscenario"
)

// TestTable3Stream: the Table 3 cluster as A-C7/A-C10/A-C11 read it and the
// task model of A-C13 on a generated Facebook stream.
func TestTable3Stream(t *testing.T) {
	sc, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: "facebook", Jobs: 200, Seed: 4, Rho: 0.9, Tasks: true})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Workload("fb.json", sc)
	if err != nil {
		t.Fatal(err)
	}
	maps, reds, capable := 0, 0, 0
	for _, n := range w.Cluster.Nodes {
		maps += n.MapSlots
		reds += n.ReduceSlots
		if n.StorageBytes == 0 || n.StorageBytes >= w.Cluster.BlockBytes {
			capable++
		}
	}
	if maps != 31 || reds != 23 || capable != 3 {
		t.Errorf("%d map + %d reduce slots, %d nodes can store a block; want 31 + 23 and 3 (R1, R3, R4)", maps, reds, capable)
	}
	if w.Cluster.Nodes[0].Speed != 0.01 || w.Cluster.Nodes[1].Speed != 1 {
		t.Errorf("speeds %v, %v; want 0.01 and 1", w.Cluster.Nodes[0].Speed, w.Cluster.Nodes[1].Speed)
	}
	if got := w.Cluster.NonLocalPenalty.Seconds(); math.Abs(got-10.737) > 0.001 {
		t.Errorf("non-local penalty %v s, want 10.737 (128 MB at 100 Mbps)", got)
	}
	if c := coshhscenario.SlotCapacity(sc.Resources); math.Abs(c-48.06) > 1e-9 {
		t.Errorf("C = %v, want 48.06", c)
	}
	// arrival rate: the users' rates add up to ρ·C/E[work]
	cats, _ := coshhscenario.Trace("facebook")
	want := 0.9 * 48.06 / coshhscenario.MeanWork(cats)
	sum := 0.0
	for _, r := range UserRates(sc) {
		sum += r
	}
	if math.Abs(sum-want) > 1e-5*want {
		t.Errorf("Σ user rates %v, want %v", sum, want)
	}
	seen := map[string]bool{}
	for j, job := range w.Jobs {
		work := 0.0
		for _, m := range job.Maps {
			work += m.Work.Seconds()
		}
		for _, r := range job.Reduces {
			work += r.Work.Seconds()
		}
		for _, c := range cats {
			if c.Name == job.Category {
				if math.Abs(work-(c.MapTime+c.ReduceTime)) > 0.001*float64(len(job.Maps)+len(job.Reduces)) {
					t.Errorf("job %d (%s): %v task-seconds, want %v", j, c.Name, work, c.MapTime+c.ReduceTime)
				}
				if c.Name == "Fast aggregate" && !seen[c.Name] && (len(job.Maps) != 1840 || len(job.Reduces) != 9) {
					t.Errorf("fast aggregate: %d maps, %d reduces; want 1840 (230 GB/128 MB) and 9 (8.8 GB/1 GB)", len(job.Maps), len(job.Reduces))
				}
				seen[c.Name] = true
			}
		}
	}
	if !seen["Fast aggregate"] || !seen["Small jobs"] {
		t.Errorf("categories drawn: %v", seen)
	}
}

func TestNoTasksIsBadInput(t *testing.T) {
	sc, _ := coshhscenario.Generate(coshhscenario.GenOptions{Trace: "yahoo", Jobs: 3, Seed: 1})
	if _, err := Workload("y.json", sc); !errors.Is(err, badinput.Err) {
		t.Errorf("job-level stream: %v, want bad input", err)
	}
}
