package mrcpscenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances"
	"github.com/mrbound/mrbound/internal/strictjson"
)

// Kind is the value of "kind" in an MRCP scenario.
const Kind = "mrcp"

// SchemaVersion is the scenario format version this package reads and writes.
const SchemaVersion = 1

// TaskKind says whether a task is a map or a reduce (shared by the formats).
type TaskKind = instances.TaskKind

// The task kinds.
const (
	KindUnknown = instances.KindUnknown
	Map         = instances.Map
	Reduce      = instances.Reduce
)

// Task is one map or reduce task.
type Task struct {
	// Duration is e_t, a positive number of time units.
	Duration int `json:"duration"`
	// Demand is q_t, the number of slots the task occupies (≥ 1).
	Demand int `json:"demand"`
}

// Job is one MapReduce job.
type Job struct {
	Name string `json:"name"`
	// Release is s_j (≥ 0): no map starts before it.
	Release int `json:"release"`
	// Deadline is d_j (≥ Release): the job is late when it completes after it.
	Deadline int `json:"deadline"`
	// Maps and Reduces are non-empty.
	Maps    []Task `json:"maps"`
	Reduces []Task `json:"reduces"`
}

// Resource is one node (a Hadoop TaskTracker).
type Resource struct {
	Name string `json:"name"`
	// MapSlots and ReduceSlots are c^mp_r and c^rd_r (≥ 0).
	MapSlots    int `json:"map_slots"`
	ReduceSlots int `json:"reduce_slots"`
}

// Slots returns the capacity of r for tasks of kind k.
func (r Resource) Slots(k TaskKind) int {
	if k == Map {
		return r.MapSlots
	}
	return r.ReduceSlots
}

// Instance is a validated MRCP scenario.
type Instance struct {
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schema_version"`
	Name          string `json:"name,omitempty"`
	// TimeUnitSeconds is how many seconds one time unit is (0 when not
	// given, read as 1): the formulation works in time units, the simulator
	// (workload.FromMRCP) multiplies every time by it.
	TimeUnitSeconds float64    `json:"time_unit_seconds,omitempty"`
	Resources       []Resource `json:"resources"`
	Jobs            []Job      `json:"jobs"`
}

// TaskRef names a task: job index, kind and index within that kind.
type TaskRef struct {
	Job   int
	Kind  TaskKind
	Index int
}

// String formats the task as j<job>.m<i> or j<job>.r<i>.
func (t TaskRef) String() string {
	k := "m"
	if t.Kind == Reduce {
		k = "r"
	}
	return fmt.Sprintf("j%d.%s%d", t.Job, k, t.Index)
}

// Tasks lists every task, job by job, maps before reduces.
func (in *Instance) Tasks() []TaskRef {
	var out []TaskRef
	for j, job := range in.Jobs {
		for i := range job.Maps {
			out = append(out, TaskRef{j, Map, i})
		}
		for i := range job.Reduces {
			out = append(out, TaskRef{j, Reduce, i})
		}
	}
	return out
}

// Task returns the task t refers to.
func (in *Instance) Task(t TaskRef) Task {
	if t.Kind == Map {
		return in.Jobs[t.Job].Maps[t.Index]
	}
	return in.Jobs[t.Job].Reduces[t.Index]
}

// Load reads and validates the scenario in file.
func Load(file string) (*Instance, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Parse decodes and validates a scenario; file only names it in errors.
func Parse(file string, data []byte) (*Instance, error) {
	if err := strictjson.Check(file, data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, &badinput.PathError{File: file, Problem: "not valid JSON: " + jsonErr(data, err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &badinput.PathError{File: file, Problem: "not valid JSON: data after the top-level object"}
	}
	p := parser{file: file}
	in := p.instance(raw)
	if p.err != nil {
		return nil, p.err
	}
	return in, nil
}

// jsonErr adds a line number to a syntax error.
func jsonErr(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("line %d: %v", line, err)
	}
	return err.Error()
}

// parser walks the decoded JSON, keeping the first error with its path.
type parser struct {
	file string
	err  error
}

func (p *parser) fail(path, format string, a ...any) {
	if p.err == nil {
		p.err = &badinput.PathError{File: p.file, Path: path, Problem: fmt.Sprintf(format, a...)}
	}
}

func (p *parser) object(path string, v any, known ...string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		p.fail(path, "must be an object")
		return nil
	}
	for k := range m {
		found := false
		for _, n := range known {
			found = found || n == k
		}
		if !found {
			p.fail(join(path, k), "unknown field (expected one of %s)", strings.Join(known, ", "))
		}
	}
	return m
}

func join(path, key string) string {
	if !plainKey(key) {
		// a key with a newline, a quote or a path character, or an empty
		// one, is quoted so that the message stays one line and the path
		// stays readable
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// plainKey reports whether key can stand in a dotted path as it is.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '.' || r == '[' || r == ']' || r == '"' || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// integer reads m[key] as an integer ≥ lo; def is used when absent and
// required is false.
func (p *parser) integer(m map[string]any, path, key string, lo int, required bool, def int, what string) int {
	v, ok := m[key]
	if !ok {
		if required {
			p.fail(join(path, key), "missing (%s)", what)
		}
		return def
	}
	n, isNum := v.(json.Number)
	if !isNum {
		p.fail(join(path, key), "must be %s", what)
		return def
	}
	i, err := n.Int64()
	if err != nil || i < int64(lo) || i > math.MaxInt32 {
		p.fail(join(path, key), "must be %s", what)
		return def
	}
	return int(i)
}

func (p *parser) str(m map[string]any, path, key string) string {
	v, ok := m[key]
	if !ok {
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		p.fail(join(path, key), "must be a string")
	}
	return s
}

func (p *parser) array(m map[string]any, path, key string) []any {
	v, ok := m[key]
	if !ok {
		p.fail(join(path, key), "missing (a non-empty array)")
		return nil
	}
	a, isArr := v.([]any)
	if !isArr || len(a) == 0 {
		p.fail(join(path, key), "must be a non-empty array")
		return nil
	}
	return a
}

const (
	posInt = "a positive integer"
	nonNeg = "a non-negative integer"
)

func (p *parser) instance(raw any) *Instance {
	top := p.object("", raw, "kind", "schema_version", "name", "time_unit_seconds", "resources", "jobs")
	if top == nil {
		return nil
	}
	in := &Instance{Kind: Kind}
	if k, ok := top["kind"]; !ok || k != Kind {
		p.fail("kind", "must be %q", Kind)
	}
	in.SchemaVersion = p.integer(top, "", "schema_version", 1, true, 0, "the integer 1")
	if p.err == nil && in.SchemaVersion != SchemaVersion {
		p.fail("schema_version", "unsupported version %d (this build reads %d)", in.SchemaVersion, SchemaVersion)
	}
	in.Name = p.str(top, "", "name")
	if v, ok := top["time_unit_seconds"]; ok {
		n, isNum := v.(json.Number)
		f, err := n.Float64()
		if !isNum || err != nil || !(f > 0) || math.IsInf(f, 0) {
			p.fail("time_unit_seconds", "must be a positive number")
		}
		in.TimeUnitSeconds = f
	}
	names := map[string]string{}
	for i, rv := range p.array(top, "", "resources") {
		path := fmt.Sprintf("resources[%d]", i)
		m := p.object(path, rv, "name", "map_slots", "reduce_slots")
		if m == nil {
			break
		}
		r := Resource{
			Name:        p.str(m, path, "name"),
			MapSlots:    p.integer(m, path, "map_slots", 0, true, 0, nonNeg),
			ReduceSlots: p.integer(m, path, "reduce_slots", 0, true, 0, nonNeg),
		}
		if r.Name == "" {
			r.Name = fmt.Sprintf("r%d", i)
		}
		if prev, dup := names[r.Name]; dup {
			p.fail(join(path, "name"), "%q already names %s", r.Name, prev)
		}
		names[r.Name] = path
		in.Resources = append(in.Resources, r)
	}
	if p.err == nil {
		if err := CheckSlots("resources", in.Resources); err != nil {
			p.err = badinput.InFile(p.file, err)
			return nil
		}
	}
	maxSlots := [3]int{}
	for _, r := range in.Resources {
		maxSlots[Map] = max(maxSlots[Map], r.MapSlots)
		maxSlots[Reduce] = max(maxSlots[Reduce], r.ReduceSlots)
	}
	clear(names)
	for j, jv := range p.array(top, "", "jobs") {
		path := fmt.Sprintf("jobs[%d]", j)
		m := p.object(path, jv, "name", "release", "deadline", "maps", "reduces")
		if m == nil {
			break
		}
		job := Job{
			Name:     p.str(m, path, "name"),
			Release:  p.integer(m, path, "release", 0, true, 0, nonNeg),
			Deadline: p.integer(m, path, "deadline", 0, true, 0, nonNeg),
		}
		if job.Name == "" {
			job.Name = fmt.Sprintf("j%d", j)
		}
		if prev, dup := names[job.Name]; dup {
			p.fail(join(path, "name"), "%q already names %s", job.Name, prev)
		}
		names[job.Name] = path
		if p.err == nil && job.Deadline < job.Release {
			p.fail(join(path, "deadline"), "%d is before the release %d", job.Deadline, job.Release)
		}
		job.Maps = p.tasks(m, path, "maps", maxSlots[Map])
		job.Reduces = p.tasks(m, path, "reduces", maxSlots[Reduce])
		in.Jobs = append(in.Jobs, job)
	}
	return in
}

func (p *parser) tasks(m map[string]any, path, key string, maxSlots int) []Task {
	var out []Task
	for i, tv := range p.array(m, path, key) {
		tp := fmt.Sprintf("%s.%s[%d]", path, key, i)
		tm := p.object(tp, tv, "duration", "demand")
		if tm == nil {
			break
		}
		t := Task{
			Duration: p.integer(tm, tp, "duration", 1, true, 1, posInt),
			Demand:   p.integer(tm, tp, "demand", 1, false, 1, posInt),
		}
		if p.err == nil && t.Demand > maxSlots {
			kind := strings.TrimSuffix(key, "s")
			p.fail(join(tp, "demand"), "%d exceeds the %s slots of every resource (at most %d)", t.Demand, kind, maxSlots)
		}
		out = append(out, t)
	}
	return out
}

// Write encodes the instance as JSON, one resource and one task per line.
func (in *Instance) Write(w io.Writer) error {
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "{\n  \"kind\": %q,\n  \"schema_version\": %d,\n", Kind, SchemaVersion)
	if in.Name != "" {
		fmt.Fprintf(&sb, "  \"name\": %s,\n", q(in.Name))
	}
	if in.TimeUnitSeconds != 0 {
		fmt.Fprintf(&sb, "  \"time_unit_seconds\": %s,\n", strconv.FormatFloat(in.TimeUnitSeconds, 'g', -1, 64))
	}
	sb.WriteString("  \"resources\": [\n")
	for i, r := range in.Resources {
		fmt.Fprintf(&sb, "    {\"name\": %s, \"map_slots\": %d, \"reduce_slots\": %d}%s\n", q(r.Name), r.MapSlots, r.ReduceSlots, comma(i, len(in.Resources)))
	}
	sb.WriteString("  ],\n  \"jobs\": [\n")
	tasks := func(key string, ts []Task, last bool) {
		fmt.Fprintf(&sb, "      %q: [\n", key)
		for i, t := range ts {
			fmt.Fprintf(&sb, "        {\"duration\": %d, \"demand\": %d}%s\n", t.Duration, t.Demand, comma(i, len(ts)))
		}
		sb.WriteString("      ]")
		if !last {
			sb.WriteString(",")
		}
		sb.WriteString("\n")
	}
	for j, job := range in.Jobs {
		fmt.Fprintf(&sb, "    {\n      \"name\": %s, \"release\": %d, \"deadline\": %d,\n", q(job.Name), job.Release, job.Deadline)
		tasks("maps", job.Maps, false)
		tasks("reduces", job.Reduces, true)
		fmt.Fprintf(&sb, "    }%s\n", comma(j, len(in.Jobs)))
	}
	sb.WriteString("  ]\n}\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

func comma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}
