package jlassi

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
)

func generated(tb testing.TB, scenario int, seed int64) *jlassiscenario.Instance {
	tb.Helper()
	sc, err := jlassiscenario.Generate(scenario, seed)
	if err != nil {
		tb.Fatal(err)
	}
	in, err := jlassiscenario.Compile(sc.Name, sc)
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// BenchmarkBuild measures building the Table 5 horizon's model of each
// scenario (seed 1), in both forms, and reports its size.
func BenchmarkBuild(b *testing.B) {
	for s := 1; s <= 7; s++ {
		in := generated(b, s, 1)
		for _, form := range []Form{Strong, Published} {
			b.Run(fmt.Sprintf("scenario%d/%v", s, form), func(b *testing.B) {
				var m *Model
				for i := 0; i < b.N; i++ {
					var err error
					if m, err = Build(in, BuildOptions{Form: form, T: jlassiscenario.Table5Horizon[s]}); err != nil {
						b.Fatal(err)
					}
				}
				st := m.Model.Stats()
				b.ReportMetric(float64(st.Rows), "rows")
				b.ReportMetric(float64(st.Cols), "cols")
				b.ReportMetric(float64(st.Nonzeros), "nonzeros")
			})
		}
	}
}

// BenchmarkSolve solves seed 1 of each scenario at Table 5's horizon with
// each backend (60 s limit) and reports RealTime, the gap and the nodes.
func BenchmarkSolve(b *testing.B) {
	for s := 1; s <= 7; s++ {
		in := generated(b, s, 1)
		for _, solver := range []string{"highs", "native"} {
			b.Run(fmt.Sprintf("scenario%d/%s", s, solver), func(b *testing.B) {
				var rep *Report
				for i := 0; i < b.N; i++ {
					var err error
					rep, err = RunInstance(context.Background(), in, Options{Horizon: Horizon{Mode: HorizonTable5},
						Solve: solve.Options{Solver: solver, TimeLimit: 60 * time.Second}})
					if err != nil {
						b.Fatal(err)
					}
				}
				rt := math.NaN()
				if rep.Schedule != nil {
					rt = rep.Schedule.RealTime
				}
				b.ReportMetric(rt, "realtime")
				b.ReportMetric(rep.Result.Gap(), "gap")
				b.ReportMetric(float64(rep.Result.Nodes), "nodes")
			})
		}
	}
}
