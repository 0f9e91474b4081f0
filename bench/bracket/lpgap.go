package main

import (
	"context"
	"fmt"
	"strconv"
	"syscall"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs" // the interval LP
	"github.com/mrbound/mrbound/workload"
)

// lpGap is -lp's experiment (docs/bounds.md §4d): on the SWIM day at the
// given cluster size cut to the jobs arriving in its first h hours, for each
// h, the relaxation (P) of §4b solved as an LP by HiGHS
// (lowerbound.IntervalLP) against the interval Lagrangian on the same grid,
// without and with the start-time terms of §4c, at each step count of
// steps. It tells whether the subgradient method or the relaxation limits
// the bound: the LP is the most §4b's Lagrangian can reach. With -lp-every
// k only every k-th job is kept (on a cluster k times smaller, the day's
// load per node is kept).
func lpGap(trace string, nodes int, hours []float64, intervals int, steps []int) error {
	o := workload.DefaultOptions()
	o.SWIMCluster.Nodes, o.SWIMCluster.MapSlots, o.SWIMCluster.ReduceSlots = nodes, 2, 1
	w, err := workload.Load(trace, o)
	if err != nil {
		return err
	}
	full, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		return err
	}
	fmt.Printf("| first hours | jobs | LP (P), HiGHS: mean s (CPU s) | §4b Lagrangian")
	for _, s := range steps {
		fmt.Printf(" | %s", plural.Count(s, "step"))
	}
	fmt.Printf(" | with §4c")
	for _, s := range steps {
		fmt.Printf(" | %s", plural.Count(s, "step"))
	}
	fmt.Println(" |")
	for _, h := range hours {
		p := *full
		p.Jobs = nil
		for i, j := range full.Jobs {
			if float64(j.Arrival) < h*3600e3 && i%lpEvery == 0 {
				p.Jobs = append(p.Jobs, j)
			}
		}
		n := float64(len(p.Jobs)) * 1000
		lo := lowerbound.LagrangeOptions{Intervals: intervals}
		fmt.Printf("| %s | %d | ", strconv.FormatFloat(h, 'g', -1, 64), len(p.Jobs))
		if lpSolve {
			c0 := cpuSeconds()
			lp, err := lowerbound.IntervalLP(context.Background(), &p, lo, solve.Options{Solver: "highs", Threads: 1})
			if err != nil {
				return err
			}
			fmt.Printf("%.3f (%s, %s, %.1f)", lp.Value/n, lp.Status, plural.Count(lp.Cols, "col"), cpuSeconds()-c0)
		}
		fmt.Printf(" | ")
		for _, noStarts := range []bool{true, false} {
			for _, s := range steps {
				lo := lowerbound.LagrangeOptions{Intervals: intervals, Iterations: s, NoStarts: noStarts, Target: lpTarget * n}
				c0 := cpuSeconds()
				res, err := lowerbound.IntervalLagrangian(context.Background(), &p, lo)
				if err != nil {
					return err
				}
				fmt.Printf(" | %.3f (%.1f)", res.Value/n, cpuSeconds()-c0)
			}
			if noStarts {
				fmt.Printf(" | ")
			}
		}
		fmt.Println(" |")
		if cgRounds > 0 {
			if err := cgLine(&p, n, intervals, steps[0]); err != nil {
				return err
			}
		}
		if slotLimit > 0 {
			if err := slotLine(&p, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// slotLine prints SlotColumns on p (pseudo-schedules: on a day every
// subset of tracked reduces is too many states), stopped after -lp-slot.
func slotLine(p *lowerbound.Problem, n float64) error {
	ctx, cancel := context.WithTimeout(context.Background(), slotLimit)
	defer cancel()
	c0 := cpuSeconds()
	r, err := lowerbound.SlotColumns(ctx, p, lowerbound.SlotColumnsOptions{Tracked: -1, Iterations: 100000, Grid: slotGrid,
		Solve: solve.Options{Solver: "highs", Threads: 1}})
	if err != nil {
		return fmt.Errorf("slot columns: %w", err)
	}
	fmt.Printf("|   | slot columns (§4h): %.3f s (master %.3f s, %s, %s, %d units of %d ms, stop: %s, %.1f CPU s) |\n",
		r.Value/n, r.Master/n, plural.Count(r.Iterations, "iteration"), plural.Count(r.Columns, "column"), r.Units, r.Unit, r.Stop, cpuSeconds()-c0)
	return nil
}

// cpuSeconds is the process's user + system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
