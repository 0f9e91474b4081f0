package mrcpsched

import (
	"fmt"
	"slices"
	"time"

	"github.com/mrbound/mrbound/sim"
)

// Summary is a run's MRCP figures (policies.md §4): P and T from the
// simulator's metrics, the overhead O per completed job, and the re-solves.
type Summary struct {
	CompletedJobs int     `json:"completed_jobs"`
	P             float64 `json:"late_fraction"`   // late / completed
	T             float64 `json:"mean_turnaround"` // s
	// OMean is the total callback wall time over the completed jobs (the
	// paper's O); OMedian the median over arrived jobs of the wall time of
	// the re-solve each arrival triggered, shared equally by the arrivals it
	// served. OMedianCPU is the same with process CPU time.
	OMean, OMedian, OMedianCPU time.Duration
	OT                         float64 `json:"o_over_t"` // OMean / T
	U, UMap                    float64 // busy fraction of all slots, of map slots
	Solves, Optimal            int     // re-solves, and those proven optimal
	NodeLimitHit, WallLimitHit int     // re-solves stopped by a limit
	SizeLimitHit               int     // re-solves that skipped a MILP over MaxColumns
	Fallbacks                  int     // re-solves whose solver call failed
	MILPs                      int     // MILPs over all re-solves
	MaxSolve                   time.Duration
}

// Summarize computes the summary of a run of p (solves may be nil for a
// policy that does not solve: EDF).
func Summarize(res *sim.Result, solves []SolveRecord) Summary {
	m := res.Metrics
	s := Summary{CompletedJobs: m.CompletedJobs, P: m.LateFraction, T: m.MeanTurnaround, U: m.Utilisation, UMap: m.MapUtilisation}
	if m.CompletedJobs > 0 {
		s.OMean = res.Overhead / time.Duration(m.CompletedJobs)
	}
	if s.T > 0 {
		s.OT = s.OMean.Seconds() / s.T
	}
	var perJob, perJobCPU []time.Duration
	for _, r := range solves {
		s.Solves++
		if r.Optimal {
			s.Optimal++
		}
		if r.LimitHit && !r.WallHit {
			s.NodeLimitHit++
		}
		if r.WallHit {
			s.WallLimitHit++
		}
		if r.SizeHit {
			s.SizeLimitHit++
		}
		if r.Fallback {
			s.Fallbacks++
		}
		s.MILPs += r.MILPs
		s.MaxSolve = max(s.MaxSolve, r.Wall)
		n := max(r.NewJobs, 1)
		for range n {
			perJob = append(perJob, r.Wall/time.Duration(n))
			perJobCPU = append(perJobCPU, r.CPU/time.Duration(n))
		}
	}
	s.OMedian, s.OMedianCPU = median(perJob), median(perJobCPU)
	return s
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	d = slices.Clone(d)
	slices.Sort(d)
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}

// Summary is the report's extra lines, labelled like the simulator
// report's: P, T and U; the re-solves; the overhead O (mean and median, wall
// and CPU) and O/T, on a "time" line as the report's wall times.
func (p *Policy) Summary(res *sim.Result) []string {
	s := Summarize(res, p.solves)
	return []string{
		fmt.Sprintf("mrcp        P %.4f, T %.2f s, U %.4f (map slots %.4f)", s.P, s.T, s.U, s.UMap),
		fmt.Sprintf("re-solves   %d, %d proven optimal, %d MILPs; limits hit: node %d, size %d, wall %d; fallbacks %d",
			s.Solves, s.Optimal, s.MILPs, s.NodeLimitHit, s.SizeLimitHit, s.WallLimitHit, s.Fallbacks),
		fmt.Sprintf("time        O per job %.3f ms mean, %.3f ms median (CPU %.3f ms); O/T %.3g; longest re-solve %.3f ms",
			ms(s.OMean), ms(s.OMedian), ms(s.OMedianCPU), s.OT, ms(s.MaxSolve)),
	}
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// SummaryJSON is the summary as `simulate --json` prints it (policy_summary):
// times in seconds, counts by cause.
type SummaryJSON struct {
	CompletedJobs int     `json:"completed_jobs"`
	P             float64 `json:"late_fraction"`
	T             float64 `json:"mean_turnaround"`
	OMean         float64 `json:"o_mean_seconds"`
	OMedian       float64 `json:"o_median_seconds"`
	OMedianCPU    float64 `json:"o_median_cpu_seconds"`
	OT            float64 `json:"o_over_t"`
	U             float64 `json:"utilisation"`
	UMap          float64 `json:"map_utilisation"`
	Solves        int     `json:"resolves"`
	Optimal       int     `json:"optimal_resolves"`
	NodeLimitHit  int     `json:"node_limit_resolves"`
	SizeLimitHit  int     `json:"size_limit_resolves"`
	WallLimitHit  int     `json:"wall_limit_resolves"`
	Fallbacks     int     `json:"fallback_resolves"`
	MILPs         int     `json:"milps"`
	MaxSolve      float64 `json:"max_solve_seconds"`
}

// SummaryJSON implements policy.JSONSummarizer.
func (p *Policy) SummaryJSON(res *sim.Result) any {
	s := Summarize(res, p.solves)
	return SummaryJSON{CompletedJobs: s.CompletedJobs, P: s.P, T: s.T, OMean: s.OMean.Seconds(), OMedian: s.OMedian.Seconds(),
		OMedianCPU: s.OMedianCPU.Seconds(), OT: s.OT, U: s.U, UMap: s.UMap, Solves: s.Solves, Optimal: s.Optimal,
		NodeLimitHit: s.NodeLimitHit, SizeLimitHit: s.SizeLimitHit, WallLimitHit: s.WallLimitHit, Fallbacks: s.Fallbacks,
		MILPs: s.MILPs, MaxSolve: s.MaxSolve.Seconds()}
}
