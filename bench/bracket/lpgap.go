package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs" // the interval LP
	"github.com/mrbound/mrbound/upperbound"
	"github.com/mrbound/mrbound/workload"
)

// lpGap is -lp's experiment (docs/bounds.md §4d): on the SWIM day at the
// given cluster size cut to the jobs arriving in its first h hours, for each
// h, the relaxation (P) of §4b solved as an LP by HiGHS
// (lowerbound.IntervalLP) against the interval Lagrangian on the same grid,
// without and with the start-time terms of §4c, at each step count of
// steps (0: as many as the work budget allows, compare's default). It
// tells whether the subgradient method or the relaxation limits the bound:
// the LP is the most §4b's Lagrangian can reach. With -lp-every
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
		fmt.Printf(" | %s", stepsHeader(s))
	}
	fmt.Printf(" | with §4c")
	for _, s := range steps {
		fmt.Printf(" | %s", stepsHeader(s))
	}
	fmt.Println(" |")
	for _, h := range hours {
		p := *full
		p.Jobs = nil
		sub := *w // the same jobs as p, for -lp-slot-incumbent's schedules
		sub.Jobs = nil
		for i, j := range full.Jobs {
			if float64(j.Arrival) < h*3600e3 && i%lpEvery == 0 {
				p.Jobs = append(p.Jobs, j)
				sub.Jobs = append(sub.Jobs, w.Jobs[i])
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
			if noStarts && lpStartsOnly {
				fmt.Print(strings.Repeat(" | –", len(steps)))
				fmt.Printf(" | ")
				continue
			}
			for _, s := range steps {
				lo := lowerbound.LagrangeOptions{Intervals: intervals, Iterations: s, NoStarts: noStarts, Target: lpTarget * n}
				c0 := cpuSeconds()
				res, err := lowerbound.IntervalLagrangian(context.Background(), &p, lo)
				if err != nil {
					return err
				}
				fmt.Printf(" | %.3f (%.1f", res.Value/n, cpuSeconds()-c0)
				if s == 0 {
					// The budget decides the steps: say how many it bought.
					fmt.Printf(", %s", plural.Count(res.Iterations, "step"))
				}
				fmt.Print(")")
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
			if err := slotLine(&sub, &p, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// stepsHeader names a column of -lp-steps: a step count, or 0 for the
// work budget that decides compare's steps.
func stepsHeader(s int) string {
	if s == 0 {
		return "the work budget"
	}
	return plural.Count(s, "step")
}

// slotLine prints SlotColumns on p (by default pseudo-schedules: on a day
// every subset of tracked reduces is too many states), stopped after
// -lp-slot.
// With -lp-slot-incumbent it first prints the best verified schedule of w
// (p's jobs) and gives its total to SlotColumns as the incumbent.
func slotLine(w *sim.Workload, p *lowerbound.Problem, n float64) error {
	var inc int64
	if slotEvals >= 0 {
		for _, j := range w.Jobs {
			if j.Parent >= 0 {
				return fmt.Errorf("-lp-slot-incumbent: job %q has a parent, which the cut may have dropped", j.Name)
			}
		}
		c0 := cpuSeconds()
		so := simbridge.IdealOptions()
		r, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: so,
			Evaluations: slotEvals, Seed: so.Seed})
		if err != nil {
			return fmt.Errorf("slot columns' incumbent: %w", err)
		}
		if r.Best == nil {
			return fmt.Errorf("slot columns' incumbent: no verified schedule")
		}
		// The total in ms, rounded down: the optimum is an integer ≤ it.
		inc = int64(math.Floor(r.Best.Value*float64(len(p.Jobs)) + 1e-6))
		fmt.Printf("|   | best verified schedule: %.3f s (%s, %s, %.1f CPU s) |\n", r.Best.Value/1000, r.Best.By,
			plural.Count(r.Evaluations, "run"), cpuSeconds()-c0)
	}
	ctx, cancel := context.WithTimeout(context.Background(), slotLimit)
	defer cancel()
	c0 := cpuSeconds()
	o := lowerbound.SlotColumnsOptions{Tracked: slotTracked, Iterations: 100000, Grid: slotGrid, Incumbent: inc,
		ExactCover: slotExact, Smoothing: slotSmoothing, Compact: slotCompact, CompactWindow: slotCompactWindow, CompactRounds: slotCompactRounds, Solve: solve.Options{Solver: "highs", Threads: 1}}
	if slotLog > 0 {
		o.Progress = func(it int, master, bound float64) {
			if it%slotLog == 0 {
				fmt.Printf("    iteration %d: master %.3f s, bound %.3f s, %.1f CPU s\n", it, master/n, bound/n, cpuSeconds()-c0)
			}
		}
	}
	r, err := lowerbound.SlotColumns(ctx, p, o)
	if err != nil {
		return fmt.Errorf("slot columns: %w", err)
	}
	if slotCompact {
		fmt.Printf("|   | compact LP without span rows (starts within %d units of the release; 0: all): %.3f s (HiGHS's value), certified at its duals %.3f s |\n",
			slotCompactWindow, r.CompactValue/n, r.CompactBound/n)
	}
	fmt.Printf("|   | slot columns (§4h): %.3f s (master %.3f s, %s, %s, %d units of %d ms, %d tracked, %d spanned, stop: %s, %.1f CPU s) |\n",
		r.Value/n, r.Master/n, plural.Count(r.Iterations, "iteration"), plural.Count(r.Columns, "column"), r.Units, r.Unit, r.Tracked, r.Spanned, r.Stop, cpuSeconds()-c0)
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
