package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/mrbound/mrbound/lowerbound"
)

// ErrBelowBound is wrapped by the error Build returns when a verified run's
// value is below the certified bound or the proven optimum.
var ErrBelowBound = errors.New("compare: a policy's value is below the offline bound")

// Run is one policy's simulated run of the instance.
type Run struct {
	Policy string
	// Completion[j] is C_j in ms for Problem.Jobs[j].
	Completion []int64
	// Verified reports that the trace passed the independent checker;
	// CheckErr is its verdict otherwise.
	Verified bool
	CheckErr string
}

// Offline is what the offline side established for the chosen metric.
type Offline struct {
	// Bound is the certified lower bound (Certified of lowerbound.Bound, or
	// better), and By names the argument that gave it.
	Bound float64
	By    string
	// Components are the lower bounds that were maximised (for the report).
	Components []lowerbound.Component
	// Optimum is the proven optimum, nil when not proven.
	Optimum *float64
	// Verified reports that the optimal schedule passed its checker (true for
	// an enumerated optimum, which is computed, not decoded).
	Verified bool
	// Schedules are offline schedules of the same problem (package
	// upperbound's clairvoyant constructions), each with its checker
	// verdict: a verified one competes with the policies for the upper end
	// of the bracket, one that failed the checker is listed and never used.
	Schedules []Schedule
	// SchedulesStopped says why the offline constructions stopped early
	// ("time limit", "cancelled"), "" when they ran their whole budget.
	SchedulesStopped string
}

// Schedule is one offline schedule's value and checker verdict.
type Schedule struct {
	By         string  `json:"by"`
	Value      float64 `json:"value"`
	Verified   bool    `json:"verified"`
	CheckError string  `json:"check_error,omitempty"`
}

// Row is one policy's line of the report.
type Row struct {
	Policy string  `json:"policy"`
	Value  float64 `json:"value"`
	// Ratio is Value / bound (nil when the bound is 0); RatioToOptimum is
	// Value / optimum when the optimum is proven and positive;
	// RatioToUpper is Value / upper (nil without an upper or when it is 0).
	Ratio          *float64 `json:"ratio"`
	RatioToOptimum *float64 `json:"ratio_to_optimum,omitempty"`
	RatioToUpper   *float64 `json:"ratio_to_upper"`
	Verified       bool     `json:"verified"`
	CheckError     string   `json:"check_error,omitempty"`
}

// Report is the comparison for one metric.
type Report struct {
	Instance string            `json:"instance,omitempty"`
	Metric   lowerbound.Metric `json:"metric"`
	// Unit is "ms" or "jobs".
	Unit  string  `json:"unit"`
	Bound float64 `json:"bound"`
	By    string  `json:"bound_by"`
	// BoundStatus is "optimal" exactly when the bracket is 1: the bound is
	// a proven optimum, or a verified schedule attains it; else "bound".
	// Gap is (best verified value − bound)/best verified value,
	// nil when no policy is verified or the best value is 0.
	BoundStatus string   `json:"bound_status"`
	Gap         *float64 `json:"gap"`
	Optimum     *float64 `json:"optimum"`
	// OfflineVerified is the checker verdict of the offline side: true for
	// an optimum whose schedule was checked (or enumerated); OfflineCheck
	// says in words what the offline side is.
	OfflineVerified bool   `json:"offline_verified"`
	OfflineCheck    string `json:"offline_check"`
	// Upper is the best known schedule's value: the least verified value
	// of the policies and the offline schedules, or the proven optimum;
	// UpperBy names what gives it (a policy, an offline construction, or
	// "optimum"); UpperVerified says that its schedule passed the checker
	// (false only for a proven optimum whose schedule was not checked).
	// Bracket is Upper / Bound: OPT lies in [Bound, Upper], so a bracket
	// of 1 proves the optimum (1 also when both are 0; nil when the bound
	// is 0 below a positive upper, or without an upper).
	Upper         *float64 `json:"upper"`
	UpperBy       string   `json:"upper_by"`
	UpperVerified bool     `json:"upper_verified"`
	Bracket       *float64 `json:"bracket"`
	// Components lists every lower bound computed for the metric.
	Components []lowerbound.Component `json:"bound_components"`
	Policies   []Row                  `json:"policies"`
	// Offline lists the offline schedules tried, each with its verdict;
	// OfflineStopped says why they stopped early, if they did (the upper
	// value then depends on the machine's speed).
	Offline        []Schedule `json:"offline_schedules,omitempty"`
	OfflineStopped string     `json:"offline_stopped,omitempty"`
}

// Value computes metric m of a run's completion times on p.
func Value(p *lowerbound.Problem, m lowerbound.Metric, completion []int64) (float64, error) {
	if len(completion) != len(p.Jobs) {
		return 0, fmt.Errorf("compare: %d completion times for %d jobs", len(completion), len(p.Jobs))
	}
	var maxC, total, maxT, late int64
	minA := int64(math.MaxInt64)
	for j, c := range completion {
		job := &p.Jobs[j]
		if c < job.Arrival {
			return 0, fmt.Errorf("compare: job %d completes at %d ms, before its arrival %d", j, c, job.Arrival)
		}
		minA = min(minA, job.Arrival)
		maxC = max(maxC, c)
		total += c - job.Arrival
		maxT = max(maxT, c-job.Arrival)
		if job.HasDeadline && c > job.Deadline {
			late++
		}
	}
	if len(p.Jobs) == 0 {
		return 0, nil
	}
	switch m {
	case lowerbound.Makespan:
		return float64(maxC - minA), nil
	case lowerbound.TotalTurnaround:
		return float64(total), nil
	case lowerbound.MeanTurnaround:
		return float64(total) / float64(len(p.Jobs)), nil
	case lowerbound.MaxTurnaround:
		return float64(maxT), nil
	case lowerbound.LateJobs:
		return float64(late), nil
	case lowerbound.MRCPProduct:
		return float64((late + 1) * maxT), nil
	}
	return 0, fmt.Errorf("compare: unknown metric %v", m)
}

// unitOfMetric is a report's Unit for metric m: jobs for late jobs, ms for
// the times (and for MRCP's product, a time scaled by a count).
func unitOfMetric(m lowerbound.Metric) string {
	if m == lowerbound.LateJobs {
		return "jobs"
	}
	return "ms"
}

// Build computes every run's value and ratios, and enforces the invariant:
// a verified run or offline schedule below off.Bound or below a proven
// optimum is an error wrapping ErrBelowBound (the report is not returned).
// Unverified runs and schedules are reported with their verdict, not
// checked against the bound and never the upper value.
func Build(p *lowerbound.Problem, m lowerbound.Metric, off Offline, runs []Run) (*Report, error) {
	r := &Report{Metric: m, Unit: unitOfMetric(m), Bound: off.Bound, By: off.By, BoundStatus: "bound",
		Optimum: off.Optimum, OfflineVerified: off.Verified, Components: off.Components, Offline: off.Schedules, OfflineStopped: off.SchedulesStopped}
	r.OfflineCheck = "certified lower bound: no schedule, valid by proof and property tests (docs/bounds.md)"
	if off.Optimum != nil {
		r.OfflineCheck = "proven optimum"
		if off.Verified {
			r.OfflineCheck = "proven optimum, schedule verified"
		}
		if *off.Optimum < off.Bound {
			return nil, fmt.Errorf("%w: the proven optimum %g is below the lower bound %g (by %s)", ErrBelowBound, *off.Optimum, off.Bound, off.By)
		}
		r.BoundStatus = "optimal"
		r.Bound, r.By = *off.Optimum, "optimum"
	}
	below := func(what string, v float64) error {
		if v < off.Bound {
			return fmt.Errorf("%w: %s has %s %g < certified bound %g (by %s)", ErrBelowBound, what, m, v, off.Bound, off.By)
		}
		if off.Optimum != nil && v < *off.Optimum {
			return fmt.Errorf("%w: %s has %s %g < proven optimum %g", ErrBelowBound, what, m, v, *off.Optimum)
		}
		return nil
	}
	best := math.Inf(1)
	upper, upperBy := math.Inf(1), ""
	for _, run := range runs {
		v, err := Value(p, m, run.Completion)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", run.Policy, err)
		}
		row := Row{Policy: run.Policy, Value: v, Verified: run.Verified, CheckError: run.CheckErr}
		if run.Verified {
			if err := below(run.Policy, v); err != nil {
				return nil, err
			}
			best = math.Min(best, v)
			if v < upper {
				upper, upperBy = v, run.Policy
			}
		}
		r.Policies = append(r.Policies, row)
	}
	for _, sc := range off.Schedules {
		if !sc.Verified {
			continue
		}
		if err := below("offline schedule "+sc.By, sc.Value); err != nil {
			return nil, err
		}
		if sc.Value < upper {
			upper, upperBy = sc.Value, sc.By
		}
	}
	if !math.IsInf(upper, 1) {
		r.Upper, r.UpperBy, r.UpperVerified = ptr(upper), upperBy, true
	}
	if off.Optimum != nil && (r.Upper == nil || *off.Optimum < upper) {
		// The optimum's own schedule (enumerated or decoded) is the best known.
		r.Upper, r.UpperBy, r.UpperVerified = ptr(*off.Optimum), "optimum", off.Verified
	}
	if r.Upper != nil && *r.Upper == r.Bound && r.BoundStatus != "optimal" {
		// A verified schedule attains the certified bound: both are the optimum.
		r.BoundStatus, r.Optimum, r.OfflineVerified = "optimal", ptr(r.Bound), true
		r.OfflineCheck = "certified lower bound attained by a verified schedule (" + r.UpperBy + "): optimal"
	}
	switch {
	case r.Upper == nil:
	case *r.Upper == r.Bound:
		r.Bracket = ptr(1)
	case r.Bound > 0:
		r.Bracket = ptr(*r.Upper / r.Bound)
	}
	for i := range r.Policies {
		row := &r.Policies[i]
		if r.Bound > 0 {
			row.Ratio = ptr(row.Value / r.Bound)
		}
		if r.Optimum != nil && *r.Optimum > 0 {
			row.RatioToOptimum = ptr(row.Value / *r.Optimum)
		}
		if r.Upper != nil && *r.Upper > 0 {
			row.RatioToUpper = ptr(row.Value / *r.Upper)
		}
	}
	if !math.IsInf(best, 1) && best > 0 {
		r.Gap = ptr((best - r.Bound) / best)
	}
	return r, nil
}

func ptr(v float64) *float64 { return &v }

// OfflineFromBounds picks metric m's certified bound out of b, raised by any
// extra bounds (e.g. windowbound's), and takes the optimum of opt when given.
func OfflineFromBounds(b *lowerbound.Bounds, m lowerbound.Metric, opt *lowerbound.Optimum, extra ...lowerbound.Component) Offline {
	bd := b.Get(m)
	off := Offline{Bound: bd.Certified, By: bd.By, Components: append(append([]lowerbound.Component{}, bd.Components...), extra...)}
	for _, c := range extra {
		if c.Value > off.Bound {
			off.Bound, off.By = c.Value, c.Name
		}
	}
	if opt != nil {
		v := opt.Value(m, b.Jobs)
		off.Optimum, off.Verified = &v, true
	}
	return off
}
