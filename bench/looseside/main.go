// Command looseside asks, on instances small enough for a proven optimum,
// which side of issue 26's 20-node mean-turnaround bracket is loose: the
// certified lower bound (the interval Lagrangian and the closed-form bounds,
// as compare computes them for the FB-2009 day) or the best verified offline
// schedule (package upperbound's constructions and search).
//
// Each instance is a seeded miniature of the FB-2009 day at 20 nodes:
// -nodes nodes of 2 map and 1 reduce slots; many short jobs (1–3 maps of
// 1–5 s, one reduce: half of about 1 s, half from an exponential of mean
// 120 s capped at 600 s, as the day's one-reduce jobs) and a few wide jobs
// (2–6 maps per node of 1–5 s, 3–6 reduces per reduce slot of 60–90 s each:
// on the day the 58 jobs with more than 50 reduces have reduces of 64–90 s,
// two thirds of the reduce work, and hold about 60 % of the reduce slots),
// all arriving over a window that loads the reduce slots to -rho (the day:
// 1.02). Every job has one map and
// one reduce duration, so lowerbound/bnb's class: simbridge.Compare runs the
// branch and bound with -search-nodes nodes after the offline side, and an
// optimum it proves has its schedule verified by sim/check (or is compare's
// best verified schedule, which nothing beats).
//
// Per instance it prints the proven optimum OPT (or the search's bound when
// it stopped), compare's certified bound without the search ("bound", what
// the day has), the interval Lagrangian alone, srpt's schedule, the best
// offline schedule (upperbound.Best at compare's defaults: 40 search runs,
// seed 0, or -search-seed's) and the ratios upper/OPT and OPT/bound; then
// their geometric means over the proven instances (docs/results.md, issue
// 26, s13up). A change to the offline search is judged over several
// -search-seed values: one seed's result is partly the search's luck (s21hold). With -ti it
// also solves lowerbound.TimeIndexedLP (docs/bounds.md §4g, the best verified
// schedule as incumbent) and §4b's interval LP on 1,024 steps with HiGHS,
// and prints both against OPT and the bound (s17np). With -slot it also
// computes lowerbound.SlotColumns (docs/bounds.md §4h: one column per reduce
// slot's sequence, the best verified schedule as incumbent) and prints it
// against OPT and the bound (s22slot).
//
//	taskset -c 0 go run ./bench/looseside -seeds 1-12 -nodes 2 -short 10 -wide 2
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/lowerbound/bnb"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"  // the time-indexed LP (-ti)
	_ "github.com/mrbound/mrbound/solve/native" // the embedded solver, should compare's MILP run
	"github.com/mrbound/mrbound/upperbound"
)

// show is -show, showRule -show-rule, timeIndexed -ti, slotColumns -slot,
// slotTracked -slot-tracked and slotSpans -slot-spans.
var (
	show        bool
	showRule    upperbound.Rule
	timeIndexed bool
	slotColumns bool
	slotTracked int
	slotSpans   int
	// searchSeed is -search-seed: the simulator's seed (sim.Options.Seed)
	// in every run, which also seeds the offline side's local search.
	searchSeed uint64
)

// family are the generator's parameters.
type family struct {
	nodes, short, wide int
	// rho is the reduce slots' load over the arrival window.
	rho float64
}

func main() {
	seeds := flag.String("seeds", "1-12", "generator seeds: a list and ranges (1-12,20)")
	nodes := flag.Int("nodes", 2, "nodes of 2 map and 1 reduce slots")
	short := flag.Int("short", 10, "short jobs (one reduce) per instance")
	wide := flag.Int("wide", 2, "wide jobs (3–6 reduces per reduce slot) per instance")
	rho := flag.Float64("rho", 1.0, "the reduce slots' load over the arrival window")
	searchNodes := flag.Int64("search-nodes", 3_000_000, "node limit of the branch and bound (compare's default is simbridge.DefaultSearchNodes, 3,000,000)")
	evals := flag.Int("evals", 40, "local-search runs of the offline side")
	flag.Uint64Var(&searchSeed, "search-seed", simbridge.IdealOptions().Seed, "the simulator's seed in every run, which also seeds the offline side's local search (default: compare's)")
	flag.BoolVar(&show, "show", false, "after each instance, every job's completion in the optimum found and in -show-rule's schedule, and both schedules' reduces")
	showName := flag.String("show-rule", "srpt", "with -show: the construction set against the optimum (srpt, srpt-hold, …)")
	flag.BoolVar(&timeIndexed, "ti", false, "also solve lowerbound.TimeIndexedLP (docs/bounds.md §4g) with HiGHS, the best verified schedule as incumbent, and print it against OPT and the bound")
	flag.BoolVar(&slotColumns, "slot", false, "also compute lowerbound.SlotColumns (docs/bounds.md §4h) with HiGHS, the best verified schedule as incumbent, and print it against OPT and the bound")
	flag.IntVar(&slotTracked, "slot-tracked", 0, "with -slot: the single reduces its pricing keeps elementary (0: the default, 12; negative: none)")
	flag.IntVar(&slotSpans, "slot-spans", 0, "with -slot: the multi-reduce groups given span rows (0: the default, 4; negative: none)")
	flag.Parse()
	for _, r := range upperbound.Rules(lowerbound.MeanTurnaround) {
		if r.String() == *showName {
			showRule = r
		}
	}
	if showRule == upperbound.RuleUnknown {
		fmt.Fprintf(os.Stderr, "looseside: -show-rule: no construction %q for mean turnaround\n", *showName)
		os.Exit(1)
	}
	if *nodes < 1 || *short < 0 || *wide < 0 || *short+*wide < 1 || !(*rho > 0) || math.IsInf(*rho, 0) {
		fmt.Fprintln(os.Stderr, "looseside: -nodes must be at least 1, -short and -wide at least 0 with a job in all, -rho a positive load")
		os.Exit(1)
	}
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if (set["slot-tracked"] || set["slot-spans"]) && !slotColumns {
		fmt.Fprintln(os.Stderr, "looseside: -slot-tracked and -slot-spans need -slot")
		os.Exit(1)
	}
	f := family{*nodes, *short, *wide, *rho}
	if err := run(*seeds, f, *searchNodes, *evals); err != nil {
		fmt.Fprintln(os.Stderr, "looseside:", err)
		os.Exit(1)
	}
}

// parseSeeds reads "1-12,20".
func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-seeds: %q: %v", f, err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("-seeds: %q is not a range", f)
			}
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

// generate builds one instance of the family (see the package comment).
// Times are whole seconds, so that the branch and bound's time unit is
// 1 s and its memo sees equal partial schedules as equal.
func generate(seed uint64, f family) *sim.Workload {
	rng := rand.New(rand.NewPCG(seed, 26))
	w := &sim.Workload{Name: fmt.Sprintf("looseside seed %d", seed)}
	for i := range f.nodes {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{Name: fmt.Sprintf("n%d", i), MapSlots: 2, ReduceSlots: 1})
	}
	sec := func(s int) sim.Time { return sim.Time(s) * 1000 }
	var jobs []sim.Job
	redWork := 0
	mk := func(maps, mapDur, reds, redDur int) sim.Job {
		j := sim.Job{Deadline: sim.NoDeadline, Parent: -1}
		for range maps {
			j.Maps = append(j.Maps, sim.TaskSpec{Work: sec(mapDur)})
		}
		for range reds {
			j.Reduces = append(j.Reduces, sim.TaskSpec{Work: sec(redDur)})
		}
		redWork += reds * redDur
		return j
	}
	for range f.short {
		// The day's one-reduce jobs: half have a reduce of about 1 s, the
		// rest a long tail (75 % ≤ 34 s, 90 % ≤ 89 s, 99 % ≤ 632 s, mean 63 s
		// over all): an exponential of mean 120 s for that half, capped.
		d := 1
		if rng.IntN(2) == 0 {
			d = min(600, max(2, int(math.Round(rng.ExpFloat64()*120))))
		}
		jobs = append(jobs, mk(1+rng.IntN(3), 1+rng.IntN(5), 1, d))
	}
	for range f.wide {
		// The day's 58 wide jobs have 53–8,217 reduces of 64–90 s each
		// (two thirds of the day's reduce work) and hundreds of 5-s maps.
		jobs = append(jobs, mk(2*f.nodes*(1+rng.IntN(3)), 1+rng.IntN(5), f.nodes*(3+rng.IntN(4)), 60+rng.IntN(31)))
	}
	// The window that loads the reduce slots to rho; wide jobs arrive in
	// its first half, so that short jobs keep arriving while they run (the
	// day's gap opens after its two largest jobs arrive).
	window := float64(redWork) / (float64(f.nodes) * f.rho)
	for i := range jobs {
		span := window
		if i >= f.short {
			span = window / 2
		}
		jobs[i].Arrival = sec(int(rng.Float64() * span))
	}
	slices.SortStableFunc(jobs, func(a, b sim.Job) int { return int(a.Arrival - b.Arrival) })
	for i := range jobs {
		jobs[i].Name = fmt.Sprintf("j%d", i)
	}
	w.Jobs = jobs
	return w
}

type row struct {
	seed                            uint64
	jobs, tasks                     int
	opt, bound, lagr, srpt, upper   float64
	ti, ilp                         float64
	tiCPU, ilpCPU                   time.Duration
	slot                            lowerbound.SlotColumnsResult
	slotCPU                         time.Duration
	optBy, boundBy, upperBy, status string
	proven                          bool
	nodes                           int64
	cpu                             time.Duration
}

func run(seeds string, f family, searchNodes int64, evals int) error {
	ss, err := parseSeeds(seeds)
	if err != nil {
		return err
	}
	fmt.Printf("family: %s (%s, %s), %s + %s, reduce load %.2f\n\n", plural.Count(f.nodes, "node"), plural.Count(2*f.nodes, "map slot"),
		plural.Count(f.nodes, "reduce slot"), plural.Count(f.short, "short job"), plural.Count(f.wide, "wide job"), f.rho)
	fmt.Println("| seed | tasks | OPT (s) | search | bound (by) | Lagrangian | srpt | best offline (by) | upper/OPT | OPT/bound | srpt/OPT | CPU s |")
	fmt.Println("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	var rows []row
	for _, seed := range ss {
		w := generate(seed, f)
		r, err := one(w, seed, searchNodes, evals)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		rows = append(rows, r)
		optCol := fmt.Sprintf("%.2f", r.opt/1000)
		if !r.proven {
			optCol = fmt.Sprintf("≥ %.2f", r.opt/1000)
		}
		fmt.Printf("| %d | %d | %s | %s, %s | %.2f (%s) | %.2f | %.2f | %.2f (%s) | %.4f | %.4f | %.4f | %.1f |\n",
			r.seed, r.tasks, optCol, r.status, plural.Count(int(r.nodes), "node"), r.bound/1000, r.boundBy, r.lagr/1000, r.srpt/1000,
			r.upper/1000, r.upperBy, r.upper/r.opt, r.opt/r.bound, r.srpt/r.opt, r.cpu.Seconds())
		if timeIndexed {
			fmt.Printf("|   | time-indexed LP %.2f s: OPT/LP %.4f, LP/bound %.4f, (LP − bound)/OPT %+.2f %%, %.1f CPU s; interval LP (§4b, 1,024 steps) %.2f s, %.1f CPU s |\n",
				r.ti/1000, r.opt/r.ti, r.ti/r.bound, 100*(r.ti-r.bound)/r.opt, r.tiCPU.Seconds(), r.ilp/1000, r.ilpCPU.Seconds())
		}
		if slotColumns {
			s := r.slot
			v := s.Value / float64(r.jobs)
			fmt.Printf("|   | slot columns %.2f s: OPT/slot %.4f, (slot − bound)/OPT %+.2f %%, master %.2f s, %s, %s, %s tracked, %d units, stop: %s, %.1f CPU s |\n",
				v/1000, r.opt/v, 100*(v-r.bound)/r.opt, s.Master/float64(r.jobs)/1000, plural.Count(s.Iterations, "iteration"), plural.Count(s.Columns, "column"),
				plural.Count(s.Tracked, "reduce"), s.Units, s.Stop, r.slotCPU.Seconds())
		}
	}
	var n int
	var up, lo, sr, wu, wl, ti, sl, slotSum float64
	var slotCPU time.Duration
	for _, r := range rows {
		if !r.proven {
			continue
		}
		n++
		if timeIndexed {
			ti += math.Log(r.opt / max(r.ti, r.bound))
		}
		if slotColumns {
			v := r.slot.Value / float64(r.jobs)
			slotSum += math.Log(r.opt / v)
			sl += math.Log(r.opt / max(v, r.bound))
			slotCPU += r.slotCPU
		}
		up += math.Log(r.upper / r.opt)
		lo += math.Log(r.opt / r.bound)
		sr += math.Log(r.srpt / r.opt)
		wu = max(wu, r.upper/r.opt)
		wl = max(wl, r.opt/r.bound)
	}
	if n > 0 {
		fmt.Printf("\nproven on %d of %d: geometric mean upper/OPT %.4f (worst %.4f), OPT/bound %.4f (worst %.4f), srpt/OPT %.4f\n",
			n, len(rows), math.Exp(up/float64(n)), wu, math.Exp(lo/float64(n)), wl, math.Exp(sr/float64(n)))
		if timeIndexed {
			fmt.Printf("with the time-indexed LP: geometric mean OPT/max(bound, LP) %.4f\n", math.Exp(ti/float64(n)))
		}
		if slotColumns {
			fmt.Printf("slot columns: geometric mean OPT/slot %.4f, OPT/max(bound, slot) %.4f, %.1f CPU s over the proven\n",
				math.Exp(slotSum/float64(n)), math.Exp(sl/float64(n)), slotCPU.Seconds())
		}
	}
	return nil
}

// one compares the policies, the offline side and the branch and bound on w.
func one(w *sim.Workload, seed uint64, searchNodes int64, evals int) (row, error) {
	r := row{seed: seed, jobs: len(w.Jobs)}
	for _, j := range w.Jobs {
		r.tasks += len(j.Maps) + len(j.Reduces)
	}
	var pols []simbridge.Named
	for _, n := range []string{"fifo", "fair", "hfsp"} {
		p, err := policy.New(n, policy.Params{})
		if err != nil {
			return r, err
		}
		pols = append(pols, simbridge.Named{Name: n, Policy: p})
	}
	m := lowerbound.MeanTurnaround
	so := simbridge.IdealOptions()
	so.Seed = searchSeed
	o := simbridge.Options{
		Metric: m, Sim: so, UpperEvaluations: evals,
		Lagrange:    &lowerbound.LagrangeOptions{Iterations: 120, TimeLimit: lowerbound.LagrangeSafetyLimit},
		OptimumJobs: len(w.Jobs), SearchNodes: searchNodes,
		// The node limit, not the clock, decides (a generous guard).
		Solve: solve.Options{TimeLimit: 30 * time.Minute},
	}
	c0 := cpu()
	out, err := simbridge.Compare(context.Background(), w.Name, w, pols, o)
	if err != nil {
		return r, err
	}
	r.cpu = cpu() - c0
	rep := out.Report
	b := out.Bounds.Get(m)
	r.bound, r.boundBy = b.Certified, b.By
	for _, c := range b.Components {
		if c.Name == lowerbound.LagrangeComponent {
			r.lagr = c.Value
		}
	}
	if out.Upper == nil || out.Upper.Best == nil {
		return r, fmt.Errorf("no verified offline schedule")
	}
	r.upper, r.upperBy = out.Upper.Best.Value, strings.TrimPrefix(out.Upper.Best.By, "offline-")
	for _, sc := range out.Upper.Tried {
		if sc.By == "offline-srpt" && sc.Verified {
			r.srpt = sc.Value
		}
	}
	if r.srpt == 0 {
		return r, fmt.Errorf("no verified offline-srpt schedule")
	}
	sr := out.Search
	if sr == nil {
		return r, fmt.Errorf("the branch and bound did not run (outside its class?)")
	}
	if out.SearchCheckErr != "" {
		return r, fmt.Errorf("the branch and bound's schedule fails sim/check: %s", out.SearchCheckErr)
	}
	r.status, r.nodes = sr.Status.String(), sr.Nodes
	if rep.Optimum != nil && rep.OfflineVerified {
		r.opt, r.proven = *rep.Optimum, true
	} else {
		r.opt = max(sr.Bound, r.bound)
	}
	// The LP-side bounds' problem and incumbent in ms: the mean of a verified
	// schedule times the jobs, rounded down (the optimum is an integer ≤ it).
	var p *lowerbound.Problem
	var inc int64
	if timeIndexed || slotColumns {
		if p, err = simbridge.Problem(w, o.Sim, false); err != nil {
			return r, err
		}
		inc = int64(math.Floor(r.upper*float64(len(w.Jobs)) + 1e-6))
	}
	if timeIndexed {
		c0 := cpu()
		lp, err := lowerbound.TimeIndexedLP(context.Background(), p, lowerbound.TimeIndexedOptions{
			Incumbent: inc, Solve: solve.Options{Solver: "highs", Threads: 1, TimeLimit: 30 * time.Minute}})
		if err != nil {
			return r, fmt.Errorf("time-indexed LP: %w", err)
		}
		if lp.Status != solve.Optimal {
			return r, fmt.Errorf("time-indexed LP: status %v", lp.Status)
		}
		r.ti, r.tiCPU = lp.Value/float64(len(w.Jobs)), cpu()-c0
		// §4b's relaxation (preemptive: work per interval) on a fine grid:
		// what the time-indexed LP gains beyond it is its windows.
		c0 = cpu()
		ilp, err := lowerbound.IntervalLP(context.Background(), p, lowerbound.LagrangeOptions{Intervals: 1024},
			solve.Options{Solver: "highs", Threads: 1, TimeLimit: 30 * time.Minute})
		if err != nil {
			return r, fmt.Errorf("interval LP: %w", err)
		}
		r.ilp, r.ilpCPU = ilp.Value/float64(len(w.Jobs)), cpu()-c0
		if r.proven && r.ti > r.opt+1e-6 {
			return r, fmt.Errorf("time-indexed LP %.3f s above the proven optimum %.3f s", r.ti/1000, r.opt/1000)
		}
	}
	if slotColumns {
		c0 := cpu()
		s, err := lowerbound.SlotColumns(context.Background(), p, lowerbound.SlotColumnsOptions{
			Incumbent: inc, Tracked: slotTracked, Spans: slotSpans, Solve: solve.Options{Solver: "highs", Threads: 1, TimeLimit: 30 * time.Minute}})
		if err != nil {
			return r, fmt.Errorf("slot columns: %w", err)
		}
		r.slot, r.slotCPU = s, cpu()-c0
		if r.proven && s.Value/float64(len(w.Jobs)) > r.opt+1e-6 {
			return r, fmt.Errorf("slot columns %.3f s above the proven optimum %.3f s", s.Value/float64(len(w.Jobs))/1000, r.opt/1000)
		}
	}
	if show && slotColumns && r.slot.Completions != nil {
		fmt.Println("\nslot columns' C_j − a_j (s):")
		for j, c := range r.slot.Completions {
			fmt.Printf(" %d:%.1f", j, (c-float64(w.Jobs[j].Arrival))/1000)
		}
		fmt.Println()
	}
	if show && sr.Placements != nil {
		if err := showSchedules(w, sr.Placements); err != nil {
			return r, err
		}
	}
	return r, nil
}

// showSchedules prints each job's completion in the search's schedule and
// in showRule's, and the reduces of both, slot by slot: where the optimum
// departs from list scheduling.
func showSchedules(w *sim.Workload, pl []bnb.Placement) error {
	pol, err := upperbound.New(w, showRule)
	if err != nil {
		return err
	}
	res, err := sim.Run(w, pol, simbridge.IdealOptions())
	if err != nil {
		return err
	}
	if res.Status != sim.Finished {
		return fmt.Errorf("%v's run ended %v", showRule, res.Status)
	}
	if err := check.Verify(w, res); err != nil {
		return fmt.Errorf("%v's schedule fails sim/check: %w", showRule, err)
	}
	optC := make([]int64, len(w.Jobs))
	type seg struct {
		job        int
		start, end int64
	}
	optRed := map[int][]seg{}
	for _, p := range pl {
		optC[p.Job] = max(optC[p.Job], p.End)
		if p.Reduce {
			optRed[p.Node] = append(optRed[p.Node], seg{p.Job, p.Start, p.End})
		}
	}
	srRed := map[int][]seg{}
	for _, a := range res.Trace {
		if a.Kind == sim.Reduce {
			srRed[int(a.Node)] = append(srRed[int(a.Node)], seg{int(a.Job), int64(a.Start), int64(a.End)})
		}
	}
	fmt.Println()
	fmt.Printf("| job | arrival | maps × s | reduces × s | OPT: turnaround | %s: turnaround |\n", showRule)
	fmt.Println("|---:|---:|---|---|---:|---:|")
	for j, job := range w.Jobs {
		fmt.Printf("| %d | %d | %d × %d | %d × %d | %d | %d |\n", j, job.Arrival/1000, len(job.Maps), job.Maps[0].Work/1000,
			len(job.Reduces), job.Reduces[0].Work/1000, (optC[j]-int64(job.Arrival))/1000, (int64(res.Jobs[j].Completion)-int64(job.Arrival))/1000)
	}
	for _, sch := range []struct {
		name string
		red  map[int][]seg
	}{{"OPT", optRed}, {showRule.String(), srRed}} {
		fmt.Printf("\n%s's reduces per node (job: start–end s):\n", sch.name)
		for x := range w.Cluster.Nodes {
			segs := sch.red[x]
			slices.SortFunc(segs, func(a, b seg) int { return int(a.start - b.start) })
			fmt.Printf("  node %d:", x)
			for _, g := range segs {
				fmt.Printf(" %d:%d–%d", g.job, g.start/1000, g.end/1000)
			}
			fmt.Println()
		}
	}
	fmt.Println()
	return nil
}

// cpu is the process's user + system time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
