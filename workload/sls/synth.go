package sls

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/trace"
)

// Synth is an SLS synthetic-workload description. Fields SLS reads that the
// model has no use for (memory, vcores, execution types) are ignored.
type Synth struct {
	Description  string     `json:"description"`
	NumNodes     int        `json:"num_nodes"`
	NodesPerRack int        `json:"nodes_per_rack"`
	NumJobs      int        `json:"num_jobs"`
	RandSeed     *int64     `json:"rand_seed"`
	Workloads    []Workload `json:"workloads"`
}

// Workload is one weighted workload of a Synth.
type Workload struct {
	Name    string      `json:"workload_name"`
	Weight  float64     `json:"workload_weight"`
	Queue   string      `json:"queue_name"`
	Classes []JobClass  `json:"job_classes"`
	Times   []TimePoint `json:"time_distribution"`
}

// JobClass gives a class's distributions: means and standard deviations of
// the task counts (mtasks, rtasks), the task durations in seconds (mtime,
// rtime), the job's duration in seconds (dur) and the deadline factor.
type JobClass struct {
	Name                string  `json:"class_name"`
	User                string  `json:"user_name"`
	Weight              float64 `json:"class_weight"`
	MtasksAvg           float64 `json:"mtasks_avg"`
	MtasksStddev        float64 `json:"mtasks_stddev"`
	RtasksAvg           float64 `json:"rtasks_avg"`
	RtasksStddev        float64 `json:"rtasks_stddev"`
	DurAvg              float64 `json:"dur_avg"`
	DurStddev           float64 `json:"dur_stddev"`
	MtimeAvg            float64 `json:"mtime_avg"`
	MtimeStddev         float64 `json:"mtime_stddev"`
	RtimeAvg            float64 `json:"rtime_avg"`
	RtimeStddev         float64 `json:"rtime_stddev"`
	ChanceOfReservation float64 `json:"chance_of_reservation"`
	DeadlineFactorAvg   float64 `json:"deadline_factor_avg"`
	DeadlineFactorStd   float64 `json:"deadline_factor_stddev"`
}

// TimePoint is one point of a workload's submission-time histogram: time in
// seconds and its weight.
type TimePoint struct {
	Time   float64 `json:"time"`
	Weight float64 `json:"weight"`
}

// LooksLikeSynth reports whether a decoded first object is a synthetic
// workload description.
func LooksLikeSynth(first map[string]json.RawMessage) bool {
	_, w := first["workloads"]
	_, n := first["num_jobs"]
	return w && n
}

// Bounds of a description, so that a typo cannot allocate the machine away.
const (
	maxSynthJobs  = 1 << 20
	maxSynthTasks = 1 << 16 // per job and kind
	maxSynthNodes = 1 << 20
	maxSynthSecs  = 1e9
)

// ReadSynth parses a synthetic-workload description and checks it.
func ReadSynth(data []byte, name string) (*Synth, error) {
	var s *Synth
	err := trace.Objects(data, name, func(decode func(any) error, at string) error {
		if s != nil {
			return &badinput.PathError{File: at, Problem: "a second object: a synthetic workload is one object"}
		}
		s = &Synth{}
		if err := decode(s); err != nil {
			return err
		}
		return s.check(at)
	})
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, badinput.Errorf("%s: empty", name)
	}
	return s, nil
}

func (s *Synth) check(at string) error {
	bad := func(path, format string, a ...any) error {
		return &badinput.PathError{File: at, Path: path, Problem: fmt.Sprintf(format, a...)}
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) <= maxSynthSecs }
	switch {
	case s.NumJobs <= 0 || s.NumJobs > maxSynthJobs:
		return bad("num_jobs", "%d is not in [1, %d]", s.NumJobs, maxSynthJobs)
	case s.NumNodes < 0 || s.NumNodes > maxSynthNodes:
		return bad("num_nodes", "%d is not in [0, %d]", s.NumNodes, maxSynthNodes)
	case s.NodesPerRack < 0:
		return bad("nodes_per_rack", "%d is negative", s.NodesPerRack)
	case len(s.Workloads) == 0:
		return bad("workloads", "none")
	}
	total, perJob := 0.0, 0.0
	for i, w := range s.Workloads {
		p := fmt.Sprintf("workloads[%d]", i)
		if !(w.Weight >= 0) || !finite(w.Weight) {
			return bad(p+".workload_weight", "%v is not a non-negative number", w.Weight)
		}
		total += w.Weight
		if len(w.Classes) == 0 {
			return bad(p+".job_classes", "none")
		}
		ct := 0.0
		for k, c := range w.Classes {
			cp := fmt.Sprintf("%s.job_classes[%d]", p, k)
			for _, f := range []struct {
				name string
				v    float64
			}{{"class_weight", c.Weight}, {"mtasks_avg", c.MtasksAvg}, {"mtasks_stddev", c.MtasksStddev}, {"rtasks_avg", c.RtasksAvg},
				{"rtasks_stddev", c.RtasksStddev}, {"dur_avg", c.DurAvg}, {"dur_stddev", c.DurStddev}, {"mtime_avg", c.MtimeAvg},
				{"mtime_stddev", c.MtimeStddev}, {"rtime_avg", c.RtimeAvg}, {"rtime_stddev", c.RtimeStddev},
				{"chance_of_reservation", c.ChanceOfReservation}, {"deadline_factor_avg", c.DeadlineFactorAvg}, {"deadline_factor_stddev", c.DeadlineFactorStd}} {
				if !(f.v >= 0) || !finite(f.v) {
					return bad(cp+"."+f.name, "%v is not a non-negative number", f.v)
				}
			}
			if c.MtasksAvg > maxSynthTasks || c.RtasksAvg > maxSynthTasks {
				return bad(cp, "more than %d tasks of a kind on average", maxSynthTasks)
			}
			perJob = max(perJob, synthTasksPerJob(c))
			if c.ChanceOfReservation > 1 {
				return bad(cp+".chance_of_reservation", "%v is above 1", c.ChanceOfReservation)
			}
			ct += c.Weight
		}
		if !(ct > 0) {
			return bad(p+".job_classes", "the class weights sum to 0")
		}
		if len(w.Times) == 0 {
			return bad(p+".time_distribution", "none")
		}
		tt := 0.0
		for k, tp := range w.Times {
			tpp := fmt.Sprintf("%s.time_distribution[%d]", p, k)
			if !(tp.Time >= 0) || !finite(tp.Time) {
				return bad(tpp+".time", "%v is not a non-negative number of seconds", tp.Time)
			}
			if k > 0 && tp.Time <= w.Times[k-1].Time {
				return bad(tpp+".time", "%v is not after the previous point %v", tp.Time, w.Times[k-1].Time)
			}
			if !(tp.Weight >= 0) || !finite(tp.Weight) {
				return bad(tpp+".weight", "%v is not a non-negative number", tp.Weight)
			}
			tt += tp.Weight
		}
		if !(tt > 0) {
			return bad(p+".time_distribution", "the weights sum to 0")
		}
	}
	if !(total > 0) {
		return bad("workloads", "the workload weights sum to 0")
	}
	// The jobs × tasks the description implies, before any is generated.
	if err := sizelimit.Check("num_jobs", float64(s.NumJobs)*perJob, sizelimit.SimTask, "tasks"); err != nil {
		return badinput.InFile(at, err)
	}
	return nil
}

// Generate draws the jobs of s. Every random number comes from one PCG
// stream seeded by seed (the description's rand_seed unless the caller
// overrides it), so a seed fixes the trace; it is not SLS's Java stream, so
// the jobs are not SLS's jobs, only drawn from the same distributions:
//
//	workload   w with probability workload_weight / Σ, class likewise by class_weight
//	submit     a time point i with probability weight_i / Σ, then uniform in
//	           [time_i, time_{i+1}) s (the last point: exactly time_i)
//	maps       round(LN(mtasks_avg, mtasks_stddev)), at least 1
//	reduces    round(LN(rtasks_avg, rtasks_stddev))
//	durations  LN(mtime_avg, mtime_stddev) s per map, LN(rtime_…) per reduce, at least 1 ms
//	deadline   with probability chance_of_reservation: submit + LN(deadline_factor_…) × LN(dur_…) s
//
// LN(m, s) is the log-normal law of mean m and standard deviation s (m when
// s is 0; 0 when m is 0). Jobs are sorted by submission and named
// synth_1, synth_2, …; the pool is the workload's queue_name, the user the
// class's user_name. The nodes are num_nodes, named /rack<r>/node<i> with
// nodes_per_rack per rack.
func (s *Synth) Generate(name string, seed uint64) *trace.Trace {
	rng := sim.NewStream(seed, "sls-synth")
	tr := &trace.Trace{Name: name}
	perRack := s.NodesPerRack
	if perRack == 0 {
		perRack = max(s.NumNodes, 1)
	}
	for i := range s.NumNodes {
		tr.Hosts = append(tr.Hosts, fmt.Sprintf("/rack%d/node%d", i/perRack+1, i+1))
	}
	ww := make([]float64, len(s.Workloads))
	for i, w := range s.Workloads {
		ww[i] = w.Weight
	}
	for range s.NumJobs {
		w := &s.Workloads[pick(rng, ww)]
		cw := make([]float64, len(w.Classes))
		for i, c := range w.Classes {
			cw[i] = c.Weight
		}
		c := &w.Classes[pick(rng, cw)]
		tw := make([]float64, len(w.Times))
		for i, tp := range w.Times {
			tw[i] = tp.Weight
		}
		ti := pick(rng, tw)
		submit := w.Times[ti].Time
		if ti+1 < len(w.Times) {
			submit += rng.Float64() * (w.Times[ti+1].Time - w.Times[ti].Time)
		}
		j := trace.Job{SubmitMs: int64(math.Round(submit * 1000)), User: c.User, Pool: w.Queue, DeadlineMs: -1}
		nMaps := max(1, min(maxSynthTasks, int(math.Round(logNormal(rng, c.MtasksAvg, c.MtasksStddev)))))
		nReds := min(maxSynthTasks, int(math.Round(logNormal(rng, c.RtasksAvg, c.RtasksStddev))))
		j.MapsMs = make([]int64, nMaps)
		for i := range j.MapsMs {
			j.MapsMs[i] = seconds(logNormal(rng, c.MtimeAvg, c.MtimeStddev))
		}
		if nReds > 0 {
			j.ReducesMs = make([]int64, nReds)
			for i := range j.ReducesMs {
				j.ReducesMs[i] = seconds(logNormal(rng, c.RtimeAvg, c.RtimeStddev))
			}
		}
		if rng.Float64() < c.ChanceOfReservation {
			d := logNormal(rng, c.DeadlineFactorAvg, c.DeadlineFactorStd) * logNormal(rng, c.DurAvg, c.DurStddev)
			j.DeadlineMs = j.SubmitMs + seconds(d)
		}
		tr.Jobs = append(tr.Jobs, j)
	}
	sort.SliceStable(tr.Jobs, func(a, b int) bool { return tr.Jobs[a].SubmitMs < tr.Jobs[b].SubmitMs })
	for i := range tr.Jobs {
		tr.Jobs[i].ID = fmt.Sprintf("synth_%d", i+1)
		tr.Jobs[i].Where = fmt.Sprintf("%s: generated job %d", name, i+1)
	}
	return tr
}

// Seed is the description's rand_seed (0 when absent).
func (s *Synth) Seed() uint64 {
	if s.RandSeed == nil {
		return 0
	}
	return uint64(*s.RandSeed)
}

// synthTasksPerJob bounds a class's tasks per job for the size estimate:
// mean plus three standard deviations of each kind, each capped as
// generation caps it.
func synthTasksPerJob(c JobClass) float64 {
	return min(maxSynthTasks, c.MtasksAvg+3*c.MtasksStddev) + min(maxSynthTasks, c.RtasksAvg+3*c.RtasksStddev)
}

func seconds(s float64) int64 { return max(1, int64(math.Round(min(s, maxSynthSecs)*1000))) }

// pick draws an index with probability weight / Σ weights (Σ > 0).
func pick(rng *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	u := rng.Float64() * total
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	for i := len(w) - 1; i >= 0; i-- { // rounding: the last positive weight
		if w[i] > 0 {
			return i
		}
	}
	return 0
}

// logNormal draws from the log-normal law of mean m and standard deviation
// s: σ² = ln(1 + s²/m²), μ = ln m − σ²/2.
func logNormal(rng *rand.Rand, m, s float64) float64 {
	if m <= 0 {
		return 0
	}
	if s <= 0 {
		return m
	}
	sigma2 := math.Log1p(s * s / (m * m))
	return math.Exp(math.Log(m) - sigma2/2 + math.Sqrt(sigma2)*rng.NormFloat64())
}
