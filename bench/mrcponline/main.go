// Command mrcponline reproduces MRCP's experiment in simulation (policies.md
// §3.1, §5): the mrcp policy against EDF on the small, medium, large and
// mixed WordCount streams over their λ grids, several seeds each, with the
// paper's metrics P, T, O and U. Each finished point is appended to the
// output TSV at once, so a killed sweep loses no finished work, and points
// already in the file are skipped on a rerun. Every trace passes the
// independent checker before its line is written.
//
//	go run ./bench/mrcponline -hours 5 -seeds 1,2,3 -out docs/mrcponline.tsv
//	go run ./bench/mrcponline -out docs/mrcponline.tsv -svg docs/mrcponline.svg
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/policy/mrcpsched"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/workload"
)

const header = "workload\tlambda\tgap_s\tseed\tpolicy\tjobs\tcompleted\tP\tT_s\tO_mean_ms\tO_median_ms\tO_median_cpu_ms\tO_over_T\tU\tU_map\tsolves\toptimal\tnode_limit\twall_limit\tmilps\tmax_solve_ms\tsim_wall_s"

func main() {
	workloads := flag.String("workloads", "small,medium,large,mixed", "workloads")
	seeds := flag.String("seeds", "1", "seeds, comma-separated")
	hours := flag.Float64("hours", 5, "simulated hours of arrivals per point")
	policies := flag.String("policies", "mrcp,edf", "policies")
	solver := flag.String("solver", "native", "MILP backend of mrcp")
	gaps := flag.String("gaps", "", "only these mean inter-arrival times (s), comma-separated; default the whole grid")
	out := flag.String("out", "mrcponline.tsv", "TSV to append to")
	svg := flag.String("svg", "", "instead of running: draw the TSV's P and T as this SVG, print the markdown table")
	flag.Parse()
	if *svg != "" {
		pts, err := readPoints(*out)
		if err != nil {
			fail(err)
		}
		writeTable(os.Stdout, pts)
		if err := writeSVG(*svg, pts); err != nil {
			fail(err)
		}
		return
	}
	done := map[string]bool{}
	if data, err := os.ReadFile(*out); err == nil {
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Split(line, "\t")
			if len(f) > 5 {
				done[strings.Join([]string{f[0], f[2], f[3], f[4]}, "/")] = true
			}
		}
	}
	f, err := os.OpenFile(*out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	if st, _ := f.Stat(); st.Size() == 0 {
		fmt.Fprintln(f, header)
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
				in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: wl, Duration: *hours * 3600, Lambda: lambda,
					Durations: mrcpscenario.Fit, Seed: seed})
				if err != nil {
					fail(err)
				}
				w, err := workload.FromMRCP(in.Name, in)
				if err != nil {
					fail(err)
				}
				for _, pn := range strings.Split(*policies, ",") {
					key := strings.Join([]string{wn, gap, ss, pn}, "/")
					if done[key] {
						continue
					}
					line, err := run(w, pn, *solver, seed)
					if err != nil {
						fail(fmt.Errorf("%s: %w", key, err))
					}
					fmt.Fprintf(f, "%s\t%.6g\t%s\t%d\t%s\t%s\n", wn, lambda, gap, seed, pn, line)
					fmt.Fprintf(os.Stderr, "%s done\n", key)
				}
			}
		}
	}
}

// run simulates one point in hadoop1 mode (H = 3 s) with the user's
// estimates (MRCP's dry-run means).
func run(w *sim.Workload, policy, solver string, seed uint64) (string, error) {
	o := sim.DefaultOptions()
	o.Estimates, o.Seed = sim.EstimateGiven, seed
	var p sim.Policy
	var mp *mrcpsched.Policy
	switch policy {
	case "mrcp":
		mp = mrcpsched.New(mrcpsched.Options{Solver: solver})
		p = mp
	case "edf":
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
	}, "\t"), nil
}

func fail(err error) {
	w := bufio.NewWriter(os.Stderr)
	fmt.Fprintln(w, "mrcponline:", err)
	w.Flush()
	os.Exit(1)
}
