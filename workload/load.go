package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/internal/strictjson"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/coshhsim"
	"github.com/mrbound/mrbound/workload/simclock"
	"github.com/mrbound/mrbound/workload/swim"
	"github.com/mrbound/mrbound/workload/trace"
)

// Options shape the workloads of sources that do not carry everything.
type Options struct {
	// SWIM: the bytes→tasks model and the cluster.
	SWIM        swim.Model
	SWIMCluster swim.ClusterSpec
	// Traces (job file, SLS, Rumen, synthetic): the cluster overrides, and
	// an SLS nodes file giving the nodes (docs/traces.md).
	Cluster   trace.ClusterSpec
	NodesFile string
}

// DefaultOptions are the documented defaults.
func DefaultOptions() Options {
	return Options{SWIM: swim.DefaultModel(), SWIMCluster: swim.DefaultCluster()}
}

// IsSWIM reports whether path is read as a SWIM trace (.tsv).
func IsSWIM(path string) bool { return strings.EqualFold(filepath.Ext(path), ".tsv") }

// Load reads path: a SWIM trace (.tsv) or a JSON scenario by its kind.
func Load(path string, o Options) (*sim.Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badinput.Errorf("%s: %v", path, err)
	}
	return Parse(path, data, o)
}

// Parse builds the workload of a file's contents; path names it in errors
// and its extension says whether it is a SWIM trace (.tsv); other formats
// are told by their content (Detect).
func Parse(path string, data []byte, o Options) (*sim.Workload, error) {
	if f := Detect(path, data); f.IsTrace() {
		l, err := ParseAll(path, data, o)
		if err != nil {
			return nil, err
		}
		return l.Workload, nil
	} else if f == FormatNodes {
		return nil, badinput.Errorf("%s: an SLS nodes file describes a cluster, not jobs: give it with --nodes-file beside a trace", path)
	}
	if IsSWIM(path) {
		recs, err := swim.Read(bytes.NewReader(data), path)
		if err != nil {
			return nil, err
		}
		return o.SWIM.Workload(recs, o.SWIMCluster, path)
	}
	if err := strictjson.Check(path, data); err != nil {
		return nil, strictjson.Explain(err, "not a SWIM trace (.tsv), a JSON scenario, a job file, an SLS or a Rumen trace")
	}
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, badinput.Errorf("%s: not a SWIM trace (.tsv), a JSON scenario, a job file, an SLS or a Rumen trace: %v", path, err)
	}
	switch head.Kind {
	case "mrcp":
		in, err := mrcpscenario.Parse(path, data)
		if err != nil {
			return nil, err
		}
		return FromMRCP(path, in)
	case "coshh":
		sc, err := coshhscenario.Parse(path, data)
		if err != nil {
			return nil, err
		}
		return FromCOSHH(path, sc)
	case "jlassi":
		in, err := jlassiscenario.Parse(path, data)
		if err != nil {
			return nil, err
		}
		return FromJlassi(path, in)
	case tummscenario.Kind:
		sc, err := tummscenario.Parse(path, data)
		if err != nil {
			return nil, err
		}
		return FromTuMM(path, sc)
	case "":
		return nil, &badinput.PathError{File: path, Path: "kind", Problem: "missing (one of mrcp, coshh, jlassi, tumm; or a trace: .tsv SWIM, a job file, SLS or Rumen JSON)"}
	}
	return nil, &badinput.PathError{File: path, Path: "kind", Problem: fmt.Sprintf("%q cannot be simulated (mrcp, coshh, jlassi, tumm, or a .tsv SWIM trace)", head.Kind)}
}

// FromMRCP converts an MRCP stream (see the package doc).
func FromMRCP(file string, in *mrcpscenario.Instance) (*sim.Workload, error) {
	unit := in.TimeUnitSeconds
	if unit == 0 {
		unit = 1
	}
	clk := simclock.Clock{File: file}
	at := func(path string, v int) sim.Time { return clk.At(path, float64(v)*unit) }
	w := &sim.Workload{Name: in.Name}
	for _, r := range in.Resources {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{Name: r.Name, MapSlots: r.MapSlots, ReduceSlots: r.ReduceSlots, Speed: 1})
	}
	for j, job := range in.Jobs {
		p := fmt.Sprintf("jobs[%d]", j)
		sj := sim.Job{Name: job.Name, Arrival: at(p+".release", job.Release), Deadline: at(p+".deadline", job.Deadline), Parent: -1}
		for k, list := range [2][]mrcpscenario.Task{job.Maps, job.Reduces} {
			for i, t := range list {
				if t.Demand > 1 {
					return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("jobs[%d].%s[%d].demand", j, [2]string{"maps", "reduces"}[k], i),
						Problem: fmt.Sprintf("%d slots: the simulator runs one task per slot", t.Demand)}
				}
				d := at(fmt.Sprintf("%s.%s[%d].duration", p, [2]string{"maps", "reduces"}[k], i), t.Duration)
				spec := sim.TaskSpec{Work: d}
				spec.SetEstimate(d)
				if k == 0 {
					sj.Maps = append(sj.Maps, spec)
				} else {
					sj.Reduces = append(sj.Reduces, spec)
				}
			}
		}
		w.Jobs = append(w.Jobs, sj)
	}
	if err := clk.Err(); err != nil {
		return nil, err
	}
	return w, validate(file, w)
}

// FromCOSHH converts a COSHH job stream (see the package doc).
func FromCOSHH(file string, sc *coshhscenario.Scenario) (*sim.Workload, error) {
	if sc.HasTasks() {
		return coshhsim.Workload(file, sc) // a task-level stream (generate coshh --tasks)
	}
	if len(sc.Jobs) == 0 {
		return nil, &badinput.PathError{File: file, Path: "jobs", Problem: "a scenario of classes has no job stream to simulate"}
	}
	w := &sim.Workload{Name: sc.Name}
	for i, r := range sc.Resources {
		if r.Slots <= 0 {
			return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("resources[%d].slots", i), Problem: "the simulator needs a slot count"}
		}
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{Name: r.Name, MapSlots: r.Slots, Group: i, Speed: 1})
	}
	user := map[string]int{}
	for i, u := range sc.Users {
		user[u.Name] = i
		w.Users = append(w.Users, sim.User{Name: u.Name, MinShare: int(math.Round(u.MinShare)), Weight: u.Priority})
	}
	clk := simclock.Clock{File: file}
	for j, job := range sc.Jobs {
		spec := sim.TaskSpec{}
		var byGroup []sim.Time
		var estimate sim.Time
		for r, d := range job.ExecTime {
			byGroup = append(byGroup, clk.At(fmt.Sprintf("jobs[%d].exec_time[%d]", j, r), d))
			est := fmt.Sprintf("jobs[%d].est_time[%d]", j, r)
			if len(job.EstTime) == 0 {
				est = fmt.Sprintf("jobs[%d].exec_time[%d]", j, r)
			}
			estimate += clk.At(est, job.Estimate(r))
		}
		estimate /= sim.Time(len(job.ExecTime))
		spec.SetEstimate(estimate)
		spec.SetByGroup(byGroup)
		spec.Work = estimate
		u, ok := user[job.User]
		if !ok && len(sc.Users) > 0 {
			return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("jobs[%d].user", j), Problem: fmt.Sprintf("unknown user %q", job.User)}
		}
		w.Jobs = append(w.Jobs, sim.Job{Name: job.ID, User: u, Category: job.Category, Arrival: clk.At(fmt.Sprintf("jobs[%d].arrival", j), job.Arrival),
			Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{spec}})
	}
	if err := clk.Err(); err != nil {
		return nil, err
	}
	return w, validate(file, w)
}

func validate(file string, w *sim.Workload) error {
	if err := w.Validate(); err != nil {
		return badinput.Errorf("%s: %w", file, err)
	}
	return nil
}

// FromJlassi converts a Jlassi scenario (see the package doc).
func FromJlassi(file string, in *jlassiscenario.Instance) (*sim.Workload, error) {
	w := &sim.Workload{Name: in.Name}
	clk := simclock.Clock{File: file}
	rep := 1
	for _, b := range in.Blocks {
		rep = max(rep, len(b.Homes))
	}
	w.Cluster.Replicas = rep
	for j, m := range in.Machines {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{Name: m.ID, MapSlots: len(m.MapSlots), ReduceSlots: len(m.RedSlots),
			Group: j, Speed: 1, RAM: m.RAM, Disk: m.Disk})
	}
	for _, job := range in.Jobs {
		sj := sim.Job{Name: job.ID, Deadline: sim.NoDeadline, Parent: -1}
		for k, ids := range [2][]int{job.Maps, job.Reduces} {
			for _, ti := range ids {
				t := &in.Tasks[ti]
				spec := sim.TaskSpec{}
				spec.SetDemand(t.RAM, t.Disk)
				var byGroup []sim.Time
				for j, p := range t.P {
					if len(p) == 0 {
						return nil, &badinput.PathError{File: file, Path: t.Path + ".durations",
							Problem: fmt.Sprintf("no duration on machine %s: the simulator needs every task runnable on every node", in.Machines[j].ID)}
					}
					mean := 0.0
					for _, d := range p {
						mean += d
					}
					byGroup = append(byGroup, clk.At(t.Path+".durations", mean/float64(len(p))))
				}
				spec.SetByGroup(byGroup)
				if k == 0 && len(t.Blocks) > 0 {
					spec.SetReplicas(slices.Clone(in.Blocks[t.Blocks[0]].Homes))
				}
				if k == 0 {
					sj.Maps = append(sj.Maps, spec)
				} else {
					sj.Reduces = append(sj.Reduces, spec)
				}
			}
		}
		w.Jobs = append(w.Jobs, sj)
	}
	if err := clk.Err(); err != nil {
		return nil, err
	}
	return w, validate(file, w)
}
