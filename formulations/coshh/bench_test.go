package coshh

import (
	"context"
	"testing"

	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// BenchmarkRun: classification plus both lexicographic LPs of a generated
// 100-job stream, per trace and cluster, on every usable backend. Reports the
// number of classes and λ of the secondary classification, and whether
// every LP was solved and verified (1) or not (0).
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		trace, cluster string
		resources      int
	}{{"facebook", "table3", 0}, {"yahoo", "table3", 0}, {"facebook", "table10", 102}, {"yahoo", "table10", 102}} {
		s, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: c.trace, Jobs: 100, Seed: 1, Cluster: c.cluster, Resources: c.resources, MaxError: 0.1})
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range solve.Backends() {
			opts := solve.Options{Solver: name}
			if solvertest.Unusable(name, false) != "" {
				continue
			}
			b.Run(c.trace+"-"+c.cluster+"-"+name, func(b *testing.B) {
				var r *Report
				for i := 0; i < b.N; i++ {
					r, err = RunScenario(context.Background(), s, Options{Solve: opts})
					if err != nil {
						b.Fatal(err)
					}
				}
				verified := 0.0
				if r.Verified() {
					verified = 1
				}
				b.ReportMetric(verified, "verified")
				last := r.Allocations[len(r.Allocations)-1]
				b.ReportMetric(float64(len(last.Problem.Classes)), "classes")
				b.ReportMetric(last.Lambda, "lambda")
			})
		}
	}
}
