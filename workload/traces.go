package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/jobfile"
	"github.com/mrbound/mrbound/workload/rumen"
	"github.com/mrbound/mrbound/workload/sls"
	"github.com/mrbound/mrbound/workload/trace"
)

// Format is an input file's kind, detected from its content (and the .tsv
// extension for SWIM). The zero value is unknown.
type Format uint8

// Input formats.
const (
	FormatUnknown  Format = iota
	FormatSWIM            // SWIM .tsv
	FormatScenario        // JSON scenario with "kind"
	FormatJobFile         // the plain job file (JSON Lines)
	FormatSLS             // SLS JSON job trace
	FormatRumen           // Rumen job trace
	FormatSynth           // SLS synthetic-workload description
	FormatNodes           // SLS nodes file (a cluster, no jobs)
)

var formatNames = [...]string{"unknown", "swim", "scenario", "jobfile", "sls", "rumen", "sls-synth", "sls-nodes"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "unknown"
}

// IsTrace reports whether f is a job history read through workload/trace,
// whose cluster the trace flags (--nodes, --map-slots, --reduce-slots,
// --nodes-file) override.
func (f Format) IsTrace() bool {
	return f == FormatJobFile || f == FormatSLS || f == FormatRumen || f == FormatSynth
}

// Detect tells a file's format from its path and content: .tsv is SWIM;
// otherwise the first JSON object decides ("kind": a scenario; a one-line
// object with "cluster", or "id" and "maps_ms": a job file; "job.tasks" or
// "job.start.ms": SLS; "jobID" and "mapTasks": Rumen; "workloads" and
// "num_jobs": a synthetic workload; "rack" and "nodes": a nodes file).
func Detect(path string, data []byte) Format {
	if IsSWIM(path) {
		return FormatSWIM
	}
	if jobfile.Sniff(data) {
		return FormatJobFile
	}
	var first map[string]json.RawMessage
	if json.NewDecoder(bytes.NewReader(data)).Decode(&first) != nil {
		return FormatUnknown
	}
	_, kind := first["kind"]
	switch {
	case kind:
		return FormatScenario
	case sls.LooksLikeJobs(first):
		return FormatSLS
	case rumen.LooksLikeRumen(first):
		return FormatRumen
	case sls.LooksLikeSynth(first):
		return FormatSynth
	case sls.LooksLikeNodes(first):
		return FormatNodes
	}
	return FormatUnknown
}

// Loaded is an input read in full: the workload, and for a trace its common
// form and, when it recorded one, the real cluster's schedule.
type Loaded struct {
	Workload *sim.Workload
	Format   Format
	Trace    *trace.Trace    // nil for SWIM traces and scenarios
	Recorded *trace.Recorded // nil without a record
}

// LoadAll reads path as Load does and keeps the trace and its record.
func LoadAll(path string, o Options) (*Loaded, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badinput.Errorf("%s: %v", path, err)
	}
	return ParseAll(path, data, o)
}

// ParseAll is LoadAll on a file's contents.
func ParseAll(path string, data []byte, o Options) (*Loaded, error) {
	f := Detect(path, data)
	if !f.IsTrace() {
		if o.Cluster.Nodes != 0 || o.Cluster.MapSlots != 0 || o.Cluster.ReduceSlots != 0 || o.NodesFile != "" {
			return nil, badinput.Errorf("%s: a %s input: the trace cluster options (--nodes-file, and --nodes/--map-slots/--reduce-slots outside SWIM) do not apply", path, f)
		}
		w, err := Parse(path, data, o)
		if err != nil {
			return nil, err
		}
		return &Loaded{Workload: w, Format: f}, nil
	}
	tr, err := ReadTrace(path, data, f, o)
	if err != nil {
		return nil, err
	}
	cs := o.Cluster
	if o.NodesFile != "" {
		nd, err := os.ReadFile(o.NodesFile)
		if err != nil {
			return nil, badinput.Errorf("--nodes-file: %v", err)
		}
		nodes, err := sls.ReadNodes(nd, o.NodesFile)
		if err != nil {
			return nil, err
		}
		cs.NodeNames = nodes.Names
	}
	w, rec, err := trace.Build(tr, cs)
	if err != nil {
		return nil, err
	}
	return &Loaded{Workload: w, Format: f, Trace: tr, Recorded: rec}, nil
}

// ReadTrace reads a trace-format file (f.IsTrace()) into the common form.
func ReadTrace(path string, data []byte, f Format, o Options) (*trace.Trace, error) {
	switch f {
	case FormatJobFile:
		return jobfile.Read(bytes.NewReader(data), path)
	case FormatSLS:
		return sls.ReadJobs(data, path)
	case FormatRumen:
		return rumen.Read(data, path)
	case FormatSynth:
		s, err := sls.ReadSynth(data, path)
		if err != nil {
			return nil, err
		}
		return s.Generate(path, s.Seed()), nil
	}
	return nil, badinput.Errorf("%s: a %s file is not a job trace", path, f)
}

// FromWorkload writes a simulator workload in the common form, for
// converting SWIM traces and scenarios. What the form cannot hold is an
// error naming the place: per-node durations (ByGroup) and node speeds
// other than 1. A cluster whose nodes differ in slots keeps only its node
// count, with a note; block replicas and estimates are dropped (noted).
// file names the input in errors.
func FromWorkload(file string, w *sim.Workload) (*trace.Trace, error) {
	tr := &trace.Trace{Name: file, NodeCount: len(w.Cluster.Nodes)}
	if w.Cluster.Fungible {
		return nil, badinput.Errorf("%s: fungible slots (TuMM) cannot be written as map and reduce slots", file)
	}
	same := true
	for i, n := range w.Cluster.Nodes {
		if n.Speed != 0 && n.Speed != 1 {
			return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("cluster.nodes[%d].speed", i), Problem: fmt.Sprintf("%v: the job file's durations are at speed 1 on every node", n.Speed)}
		}
		same = same && n.MapSlots == w.Cluster.Nodes[0].MapSlots && n.ReduceSlots == w.Cluster.Nodes[0].ReduceSlots
	}
	if same && len(w.Cluster.Nodes) > 0 {
		tr.MapSlots, tr.ReduceSlots = w.Cluster.Nodes[0].MapSlots, w.Cluster.Nodes[0].ReduceSlots
	} else {
		tr.Notes = append(tr.Notes, "the nodes differ in slots: only the node count is written")
	}
	lost := w.Cluster.NonLocalPenalty > 0 || w.Cluster.BlockBytes > 0
	for j := range w.Jobs {
		sj := &w.Jobs[j]
		tj := trace.Job{ID: sj.Name, SubmitMs: int64(sj.Arrival), DeadlineMs: -1, MapsMs: []int64{}}
		if tj.ID == "" {
			tj.ID = fmt.Sprintf("job_%d", j+1)
		}
		if sj.Deadline != sim.NoDeadline {
			tj.DeadlineMs = int64(sj.Deadline)
		}
		if sj.Parent >= 0 {
			tj.Parent = w.Jobs[sj.Parent].Name
		}
		if len(w.Users) > 0 {
			u := w.Users[sj.User]
			tj.Pool, tj.Weight = u.Name, u.Weight
			lost = lost || u.MinShare > 0
		}
		for k, list := range [2][]sim.TaskSpec{sj.Maps, sj.Reduces} {
			for i, t := range list {
				if len(t.ByGroup()) > 0 {
					return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("jobs[%d].%s[%d]", j, [2]string{"maps", "reduces"}[k], i),
						Problem: "per-node durations cannot be written as one duration"}
				}
				lost = lost || (t.Estimate() != 0 && t.Estimate() != t.Work) || len(t.Replicas()) > 0 || t.RAM() > 0 || t.Disk() > 0
				if k == 0 {
					tj.MapsMs = append(tj.MapsMs, int64(t.Work))
				} else {
					tj.ReducesMs = append(tj.ReducesMs, int64(t.Work))
				}
			}
		}
		tr.Jobs = append(tr.Jobs, tj)
	}
	if lost {
		tr.Notes = append(tr.Notes, "estimates, blocks and replicas (and the non-local penalty), RAM/disk demands and min shares are not written")
	}
	return tr, nil
}
