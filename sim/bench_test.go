package sim_test

import (
	"fmt"
	"testing"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
)

// stream is n single-map jobs of 1–3 s (a quarter with a 0.5 s reduce)
// arriving every 15 ms on 100 nodes with 2 map slots: about 2/3 load, so
// nearly every event launches or ends a task.
func stream(n int) *sim.Workload {
	w := &sim.Workload{Cluster: sim.Cluster{Replicas: 3}}
	for range 100 {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 2, ReduceSlots: 1})
	}
	rng := sim.NewStream(1, "bench")
	for j := range n {
		job := sim.Job{Arrival: sim.Time(j * 15), Deadline: sim.NoDeadline, Parent: -1,
			Maps: []sim.TaskSpec{{Work: sim.Time(1000 + rng.IntN(2000))}}}
		if j%4 == 0 {
			job.Reduces = []sim.TaskSpec{{Work: 500}}
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

// BenchmarkTaskEvents measures task events (launches and ends) per second
// of CPU on streams of 10^4–10^6 jobs, ideal mode and 3 s heartbeats; bytes
// per task show that memory is linear in tasks.
func BenchmarkTaskEvents(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		w := stream(n)
		tasks := w.NumTasks()
		for _, h := range []sim.Time{0, 3000} {
			b.Run(fmt.Sprintf("jobs=%d/H=%d", n, h), func(b *testing.B) {
				opt := sim.DefaultOptions()
				opt.Heartbeat = h
				var res *sim.Result
				b.ReportAllocs()
				cpu := cputime.Now()
				for b.Loop() {
					var err error
					if res, err = sim.Run(w, fifo.New(), opt); err != nil {
						b.Fatal(err)
					}
				}
				cputime.ReportMS(b, cpu)
				if per := (cputime.Now() - cpu).Seconds() / float64(b.N); per > 0 {
					b.ReportMetric(float64(res.TaskEvents)/per, "task-events/cpu-s")
				}
				b.ReportMetric(float64(res.TaskEvents)/(b.Elapsed().Seconds()/float64(b.N)), "task-events/s")
				b.ReportMetric(float64(tasks), "tasks")
			})
		}
	}
}
