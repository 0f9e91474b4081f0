package tummscenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/strictjson"
)

// Kind is the value of "kind" in a TuMM scenario file.
const Kind = "tumm"

// SchemaVersion is the schema version this package writes. It reads 1 (a
// static and/or heterogeneous part) and 2 (which adds the optional batch
// part); a batch in a version-1 file is an error.
const SchemaVersion = 2

// Scenario is a TuMM scenario; at least one of Static and Heterogeneous is set.
type Scenario struct {
	Kind          string         `json:"kind"`
	SchemaVersion int            `json:"schema_version"`
	Name          string         `json:"name,omitempty"`
	Source        string         `json:"source,omitempty"`
	Static        *Static        `json:"static,omitempty"`
	Heterogeneous *Heterogeneous `json:"heterogeneous,omitempty"`
	// Batch is a workload for the simulator (schema_version 2).
	Batch *Batch `json:"batch,omitempty"`
}

// Static is a FIFO batch on a homogeneous cluster with Slots slots in total.
type Static struct {
	// Slots is S ≥ 1 (S ≥ 2 when any job has reduce work).
	Slots int `json:"slots"`
	// Jobs in FIFO order; at least one.
	Jobs []Job `json:"jobs"`
}

// Job has MapTasks tasks of mean time MapTime and ReduceTasks of ReduceTime.
type Job struct {
	Name        string  `json:"name"`
	MapTasks    int     `json:"map_tasks"`
	ReduceTasks int     `json:"reduce_tasks"`
	MapTime     float64 `json:"map_time"`
	ReduceTime  float64 `json:"reduce_time"`
}

// Heterogeneous is the H_TuMM slot problem: MapTasks (n'_m) and ReduceTasks
// (n'_r) remaining, spread over Nodes.
type Heterogeneous struct {
	MapTasks    int    `json:"map_tasks"`
	ReduceTasks int    `json:"reduce_tasks"`
	Nodes       []Node `json:"nodes"`
	// Objective is "published" (eq 8, the map phase's finish; default) or
	// "stage" (the later of the map and reduce finishes).
	Objective string `json:"objective,omitempty"`
	// Align, when true (default), adds the alignment constraints 12–17.
	Align *bool `json:"align,omitempty"`
}

// Node is one machine: S^i slots, mean map and reduce task times on it.
type Node struct {
	Name       string  `json:"name"`
	Slots      int     `json:"slots"`
	MapTime    float64 `json:"map_time"`
	ReduceTime float64 `json:"reduce_time"`
}

func perr(path, format string, a ...any) error {
	return &badinput.PathError{Kind: Kind, Path: path, Problem: fmt.Sprintf(format, a...)}
}

// Parse decodes and validates a scenario; file names it in errors, which
// name the JSON path or the line and column and wrap badinput.Err.
func Parse(file string, data []byte) (*Scenario, error) {
	if err := strictjson.Check(file, data); err != nil {
		return nil, err
	}
	s, err := parse(data)
	return s, badinput.InFile(file, err)
}

func parse(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			off := min(int(syn.Offset), len(data))
			line := bytes.Count(data[:off], []byte("\n")) + 1
			col := off - bytes.LastIndexByte(data[:off], '\n')
			return nil, perr(fmt.Sprintf("line %d, column %d", line, col), "%v", syn)
		case errors.As(err, &typ):
			return nil, perr("$."+strictjson.TypePath(data, typ), "expected %v, found %s", typ.Type, typ.Value)
		}
		return nil, perr("", "%v", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkSize(); err != nil {
		return nil, err
	}
	return &s, nil
}

func time(path string, x float64) error {
	if !(x > 0) || math.IsInf(x, 0) {
		return perr(path, "task time %v is not a positive number", x)
	}
	return nil
}

func name(path, n string, seen map[string]bool) error {
	switch {
	case n == "":
		return perr(path, "empty")
	case strings.ContainsAny(n, " \t\r\n"):
		return perr(path, "%q contains white space", n)
	case seen[n]:
		return perr(path, "duplicate %q", n)
	}
	seen[n] = true
	return nil
}

// Validate checks the scenario and names the JSON path of the first problem.
func (s *Scenario) Validate() error {
	if s.Kind != Kind {
		return perr("$.kind", "must be %q, found %q", Kind, s.Kind)
	}
	if s.SchemaVersion != 1 && s.SchemaVersion != SchemaVersion {
		return perr("$.schema_version", "must be 1 or %d, found %d", SchemaVersion, s.SchemaVersion)
	}
	if s.Static == nil && s.Heterogeneous == nil && s.Batch == nil {
		return perr("$", "none of static, heterogeneous and batch is given")
	}
	if b := s.Batch; b != nil {
		if s.SchemaVersion < 2 {
			return perr("$.batch", "needs schema_version 2, found %d", s.SchemaVersion)
		}
		if err := b.validate("$.batch"); err != nil {
			return err
		}
	}
	if st := s.Static; st != nil {
		if st.Slots < 1 {
			return perr("$.static.slots", "slot count %d is below 1", st.Slots)
		}
		if len(st.Jobs) == 0 {
			return perr("$.static.jobs", "empty job batch")
		}
		seen := map[string]bool{}
		reduce := false
		for i, j := range st.Jobs {
			p := fmt.Sprintf("$.static.jobs[%d]", i)
			if err := name(p+".name", j.Name, seen); err != nil {
				return err
			}
			if j.MapTasks < 0 {
				return perr(p+".map_tasks", "negative task count %d", j.MapTasks)
			}
			if j.ReduceTasks < 0 {
				return perr(p+".reduce_tasks", "negative task count %d", j.ReduceTasks)
			}
			if err := time(p+".map_time", j.MapTime); err != nil {
				return err
			}
			if err := time(p+".reduce_time", j.ReduceTime); err != nil {
				return err
			}
			reduce = reduce || j.ReduceTasks > 0
		}
		if reduce && st.Slots < 2 {
			return perr("$.static.slots", "one slot cannot hold both a map and a reduce slot")
		}
	}
	if h := s.Heterogeneous; h != nil {
		if h.MapTasks < 0 {
			return perr("$.heterogeneous.map_tasks", "negative task count %d", h.MapTasks)
		}
		if h.ReduceTasks < 0 {
			return perr("$.heterogeneous.reduce_tasks", "negative task count %d", h.ReduceTasks)
		}
		if h.Objective != "" && h.Objective != "published" && h.Objective != "stage" {
			return perr("$.heterogeneous.objective", "unknown objective %q (published or stage)", h.Objective)
		}
		if len(h.Nodes) == 0 {
			return perr("$.heterogeneous.nodes", "no nodes")
		}
		seen := map[string]bool{}
		for i, n := range h.Nodes {
			p := fmt.Sprintf("$.heterogeneous.nodes[%d]", i)
			if err := name(p+".name", n.Name, seen); err != nil {
				return err
			}
			if n.Slots < 1 {
				return perr(p+".slots", "slot count %d is below 1", n.Slots)
			}
			if err := time(p+".map_time", n.MapTime); err != nil {
				return err
			}
			if err := time(p+".reduce_time", n.ReduceTime); err != nil {
				return err
			}
		}
	}
	return nil
}

// AlignOn reports whether the alignment constraints apply (default true).
func (h *Heterogeneous) AlignOn() bool { return h.Align == nil || *h.Align }
