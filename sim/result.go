package sim

import (
	"encoding/json"
	"fmt"
	"time"
)

// Outcome is how a trace segment ended. The zero value is unknown (still
// running when the run stopped).
type Outcome uint8

// Segment outcomes.
const (
	OutcomeUnknown Outcome = iota
	Completed
	Killed
	Suspended
)

var outcomeNames = [...]string{"unknown", "completed", "killed", "suspended"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// MarshalJSON writes the outcome by name.
func (o Outcome) MarshalJSON() ([]byte, error) { return json.Marshal(o.String()) }

// MarshalJSON writes the kind by name.
func (k Kind) MarshalJSON() ([]byte, error) { return json.Marshal(k.String()) }

// Status is how a run ended. The zero value is unknown.
type Status uint8

// Run statuses.
const (
	StatusUnknown Status = iota
	// Finished: every job completed.
	Finished
	// HorizonReached: the run stopped at Options.Horizon with jobs left.
	HorizonReached
	// Stalled: no event was left (or, with literal heartbeats, nothing ran
	// and nothing was due for a heartbeat period) while jobs were left: the
	// policy did not launch their tasks.
	Stalled
	// Stuck: the stuck rule ended the run (Options.StuckAfter): since
	// Result.StuckSince only the policy's timers and offers were left and
	// nothing changed.
	Stuck
	// Interrupted: Options.Stop asked the run to end (a cancelled context,
	// a deadline) with jobs left.
	Interrupted
)

var statusNames = [...]string{"unknown", "finished", "horizon", "stalled", "stuck", "interrupted"}

func (st Status) String() string {
	if int(st) < len(statusNames) {
		return statusNames[st]
	}
	return "unknown"
}

// MarshalJSON writes the status by name.
func (st Status) MarshalJSON() ([]byte, error) { return json.Marshal(st.String()) }

// Attempt is one segment of a task on a node: the slot is held over
// [Launch, End); the task works over [Start, End) (a reduce launched before
// its job's last map idles in shuffle until Start). Duration is the attempt's
// total true work; a task's completed segments since its last kill add up to
// it.
//
// A day's trace has tens of millions of attempts: the one-byte fields sit
// together at the end so that an attempt takes 56 bytes, not 64.
type Attempt struct {
	Task     TaskID  `json:"task"`
	Job      int32   `json:"job"`
	Index    int32   `json:"index"`
	Node     int32   `json:"node"`
	Launch   Time    `json:"launch_ms"`
	Start    Time    `json:"start_ms"`
	End      Time    `json:"end_ms"` // -1 if still running at the horizon
	Duration Time    `json:"duration_ms"`
	Kind     Kind    `json:"kind"`
	Outcome  Outcome `json:"outcome"`
	Local    bool    `json:"local"`
	Resumed  bool    `json:"resumed"`
}

// JobOutcome is one job's fate.
type JobOutcome struct {
	Arrived    bool `json:"arrived"`
	Done       bool `json:"done"`
	Arrival    Time `json:"arrival_ms"`
	Completion Time `json:"completion_ms"`
}

// Metrics are the run's figures (policies.md §4); the checker recomputes
// them from the trace.
type Metrics struct {
	Jobs           int     `json:"jobs"`
	Tasks          int     `json:"tasks"`
	CompletedJobs  int     `json:"completed_jobs"`
	Makespan       float64 `json:"makespan"`        // s: max C_j − min a_j over completed jobs
	MeanTurnaround float64 `json:"mean_turnaround"` // s: mean C_j − a_j over completed jobs (MRCP T)
	LateJobs       int     `json:"late_jobs"`       // completed with C_j > d_j
	LateFraction   float64 `json:"late_fraction"`   // P = late / completed
	MapLaunches    int     `json:"map_launches"`
	LocalLaunches  int     `json:"local_launches"`
	Locality       float64 `json:"locality"` // local / map launches (1 when there is none)
	Killed         int     `json:"killed"`
	Suspended      int     `json:"suspended"`
	WorkLost       float64 `json:"work_lost"` // s of work of killed attempts
	// Utilisation: busy slot-time / (slots · makespan window), all slots and map slots (A-M10).
	Utilisation    float64 `json:"utilisation"`
	MapUtilisation float64 `json:"map_utilisation"`
	Throughput     float64 `json:"throughput"` // completed jobs per hour of makespan
}

// Result is a finished run.
type Result struct {
	Policy  string       `json:"policy"`
	Options Options      `json:"-"`
	Jobs    []JobOutcome `json:"-"`
	// Trace is every attempt in launch order; nil when Options.Sink
	// received it instead.
	Trace    []Attempt `json:"-"`
	Rep      int       `json:"-"`
	Replicas []int32   `json:"-"` // Rep per task; -1 = none
	Metrics  Metrics   `json:"metrics"`
	// Events processed (arrivals, live task ends, heartbeats, timers);
	// TaskEvents are launches, ends, kills, suspends and resumes.
	Events     int64 `json:"events"`
	TaskEvents int64 `json:"task_events"`
	Offers     int64 `json:"offers"`
	// Rejected counts invalid actions the policy attempted (they changed
	// nothing); a correct policy has none.
	Rejected int           `json:"rejected"`
	Wall     time.Duration `json:"-"`
	Overhead time.Duration `json:"-"` // wall time inside policy callbacks
	End      Time          `json:"-"` // simulated time of the last event
	// Status is how the run ended; StuckSince, with Stuck, the time of the
	// last change of its state.
	Status     Status `json:"status"`
	StuckSince Time   `json:"-"`
}

// Unfinished is the number of jobs that did not complete.
func (r *Result) Unfinished() int { return len(r.Jobs) - r.Metrics.CompletedJobs }

// Incomplete describes a run that left jobs unfinished ("" when every job
// completed), for reports and errors.
func (r *Result) Incomplete() string {
	n := r.Unfinished()
	switch {
	case n == 0:
		return ""
	case r.Status == Stuck:
		return fmt.Sprintf("stuck at %.3f s with %d unfinished jobs: no arrival or task end was left to come and the policy changed nothing until %.3f s",
			r.StuckSince.Seconds(), n, r.End.Seconds())
	case r.Status == Interrupted:
		return fmt.Sprintf("interrupted at %.3f s with %d unfinished jobs", r.End.Seconds(), n)
	case r.Status == HorizonReached:
		return fmt.Sprintf("stopped at the horizon %.3f s with %d unfinished jobs", r.Options.Horizon.Seconds(), n)
	}
	return fmt.Sprintf("stalled at %.3f s with %d unfinished jobs: no event was left to process", r.End.Seconds(), n)
}

func (s *Sim) result(wall time.Duration) *Result {
	res := &Result{
		Policy: s.policy.Name(), Options: s.opt, Trace: s.trace, Rep: s.rep, Replicas: s.replicas,
		Events: s.events, TaskEvents: s.taskEvents, Offers: s.offers, Rejected: s.rejected, Wall: wall, Overhead: s.clock.total(), End: s.now,
		Status: s.status, StuckSince: s.stuckSince,
		Jobs: make([]JobOutcome, len(s.jobs)),
	}
	res.Options.Progress, res.Options.Stop, res.Options.Sink = nil, nil, nil
	for j := range s.jobs {
		r := &s.jobs[j]
		res.Jobs[j] = JobOutcome{Arrived: r.arrived, Done: r.done, Arrival: r.arrival, Completion: r.completion}
	}
	if s.sink != nil {
		res.Metrics = s.streamedMetrics(res.Jobs)
	} else {
		res.Metrics = ComputeMetrics(s.w, res.Jobs, res.Trace)
	}
	return res
}

// ComputeMetrics derives the metrics from job outcomes and a trace. The
// checker uses its own derivation and compares.
func ComputeMetrics(w *Workload, jobs []JobOutcome, trace []Attempt) Metrics {
	var m Metrics
	var busy, busyMap float64
	for _, a := range trace {
		if a.Kind == Map && !a.Resumed { // a launch; a resume or a dropped suspension is not
			m.MapLaunches++
			if a.Local {
				m.LocalLaunches++
			}
		}
		switch a.Outcome {
		case Killed:
			m.Killed++
			m.WorkLost += (a.End - a.Start).Seconds()
		case Suspended:
			m.Suspended++
		}
		if a.End >= 0 {
			busy += (a.End - a.Launch).Seconds()
			if a.Kind == Map {
				busyMap += (a.End - a.Launch).Seconds()
			}
		}
	}
	return finishMetrics(w, jobs, m, busy, busyMap)
}

// finishMetrics completes m, whose trace counts and work lost are set, from
// the job outcomes and the busy slot time (s) of all slots and of map slots.
func finishMetrics(w *Workload, jobs []JobOutcome, m Metrics, busy, busyMap float64) Metrics {
	m.Jobs, m.Tasks = len(w.Jobs), w.NumTasks()
	first, last := Time(-1), Time(0)
	var sumT float64
	for j, o := range jobs {
		if !o.Done {
			continue
		}
		m.CompletedJobs++
		sumT += (o.Completion - o.Arrival).Seconds()
		if first < 0 || o.Arrival < first {
			first = o.Arrival
		}
		last = max(last, o.Completion)
		if d := w.Jobs[j].Deadline; d != NoDeadline && o.Completion > d {
			m.LateJobs++
		}
	}
	if m.CompletedJobs > 0 {
		m.Makespan = (last - first).Seconds()
		m.MeanTurnaround = sumT / float64(m.CompletedJobs)
		m.LateFraction = float64(m.LateJobs) / float64(m.CompletedJobs)
		if m.Makespan > 0 {
			m.Throughput = float64(m.CompletedJobs) / (m.Makespan / 3600)
		}
	}
	m.Locality = 1
	if m.MapLaunches > 0 {
		m.Locality = float64(m.LocalLaunches) / float64(m.MapLaunches)
	}
	slots, mapSlots := 0, 0
	for _, n := range w.Cluster.Nodes {
		if w.Cluster.Fungible {
			slots += n.TotalSlots
			mapSlots += n.TotalSlots
		} else {
			slots += n.MapSlots + n.ReduceSlots
			mapSlots += n.MapSlots
		}
	}
	if m.Makespan > 0 && slots > 0 {
		m.Utilisation = busy / (float64(slots) * m.Makespan)
		if mapSlots > 0 {
			m.MapUtilisation = busyMap / (float64(mapSlots) * m.Makespan)
		}
	}
	return m
}

// String is a one-line summary.
func (r *Result) String() string {
	jobs := "jobs"
	if r.Metrics.Jobs == 1 {
		jobs = "job" // inline, not internal/plural: the engine imports nothing of ours
	}
	return fmt.Sprintf("%s: %d/%d %s, makespan %.1f s, mean turnaround %.1f s, late %d", r.Policy,
		r.Metrics.CompletedJobs, r.Metrics.Jobs, jobs, r.Metrics.Makespan, r.Metrics.MeanTurnaround, r.Metrics.LateJobs)
}
