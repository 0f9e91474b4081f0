// Command mrcpexact measures issue 26 point 3 ("exact where small") on the
// 20-job MRCP mixed streams (λ 0.02): for each seed and metric, one
// simbridge.Compare as `mrbound compare --policies fifo,fair,hfsp,edf` runs
// it (ideal mode, whole-stream MRCP solve for streams up to 30 jobs — for
// the turnaround metrics only when its model has at most
// simbridge.TurnaroundOptimumColumns columns — interval Lagrangian on the
// turnaround metrics, the branch and bound of lowerbound/bnb first with
// -search-nodes nodes), printing the bound and what gives it, the upper
// end, the bracket, the search's status, bound and nodes, the whole-stream
// solve's status, bound and wall time, and the CPU seconds (user + sys) of
// the whole comparison. It prints a Markdown table (docs/results.md, issue 26).
// With -model-lp it also prints, for the turnaround metrics, the size of
// the whole-stream MILP with compare's incumbent and its LP relaxation's
// status, value and CPU seconds per solver (the objective is in time units).
//
//	nice go run ./bench/mrcpexact -seeds 1,2,3,4,5,6
//
// A budget far above compare's needs -max-open too (the best-first
// phase's nodes made; bnb.DefaultMaxOpen caps them otherwise). Seed 5's
// sums, proven at 3064 s off compare's budget in the twenty-sixth session
// (32 M nodes), are proven within it since s29shift (6.2 M nodes):
//
//	taskset -c 0 go run ./bench/mrcpexact -seeds 5 -metrics total-turnaround
//	go run ./bench/mrcpexact -seeds 1 -metrics total-turnaround -model-lp native,highs -limit 3m
//
// With -lag-root N it runs no comparison and prints instead, per seed, the
// sums' time-indexed Lagrangian at the root: the subgradient's value and
// the column generation's after at most N LP solves (docs/bounds.md §14g).
//
// With -slot (total turnaround only) it runs each comparison as above and
// then prints, per seed, compare's certified bound before the search, the
// branch and bound's bound after one node with compare's incumbent (the
// sum of its split groups' root bounds where it splits the stream),
// lowerbound.SlotColumns (docs/bounds.md §4h) with compare's best verified
// schedule as incumbent, and the CPU seconds of each (s22slotuse).
//
//	nice taskset -c 0 go run ./bench/mrcpexact -metrics total-turnaround -slot
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/lowerbound/bnb"
	"github.com/mrbound/mrbound/lowerbound/windowbound"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"  // -model-lp highs
	_ "github.com/mrbound/mrbound/solve/native" // the embedded default solver
	"github.com/mrbound/mrbound/workload"
)

func main() {
	seeds := flag.String("seeds", "1,2,3,4,5,6", "generator seeds")
	jobs := flag.Int("jobs", 20, "jobs per stream")
	lambda := flag.Float64("lambda", 0.02, "arrival rate (jobs per s)")
	metrics := flag.String("metrics", "mean-turnaround,total-turnaround,makespan,max-turnaround", "metrics")
	limit := flag.Duration("limit", 0, "time limit of the whole-stream solve and the search (0: compare's defaults, simbridge.DefaultOptimumTimeLimit and SearchSafetyLimit; -model-lp's LPs then get the former)")
	nodes := flag.Int64("search-nodes", 0, "node limit of the branch and bound (0: simbridge.DefaultSearchNodes, on the sums DefaultSumsSearchNodes; -1: none)")
	maxOpen := flag.Int("max-open", 0, "most nodes the branch and bound's best-first phase makes (0: bnb.DefaultMaxOpen; raise it with -search-nodes)")
	lp := flag.String("model-lp", "", "for the turnaround metrics, also print the size of the whole-stream MILP (with the best verified schedule as incumbent) and solve its LP relaxation with these solvers (e.g. native,highs) within -limit")
	slot := flag.Bool("slot", false, "total turnaround only: after each comparison also print compare's certified bound before the search, the branch and bound's root bound and lowerbound.SlotColumns (docs/bounds.md §4h, HiGHS) with compare's best verified schedule as incumbent")
	lagRoot := flag.Int("lag-root", 0, "instead of compare, print per seed the sums' time-indexed Lagrangian at the root: the subgradient's value and the column generation's after at most this many LP solves (docs/bounds.md §14g), the master's value and the CPU of each")
	flag.Parse()
	if *slot && (*metrics != "total-turnaround" || *lagRoot > 0 || *lp != "") {
		fmt.Fprintln(os.Stderr, "mrcpexact: -slot bounds the total turnaround only: give -metrics total-turnaround, without -lag-root or -model-lp")
		os.Exit(1)
	}
	if *lagRoot > 0 {
		if err := runLagRoot(*seeds, *jobs, *lambda, *lagRoot); err != nil {
			fmt.Fprintln(os.Stderr, "mrcpexact:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*seeds, *jobs, *lambda, *metrics, *limit, *nodes, *maxOpen, *lp, *slot); err != nil {
		fmt.Fprintln(os.Stderr, "mrcpexact:", err)
		os.Exit(1)
	}
}

// cpu is the process's user + system time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(seeds string, jobs int, lambda float64, metrics string, limit time.Duration, nodes int64, maxOpen int, lpSolvers string, slot bool) error {
	var models, slots []string
	fmt.Println("| seed | metric | bound (by) | upper (by) | bracket | search: status, bound, nodes | stream solve: status, bound, wall | compare CPU s |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, ss := range strings.Split(seeds, ",") {
		seed, w, err := stream(ss, jobs, lambda)
		if err != nil {
			return err
		}
		for _, ms := range strings.Split(metrics, ",") {
			m, err := lowerbound.ParseMetric(ms)
			if err != nil {
				return err
			}
			var pols []simbridge.Named
			for _, n := range []string{"fifo", "fair", "hfsp", "edf"} {
				p, err := policy.New(n, policy.Params{})
				if err != nil {
					return err
				}
				pols = append(pols, simbridge.Named{Name: n, Policy: p})
			}
			o := simbridge.Options{Metric: m, Sim: simbridge.IdealOptions(), OptimumJobs: 30, SearchNodes: nodes, SearchMaxOpen: maxOpen, Solve: solve.Options{TimeLimit: limit}}
			if m == lowerbound.MeanTurnaround || m == lowerbound.TotalTurnaround {
				o.Lagrange = &lowerbound.LagrangeOptions{Iterations: 120} // compare's default before s24lag (now a work budget)
			}
			c0 := cpu()
			out, err := simbridge.Compare(context.Background(), w.Name, w, pols, o)
			if err != nil {
				return fmt.Errorf("seed %d, %s: %w", seed, m, err)
			}
			used := cpu() - c0
			r := out.Report
			upper, bracket := "-", "-"
			if r.Upper != nil {
				upper = fmt.Sprintf("%s (%s)", secs(*r.Upper, m), r.UpperBy)
			}
			if r.Bracket != nil {
				bracket = fmt.Sprintf("%.4f", *r.Bracket)
			}
			searched := "not tried"
			if sr := out.Search; sr != nil {
				searched = fmt.Sprintf("%s, %s, %d", sr.Status, secs(sr.Bound, m), sr.Nodes)
				if out.SearchCheckErr != "" {
					searched += ", sim/check: " + out.SearchCheckErr
				}
			}
			stream := "not tried"
			if st := out.Stream; st != nil {
				stream = fmt.Sprintf("%s, %s, %.1f s", st.Status, secs(st.Bound, m), st.Wall.Seconds())
				if out.StreamCheckErr != "" {
					stream += ", sim/check: " + out.StreamCheckErr
				}
			}
			fmt.Printf("| %d | %s | %s (%s) | %s | %s | %s | %s | %.1f |\n", seed, m, secs(r.Bound, m), r.By, upper, bracket, searched, stream, used.Seconds())
			if lpSolvers != "" && (m == lowerbound.MeanTurnaround || m == lowerbound.TotalTurnaround) {
				line, err := modelLP(out, m, lpSolvers, limit)
				if err != nil {
					return fmt.Errorf("seed %d, %s: %w", seed, m, err)
				}
				models = append(models, fmt.Sprintf("| %d | %s | %s", seed, m, line))
			}
			if slot {
				line, err := slotLine(out)
				if err != nil {
					return fmt.Errorf("seed %d: %w", seed, err)
				}
				slots = append(slots, fmt.Sprintf("| %d | %s |", seed, line))
			}
		}
	}
	printTable("| seed | compare's bound before the search (CPU s) | root bound (CPU s) | incumbent | slot columns (CPU s) | master | iterations, columns | tracked, spanned, units | stop |", slots)
	printTable("| seed | metric | incumbent | columns | rows | nonzeros | LP relaxation: solver, status, value, CPU s |", models)
	return nil
}

// runLagRoot prints, per seed, the root of the sums' time-indexed
// Lagrangian (bnb.RootLagrangian) with the subgradient's multipliers and
// with the column generation's after at most rounds LP solves, the
// master's value (an upper estimate of what any multipliers give) and the
// CPU seconds of the whole call, as a Markdown table.
func runLagRoot(seeds string, jobs int, lambda float64, rounds int) error {
	fmt.Println("| seed | subgradient | column generation | master (not certified) | LP solves | CPU s |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, ss := range strings.Split(seeds, ",") {
		seed, w, err := stream(ss, jobs, lambda)
		if err != nil {
			return err
		}
		p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
		if err != nil {
			return err
		}
		c0 := cpu()
		lr, err := bnb.RootLagrangian(context.Background(), p, rounds)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		if lr == nil {
			fmt.Printf("| %d | - | - | - | - | %.1f |\n", seed, (cpu() - c0).Seconds())
			continue
		}
		// Bounds rounded down, the master's upper estimate up, for display.
		down := func(ms float64) float64 { return math.Floor(ms/100) / 10 }
		up := func(ms float64) float64 { return math.Ceil(ms/100) / 10 }
		fmt.Printf("| %d | %.1f s | %.1f s | %.1f s | %d | %.1f |\n", seed, down(lr.Subgradient), down(lr.ColGen), up(lr.Master), lr.Solves, (cpu() - c0).Seconds())
	}
	return nil
}

// modelLP builds the whole-stream turnaround MILP compare would solve (the
// best verified schedule's value as incumbent) and solves its LP
// relaxation with each solver of the comma-separated list, returning the
// rest of a table row.
func modelLP(out *simbridge.Outcome, m lowerbound.Metric, solvers string, limit time.Duration) (string, error) {
	r := out.Report
	inc := 0.0
	if r.Upper != nil && r.UpperVerified {
		inc = *r.Upper
	}
	bt, err := windowbound.TurnaroundModel(out.Problem, m, windowbound.Options{Incumbent: inc})
	if err != nil || bt == nil {
		return "", fmt.Errorf("the turnaround model: %v (nil %v)", err, bt == nil)
	}
	md := bt.Model
	line := fmt.Sprintf("%s | %d | %d | %d |", secs(inc, m), md.NumCols(), md.NumRows(), md.NumNonzeros())
	for _, name := range strings.Split(solvers, ",") {
		c0 := cpu()
		if limit <= 0 {
			limit = simbridge.DefaultOptimumTimeLimit
		}
		res, err := solve.Solve(context.Background(), md.Relaxation(), solve.Options{Solver: name, TimeLimit: limit})
		if err != nil {
			return "", err
		}
		line += fmt.Sprintf(" %s %v %.1f %.1f;", name, res.Status, res.Objective, (cpu() - c0).Seconds())
	}
	return line + " |", nil
}

// slotLine measures, on the total turnaround of a comparison's problem,
// compare's certified bound before its search (recomputed, with compare's
// interval Lagrangian), the branch and bound's bound after one node with
// compare's incumbent (its root, or its split groups' roots) and lowerbound.SlotColumns with compare's
// best verified schedule as incumbent, with the CPU of each, as the rest of
// a table row.
func slotLine(out *simbridge.Outcome) (string, error) {
	r := out.Report
	if r.Upper == nil || !r.UpperVerified {
		return "", fmt.Errorf("-slot: compare has no verified schedule for the incumbent")
	}
	inc := *r.Upper
	p, m := out.Problem, lowerbound.TotalTurnaround
	ctx := context.Background()
	c0 := cpu()
	lg := lowerbound.LagrangeOptions{Iterations: 120, TimeLimit: simbridge.DefaultLagrangeTimeLimit}
	bs, err := lowerbound.ComputeWith(ctx, p, lowerbound.Options{Lagrange: &lg})
	if err != nil {
		return "", err
	}
	known := bs.Get(m).Certified
	c1 := cpu()
	root, err := bnb.Solve(ctx, p, m, bnb.Options{Incumbent: inc, NodeLimit: 1})
	if err != nil {
		return "", err
	}
	c2 := cpu()
	s, err := lowerbound.SlotColumns(ctx, p, lowerbound.SlotColumnsOptions{Incumbent: int64(inc),
		Solve: solve.Options{Solver: "highs", Threads: 1, TimeLimit: 30 * time.Minute}})
	if err != nil {
		return "", fmt.Errorf("slot columns: %w", err)
	}
	c3 := cpu()
	// No bound may exceed the proven optimum, or else the verified schedule.
	ceiling, what := inc, "the verified schedule"
	if r.Optimum != nil && r.OfflineVerified {
		ceiling, what = *r.Optimum, "the proven optimum"
	}
	for _, b := range []struct {
		name  string
		value float64
	}{{"compare's certified bound", known}, {"the root bound", root.Bound}, {"the slot columns", s.Value}} {
		if b.value > ceiling+1e-6 {
			return "", fmt.Errorf("-slot: %s %s above %s %s", b.name, secs(b.value, m), what, secs(ceiling, m))
		}
	}
	return fmt.Sprintf("%s (%.1f) | %s (%.1f) | %s | **%s** (%.1f) | %s | %d, %d | %d, %d, %d of %d ms | %s",
		secs(known, m), (c1 - c0).Seconds(), secs(root.Bound, m), (c2 - c1).Seconds(), secs(inc, m),
		secs(math.Floor(s.Value), m), (c3 - c2).Seconds(), secs(math.Round(s.Master), m), s.Iterations, s.Columns,
		s.Tracked, s.Spanned, s.Units, s.Unit, s.Stop), nil
}

// printTable prints a Markdown table after a blank line: the header, its
// separator and the rows; nothing when there are no rows.
func printTable(header string, rows []string) {
	if len(rows) == 0 {
		return
	}
	fmt.Println()
	fmt.Println(header)
	fmt.Println("|" + strings.Repeat("---|", strings.Count(header, "|")-1))
	for _, l := range rows {
		fmt.Println(l)
	}
}

// secs formats a metric value in ms as seconds.
func secs(v float64, m lowerbound.Metric) string {
	if m == lowerbound.LateJobs {
		return fmt.Sprint(v)
	}
	return strconv.FormatFloat(v/1000, 'f', -1, 64) + " s"
}

// stream generates the MRCP mixed stream of the seed written ss (one
// element of -seeds).
func stream(ss string, jobs int, lambda float64) (uint64, *sim.Workload, error) {
	seed, err := strconv.ParseUint(ss, 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("-seeds: %v", err)
	}
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: jobs, Lambda: lambda, Seed: seed})
	if err != nil {
		return 0, nil, err
	}
	w, err := workload.FromMRCP(fmt.Sprintf("seed %d", seed), in)
	return seed, w, err
}
