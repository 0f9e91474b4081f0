package tumm

import (
	"context"
	"os"
	"testing"

	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// BenchmarkHeterogeneousExample solves examples/tumm-heterogeneous.json with
// and without the perspective rows on every usable backend and reports the
// branch-and-bound nodes.
func BenchmarkHeterogeneousExample(b *testing.B) {
	data, err := os.ReadFile("../../examples/tumm-heterogeneous.json")
	if err != nil {
		b.Fatal(err)
	}
	s, err := tummscenario.Parse("", data)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range solve.Backends() {
		opts := solve.Options{Solver: name}
		if solvertest.Unusable(name, true) != "" {
			continue
		}
		for _, persp := range []bool{false, true} {
			label := name + "-default"
			if persp {
				label = name + "-perspective"
			}
			b.Run(label, func(b *testing.B) {
				var r *Report
				for i := 0; i < b.N; i++ {
					r, err = RunScenario(context.Background(), s, Options{Perspective: persp, Solve: opts})
					if err != nil {
						b.Fatal(err)
					}
				}
				if !r.Verified() {
					b.Fatal("not verified")
				}
				b.ReportMetric(float64(r.Het.Solve.Nodes), "nodes")
				b.ReportMetric(r.Het.Objective, "objective")
			})
		}
	}
}

// BenchmarkStaticConfig: Algorithm 1 on 1000 jobs and S = 400 slots.
func BenchmarkStaticConfig(b *testing.B) {
	jobs := make([]Job, 1000)
	for i := range jobs {
		jobs[i] = Job{Name: "j", MapTasks: 10 + i%37, ReduceTasks: 3 + i%11, MapTime: float64(1 + i%7), ReduceTime: float64(2 + i%5)}
	}
	for i := 0; i < b.N; i++ {
		if _, err := StaticConfig(jobs, 400); err != nil {
			b.Fatal(err)
		}
	}
}
