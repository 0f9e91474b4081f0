// Command bracket measures issue 26's bracket [certified bound, best known
// schedule] on loaded real workloads: the FB-2009 SWIM day 0 (2 map and 1
// reduce slots per node) at several cluster sizes and generated 100-job
// COSHH Facebook and Yahoo streams, for mean turnaround, makespan and max
// turnaround. Each line is one simbridge.Compare (ideal mode, every trace
// and every offline schedule verified by sim/check): the bound and what
// gives it, the best policy, the best offline construction, the upper end
// and the bracket upper/bound, with the wall time of the offline side and
// the CPU time of the whole line (both sides; compare's budget is 60 s). It
// prints a Markdown table (docs/results.md, issue 26).
//
// With -gap it then prints, for each mean-turnaround line, where the gap
// between the interval Lagrangian and the best offline schedule lies: per
// class of jobs (by reduce count, and the job with the longest turnaround in
// the schedule on its own), the turnaround the Lagrangian's minimiser
// charges them (lowerbound.LagrangePrimal, at -lagrange-iterations steps or
// compare's work budget, without a time limit, so the figures do not depend
// on the load) against their share of the schedule's mean.
//
// -search-seed sets the runs' seed (compare's --seed): on the day at 20
// nodes the offline search's best moves by about 0.5 s of the mean from one
// seed to another (docs/results.md, issue 26, s21hold), so a change to the
// search is judged over several seeds.
//
//	nice go run ./bench/bracket -nodes 10,20,40,100,600 -evals 40 -limit 10m
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	_ "github.com/mrbound/mrbound/solve/native" // COSHH's LPs
	"github.com/mrbound/mrbound/workload"
)

func main() {
	trace := flag.String("trace", filepath.Join("..", "shared", "traces", "swim", "FB-2009_samples_24_times_1hr_0.tsv"), "the SWIM day")
	nodes := flag.String("nodes", "10,20,40,100,600", "cluster sizes for the SWIM day (empty: skip it)")
	coshh := flag.String("coshh", "facebook,yahoo", "generated 100-job COSHH streams (seed 1; empty: skip)")
	metrics := flag.String("metrics", "mean-turnaround,makespan,max-turnaround", "metrics")
	swimPols := flag.String("policies", "fifo,fair,fair-nodelay,hfsp,hfsp-aftermaps", "policies on the SWIM day")
	coshhPols := flag.String("coshh-policies", "fifo,fair,fair-nodelay,hfsp-aftermaps,coshh-fallback", "policies on the COSHH streams")
	coshhTasks = flag.Bool("coshh-tasks", false, "generate the COSHH streams with task counts (generate coshh --tasks)")
	evals := flag.Int("evals", 40, "local-search runs of the offline side")
	flag.Uint64Var(&searchSeed, "search-seed", simbridge.IdealOptions().Seed, "the simulator's seed in every run, which also seeds the offline side's local search (default: compare's)")
	limit := flag.Duration("limit", 10*time.Minute, "time limit of the offline side per line")
	lagrange := flag.Int("lagrange-iterations", -1, "steps of the interval Lagrangian bound on mean turnaround (-1: compare's default, as many as its work budget allows, docs/bounds.md §4b; 0: off)")
	flag.Float64Var(&hours, "hours", 0, "cut the SWIM day to the jobs arriving in its first hours (0: the whole day)")
	flag.BoolVar(&waits, "waits", false, "after the table, where srpt's time goes on each SWIM instance (waits and phases per job class, one-reduce jobs that find every reduce slot busy, short jobs that find every map slot busy)")
	flag.StringVar(&waitsRule, "waits-rule", "srpt", "with -waits: the construction whose schedule is broken down (srpt, srpt-hold, …)")
	flag.BoolVar(&gap, "gap", false, "after the table, where the mean-turnaround gap lies (Lagrangian charge per job class against the best offline schedule)")
	lpHours := flag.String("lp", "", "instead of the bracket: the interval LP against the Lagrangian on the SWIM day at the first -nodes size, cut to its first hours (comma-separated)")
	lpIntervals := flag.Int("lp-intervals", 256, "with -lp: the grid's equal steps (0: the Lagrangian's default)")
	lpSteps := flag.String("lp-steps", "120,480", "with -lp: the Lagrangian's step counts (0: as many as its work budget allows, compare's default)")
	flag.Float64Var(&lpTarget, "lp-target", 0, "with -lp: Polyak's target for the Lagrangian, in seconds of mean turnaround (0: its own estimate)")
	flag.IntVar(&lpEvery, "lp-every", 1, "with -lp: keep every k-th job of the day only (with -nodes divided by k: the same load per node)")
	flag.BoolVar(&lpStartsOnly, "lp-starts-only", false, "with -lp: only the Lagrangian with the start-time terms (§4c), compare's")
	flag.BoolVar(&lpSolve, "lp-solve", true, "with -lp: solve the LP (false: the Lagrangians alone, for grids too large for an LP)")
	flag.DurationVar(&slotLimit, "lp-slot", 0, "with -lp: also lowerbound.SlotColumns (docs/bounds.md §4h, pseudo-schedules only) for at most this long per line (0: not run); its value at the stop is certified")
	flag.Int64Var(&slotGrid, "lp-slot-grid", 1000, "with -lp-slot: the grid in ms (arrivals and durations rounded down to it, a relaxation)")
	flag.BoolVar(&slotExact, "lp-slot-exact", false, "with -lp-slot: equality cover rows and completion rows relative to the release (lowerbound.SlotColumnsOptions.ExactCover)")
	flag.Float64Var(&slotSmoothing, "lp-slot-smoothing", 0, "with -lp-slot: Wentges' dual smoothing in [0, 1) (lowerbound.SlotColumnsOptions.Smoothing)")
	flag.IntVar(&slotEvals, "lp-slot-incumbent", -1, "with -lp-slot: first the prefix's best verified schedule (upperbound.Best with this many search runs; 0: the constructions only), printed and given to SlotColumns as its incumbent (negative: none)")
	flag.BoolVar(&slotCompact, "lp-slot-compact", false, "with -lp-slot: first the compact LP without span rows, its duals priced (lowerbound.SlotColumnsOptions.Compact)")
	flag.Int64Var(&slotCompactWindow, "lp-slot-compact-window", 0, "with -lp-slot-compact: starts only this many units after each release in the compact LP (lowerbound.SlotColumnsOptions.CompactWindow; 0: the whole windows)")
	flag.IntVar(&slotCompactRounds, "lp-slot-compact-rounds", 0, "with -lp-slot-compact: rounds of arc generation (lowerbound.SlotColumnsOptions.CompactRounds; 0: 50, negative: none)")
	flag.IntVar(&slotTracked, "lp-slot-tracked", -1, "with -lp-slot: single-reduce groups kept elementary (lowerbound.SlotColumnsOptions.Tracked; negative: none, pseudo-schedules only; 0: its default)")
	flag.IntVar(&slotLog, "lp-slot-log", 0, "with -lp-slot: print the master and the bound every this many iterations (0: never)")
	flag.IntVar(&cgRounds, "cg-rounds", 0, "with -lp: also the column generation (docs/bounds.md §4f) with this many master rounds after the first -lp-steps count")
	flag.IntVar(&cgTheta, "cg-theta", 0, "with -cg-rounds: the completion weights' grid in the evaluations (0: the subgradient method's)")
	flag.IntVar(&cgSeedEvery, "cg-seed-every", 0, "with -cg-rounds: seed the pool with every k-th subgradient iterate's columns (0: every one)")
	flag.Float64Var(&cgBox, "cg-box", 0, "with -cg-rounds: the box step's relative half-width (0: the default)")
	flag.BoolVar(&cgStartsOnly, "cg-starts-only", false, "with -cg-rounds: only the run with the start-time terms (§4c)")
	flag.BoolVar(&cgMasterNoStarts, "cg-master-nostarts", false, "with -cg-rounds: the master holds every job's §4b columns; the evaluations still take §4c's terms")
	flag.Parse()
	if _, err := waitsRuleNamed(waitsRule); waits && err != nil {
		fmt.Fprintln(os.Stderr, "bracket:", err)
		os.Exit(1)
	}
	if err := checkSlotFlags(*lpHours != ""); err != nil {
		fmt.Fprintln(os.Stderr, "bracket:", err)
		os.Exit(1)
	}
	if *lpHours != "" {
		if err := runLP(*trace, *nodes, *lpHours, *lpIntervals, *lpSteps); err != nil {
			fmt.Fprintln(os.Stderr, "bracket:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*trace, *nodes, *coshh, *metrics, *swimPols, *coshhPols, *evals, *limit, *lagrange); err != nil {
		fmt.Fprintln(os.Stderr, "bracket:", err)
		os.Exit(1)
	}
}

// checkSlotFlags refuses -lp-slot without -lp, a negative -lp-slot,
// -lp-slot-grid without -lp-slot or not positive, the other -lp-slot-
// flags without -lp-slot, a smoothing outside [0, 1) and a negative log
// period.
func checkSlotFlags(lp bool) error {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["lp-slot"] && !lp:
		return fmt.Errorf("-lp-slot needs -lp")
	case slotLimit < 0:
		return fmt.Errorf("-lp-slot: %v is not a positive duration", slotLimit)
	case set["lp-slot-grid"] && slotLimit == 0:
		return fmt.Errorf("-lp-slot-grid needs -lp-slot")
	case (set["lp-slot-exact"] || set["lp-slot-smoothing"] || set["lp-slot-incumbent"] || set["lp-slot-compact"] || set["lp-slot-tracked"] || set["lp-slot-log"]) && slotLimit == 0:
		return fmt.Errorf("-lp-slot-exact, -lp-slot-smoothing, -lp-slot-incumbent, -lp-slot-compact, -lp-slot-tracked and -lp-slot-log need -lp-slot")
	case (set["lp-slot-compact-window"] || set["lp-slot-compact-rounds"]) && !slotCompact:
		return fmt.Errorf("-lp-slot-compact-window and -lp-slot-compact-rounds need -lp-slot-compact")
	case slotCompactWindow < 0:
		return fmt.Errorf("-lp-slot-compact-window: %d is not a count of units", slotCompactWindow)
	case !(slotSmoothing >= 0 && slotSmoothing < 1):
		return fmt.Errorf("-lp-slot-smoothing: %g is not in [0, 1)", slotSmoothing)
	case slotLog < 0:
		return fmt.Errorf("-lp-slot-log: %d is not a count of iterations", slotLog)
	case slotGrid <= 0:
		return fmt.Errorf("-lp-slot-grid: %d ms is not a positive grid", slotGrid)
	}
	return nil
}

// runLP parses -lp's flags and runs lpGap.
func runLP(trace, nodes, hours string, intervals int, steps string) error {
	ns := split(nodes)
	if len(ns) == 0 {
		return fmt.Errorf("-lp needs a -nodes size")
	}
	n, err := strconv.Atoi(ns[0])
	if err != nil {
		return fmt.Errorf("-nodes: %v", err)
	}
	var hs []float64
	for _, s := range split(hours) {
		h, err := strconv.ParseFloat(s, 64)
		if err != nil || !(h > 0) {
			return fmt.Errorf("-lp: %q is not a positive number of hours", s)
		}
		hs = append(hs, h)
	}
	var st []int
	for _, s := range split(steps) {
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 {
			return fmt.Errorf("-lp-steps: %q is not a step count (0: the work budget)", s)
		}
		st = append(st, k)
	}
	if lpEvery < 1 {
		return fmt.Errorf("-lp-every: %d is not a positive count", lpEvery)
	}
	return lpGap(trace, n, hs, intervals, st)
}

var (
	coshhTasks *bool
	gap        bool
	lpSolve    bool
	// lpStartsOnly is -lp-starts-only.
	lpStartsOnly bool
	lpEvery      int
	lpTarget     float64
	slotLimit    time.Duration
	slotGrid     int64
	// slotExact, slotSmoothing, slotEvals, slotCompact, slotCompactWindow,
	// slotCompactRounds, slotTracked and slotLog are -lp-slot-exact,
	// -lp-slot-smoothing, -lp-slot-incumbent, -lp-slot-compact,
	// -lp-slot-compact-window, -lp-slot-compact-rounds, -lp-slot-tracked
	// and -lp-slot-log.
	slotCompactRounds int
	slotTracked       int
	slotCompactWindow int64
	slotExact         bool
	slotCompact       bool
	slotSmoothing     float64
	slotEvals         int
	slotLog           int
	hours             float64
	waits             bool
	waitsRule         string
	// searchSeed is -search-seed: the simulator's seed (sim.Options.Seed)
	// in every line, which also seeds the offline side's local search: the
	// search's spread over seeds is what a change to it must beat.
	searchSeed uint64
)

type instance struct {
	name     string
	w        *sim.Workload
	policies []string
}

func run(trace, nodes, coshh, metrics, swimPols, coshhPols string, evals int, limit time.Duration, lagrangeIterations int) error {
	var insts []instance
	for _, s := range split(nodes) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("-nodes: %v", err)
		}
		o := workload.DefaultOptions()
		o.SWIMCluster.Nodes, o.SWIMCluster.MapSlots, o.SWIMCluster.ReduceSlots = n, 2, 1
		w, err := workload.Load(trace, o)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("FB-2009 day 0, %s", plural.Count(n, "node"))
		if hours > 0 {
			cutHours(w, hours)
			name = fmt.Sprintf("FB-2009 day 0, first %g h (%s), %s", hours, plural.Count(len(w.Jobs), "job"), plural.Count(n, "node"))
		}
		insts = append(insts, instance{name, w, split(swimPols)})
	}
	for _, tr := range split(coshh) {
		sc, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: tr, Jobs: 100, Seed: 1, Tasks: *coshhTasks})
		if err != nil {
			return err
		}
		w, err := workload.FromCOSHH(tr, sc)
		if err != nil {
			return err
		}
		insts = append(insts, instance{"COSHH " + tr + " (100 jobs, seed 1)", w, split(coshhPols)})
	}
	var gaps []string
	defer func() {
		for _, g := range gaps {
			fmt.Print(g)
		}
	}()
	fmt.Println("| instance | metric | bound (by) | best policy | best offline | bracket upper/bound | best policy/bound | offline side | line CPU s |")
	fmt.Println("|---|---|---|---|---|---|---|---|---:|")
	for _, in := range insts {
		if waits && in.policies != nil && strings.HasPrefix(in.name, "FB-2009") {
			t, err := waitTable(in)
			if err != nil {
				return fmt.Errorf("%s, -waits: %w", in.name, err)
			}
			gaps = append(gaps, t)
		}
		for _, ms := range split(metrics) {
			m, err := lowerbound.ParseMetric(ms)
			if err != nil {
				return err
			}
			var pols []simbridge.Named
			for _, n := range in.policies {
				p, err := policy.New(n, policy.Params{})
				if err != nil {
					return err
				}
				pols = append(pols, simbridge.Named{Name: n, Policy: p})
			}
			so := simbridge.IdealOptions()
			so.Seed = searchSeed
			o := simbridge.Options{Metric: m, Sim: so, UpperEvaluations: evals, UpperTimeLimit: limit}
			if lagrangeIterations != 0 {
				o.Lagrange = &lowerbound.LagrangeOptions{Iterations: max(0, lagrangeIterations), TimeLimit: lowerbound.LagrangeSafetyLimit}
			}
			t0, c0 := time.Now(), cpuSeconds()
			out, err := simbridge.Compare(context.Background(), in.name, in.w, pols, o)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", in.name, m, err)
			}
			r := out.Report
			bestPol, bestPolBy := math.Inf(1), ""
			for _, row := range r.Policies {
				if row.Verified && row.Value < bestPol {
					bestPol, bestPolBy = row.Value, row.Policy
				}
			}
			off := "-"
			if b := out.Upper.Best; b != nil {
				off = fmt.Sprintf("%s (%s)", secs(b.Value, m), strings.TrimPrefix(b.By, "offline-"))
			}
			bracket := "-"
			if r.Bracket != nil {
				bracket = fmt.Sprintf("%.3f", *r.Bracket)
			}
			ratio := "-"
			if r.Bound > 0 && !math.IsInf(bestPol, 1) {
				ratio = fmt.Sprintf("%.3f", bestPol/r.Bound)
			}
			stopped := ""
			if out.Upper.Stopped != "" {
				stopped = ", stopped: " + out.Upper.Stopped
			}
			fmt.Printf("| %s | %s | %s (%s) | %s (%s) | %s | %s | %s | %s, %v%s | %.1f |\n", in.name, m, secs(r.Bound, m), r.By,
				secs(bestPol, m), bestPolBy, off, bracket, ratio, plural.Count(out.Upper.Evaluations, "run"),
				(time.Since(t0) - out.BoundWall).Round(time.Second), stopped, cpuSeconds()-c0)
			if gap && m == lowerbound.MeanTurnaround && out.Upper.Best != nil && lagrangeIterations != 0 {
				g, err := gapTable(in, out.Problem, out.Upper.Best.Completion, max(0, lagrangeIterations))
				if err != nil {
					return fmt.Errorf("%s, -gap: %w", in.name, err)
				}
				gaps = append(gaps, g)
			}
		}
	}
	return nil
}

// cutHours keeps the jobs that arrive in the first h hours: a prefix of
// the day's jobs, which the SWIM loader gives in arrival order (a parent,
// when a job has one, comes before it, so the prefix keeps it).
func cutHours(w *sim.Workload, h float64) {
	k := 0
	for k < len(w.Jobs) && float64(w.Jobs[k].Arrival) < h*3600e3 {
		k++
	}
	w.Jobs = w.Jobs[:k]
}

// secs prints a time metric in seconds.
func secs(v float64, m lowerbound.Metric) string {
	if m == lowerbound.LateJobs || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%.1f s", v/1000)
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// gapTable is -gap's table for one instance: per class of jobs, the
// turnaround the interval Lagrangian's minimiser charges them and the price
// their work pays for capacity (both as shares of the mean, in seconds),
// against their share of the best offline schedule's mean turnaround c.
func gapTable(in instance, p *lowerbound.Problem, c []int64, iterations int) (string, error) {
	lo := lowerbound.LagrangeOptions{Iterations: iterations}
	res, err := lowerbound.IntervalLagrangian(context.Background(), p, lo)
	if err != nil {
		return "", err
	}
	jobs, capPriced, err := lowerbound.LagrangePrimal(p, lo, res.Certificate)
	if err != nil {
		return "", err
	}
	n := float64(len(jobs))
	worst := 0
	for j := range c {
		if c[j]-p.Jobs[j].Arrival > c[worst]-p.Jobs[worst].Arrival {
			worst = j
		}
	}
	classes := []string{"≤ 1 reduce", "2–50 reduces", "> 50 reduces", fmt.Sprintf("job %d (the longest turnaround)", worst)}
	type row struct {
		jobs                   int
		charged, priced, sched float64
	}
	rows := make([]row, len(classes))
	for j, jo := range jobs {
		k := 0
		switch nr := len(in.w.Jobs[j].Reduces); {
		case j == worst:
			k = 3
		case nr > 50:
			k = 2
		case nr > 1:
			k = 1
		}
		r := &rows[k]
		r.jobs++
		r.charged += jo.Turnaround / n / 1000
		r.priced += jo.Priced / n / 1000
		r.sched += float64(c[j]-p.Jobs[j].Arrival) / n / 1000
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s, mean turnaround: interval Lagrangian %.2f s (%s) = charged + priced − %.2f s of priced capacity\n\n", in.name, res.Value/n/1000, plural.Count(res.Iterations, "step"), capPriced/n/1000)
	fmt.Fprintln(&b, "| jobs | count | Lagrangian charge (s of the mean) | priced work (s) | best offline schedule (s) | schedule − charge (s) |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|")
	for k, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f | %.2f | %.2f |\n", classes[k], r.jobs, r.charged, r.priced, r.sched, r.sched-r.charged)
	}
	return b.String(), nil
}
