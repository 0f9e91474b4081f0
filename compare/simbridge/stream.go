package simbridge

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/lowerbound/bnb"
	"github.com/mrbound/mrbound/lowerbound/windowbound"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/upperbound"
)

// streamIncumbent is the least value of m over the schedules sim/check
// verified — the policies' runs and the offline constructions — or 0 when
// there is none. windowbound.Optimum keeps every schedule no worse than it,
// so a wrong (too low) value could only cost the optimum, never a wrong
// bound: formulations/mrcp then reports the contradiction as an error.
func streamIncumbent(p *lowerbound.Problem, m lowerbound.Metric, runs []compare.Run, up *upperbound.Result) (float64, error) {
	best := math.Inf(1)
	for _, run := range runs {
		if !run.Verified {
			continue
		}
		v, err := compare.Value(p, m, run.Completion)
		if err != nil {
			return 0, err
		}
		best = min(best, v)
	}
	if up != nil {
		for _, sc := range up.Tried {
			if sc.Verified {
				best = min(best, sc.Value)
			}
		}
	}
	if math.IsInf(best, 1) {
		return 0, nil
	}
	return best, nil
}

// verifyStream checks the whole-stream MRCP schedule with the simulator's
// independent checker, as a run of w with options o: every task once, on
// the node the MILP chose (pooled slots were coloured back onto nodes by
// formulations/mrcp's decoder), completed at its end. The replica list is
// empty (every map remote): exactDurations admits only workloads without a
// non-local penalty, where locality changes no duration.
//
// The metric recomputed from the checked completions must be st.Value.
func verifyStream(w *sim.Workload, o sim.Options, p *lowerbound.Problem, m lowerbound.Metric, st *windowbound.StreamOptimum) error {
	return verifyPlacements(w, o, p, m, st, "formulations/mrcp")
}

// verifyPlacements is verifyStream for a schedule that by (the solver that
// made it) claims has the value st.Value.
func verifyPlacements(w *sim.Workload, o sim.Options, p *lowerbound.Problem, m lowerbound.Metric, st *windowbound.StreamOptimum, by string) error {
	first := make([]int, len(w.Jobs)+1)
	for j := range w.Jobs {
		first[j+1] = first[j] + len(w.Jobs[j].Maps) + len(w.Jobs[j].Reduces)
	}
	res := &sim.Result{Policy: "mrcp-stream", Options: o, Jobs: make([]sim.JobOutcome, len(w.Jobs)), Status: sim.Finished}
	for j := range w.Jobs {
		res.Jobs[j] = sim.JobOutcome{Arrived: true, Done: true, Arrival: w.Jobs[j].Arrival}
	}
	for _, pl := range st.Placements {
		if pl.Job < 0 || pl.Job >= len(w.Jobs) {
			return fmt.Errorf("compare: the stream schedule names job %d of %d", pl.Job, len(w.Jobs))
		}
		id, kind := first[pl.Job]+pl.Index, sim.Map
		if pl.Reduce {
			id, kind = first[pl.Job]+len(w.Jobs[pl.Job].Maps)+pl.Index, sim.Reduce
			res.Jobs[pl.Job].Completion = max(res.Jobs[pl.Job].Completion, sim.Time(pl.End))
		}
		res.Trace = append(res.Trace, sim.Attempt{Task: sim.TaskID(id), Job: int32(pl.Job), Index: int32(pl.Index), Node: int32(pl.Node),
			Launch: sim.Time(pl.Start), Start: sim.Time(pl.Start), End: sim.Time(pl.End), Duration: sim.Time(pl.End - pl.Start),
			Kind: kind, Outcome: sim.Completed})
	}
	res.Metrics = sim.ComputeMetrics(w, res.Jobs, res.Trace)
	if err := check.Verify(w, res); err != nil {
		return err
	}
	c := make([]int64, len(res.Jobs))
	for j, jo := range res.Jobs {
		c[j] = int64(jo.Completion)
	}
	v, err := compare.Value(p, m, c)
	if err != nil {
		return err
	}
	if math.Abs(v-st.Value) > valueTol*math.Max(1, math.Abs(v)) {
		return fmt.Errorf("compare: the stream schedule's %s is %v by sim/check's completions, %v by %s", m, v, st.Value, by)
	}
	return nil
}

// valueTol is the relative difference allowed between a metric computed
// twice from the same integer completions (a mean's float rounding).
const valueTol = 1e-9

// search runs the branch and bound on p for m with compare's best verified
// value inc as incumbent and the certified bound known, within the time
// limit and o.SearchNodes nodes (when 0, DefaultSearchNodes on the maxima
// and DefaultSumsSearchNodes on the sums): half of them depth-first on the
// maxima; on the sums a 24th depth-first and the rest best-first, with
// dives of the default length.
func search(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options, limit time.Duration, inc, known float64) (*bnb.Result, error) {
	sums := m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround
	nodes := o.SearchNodes
	switch {
	case nodes == 0 && sums:
		nodes = DefaultSumsSearchNodes
	case nodes == 0:
		nodes = DefaultSearchNodes
	}
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	bo := bnb.Options{Incumbent: inc, Known: known, NodeLimit: max(1, nodes/2), MaxOpen: o.SearchMaxOpen}
	if sums {
		// The best-first phase raises the sums' bound well above the
		// depth-first one's, and its dives find better schedules than a
		// longer depth-first search (on the maxima it hardly moves the
		// bound): a 12-job stream is proven in 50,000 + 400,000 nodes,
		// not in 300,000 + 300,000.
		// A 24th: the best-first phase gains more from the nodes than the
		// depth-first one (MRCP seed 5's bound +1 s). Its dives keep the
		// default length: 6 nodes per task left found seed 5's better
		// schedules within 3.5 M nodes (s28upper), but with the memo's
		// shifts (s29shift) the search proves seed 5 in 6.2 M nodes and
		// 50 s of CPU with dives of 2, 7.2 M and 53 s with 6; the 4-node
		// loose-side family's schedules are the same with both
		// (docs/results.md, issue 26, s29shift).
		bo.NodeLimit = max(1, nodes/24)
		bo.BoundNodes = max(1, nodes-bo.NodeLimit)
	}
	return bnb.Solve(sctx, p, m, bo)
}

// verifySearch checks the branch and bound's schedule with sim/check, as
// verifyStream does the MILP's, and its value against the search's.
func verifySearch(w *sim.Workload, o sim.Options, p *lowerbound.Problem, m lowerbound.Metric, sr *bnb.Result) error {
	st := &windowbound.StreamOptimum{Value: sr.Value}
	for _, pl := range sr.Placements {
		st.Placements = append(st.Placements, windowbound.Placement{Job: pl.Job, Index: pl.Index, Node: pl.Node, Reduce: pl.Reduce, Start: pl.Start, End: pl.End})
	}
	return verifyPlacements(w, o, p, m, st, "the branch and bound")
}
