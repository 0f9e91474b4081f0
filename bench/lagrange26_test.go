package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
)

// BenchmarkIssue26Lagrangian measures the interval Lagrangian alone on
// FB-2009 day 0 (2 map + 1 reduce slots per node, ideal mode, as compare):
// at each node count of MRBOUND_NODES (default 10,20,40) it prints the
// certified mean turnaround after MRBOUND_LAG_ITERS iterations (default
// compare's 120; no time limit, so the value does not depend on the load)
// on a grid of MRBOUND_LAG_INTERVALS steps (default 16,384), with Polyak's
// target at MRBOUND_LAG_TARGET seconds of mean turnaround (default none),
// without the start-time terms (docs/bounds.md §4c) when MRBOUND_LAG_NOSTARTS
// is set (the relaxation as before s10lower), and the CPU seconds (user +
// system) the call took, then the same for every metric's bound
// (lowerbound.ComputeWith, the whole lower side). Run with GOMAXPROCS=1 for
// one core.
func BenchmarkIssue26Lagrangian(b *testing.B) {
	if _, err := os.Stat(fb2009Day0); err != nil {
		b.Skip("no FB-2009 trace: ", err)
	}
	nodes := envNodes(b, 10, 20, 40)
	iters := 0
	if s := os.Getenv("MRBOUND_LAG_ITERS"); s != "" {
		var err error
		if iters, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	intervals := 0
	if s := os.Getenv("MRBOUND_LAG_INTERVALS"); s != "" {
		var err error
		if intervals, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	target := 0.0 // mean turnaround (s) used as Polyak's target
	if s := os.Getenv("MRBOUND_LAG_TARGET"); s != "" {
		var err error
		if target, err = strconv.ParseFloat(s, 64); err != nil {
			b.Fatal(err)
		}
	}
	noStarts := os.Getenv("MRBOUND_LAG_NOSTARTS") != ""
	for range b.N {
		for _, n := range nodes {
			w := fbDay0(b, n)
			p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
			if err != nil {
				b.Fatal(err)
			}
			c0, t0 := cpuSeconds(), time.Now()
			res, err := lowerbound.IntervalLagrangian(context.Background(), p, lowerbound.LagrangeOptions{Iterations: iters, Intervals: intervals, Target: target * 1000 * float64(len(p.Jobs)), NoStarts: noStarts})
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("FB-2009 day 0, %3d nodes: Lagrangian mean turnaround %8.2f s (best at %d of %d iterations), %.2f s CPU, %.2f s wall\n",
				n, res.Value/float64(len(p.Jobs))/1000, res.BestAt, res.Iterations, cpuSeconds()-c0, time.Since(t0).Seconds())
			// The whole lower side: every metric's bound, the Lagrangian
			// included, as compare computes it (without its time limit).
			c0, t0 = cpuSeconds(), time.Now()
			all, err := lowerbound.ComputeWith(context.Background(), p, lowerbound.Options{Lagrange: &lowerbound.LagrangeOptions{Iterations: iters, Intervals: intervals, NoStarts: noStarts}})
			if err != nil {
				b.Fatal(err)
			}
			mt, mk, mx := all.Get(lowerbound.MeanTurnaround), all.Get(lowerbound.Makespan), all.Get(lowerbound.MaxTurnaround)
			fmt.Printf("FB-2009 day 0, %3d nodes: all bounds in %.2f s CPU (%.2f s wall): mean turnaround %.2f s (%s), makespan %.1f s (%s), max turnaround %.1f s (%s)\n",
				n, cpuSeconds()-c0, time.Since(t0).Seconds(), mt.Certified/1000, mt.By, mk.Certified/1000, mk.By, mx.Certified/1000, mx.By)
		}
	}
}

// cpuSeconds is this process's user plus system time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
