package tummrepro

import (
	"fmt"
	"io"
	"time"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/swim"
)

// timed wraps a policy and records the wall time of every Offer and
// TaskEnd (the decisions and the collector).
type timed struct {
	sim.Policy
	offers, ends         int64
	offerSum, endSum     time.Duration
	offerWorst, endWorst time.Duration
}

// clock times f and adds it to a count, a sum and a worst case.
func clock(n *int64, sum, worst *time.Duration, f func()) {
	t0 := time.Now()
	f()
	d := time.Since(t0)
	*n++
	*sum += d
	*worst = max(*worst, d)
}

func (t *timed) Offer(s *sim.Sim, x int, free sim.Free) {
	clock(&t.offers, &t.offerSum, &t.offerWorst, func() { t.Policy.Offer(s, x, free) })
}

func (t *timed) TaskEnd(s *sim.Sim, id sim.TaskID, observed sim.Time) {
	clock(&t.ends, &t.endSum, &t.endWorst, func() { t.Policy.TaskEnd(s, id, observed) })
}

// DecisionTime is one policy's decision cost on a trace.
type DecisionTime struct {
	Policy                  string
	Offers, TaskEnds        int64
	OfferMean, OfferWorst   time.Duration
	EndMean, EndWorst       time.Duration
	Wall                    time.Duration
	Makespan, MeanTurnround float64
}

// DecisionTimes runs each policy on the SWIM trace at path with the default
// model on the default cluster (600 nodes) made fungible (4 slots a node),
// checks each run and returns the decision costs.
func DecisionTimes(path string, policies []string, o sim.Options) ([]DecisionTime, error) {
	w, err := swim.Load(path, swim.DefaultModel(), swim.DefaultCluster())
	if err != nil {
		return nil, err
	}
	w.Cluster.Fungible = true
	for i := range w.Cluster.Nodes {
		n := &w.Cluster.Nodes[i]
		n.TotalSlots = n.MapSlots + n.ReduceSlots
	}
	var out []DecisionTime
	for _, name := range policies {
		p, err := policyByName(name)
		if err != nil {
			return nil, err
		}
		tp := &timed{Policy: p}
		res, err := sim.Run(w, tp, o)
		if err != nil {
			return nil, err
		}
		if err := check.Verify(w, res); err != nil {
			return nil, fmt.Errorf("%s: checker: %w", name, err)
		}
		d := DecisionTime{Policy: name, Offers: tp.offers, TaskEnds: tp.ends, OfferWorst: tp.offerWorst, EndWorst: tp.endWorst,
			Wall: res.Wall, Makespan: res.Metrics.Makespan, MeanTurnround: res.Metrics.MeanTurnaround}
		if tp.offers > 0 {
			d.OfferMean = tp.offerSum / time.Duration(tp.offers)
		}
		if tp.ends > 0 {
			d.EndMean = tp.endSum / time.Duration(tp.ends)
		}
		out = append(out, d)
	}
	return out, nil
}

// WriteDecisionTimes writes the costs as a markdown table.
func WriteDecisionTimes(w io.Writer, ds []DecisionTime) {
	fmt.Fprintf(w, "| policy | offers | mean / worst per offer | task ends | mean / worst per task end | run wall | makespan s | mean turnaround s |\n|---|---|---|---|---|---|---|---|\n")
	for _, d := range ds {
		fmt.Fprintf(w, "| %s | %d | %v / %v | %d | %v / %v | %v | %.0f | %.1f |\n", d.Policy, d.Offers, d.OfferMean, d.OfferWorst,
			d.TaskEnds, d.EndMean, d.EndWorst, d.Wall.Round(time.Millisecond), d.Makespan, d.MeanTurnround)
	}
}
