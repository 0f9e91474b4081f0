package jobfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/strictjson"
	"github.com/mrbound/mrbound/workload/trace"
)

// Cluster is the optional first line's object.
type Cluster struct {
	Nodes       int      `json:"nodes"`
	MapSlots    int      `json:"map_slots,omitempty"`
	ReduceSlots int      `json:"reduce_slots,omitempty"`
	NodeNames   []string `json:"node_names,omitempty"`
}

// Job is one job line. Field order is the order written.
type Job struct {
	ID         string  `json:"id"`
	SubmitMs   *int64  `json:"submit_ms"`
	User       string  `json:"user,omitempty"`
	Pool       string  `json:"pool,omitempty"`
	Weight     float64 `json:"weight,omitempty"`
	DeadlineMs *int64  `json:"deadline_ms,omitempty"`
	Parent     string  `json:"parent,omitempty"`
	MapsMs     []int64 `json:"maps_ms"`
	ReducesMs  []int64 `json:"reduces_ms,omitempty"`
}

type clusterLine struct {
	Cluster *Cluster `json:"cluster"`
}

// maxLine bounds one line (a job of a million tasks fits).
const maxLine = 64 << 20

// Sniff reports whether data looks like a job file: its first non-blank
// line is one JSON object with "cluster", or with "id" and "maps_ms".
func Sniff(data []byte) bool {
	line := firstLine(data)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	_, c := probe["cluster"]
	_, id := probe["id"]
	_, maps := probe["maps_ms"]
	return c || (id && maps)
}

func firstLine(data []byte) []byte {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t
		}
		data = rest
	}
	return nil
}

// Read parses a job file; name is used in errors (name:line).
func Read(r io.Reader, name string) (*trace.Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	tr := &trace.Trace{Name: name}
	line, jobs := 0, 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		at := fmt.Sprintf("%s:%d", name, line)
		if bytes.HasPrefix(text, []byte(`{"cluster"`)) || (jobs == 0 && isCluster(text)) {
			if jobs > 0 || tr.NodeCount > 0 {
				return nil, &badinput.PathError{File: at, Path: "cluster", Problem: "the cluster line must be the first line"}
			}
			var cl clusterLine
			if err := strict(text, &cl); err != nil {
				return nil, lineErr(at, text, err)
			}
			if err := checkCluster(cl.Cluster); err != nil {
				return nil, &badinput.PathError{File: at, Path: "cluster", Problem: err.Error()}
			}
			tr.NodeCount, tr.MapSlots, tr.ReduceSlots, tr.Hosts = cl.Cluster.Nodes, cl.Cluster.MapSlots, cl.Cluster.ReduceSlots, cl.Cluster.NodeNames
			continue
		}
		var j Job
		if err := strict(text, &j); err != nil {
			return nil, lineErr(at, text, err)
		}
		tj, err := j.toTrace(at)
		if err != nil {
			return nil, err
		}
		tr.Jobs = append(tr.Jobs, tj)
		jobs++
	}
	if err := sc.Err(); err != nil {
		return nil, &badinput.PathError{File: fmt.Sprintf("%s:%d", name, line+1), Problem: err.Error()}
	}
	if jobs == 0 {
		return nil, badinput.Errorf("%s: no job lines", name)
	}
	return tr, nil
}

func isCluster(text []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(text, &probe) != nil {
		return false
	}
	_, ok := probe["cluster"]
	return ok
}

// strict decodes one line, refusing unknown fields and trailing data.
func strict(text []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	var pe *badinput.PathError
	if err := strictjson.Check("", text); errors.As(err, &pe) && pe.Path != "" {
		return pe
	}
	return nil
}

// lineErr turns a decoding error into one line naming the field.
func lineErr(at string, text []byte, err error) error {
	var pe *badinput.PathError
	if errors.As(err, &pe) { // a repeated key: its path and problem, at this line
		return &badinput.PathError{File: at, Path: pe.Path, Problem: pe.Problem}
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return &badinput.PathError{File: at, Path: strictjson.TypePath(text, te), Problem: strictjson.TypeProblem(te)}
	case errors.As(err, &se):
		return &badinput.PathError{File: fmt.Sprintf("%s:%d", at, se.Offset), Problem: "JSON syntax: " + se.Error()}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return &badinput.PathError{File: at, Path: f, Problem: "unknown field (docs/traces.md lists the fields)"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &badinput.PathError{File: at, Problem: "JSON syntax: the object is not closed"}
	}
	return &badinput.PathError{File: at, Problem: oneLine(err.Error())}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func checkCluster(c *Cluster) error {
	switch {
	case c == nil:
		return errors.New("null")
	case c.Nodes <= 0:
		return fmt.Errorf("nodes %d must be positive", c.Nodes)
	case c.Nodes > 1<<20:
		return fmt.Errorf("nodes %d is more than %d", c.Nodes, 1<<20)
	case c.MapSlots < 0 || c.ReduceSlots < 0:
		return errors.New("negative slot count")
	case len(c.NodeNames) > 0 && len(c.NodeNames) != c.Nodes:
		return fmt.Errorf("%d node_names for %d nodes", len(c.NodeNames), c.Nodes)
	}
	return nil
}

// maxMs bounds times (about 35,000 years in ms: fits int64 with room).
const maxMs = 1 << 50

func (j *Job) toTrace(at string) (trace.Job, error) {
	bad := func(field, format string, a ...any) error {
		return &badinput.PathError{File: at, Path: field, Problem: fmt.Sprintf(format, a...)}
	}
	switch {
	case j.ID == "":
		return trace.Job{}, bad("id", "missing or empty")
	case j.SubmitMs == nil:
		return trace.Job{}, bad("submit_ms", "missing")
	case *j.SubmitMs < 0 || *j.SubmitMs > maxMs:
		return trace.Job{}, bad("submit_ms", "%d is out of range [0, %d]", *j.SubmitMs, int64(maxMs))
	case j.MapsMs == nil:
		return trace.Job{}, bad("maps_ms", "missing (give [] for a job without maps)")
	case len(j.MapsMs)+len(j.ReducesMs) == 0:
		return trace.Job{}, bad("maps_ms", "the job has no task")
	case j.Weight < 0:
		return trace.Job{}, bad("weight", "%v is negative", j.Weight)
	case j.Parent == j.ID:
		return trace.Job{}, bad("parent", "a job cannot be its own parent")
	}
	tj := trace.Job{ID: j.ID, SubmitMs: *j.SubmitMs, User: j.User, Pool: j.Pool, Weight: j.Weight, DeadlineMs: -1, Parent: j.Parent,
		MapsMs: j.MapsMs, ReducesMs: j.ReducesMs, Where: at}
	if j.DeadlineMs != nil {
		if *j.DeadlineMs < 0 || *j.DeadlineMs > maxMs {
			return trace.Job{}, bad("deadline_ms", "%d is out of range [0, %d]", *j.DeadlineMs, int64(maxMs))
		}
		if j.Parent == "" && *j.DeadlineMs < *j.SubmitMs {
			return trace.Job{}, bad("deadline_ms", "%d is before submit_ms %d", *j.DeadlineMs, *j.SubmitMs)
		}
		tj.DeadlineMs = *j.DeadlineMs
	}
	for k, list := range [2][]int64{j.MapsMs, j.ReducesMs} {
		for i, d := range list {
			if d < 0 || d > maxMs {
				return trace.Job{}, bad(fmt.Sprintf("%s[%d]", [2]string{"maps_ms", "reduces_ms"}[k], i), "%d is out of range [0, %d]", d, int64(maxMs))
			}
		}
	}
	return tj, nil
}

// Write writes tr as a job file: the cluster line when the trace states a
// node count or names, then one line per job. Read(Write(tr)) gives tr's
// jobs back exactly (Where aside).
func Write(w io.Writer, tr *trace.Trace) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if n := max(tr.NodeCount, len(tr.Hosts)); n > 0 {
		c := Cluster{Nodes: n, MapSlots: tr.MapSlots, ReduceSlots: tr.ReduceSlots}
		if len(tr.Hosts) == n {
			c.NodeNames = tr.Hosts
		}
		if err := enc.Encode(clusterLine{&c}); err != nil {
			return err
		}
	}
	for i := range tr.Jobs {
		tj := &tr.Jobs[i]
		submit := tj.SubmitMs
		j := Job{ID: tj.ID, SubmitMs: &submit, User: tj.User, Pool: tj.Pool, Weight: tj.Weight, Parent: tj.Parent,
			MapsMs: tj.MapsMs, ReducesMs: tj.ReducesMs}
		if j.MapsMs == nil {
			j.MapsMs = []int64{}
		}
		if tj.DeadlineMs >= 0 {
			d := tj.DeadlineMs
			j.DeadlineMs = &d
		}
		if err := enc.Encode(&j); err != nil {
			return err
		}
	}
	return bw.Flush()
}
