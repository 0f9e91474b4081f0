package lowerbound

import (
	"context"
	"math/rand/v2"
	"testing"
)

// generated10k is a 10,000-task instance on 100 nodes in two duration groups
// (the second 1.5× slower), 2 map + 2 reduce slots each: 400 jobs of 1–40
// maps (5–30 s) and 0–10 reduces (10–60 s), Poisson arrivals at about 90%
// map load, deadlines a_j + 2–5 × the job's serial work / 20.
func generated10k(seed uint64) *Problem {
	rng := rand.New(rand.NewPCG(seed, 10000))
	p := &Problem{Mode: Fixed, Groups: 2}
	for x := range 100 {
		p.Nodes = append(p.Nodes, Node{Group: x % 2, MapSlots: 2, ReduceSlots: 2})
	}
	task := func(lo, hi int64) Task {
		d := (lo + rng.Int64N(hi-lo)) * 1000
		return Task{Dur: []int64{d, d * 3 / 2}}
	}
	now, tasks := int64(0), 0
	for tasks < 10000 {
		j := Job{Arrival: now}
		var work int64
		for range 1 + rng.IntN(40) {
			j.Maps = append(j.Maps, task(5, 30))
			work += j.Maps[len(j.Maps)-1].Dur[0]
		}
		for range rng.IntN(11) {
			j.Reduces = append(j.Reduces, task(10, 60))
			work += j.Reduces[len(j.Reduces)-1].Dur[0]
		}
		j.HasDeadline = true
		j.Deadline = now + (2+rng.Int64N(4))*work/20
		tasks += len(j.Maps) + len(j.Reduces)
		p.Jobs = append(p.Jobs, j)
		now += int64(rng.ExpFloat64() * 1500) // ms between arrivals
	}
	return p
}

func benchCompute(b *testing.B, p *Problem) {
	b.ReportMetric(float64(p.NumTasks()), "tasks")
	var out *Bounds
	var err error
	for b.Loop() {
		if out, err = Compute(p); err != nil {
			b.Fatal(err)
		}
	}
	for _, m := range Metrics() {
		bd := out.Get(m)
		b.Logf("%-16s %.6g (by %s)", m, bd.Certified, bd.By)
	}
}

// BenchmarkGenerated10k: every bound of the 10,000-task, 100-node instance.
func BenchmarkGenerated10k(b *testing.B) { benchCompute(b, generated10k(1)) }

// mrcpStream is an MRCP mixed stream (policies.md §3.1): 4 nodes with one map
// and one reduce slot, jobs of 3, 10 or 20 maps of 12 s and one reduce of
// 39 s, Poisson arrivals with mean gap meanGap seconds, deadlines
// a_j + U[1,5]·alone time.
func mrcpStream(seed uint64, jobs int, meanGap float64) *Problem {
	rng := rand.New(rand.NewPCG(seed, 3))
	p := &Problem{Mode: Fixed, Groups: 1, Nodes: mrcpCluster()}
	now := 0.0
	for range jobs {
		m := []int{3, 10, 20}[rng.IntN(3)]
		j := mrcpJob(int64(now*1000), m)
		alone := float64((m+3)/4*12 + 39)
		j.HasDeadline = true
		j.Deadline = j.Arrival + int64((1+4*rng.Float64())*alone*1000)
		p.Jobs = append(p.Jobs, j)
		now += rng.ExpFloat64() * meanGap
	}
	return p
}

// BenchmarkBucketLP: the LP on a 100-job MRCP mixed stream at mean gap 40 s
// and on the 10k-task instance, against the combinatorial bound.
func BenchmarkBucketLP(b *testing.B) {
	for _, c := range []struct {
		name string
		p    *Problem
	}{{"mrcp100", mrcpStream(1, 100, 40)}, {"generated10k", generated10k(1)}} {
		b.Run(c.name, func(b *testing.B) {
			comb, err := Compute(c.p)
			if err != nil {
				b.Fatal(err)
			}
			var res LPResult
			for b.Loop() {
				if res, err = BucketLP(context.Background(), c.p, LPOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.Logf("%s: LP %v %.6g (%d cols, %d rows); combinatorial %.6g by %s", c.name, res.Status, res.Value,
				res.Cols, res.Rows, comb.Get(TotalTurnaround).Value, comb.Get(TotalTurnaround).By)
		})
	}
}

// BenchmarkLagrangian10k: the interval Lagrangian (default options) on the
// 10,000-task instance, against the combinatorial total-turnaround bound.
func BenchmarkLagrangian10k(b *testing.B) {
	p := generated10k(1)
	plain, err := Compute(p)
	if err != nil {
		b.Fatal(err)
	}
	var res LagrangeResult
	for b.Loop() {
		if res, err = IntervalLagrangian(context.Background(), p, LagrangeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("Lagrangian %.6g (best at iteration %d of %d), combinatorial %.6g (%s)", res.Value, res.BestAt, res.Iterations,
		plain.Get(TotalTurnaround).Value, plain.Get(TotalTurnaround).By)
}
