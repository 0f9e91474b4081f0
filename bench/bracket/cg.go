package main

import (
	"context"
	"fmt"
	"syscall"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// cgRounds, with -lp, also runs the column generation of docs/bounds.md §4f
// (lowerbound.IntervalLagrangianCG) for that many master rounds after the
// first -lp-steps count of subgradient steps, without and with §4c.
var (
	cgRounds, cgTheta, cgSeedEvery int
	cgBox                          float64
	cgStartsOnly, cgMasterNoStarts bool
)

// cgLine runs IntervalLagrangianCG on p (n: jobs × 1000, for the mean in s)
// and prints one line: the subgradient seed, the certified value, the last
// master's objective, rounds, columns, rows and CPU.
func cgLine(p *lowerbound.Problem, n float64, intervals, steps int) error {
	for _, noStarts := range []bool{true, false} {
		if noStarts && cgStartsOnly {
			continue
		}
		lo := lowerbound.LagrangeOptions{Intervals: intervals, Iterations: steps, NoStarts: noStarts}
		c0 := cpuSeconds()
		res, st, err := lowerbound.IntervalLagrangianCG(context.Background(), p, lo,
			lowerbound.CGOptions{Rounds: cgRounds, ThetaSteps: cgTheta, SeedEvery: cgSeedEvery, Box: cgBox, MasterNoStarts: cgMasterNoStarts,
				Log: func(r int, m, b float64, rows, cols int) {
					fmt.Printf("    round %d: master %.3f, best %.3f, %s, %s, %.1f CPU s\n", r, m/n, b/n, plural.Count(rows, "row"), plural.Count(cols, "column"), cpuSeconds()-c0)
				}, Solve: solve.Options{Solver: "highs", Threads: 1}})
		if err != nil {
			return err
		}
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		fmt.Printf("  column generation (NoStarts %v, %s): seed %.3f → %.3f s mean; master %.3f; %s, %d improving at the end, %s, %s; %.1f CPU s, peak RSS %d MB\n",
			noStarts, plural.Count(steps, "step"), st.Seed/n, res.Value/n, st.Master/n, plural.Count(st.Rounds, "round"), st.Improving,
			plural.Count(st.Columns, "column"), plural.Count(st.MasterRows, "row"), cpuSeconds()-c0, ru.Maxrss/1024)
	}
	return nil
}
