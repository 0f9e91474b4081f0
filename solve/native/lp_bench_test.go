package native_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	"github.com/mrbound/mrbound/solve/native"
)

// formulationLPs builds the LP relaxations of small instances of the
// project's time-indexed and disjunctive formulations: Jlassi et al.
// scenarios 1–3 (seed 1, horizon of eq. 17) and MRCP small-workload
// instances with 4 and 8 jobs (λ = 0.02, seeds 1 and 2).
func formulationLPs(b *testing.B) (names []string, models []*model.Model) {
	for _, sc := range []int{1, 2, 3} {
		s, err := jlassiscenario.Generate(sc, 1)
		if err != nil {
			b.Fatal(err)
		}
		in, err := jlassiscenario.Compile("generated", s)
		if err != nil {
			b.Fatal(err)
		}
		bm, err := jlassi.Build(in, jlassi.BuildOptions{T: in.Eq17()})
		if err != nil {
			b.Fatal(err)
		}
		names = append(names, fmt.Sprintf("jlassi-s%d", sc))
		models = append(models, bm.Model.Relaxation())
	}
	for i, jobs := range []int{4, 8} {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Small, Jobs: jobs, Lambda: 0.02, Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range []mrcp.Formulation{mrcp.TimeIndexed, mrcp.Disjunctive} {
			bm, err := mrcp.Build(in, mrcp.Options{Formulation: f})
			if err != nil {
				b.Fatal(err)
			}
			names = append(names, fmt.Sprintf("mrcp-%dj-%v", jobs, f))
			models = append(models, bm.Model.Relaxation())
		}
	}
	return names, models
}

// BenchmarkFormulationRelaxations compares the native simplex with HiGHS on
// the LP relaxations of the project's formulations.
func BenchmarkFormulationRelaxations(b *testing.B) {
	names, models := formulationLPs(b)
	h, herr := solve.Lookup("highs")
	for k, m := range models {
		b.Run(names[k]+"/native", func(b *testing.B) {
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				res, err := native.SolveLP(context.Background(), m, solve.Options{})
				if err != nil || res.Status != solve.Optimal {
					b.Fatalf("%v %v", res.Status, err)
				}
				b.ReportMetric(float64(res.Iterations), "iters")
			}
			cputime.ReportMS(b, cpu0)
		})
		b.Run(names[k]+"/highs", func(b *testing.B) {
			if herr != nil {
				b.Skip(herr)
			}
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				res, err := h.Solve(context.Background(), m, solve.Options{})
				if err != nil {
					b.Skip(err)
				}
				if res.Status != solve.Optimal {
					b.Fatalf("HiGHS %v", res.Status)
				}
				b.ReportMetric(float64(res.Iterations), "iters")
			}
			cputime.ReportMS(b, cpu0)
		})
	}
}
