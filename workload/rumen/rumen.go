package rumen

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/trace"
)

type job struct {
	JobID      string            `json:"jobID"`
	User       string            `json:"user"`
	Queue      string            `json:"queue"`
	Submit     *int64            `json:"submitTime"`
	Outcome    string            `json:"outcome"`
	MapTasks   []task            `json:"mapTasks"`
	Reduces    []task            `json:"reduceTasks"`
	Dependants []json.RawMessage `json:"directDependantJobs"`
}

// task and attempt hold only what is read: every other field is skipped
// by the decoder without allocating.
type task struct {
	Start    *int64    `json:"startTime"`
	Finish   *int64    `json:"finishTime"`
	Attempts []attempt `json:"attempts"`
}

type attempt struct {
	Host   string `json:"hostName"`
	Start  *int64 `json:"startTime"`
	Finish *int64 `json:"finishTime"`
	Result string `json:"result"`
}

// LooksLikeRumen reports whether a decoded first object is a Rumen job.
func LooksLikeRumen(first map[string]json.RawMessage) bool {
	_, m := first["mapTasks"]
	_, j := first["jobID"]
	return m && j
}

type readJob struct {
	tj         trace.Job
	cs         []trace.Container
	dependants []string
}

// Read parses a Rumen trace; name is used in errors.
func Read(data []byte, name string) (*trace.Trace, error) {
	var jobs []readJob
	droppedJobs, droppedTasks, speculative := 0, 0, 0
	err := trace.Objects(data, name, func(decode func(any) error, at string) error {
		var j job
		if err := decode(&j); err != nil {
			return err
		}
		bad := func(path, format string, a ...any) error {
			return &badinput.PathError{File: at, Path: path, Problem: fmt.Sprintf(format, a...)}
		}
		if j.JobID == "" {
			return bad("jobID", "missing")
		}
		if j.Submit == nil || *j.Submit < 0 {
			return bad("submitTime", "missing or negative")
		}
		rj := readJob{tj: trace.Job{ID: j.JobID, SubmitMs: *j.Submit, User: j.User, Pool: j.Queue, DeadlineMs: -1, Where: at}}
		for i, d := range j.Dependants {
			var id string
			if err := json.Unmarshal(d, &id); err != nil {
				return bad(fmt.Sprintf("directDependantJobs[%d]", i), "not a job id string")
			}
			rj.dependants = append(rj.dependants, id)
		}
		if o := strings.ToUpper(j.Outcome); o != "" && o != "SUCCESS" {
			droppedJobs++
			return nil
		}
		for k, list := range [2][]task{j.MapTasks, j.Reduces} {
			kind := [2]sim.Kind{sim.Map, sim.Reduce}[k]
			field := [2]string{"mapTasks", "reduceTasks"}[k]
			index := 0
			for i, t := range list {
				p := fmt.Sprintf("%s[%d]", field, i)
				cs, ok, spec, err := attempts(t, p, at, len(jobs), kind, index)
				if err != nil {
					return err
				}
				if !ok {
					droppedTasks++
					continue
				}
				speculative += spec
				rj.cs = append(rj.cs, cs...)
				index++
			}
		}
		if len(rj.cs) == 0 {
			droppedJobs++
			return nil
		}
		jobs = append(jobs, rj)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, badinput.Errorf("%s: no job with a successful task", name)
	}
	// submission order; the clock starts at the first submission
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].tj.SubmitMs < jobs[b].tj.SubmitMs })
	t0 := jobs[0].tj.SubmitMs
	tr := &trace.Trace{Name: name, Recorded: []trace.Container{}}
	pos := map[string]int{}
	hostSeen := map[string]bool{}
	for j := range jobs {
		rj := &jobs[j]
		if prev, dup := pos[rj.tj.ID]; dup {
			return nil, &badinput.PathError{File: rj.tj.Where, Path: "jobID", Problem: fmt.Sprintf("%s again (first at %s)", rj.tj.ID, jobs[prev].tj.Where)}
		}
		pos[rj.tj.ID] = j
		rj.tj.SubmitMs -= t0
		for k := range rj.cs {
			c := &rj.cs[k]
			c.Job = j
			c.StartMs -= t0
			c.EndMs -= t0
			if !hostSeen[c.Host] {
				hostSeen[c.Host] = true
				tr.Hosts = append(tr.Hosts, c.Host)
			}
		}
		trace.Durations(&rj.tj, rj.cs)
	}
	// chained jobs: each dependant's one parent
	parent := map[string]string{}
	for _, rj := range jobs {
		for _, d := range rj.dependants {
			k, ok := pos[d]
			if !ok {
				continue // a dependant outside the trace (or dropped)
			}
			if p, twice := parent[d]; twice && p != rj.tj.ID {
				return nil, &badinput.PathError{File: jobs[k].tj.Where, Path: "jobID",
					Problem: fmt.Sprintf("%s depends on %s and %s: the model chains a job to one parent", d, p, rj.tj.ID)}
			}
			if pos[rj.tj.ID] >= k {
				return nil, &badinput.PathError{File: jobs[k].tj.Where, Path: "jobID",
					Problem: fmt.Sprintf("%s depends on %s, which was submitted after it", d, rj.tj.ID)}
			}
			parent[d] = rj.tj.ID
		}
	}
	for _, rj := range jobs {
		rj.tj.Parent = parent[rj.tj.ID]
		tr.Jobs = append(tr.Jobs, rj.tj)
		tr.Recorded = append(tr.Recorded, rj.cs...)
	}
	if droppedJobs > 0 || droppedTasks > 0 {
		tr.Notes = append(tr.Notes, fmt.Sprintf("dropped %s (outcome not SUCCESS, or no successful task) and %s without a successful attempt", plural.Count(droppedJobs, "job"), plural.Count(droppedTasks, "task")))
	}
	if speculative > 0 {
		tr.Notes = append(tr.Notes, plural.Count(speculative, "attempt")+" overlapped their task's successful one (speculative copies): left out of the record")
	}
	return tr, nil
}

// maxMs bounds recorded times (epoch ms for 35,000 years).
const maxMs = 1 << 50

// attempts reads one task's attempts: its successful one and those that
// ended before it started; ok is false when it has no successful attempt.
func attempts(t task, p, at string, job int, kind sim.Kind, index int) (cs []trace.Container, ok bool, speculative int, err error) {
	bad := func(path, format string, a ...any) error {
		return &badinput.PathError{File: at, Path: path, Problem: fmt.Sprintf(format, a...)}
	}
	valid := func(v *int64) bool { return v != nil && *v >= 0 }
	succ := -1
	for i, a := range t.Attempts {
		if strings.EqualFold(a.Result, "SUCCESS") {
			succ = i
			break
		}
	}
	if succ < 0 {
		return nil, false, 0, nil
	}
	s := t.Attempts[succ]
	start, finish := s.Start, s.Finish
	if !valid(start) || !valid(finish) {
		start, finish = t.Start, t.Finish
	}
	sp := fmt.Sprintf("%s.attempts[%d]", p, succ)
	if !valid(start) || !valid(finish) {
		return nil, false, 0, bad(sp, "no start and finish time (nor on the task)")
	}
	if *finish < *start || *finish > maxMs {
		return nil, false, 0, bad(sp, "finishTime %d before startTime %d, or out of range", *finish, *start)
	}
	if s.Host == "" {
		return nil, false, 0, bad(sp+".hostName", "missing")
	}
	cs = append(cs, trace.Container{Job: job, Kind: kind, Index: index, Host: s.Host, StartMs: *start, EndMs: *finish, Successful: true, Where: at})
	for i, a := range t.Attempts {
		if i == succ {
			continue
		}
		if !valid(a.Start) || !valid(a.Finish) || *a.Finish < *a.Start || a.Host == "" {
			continue // an attempt that never ran, or whose times are lost
		}
		if *a.Finish > *start {
			speculative++
			continue
		}
		cs = append(cs, trace.Container{Job: job, Kind: kind, Index: index, Host: a.Host, StartMs: *a.Start, EndMs: *a.Finish, Where: at})
	}
	return cs, true, speculative, nil
}
