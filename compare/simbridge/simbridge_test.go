package simbridge

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// randomWorkload draws a small stream: 1–3 nodes (fixed or fungible slots,
// speeds 1 or 2), up to 5 jobs of 1–4 maps and 0–2 reduces, whole-ms works,
// optional deadlines.
func randomWorkload(rng *rand.Rand, maxJobs int) *sim.Workload {
	return randomChainedWorkload(rng, maxJobs, false)
}

// randomChainedWorkload is randomWorkload where, when chains is set, some
// jobs are submitted by the completion of an earlier one.
func randomChainedWorkload(rng *rand.Rand, maxJobs int, chains bool) *sim.Workload {
	w := &sim.Workload{Name: "random"}
	w.Cluster.Fungible = rng.IntN(3) == 0
	for x := range 1 + rng.IntN(3) {
		n := sim.Node{Name: fmt.Sprintf("n%d", x), MapSlots: 1 + rng.IntN(2), ReduceSlots: 1 + rng.IntN(2),
			TotalSlots: 1 + rng.IntN(3), Speed: float64(1 + rng.IntN(2))}
		w.Cluster.Nodes = append(w.Cluster.Nodes, n)
	}
	for j := range 1 + rng.IntN(maxJobs) {
		job := sim.Job{Name: fmt.Sprintf("j%d", j), Parent: -1, Arrival: sim.Time(rng.Int64N(20000)), Deadline: sim.NoDeadline}
		for range 1 + rng.IntN(4) {
			job.Maps = append(job.Maps, sim.TaskSpec{Work: sim.Time(500 + rng.Int64N(9000))})
		}
		for range rng.IntN(3) {
			job.Reduces = append(job.Reduces, sim.TaskSpec{Work: sim.Time(500 + rng.Int64N(9000))})
		}
		if rng.IntN(2) == 0 {
			job.Deadline = job.Arrival + sim.Time(5000+rng.Int64N(30000))
		}
		if j > 0 && chains && rng.IntN(2) == 0 {
			job.Parent = rng.IntN(j) // submitted when that job completes (TPC-H)
			job.Deadline = sim.NoDeadline
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

// TestPoliciesNeverBelowBound runs FIFO, EDF and Fair on random workloads,
// in ideal mode and in hadoop1 mode with slow-start 0.05, contention and
// noise, verifies each trace and asks compare.Build, which fails on a
// verified run below the certified bound (and, for tiny instances, below the
// enumerated optimum). A quarter of the workloads chain jobs (makespan only).
func TestPoliciesNeverBelowBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 19))
	n := 200
	if testing.Short() {
		n = 60
	}
	for i := range n {
		w := randomChainedWorkload(rng, 5, i%4 == 3)
		opt := sim.DefaultOptions()
		opt.Seed = uint64(i)
		if i%2 == 0 {
			opt.Heartbeat, opt.SlowStart = 0, 1
		} else {
			opt.MapContention, opt.Noise = 0.25, 0.2
		}
		p, err := Problem(w, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		b, err := lowerbound.Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		var exact *lowerbound.Optimum
		if p.NumTasks() <= 7 {
			if exact, err = lowerbound.Exact(p); err != nil {
				t.Fatal(err)
			}
		}
		var runs []compare.Run
		for _, pol := range []sim.Policy{fifo.New(), fifo.NewEDF(), fair.New()} {
			res, err := sim.Run(w, pol, opt)
			if err != nil {
				t.Fatal(err)
			}
			verr := check.Verify(w, res)
			c, err := Completions(res)
			if err != nil {
				t.Fatal(err)
			}
			run := compare.Run{Policy: pol.Name(), Completion: c, Verified: verr == nil}
			if verr != nil {
				t.Errorf("instance %d: %s: %v", i, pol.Name(), verr)
			}
			runs = append(runs, run)
		}
		metrics := lowerbound.Metrics()
		if Chained(w) {
			metrics = []lowerbound.Metric{lowerbound.Makespan} // arrivals are lower bounds
		}
		for _, m := range metrics {
			if _, err := compare.Build(p, m, compare.OfflineFromBounds(b, m, exact), runs); err != nil {
				t.Fatalf("instance %d (options %+v): %v", i, opt, err)
			}
		}
	}
}
