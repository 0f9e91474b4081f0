package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/mrbound/mrbound/internal/gantt"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// GanttMaxTasks: runs with at most this many tasks get a text Gantt chart.
const GanttMaxTasks = 60

// ganttWidth is the text chart's time-axis width in characters.
const ganttWidth = 72

// Report is a verified (or not) run.
type Report struct {
	File     string
	Workload *sim.Workload
	Result   *sim.Result
	// Verified: the independent checker accepted the trace; CheckError says
	// why not otherwise.
	Verified   bool
	CheckError string
	// PolicySummary, when not nil, is the policy's own figures for the JSON
	// object (policy.JSONSummarizer).
	PolicySummary any
}

// New verifies res against w and returns the report.
func New(file string, w *sim.Workload, res *sim.Result) *Report {
	return Checked(file, w, res, check.Verify(w, res))
}

// Checked is the report of a run already verified, checkErr being the
// checker's verdict (a check.Stream's, for a run whose trace was not kept:
// the report's figures need no trace; its Gantt chart, SVG, trace and user
// metrics do).
func Checked(file string, w *sim.Workload, res *sim.Result, checkErr error) *Report {
	r := &Report{File: file, Workload: w, Result: res, Verified: true}
	if checkErr != nil {
		r.Verified, r.CheckError = false, checkErr.Error()
	}
	return r
}

// NeedsTrace says whether a report of a run of w uses the trace beyond its
// check and TraceWriter's rows: the text report's Gantt chart (small runs),
// the SVG timeline, the user metrics.
func NeedsTrace(w *sim.Workload, text, svg bool) bool {
	return svg || len(w.Users) > 0 || (text && w.NumTasks() <= GanttMaxTasks)
}

// JSON is the report's JSON object.
type JSON struct {
	// Unit is "s": every time of the report (makespan, turnaround, wall,
	// heartbeat) is in seconds.
	Unit          string  `json:"unit"`
	Policy        string  `json:"policy"`
	File          string  `json:"file"`
	Jobs          int     `json:"jobs"`
	Tasks         int     `json:"tasks"`
	CompletedJobs int     `json:"completed_jobs"`
	Makespan      float64 `json:"makespan"`
	MeanTurn      float64 `json:"mean_turnaround"`
	LateJobs      int     `json:"late_jobs"`
	LateFraction  float64 `json:"late_fraction"`
	Locality      float64 `json:"locality"`
	Utilisation   float64 `json:"utilisation"`
	MapUtil       float64 `json:"map_utilisation"`
	Throughput    float64 `json:"throughput"`
	Killed        int     `json:"killed"`
	Suspended     int     `json:"suspended"`
	Events        int64   `json:"events"`
	TaskEvents    int64   `json:"task_events"`
	Offers        int64   `json:"offers"`
	Wall          float64 `json:"wall_seconds"`
	Overhead      float64 `json:"overhead_seconds"`
	OverheadJob   float64 `json:"overhead_per_job_seconds"`
	Heartbeat     float64 `json:"heartbeat_seconds"`
	SlowStart     float64 `json:"slowstart"`
	Seed          uint64  `json:"seed"`
	Nodes         int     `json:"nodes"`
	MapSlots      int     `json:"map_slots"`
	ReduceSlots   int     `json:"reduce_slots"`
	// COSHH's user metrics, when the workload has users (users.go).
	Dissatisfaction *float64 `json:"dissatisfaction,omitempty"`
	Fairness        *float64 `json:"fairness,omitempty"`
	Verified        bool     `json:"verified"`
	CheckError      string   `json:"check_error,omitempty"`
	// Status and Incomplete say how a run that left jobs unfinished ended
	// (horizon, stalled, stuck); absent when every job completed.
	Status     string `json:"status,omitempty"`
	Incomplete string `json:"incomplete,omitempty"`
	// PolicySummary is the policy's own figures (mrcp: P, T, O, re-solves).
	PolicySummary any `json:"policy_summary,omitempty"`
}

// Summary fills the JSON object.
func (r *Report) Summary() JSON {
	res, m := r.Result, r.Result.Metrics
	j := JSON{
		Unit: "s", Policy: res.Policy, File: r.File, Jobs: m.Jobs, Tasks: m.Tasks, CompletedJobs: m.CompletedJobs,
		Makespan: m.Makespan, MeanTurn: m.MeanTurnaround, LateJobs: m.LateJobs, LateFraction: m.LateFraction,
		Locality: m.Locality, Utilisation: m.Utilisation, MapUtil: m.MapUtilisation, Throughput: m.Throughput,
		Killed: m.Killed, Suspended: m.Suspended, Events: res.Events, TaskEvents: res.TaskEvents, Offers: res.Offers,
		Wall: res.Wall.Seconds(), Overhead: res.Overhead.Seconds(),
		Heartbeat: res.Options.Heartbeat.Seconds(), SlowStart: res.Options.SlowStart, Seed: res.Options.Seed,
		Nodes: len(r.Workload.Cluster.Nodes), Verified: r.Verified, CheckError: r.CheckError,
		PolicySummary: r.PolicySummary,
	}
	if m.CompletedJobs > 0 {
		j.OverheadJob = j.Overhead / float64(m.CompletedJobs)
	}
	if msg := res.Incomplete(); msg != "" {
		j.Status, j.Incomplete = res.Status.String(), msg
	}
	if um, ok := r.Users(); ok {
		j.Dissatisfaction, j.Fairness = &um.Dissatisfaction, &um.Fairness
	}
	for _, n := range r.Workload.Cluster.Nodes {
		if r.Workload.Cluster.Fungible {
			j.MapSlots += n.TotalSlots
		} else {
			j.MapSlots += n.MapSlots
			j.ReduceSlots += n.ReduceSlots
		}
	}
	return j
}

// WriteJSON writes one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r.Summary(), "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// WriteText writes the human report: the run, the metrics (with the names
// of policies.md §4: MRCP's P, T, O; COSHH's average completion time and
// locality; TuMM's makespan), the verdict, and a Gantt chart for small runs.
func (r *Report) WriteText(w io.Writer) error {
	s := r.Summary()
	verdict := "verified (independent trace checker)"
	if !r.Verified {
		verdict = "NOT VERIFIED: " + r.CheckError
	}
	mode := "ideal offers (H = 0)"
	if s.Heartbeat > 0 {
		mode = fmt.Sprintf("heartbeat %s s", g(s.Heartbeat))
	}
	slots := fmt.Sprintf("%d map + %d reduce slots", s.MapSlots, s.ReduceSlots)
	if r.Workload.Cluster.Fungible {
		slots = plural.Count(s.MapSlots, "fungible slot")
	}
	lines := [][2]string{
		{"policy", s.Policy},
		{"workload", fmt.Sprintf("%s: %s, %s", s.File, plural.Count(s.Jobs, "job"), plural.Count(s.Tasks, "task"))},
		{"cluster", fmt.Sprintf("%s, %s", plural.Count(s.Nodes, "node"), slots)},
		{"model", fmt.Sprintf("%s, slow-start %s, seed %d", mode, g(s.SlowStart), s.Seed)},
		{"completed", fmt.Sprintf("%d of %s", s.CompletedJobs, plural.Count(s.Jobs, "job"))},
	}
	if s.Status != "" {
		lines = append(lines, [2]string{"status", s.Incomplete})
	}
	lines = append(lines, [][2]string{
		{"makespan", fmt.Sprintf("%s s", g(s.Makespan))},
		{"turnaround", fmt.Sprintf("mean %s s (MRCP T, COSHH average completion time)", g(s.MeanTurn))},
		{"late", fmt.Sprintf("%s, P = %s", plural.Count(s.LateJobs, "job"), g(s.LateFraction))},
		{"locality", fmt.Sprintf("%s of map launches node-local", g(s.Locality))},
		{"utilisation", fmt.Sprintf("%s of all slots, %s of map slots", g(s.Utilisation), g(s.MapUtil))},
		{"preemption", fmt.Sprintf("%d killed, %d suspended", s.Killed, s.Suspended)},
	}...)
	if s.Fairness != nil {
		lines = append(lines, [2]string{"users", fmt.Sprintf("dissatisfaction %s, fairness %s (COSHH, mean over completion instants)", g(*s.Dissatisfaction), g(*s.Fairness))})
	}
	lines = append(lines, [][2]string{
		// The two counts overlap (a task end is both) but neither holds
		// the other (a launch is no event of the queue): "N (M task
		// events, …)" read as M of N, with M often above N.
		{"events", fmt.Sprintf("%d processed (arrivals, task ends, heartbeats, timers); %s, %s", s.Events,
			plural.Count(int(s.TaskEvents), "task event"), plural.Count(int(s.Offers), "offer"))},
		{"time", fmt.Sprintf("%.3f s wall, scheduler overhead %.6f s (O = %.6f s per job, O/T = %.3g)", s.Wall, s.Overhead, s.OverheadJob, ratio(s.OverheadJob, s.MeanTurn))},
		{"verdict", verdict},
	}...)
	for _, l := range lines {
		if _, err := fmt.Fprintf(w, "%-12s%s\n", l[0], l[1]); err != nil {
			return err
		}
	}
	if s.Tasks <= GanttMaxTasks {
		fmt.Fprintln(w)
		return gantt.TextIn(w, r.Bars(), ganttWidth, "s")
	}
	return nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// Bars lays the trace out one lane per slot ("node map 0"): each segment
// takes the lowest-numbered slot of its node and kind free at its launch
// (interval partitioning, so lanes never overlap). Times are in seconds.
func (r *Report) Bars() []gantt.Bar {
	tr := r.Result.Trace
	idx := make([]int, len(tr))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return tr[idx[a]].Launch < tr[idx[b]].Launch })
	type laneKey struct {
		node int32
		kind sim.Kind
	}
	busy := map[laneKey][]sim.Time{} // per slot: when it frees
	nodes := r.Workload.Cluster.Nodes
	bars := make([]gantt.Bar, 0, len(tr))
	for _, i := range idx {
		a := tr[i]
		if a.End < 0 || a.End == a.Launch {
			continue
		}
		k := laneKey{a.Node, a.Kind}
		if r.Workload.Cluster.Fungible {
			k.kind = sim.KindUnknown
		}
		slots := busy[k]
		s := 0
		for s < len(slots) && slots[s] > a.Launch {
			s++
		}
		if s == len(slots) {
			slots = append(slots, 0)
		}
		slots[s] = a.End
		busy[k] = slots
		name := nodes[a.Node].Name
		if name == "" {
			name = "n" + strconv.Itoa(int(a.Node))
		}
		kind := a.Kind.String()
		if r.Workload.Cluster.Fungible {
			kind = "slot"
		}
		label := fmt.Sprintf("j%d.%c%d", a.Job, a.Kind.String()[0], a.Index)
		bars = append(bars, gantt.Bar{Lane: fmt.Sprintf("%s %s %d", name, kind, s), Start: a.Launch.Seconds(), End: a.End.Seconds(), Label: label, Job: strconv.Itoa(int(a.Job))})
	}
	sort.SliceStable(bars, func(a, b int) bool { return bars[a].Lane < bars[b].Lane })
	return bars
}

// WriteSVG writes the schedule as an SVG timeline.
func (r *Report) WriteSVG(w io.Writer) error {
	return gantt.SVGChart(w, gantt.Chart{Title: fmt.Sprintf("%s on %s", r.Result.Policy, r.File), Unit: "s", Bars: r.Bars()})
}

// WriteTrace writes the per-task trace as TSV with a header; times in s.
// A day has tens of millions of rows: each is appended to one reused line
// buffer by strconv (no fmt, no allocation per row) and the lines go out
// through a buffered writer, not one write call each. TraceWriter writes
// the same bytes while the run goes, without the trace.
func (r *Report) WriteTrace(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString(traceHeader); err != nil {
		return err
	}
	line := make([]byte, 0, 160)
	for i := range r.Result.Trace {
		line = appendRow(line[:0], &r.Result.Trace[i])
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// traceHeader names the trace's columns; the times' names end in their unit
// (s), as a number without its unit tells a reader nothing.
const traceHeader = "task\tjob\tkind\tindex\tnode\tlaunch_s\tstart_s\tend_s\tduration_s\toutcome\tlocal\tresumed\n"

// appendRow appends a's TSV row to b.
func appendRow(b []byte, a *sim.Attempt) []byte {
	sec := func(b []byte, t sim.Time) []byte { return strconv.AppendFloat(b, t.Seconds(), 'g', 6, 64) }
	b = strconv.AppendInt(b, int64(a.Task), 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(a.Job), 10)
	b = append(b, '\t')
	b = append(b, a.Kind.String()...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(a.Index), 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(a.Node), 10)
	b = append(b, '\t')
	b = sec(b, a.Launch)
	b = append(b, '\t')
	b = sec(b, a.Start)
	b = append(b, '\t')
	if a.End >= 0 {
		b = sec(b, a.End)
	} else {
		b = append(b, '-')
	}
	b = append(b, '\t')
	b = sec(b, a.Duration)
	b = append(b, '\t')
	b = append(b, a.Outcome.String()...)
	b = append(b, '\t')
	b = strconv.AppendBool(b, a.Local)
	b = append(b, '\t')
	b = strconv.AppendBool(b, a.Resumed)
	return append(b, '\n')
}
