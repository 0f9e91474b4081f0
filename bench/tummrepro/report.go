package tummrepro

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mrbound/mrbound/internal/plural"
)

// find returns the run of (experiment, workload, policy).
func (r *Report) find(exp, wl, pol string) (Run, bool) {
	for _, x := range r.Runs {
		if x.Experiment == exp && x.Workload == wl && x.Policy == pol {
			return x, true
		}
	}
	return Run{}, false
}

// workloads lists an experiment's workloads in run order.
func (r *Report) workloads(exp string) []string {
	var out []string
	for _, x := range r.Runs {
		if x.Experiment == exp && !slices.Contains(out, x.Workload) {
			out = append(out, x.Workload)
		}
	}
	return out
}

// WriteMarkdown writes the makespan and utilisation tables.
func (r *Report) WriteMarkdown(w io.Writer) {
	for _, exp := range []string{"simple", "mixed"} {
		fmt.Fprintf(w, "\n%s batches, makespan s (slot utilisation %%); LB = max(ΣW/S, max CP)\n\n", exp)
		fmt.Fprintf(w, "| workload | LB | %s | TuMM vs 2:2 | TuMM vs best static |\n", strings.Join(SimplePolicies, " | "))
		fmt.Fprintf(w, "|---|---|%s---|---|\n", strings.Repeat("---|", len(SimplePolicies)))
		for _, wl := range r.workloads(exp) {
			var cells []string
			best := 0.0
			for _, p := range SimplePolicies {
				x, _ := r.find(exp, wl, p)
				cells = append(cells, fmt.Sprintf("%.1f (%.0f)", x.Makespan, 100*x.Utilisation))
				if !strings.HasPrefix(p, "tumm") && (best == 0 || x.Makespan < best) {
					best = x.Makespan
				}
			}
			tu, _ := r.find(exp, wl, "tumm")
			two, _ := r.find(exp, wl, "static:2:2")
			lb, _ := r.find(exp, wl, "tumm")
			fmt.Fprintf(w, "| %s | %.1f | %s | %+.1f%% | %+.1f%% |\n", wl, lb.Bound, strings.Join(cells, " | "),
				100*(tu.Makespan/two.Makespan-1), 100*(tu.Makespan/best-1))
		}
	}
	if n := len(r.Ratio.Targets); n > 0 {
		fmt.Fprintf(w, "\nTuMM on the mixed batch (johnson): the target s_m changed %s (from %d to %d at the end)\n",
			plural.Count(n-1, "time"), r.Ratio.Targets[0].MapSlots, r.Ratio.Targets[n-1].MapSlots)
	}
	fmt.Fprintf(w, "\nTPC-H-like chains, per-query makespan s, FIFO with Table 3's split → H_TuMM (published Table 5 in brackets)\n\n")
	fmt.Fprintf(w, "| cluster | query | FIFO | H_TuMM | change | published FIFO → H_TuMM |\n|---|---|---|---|---|---|\n")
	for _, cl := range r.workloads("tpch") {
		f, _ := r.find("tpch", cl, "static:nodes")
		h, _ := r.find("tpch", cl, "htumm")
		for _, q := range []string{"q15", "q16", "q18"} {
			pub := published[cl+"/"+q]
			fmt.Fprintf(w, "| %s | %s | %.1f | %.1f | %+.1f%% | %.1f → %.1f (%+.1f%%) |\n", cl, q, f.QueryMakespan[q], h.QueryMakespan[q],
				100*(h.QueryMakespan[q]/f.QueryMakespan[q]-1), pub[0], pub[1], 100*(pub[1]/pub[0]-1))
		}
		fmt.Fprintf(w, "| %s | all (util %%) | %.1f (%.0f) | %.1f (%.0f) | %+.1f%% | LB %.1f |\n", cl, f.Makespan, 100*f.Utilisation,
			h.Makespan, 100*h.Utilisation, 100*(h.Makespan/f.Makespan-1), f.Bound)
	}
}

// published is Table 5 (s): FIFO, H_TuMM.
var published = map[string][2]float64{
	"heter1/q15": {523.6, 465.0}, "heter1/q16": {564.1, 495.3}, "heter1/q18": {598.4, 529.2},
	"heter2/q15": {452.0, 397.7}, "heter2/q16": {491.9, 437.1}, "heter2/q18": {519.7, 456.4},
}
