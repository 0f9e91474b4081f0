package sls

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/trace"
)

// num is an SLS number: a JSON number or a string of one (SLS parses both).
type num struct {
	v   int64
	set bool
}

func (n *num) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if uq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(uq)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int64(f)) {
			// the decoder names the field of a type error
			return &json.UnmarshalTypeError{Value: foundValue(b), Type: reflect.TypeFor[int64]()}
		}
		v = int64(f)
	}
	n.v, n.set = v, true
	return nil
}

// foundValue names a JSON value that is not a whole number for a one-line
// error: a string or number as written, a list or an object by its kind
// (written out, it may span lines and run long).
func foundValue(b []byte) string {
	switch t := bytes.TrimSpace(b); {
	case len(t) == 0:
		return "nothing"
	case t[0] == '[':
		return "a list"
	case t[0] == '{':
		return "an object"
	case utf8.RuneCount(t) > 40:
		return string([]rune(string(t))[:37]) + "…"
	default:
		return string(t)
	}
}

type job struct {
	AMType    string   `json:"am.type"`
	DAGType   string   `json:"yarn.sls.am.type"`
	Start     num      `json:"job.start.ms"`
	End       num      `json:"job.end.ms"`
	Queue     string   `json:"job.queue.name"`
	ID        string   `json:"job.id"`
	User      string   `json:"job.user"`
	Count     num      `json:"job.count"`
	Tasks     []task   `json:"job.tasks"`
	Schedule  string   `json:"mrbound.schedule,omitempty"`
	WeightRaw *float64 `json:"mrbound.weight,omitempty"`
	Deadline  num      `json:"mrbound.deadline.ms"`
	Parent    string   `json:"mrbound.parent,omitempty"`
}

type task struct {
	Host     string `json:"container.host"`
	Start    num    `json:"container.start.ms"`
	End      num    `json:"container.end.ms"`
	Duration num    `json:"container.duration.ms"`
	Type     string `json:"container.type"`
	Count    num    `json:"container.count"`
	Delay    num    `json:"container.request.delay"`
}

// maxCount bounds container.count and the tasks of one job.
const maxCount = 1 << 20

// LooksLikeJobs reports whether a decoded first object is an SLS job.
func LooksLikeJobs(first map[string]json.RawMessage) bool {
	_, t := first["job.tasks"]
	_, s := first["job.start.ms"]
	return t || s
}

// ReadJobs parses an SLS JSON job trace; name is used in errors.
func ReadJobs(data []byte, name string) (*trace.Trace, error) {
	tr := &trace.Trace{Name: name, Recorded: []trace.Container{}}
	recorded := true
	hostSeen := map[string]bool{}
	err := trace.Objects(data, name, func(decode func(any) error, at string) error {
		var j job
		if err := decode(&j); err != nil {
			return err
		}
		bad := func(path, format string, a ...any) error {
			return &badinput.PathError{File: at, Path: path, Problem: fmt.Sprintf(format, a...)}
		}
		if j.Count.set && j.Count.v != 1 {
			return bad("job.count", "%d copies of a job are not read (write the copies out)", j.Count.v)
		}
		if !j.Start.set {
			return bad("job.start.ms", "missing")
		}
		if j.Start.v < 0 {
			return bad("job.start.ms", "%d is negative", j.Start.v)
		}
		id := j.ID
		if id == "" {
			id = fmt.Sprintf("job_%d", len(tr.Jobs)+1)
		}
		tj := trace.Job{ID: id, SubmitMs: j.Start.v, User: j.User, Pool: j.Queue, DeadlineMs: -1, Parent: j.Parent, Where: at}
		if j.WeightRaw != nil {
			tj.Weight = *j.WeightRaw
		}
		if j.Deadline.set {
			tj.DeadlineMs = j.Deadline.v
		}
		if len(j.Tasks) == 0 {
			return bad("job.tasks", "no tasks")
		}
		layout := j.Schedule == "none"
		if j.Schedule != "" && !layout {
			return bad("mrbound.schedule", "%q: only \"none\" is known", j.Schedule)
		}
		var cs []trace.Container
		counts := [3]int{}
		for i, t := range j.Tasks {
			p := fmt.Sprintf("job.tasks[%d]", i)
			var kind sim.Kind
			switch strings.ToLower(t.Type) {
			case "map":
				kind = sim.Map
			case "reduce":
				kind = sim.Reduce
			case "":
				return bad(p+".container.type", "missing (map or reduce)")
			default:
				return bad(p+".container.type", "%q is not map or reduce", t.Type)
			}
			if t.Delay.set && t.Delay.v > 0 {
				return bad(p+".container.request.delay", "%d ms: the model releases all of a job's tasks at its submission, so a DAG job's delayed requests cannot be represented", t.Delay.v)
			}
			var start, end int64
			switch {
			case t.Start.set && t.End.set:
				start, end = t.Start.v, t.End.v
				if start < 0 || end < start {
					return bad(p, "container.start.ms %d and container.end.ms %d are not an interval", start, end)
				}
			case t.Duration.set:
				if t.Duration.v < 0 {
					return bad(p+".container.duration.ms", "%d is negative", t.Duration.v)
				}
				start, end = j.Start.v, j.Start.v+t.Duration.v
				recorded = false
			default:
				return bad(p, "needs container.start.ms and container.end.ms, or container.duration.ms")
			}
			if t.Host == "" || layout {
				recorded = false
			}
			n := int64(1)
			if t.Count.set {
				n = t.Count.v
			}
			if n < 0 || n > maxCount || counts[kind]+int(n) > maxCount {
				return bad(p+".container.count", "%d is out of range [0, %d]", n, maxCount)
			}
			for range n {
				cs = append(cs, trace.Container{Job: len(tr.Jobs), Kind: kind, Index: counts[kind], Host: t.Host, StartMs: start, EndMs: end, Successful: true, Where: at})
				counts[kind]++
			}
		}
		if len(cs) == 0 {
			return bad("job.tasks", "no tasks (every container.count is 0)")
		}
		if layout {
			// durations laid out from the submission: no shuffle to take off
			for _, c := range cs {
				if c.Kind == sim.Map {
					tj.MapsMs = append(tj.MapsMs, c.EndMs-c.StartMs)
				} else {
					tj.ReducesMs = append(tj.ReducesMs, c.EndMs-c.StartMs)
				}
			}
			if tj.MapsMs == nil {
				tj.MapsMs = []int64{}
			}
		} else {
			trace.Durations(&tj, cs)
		}
		for _, c := range cs {
			if c.Host != "" && !hostSeen[c.Host] {
				hostSeen[c.Host] = true
				tr.Hosts = append(tr.Hosts, c.Host)
			}
		}
		tr.Jobs = append(tr.Jobs, tj)
		tr.Recorded = append(tr.Recorded, cs...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(tr.Jobs) == 0 {
		return nil, badinput.Errorf("%s: no jobs", name)
	}
	if !recorded {
		tr.Recorded = nil
		tr.Hosts = nil // hosts of a partial record are not the cluster
		tr.Notes = append(tr.Notes, "not every container has a host, a start and an end: no recorded schedule")
	}
	return tr, nil
}

// WriteJobs writes tr as an SLS JSON job trace, one object per job. With a
// record, each task's successful container is written where and when it
// ran; without one, containers are laid out from the submission
// (start = job.start.ms, end = start + duration) and the job is marked
// "mrbound.schedule": "none" so that ReadJobs takes them as durations.
// A map-only or reduce-only job's tasks keep their order.
func WriteJobs(w io.Writer, tr *trace.Trace) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	byJob := make([][]trace.Container, len(tr.Jobs))
	for _, c := range tr.Recorded {
		if c.Successful {
			byJob[c.Job] = append(byJob[c.Job], c)
		}
	}
	for i := range tr.Jobs {
		tj := &tr.Jobs[i]
		out := outJob{AMType: "mapreduce", Start: tj.SubmitMs, Queue: tj.Pool, ID: tj.ID, User: tj.User, Parent: tj.Parent}
		if tj.Weight != 0 {
			wt := tj.Weight
			out.Weight = &wt
		}
		if tj.DeadlineMs >= 0 {
			d := tj.DeadlineMs
			out.Deadline = &d
		}
		if tr.Recorded != nil {
			for _, c := range byJob[i] {
				out.Tasks = append(out.Tasks, outTask{Host: c.Host, Start: c.StartMs, End: c.EndMs, Priority: priority(c.Kind), Type: c.Kind.String(), Exec: "GUARANTEED"})
			}
		} else {
			out.Schedule = "none"
			for k, list := range [2][]int64{tj.MapsMs, tj.ReducesMs} {
				kind := [2]sim.Kind{sim.Map, sim.Reduce}[k]
				for _, d := range list {
					out.Tasks = append(out.Tasks, outTask{Start: tj.SubmitMs, End: tj.SubmitMs + d, Priority: priority(kind), Type: kind.String(), Exec: "GUARANTEED"})
				}
			}
		}
		out.End = out.Start
		for _, t := range out.Tasks {
			out.End = max(out.End, t.End)
		}
		if err := enc.Encode(&out); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// priority is the container priority SLS's MapReduce AM uses (maps 20,
// reduces 10).
func priority(k sim.Kind) int {
	if k == sim.Reduce {
		return 10
	}
	return 20
}

type outJob struct {
	AMType   string    `json:"am.type"`
	Start    int64     `json:"job.start.ms"`
	End      int64     `json:"job.end.ms"`
	Queue    string    `json:"job.queue.name,omitempty"`
	ID       string    `json:"job.id"`
	User     string    `json:"job.user,omitempty"`
	Weight   *float64  `json:"mrbound.weight,omitempty"`
	Deadline *int64    `json:"mrbound.deadline.ms,omitempty"`
	Parent   string    `json:"mrbound.parent,omitempty"`
	Schedule string    `json:"mrbound.schedule,omitempty"`
	Tasks    []outTask `json:"job.tasks"`
}

type outTask struct {
	Host     string `json:"container.host,omitempty"`
	Start    int64  `json:"container.start.ms"`
	End      int64  `json:"container.end.ms"`
	Priority int    `json:"container.priority"`
	Type     string `json:"container.type"`
	Exec     string `json:"container.execution.type"`
}
