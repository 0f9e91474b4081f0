// Command mrcponline reproduces MRCP's experiment in simulation (policies.md
// §3.1, §5): the mrcp policy against EDF on the small, medium, large and
// mixed WordCount streams over their λ grids, several seeds each, with the
// paper's metrics P, T, O and U. Each finished point (workload, λ, seed,
// policy) is written at once to a file of its own in -dir (atomically), so
// a killed sweep loses no finished work, and points already there are
// skipped on a rerun. Every trace passes the independent checker before its
// file is written.
//
// Policies: mrcp (defaults: node limit 2 000 and 5 000 columns per MILP,
// 10 s per re-solve), edf, and mrcp-opt, the reference whose every re-solve
// is solved to proven optimality if it can be (no node or size limit,
// -opt-limit per re-solve, backend -opt-solver).
//
//	nice go run ./bench/mrcponline -hours 5 -seeds 1,2,3 -dir docs/figures/mrcponline
//	go run ./bench/mrcponline -dir docs/figures/mrcponline -svg docs/figures/mrcponline.svg
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/atomicfile"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/policy/mrcpsched"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/workload"
)

const header = "workload\tlambda\tgap_s\tseed\tpolicy\tjobs\tcompleted\tP\tT_s\tO_mean_ms\tO_median_ms\tO_median_cpu_ms\tO_over_T\tU\tU_map\tsolves\toptimal\tnode_limit\twall_limit\tmilps\tmax_solve_ms\tsim_wall_s\tsize_limit"

func main() {
	workloads := flag.String("workloads", "small,medium,large,mixed", "workloads")
	seeds := flag.String("seeds", "1", "seeds, comma-separated")
	hours := flag.Float64("hours", 5, "simulated hours of arrivals per point")
	policies := flag.String("policies", "mrcp,edf", "policies: mrcp, edf, mrcp-opt")
	solver := flag.String("solver", "native", "MILP backend of mrcp")
	optSolver := flag.String("opt-solver", "highs", "MILP backend of mrcp-opt")
	optLimit := flag.Duration("opt-limit", 300*time.Second, "wall limit of one re-solve of mrcp-opt")
	gaps := flag.String("gaps", "", "only these mean inter-arrival times (s), comma-separated; default the whole grid")
	dir := flag.String("dir", "mrcponline", "directory of the per-point result files")
	svg := flag.String("svg", "", "instead of running: draw the points' P and T as this SVG, print the markdown table")
	flag.Parse()
	if *svg != "" {
		pts, err := readPoints(*dir)
		if err != nil {
			fail(err)
		}
		writeTable(os.Stdout, pts)
		if err := writeOptTable(os.Stdout, *dir); err != nil {
			fail(err)
		}
		if err := writeSVG(*svg, pts); err != nil {
			fail(err)
		}
		return
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	wantGap := map[string]bool{}
	for _, g := range strings.Split(*gaps, ",") {
		if g != "" {
			wantGap[g] = true
		}
	}
	for _, wn := range strings.Split(*workloads, ",") {
		wl, err := mrcpscenario.ParseWorkload(wn)
		if err != nil {
			fail(err)
		}
		for _, lambda := range mrcpscenario.LambdaGrid(wl) {
			gap := strconv.FormatFloat(1/lambda, 'g', 4, 64)
			if len(wantGap) > 0 && !wantGap[gap] {
				continue
			}
			for _, ss := range strings.Split(*seeds, ",") {
				seed, err := strconv.ParseUint(ss, 10, 64)
				if err != nil {
					fail(err)
				}
				var w *sim.Workload
				for _, pn := range strings.Split(*policies, ",") {
					file := filepath.Join(*dir, fmt.Sprintf("%s-%s-s%d-%s.tsv", wn, gap, seed, pn))
					if _, err := os.Stat(file); err == nil {
						continue // done in an earlier run
					}
					if w == nil {
						in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: wl, Duration: *hours * 3600, Lambda: lambda,
							Durations: mrcpscenario.Fit, Seed: seed})
						if err != nil {
							fail(err)
						}
						if w, err = workload.FromMRCP(in.Name, in); err != nil {
							fail(err)
						}
					}
					var mo *mrcpsched.Options
					switch pn {
					case "mrcp":
						mo = &mrcpsched.Options{Solver: *solver}
					case "mrcp-opt":
						mo = &mrcpsched.Options{Solver: *optSolver, SolveLimit: *optLimit, NodeLimit: -1, MaxColumns: -1}
					}
					line, err := run(w, pn, mo, seed)
					if err != nil {
						fail(fmt.Errorf("%s: %w", file, err))
					}
					err = atomicfile.Write(file, func(f io.Writer) error {
						_, err := fmt.Fprintf(f, "%s\n%s\t%.6g\t%s\t%d\t%s\t%s\n", header, wn, lambda, gap, seed, pn, line)
						return err
					})
					if err != nil {
						fail(err)
					}
					fmt.Fprintf(os.Stderr, "%s done\n", file)
				}
			}
		}
	}
}

// run simulates one point in hadoop1 mode (H = 3 s) with the user's
// estimates (MRCP's dry-run means): EDF, or mrcp with options mo.
func run(w *sim.Workload, policy string, mo *mrcpsched.Options, seed uint64) (string, error) {
	o := sim.DefaultOptions()
	o.Estimates, o.Seed = sim.EstimateGiven, seed
	var p sim.Policy
	var mp *mrcpsched.Policy
	switch {
	case mo != nil:
		mp = mrcpsched.New(*mo)
		p = mp
	case policy == "edf":
		p = fifo.NewEDF() // f = 0.05, stock slow-start (A-E1)
	default:
		return "", fmt.Errorf("unknown policy %q", policy)
	}
	t0 := time.Now()
	res, err := sim.Run(w, p, o)
	if err != nil {
		return "", err
	}
	if err := check.Verify(w, res); err != nil {
		return "", fmt.Errorf("checker: %w", err)
	}
	var solves []mrcpsched.SolveRecord
	if mp != nil {
		solves = mp.Solves()
	}
	s := mrcpsched.Summarize(res, solves)
	ms := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds()*1000, 'f', 3, 64) }
	return strings.Join([]string{
		strconv.Itoa(len(w.Jobs)), strconv.Itoa(s.CompletedJobs), strconv.FormatFloat(s.P, 'f', 4, 64),
		strconv.FormatFloat(s.T, 'f', 2, 64), ms(s.OMean), ms(s.OMedian), ms(s.OMedianCPU),
		strconv.FormatFloat(s.OT, 'g', 4, 64), strconv.FormatFloat(s.U, 'f', 4, 64), strconv.FormatFloat(s.UMap, 'f', 4, 64),
		strconv.Itoa(s.Solves), strconv.Itoa(s.Optimal), strconv.Itoa(s.NodeLimitHit), strconv.Itoa(s.WallLimitHit),
		strconv.Itoa(s.MILPs), ms(s.MaxSolve), strconv.FormatFloat(time.Since(t0).Seconds(), 'f', 1, 64),
		strconv.Itoa(s.SizeLimitHit),
	}, "\t"), nil
}

func fail(err error) {
	w := bufio.NewWriter(os.Stderr)
	fmt.Fprintln(w, "mrcponline:", err)
	w.Flush()
	os.Exit(1)
}
