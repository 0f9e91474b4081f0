package swim

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/hugepage"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/sim"
)

// Record is one job line of a SWIM trace.
type Record struct {
	ID                     string
	Submit, Gap            float64 // s
	Input, Shuffle, Output int64   // bytes
	Line                   int
}

// Model turns bytes into tasks and durations; see the package doc.
type Model struct {
	BlockBytes         int64    // map input per map (64 MB)
	ReduceBytes        int64    // shuffle bytes per reduce (1 GB)
	MapRate            float64  // bytes/s a map processes (16 MB/s)
	ReduceRate         float64  // bytes/s a reduce processes (16 MB/s)
	TaskOverhead       sim.Time // added to every task (task start-up, 1 s)
	ReducesNeedShuffle bool     // a job without shuffle bytes is map-only
}

// ClusterSpec is the homogeneous cluster a trace runs on.
type ClusterSpec struct {
	Nodes, MapSlots, ReduceSlots int
	Replicas                     int      // 3
	NonLocalPenalty              sim.Time // blk/B: 64 MB at 1 Gbps ≈ 0.54 s
}

// DefaultModel are the documented defaults.
func DefaultModel() Model {
	return Model{BlockBytes: 64 << 20, ReduceBytes: 1 << 30, MapRate: 16 << 20, ReduceRate: 16 << 20, TaskOverhead: 1000}
}

// DefaultCluster is the FB-2009 cluster size (about 600 machines) with
// Hadoop 1's default 2 map and 2 reduce slots per TaskTracker.
func DefaultCluster() ClusterSpec {
	return ClusterSpec{Nodes: 600, MapSlots: 2, ReduceSlots: 2, Replicas: 3, NonLocalPenalty: 537}
}

const numFields = 6

var fieldNames = [numFields]string{"job id", "submit time", "gap", "map input bytes", "shuffle bytes", "reduce output bytes"}

// Read parses a SWIM trace; name is used in error messages (file:line).
func Read(r io.Reader, name string) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var out []Record
	lineOf := map[string]int{} // job id → its line
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != numFields {
			return nil, lineErr(name, line, "%d tab-separated fields, want %d (%s)", len(f), numFields, strings.Join(fieldNames[:], ", "))
		}
		rec := Record{ID: strings.TrimSpace(f[0]), Line: line}
		if rec.ID == "" {
			return nil, lineErr(name, line, "empty job id")
		}
		var err error
		if rec.Submit, err = seconds(f[1]); err != nil {
			return nil, lineErr(name, line, "field 2 (%s): %v", fieldNames[1], err)
		}
		if rec.Gap, err = seconds(f[2]); err != nil {
			return nil, lineErr(name, line, "field 3 (%s): %v", fieldNames[2], err)
		}
		for k, p := range []*int64{&rec.Input, &rec.Shuffle, &rec.Output} {
			if *p, err = bytes(f[3+k]); err != nil {
				return nil, lineErr(name, line, "field %d (%s): %v", 4+k, fieldNames[3+k], err)
			}
		}
		// A job id names one job, and SWIM lists jobs in submission order;
		// a repeated id or a time going back is a damaged or hand-merged
		// trace, refused rather than renamed or sorted (docs/reliability.md).
		if first, dup := lineOf[rec.ID]; dup {
			return nil, lineErr(name, line, "job id %q repeats line %d", rec.ID, first)
		}
		lineOf[rec.ID] = line
		if n := len(out); n > 0 && rec.Submit < out[n-1].Submit {
			return nil, lineErr(name, line, "field 2 (%s): %v s is before line %d's %v s; SWIM lists jobs in submission order", fieldNames[1], rec.Submit, out[n-1].Line, out[n-1].Submit)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, lineErr(name, line+1, "%v", err)
	}
	if len(out) == 0 {
		return nil, badinput.Errorf("%s: no job lines", name)
	}
	return out, nil
}

func lineErr(name string, line int, format string, a ...any) error {
	return &badinput.PathError{File: fmt.Sprintf("%s:%d", name, line), Problem: fmt.Sprintf(format, a...)}
}

// maxSeconds bounds times so that they fit int64 milliseconds with room.
const maxSeconds = 1e12

func seconds(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a number", s)
	case math.IsNaN(v) || math.IsInf(v, 0) || v > maxSeconds:
		return 0, fmt.Errorf("%q is out of range", s)
	case v < 0:
		return 0, fmt.Errorf("%v is negative", v)
	}
	return v, nil
}

// maxBytes bounds byte counts (an exabyte) so that task counts stay sane.
const maxBytes = 1 << 60

func bytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		fv, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || math.IsNaN(fv) || math.IsInf(fv, 0) || fv != math.Trunc(fv) || math.Abs(fv) > maxBytes {
			return 0, fmt.Errorf("%q is not a whole number of bytes", s)
		}
		v = int64(fv)
	}
	if v < 0 {
		return 0, fmt.Errorf("%d is negative", v)
	}
	if v > maxBytes {
		return 0, fmt.Errorf("%d is out of range", v)
	}
	return v, nil
}

// Load reads a trace file and builds its workload.
func Load(path string, m Model, c ClusterSpec) (*sim.Workload, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badinput.Errorf("%s: %v", path, err)
	}
	defer f.Close()
	recs, err := Read(f, path)
	if err != nil {
		return nil, err
	}
	return m.Workload(recs, c, path)
}

func (m Model) validate() error {
	switch {
	case m.BlockBytes <= 0:
		return badinput.Errorf("swim model: block size %d must be positive", m.BlockBytes)
	case m.ReduceBytes <= 0:
		return badinput.Errorf("swim model: bytes per reduce %d must be positive", m.ReduceBytes)
	case !(m.MapRate > 0) || !(m.ReduceRate > 0) || math.IsInf(m.MapRate, 0) || math.IsInf(m.ReduceRate, 0):
		return badinput.Errorf("swim model: rates must be positive and finite")
	case m.TaskOverhead < 0:
		return badinput.Errorf("swim model: negative task overhead")
	}
	return nil
}

func (c ClusterSpec) validate() error {
	switch {
	case c.Nodes <= 0:
		return badinput.Errorf("--nodes %d must be positive", c.Nodes)
	case c.MapSlots <= 0:
		return badinput.Errorf("--map-slots %d must be positive", c.MapSlots)
	case c.ReduceSlots < 0:
		return badinput.Errorf("--reduce-slots %d is negative", c.ReduceSlots)
	case c.Replicas < 0 || c.NonLocalPenalty < 0:
		return badinput.Errorf("negative replicas or penalty")
	}
	return nil
}

// Workload builds the simulator workload of the records; name labels it.
func (m Model) Workload(recs []Record, c ClusterSpec, name string) (*sim.Workload, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	if err := m.checkSize(recs, c, name); err != nil {
		return nil, err
	}
	w := &sim.Workload{Name: name}
	w.Cluster = sim.Cluster{BlockBytes: m.BlockBytes, Replicas: c.Replicas, NonLocalPenalty: c.NonLocalPenalty}
	w.Cluster.Nodes = make([]sim.Node, c.Nodes)
	for i := range w.Cluster.Nodes {
		w.Cluster.Nodes[i] = sim.Node{MapSlots: c.MapSlots, ReduceSlots: c.ReduceSlots, Speed: 1}
	}
	// Every task spec of the day lives in one array, each job's maps and
	// reduces a capped window of it: one allocation instead of two per
	// job, and one array large enough to be backed by huge pages (a day of
	// 16 M tasks is 265 MB of specs, written once, page after page).
	counts := make([][2]int64, len(recs))
	total := int64(0)
	for k, r := range recs {
		nMaps := max(int64(1), ceilDiv(r.Input, m.BlockBytes))
		nReds := int64(0)
		if r.Shuffle > 0 || (r.Output > 0 && !m.ReducesNeedShuffle) {
			nReds = max(1, ceilDiv(r.Shuffle, m.ReduceBytes))
		}
		if nReds > 0 && c.ReduceSlots == 0 {
			return nil, &badinput.PathError{File: fmt.Sprintf("%s:%d", name, r.Line), Problem: "job has reduces but --reduce-slots is 0"}
		}
		counts[k] = [2]int64{nMaps, nReds}
		total += nMaps + nReds
	}
	specs := make([]sim.TaskSpec, total)
	hugepage.Prefer(specs)
	w.Jobs = make([]sim.Job, 0, len(recs))
	for k, r := range recs {
		nMaps, nReds := counts[k][0], counts[k][1]
		job := sim.Job{Name: r.ID, Arrival: sim.FromSeconds(r.Submit), Deadline: sim.NoDeadline, Parent: -1}
		job.Maps, specs = specs[:nMaps:nMaps], specs[nMaps:]
		// A full block's duration is the same for every map but the last:
		// worked out once per job, from the same expression as the last's.
		dur := func(b int64) sim.Time {
			work := float64(b)
			if nReds == 0 {
				work += float64(r.Output) / float64(nMaps)
			}
			return m.TaskOverhead + sim.FromSeconds(work/m.MapRate)
		}
		if nMaps > 1 {
			full := sim.TaskSpec{Work: dur(m.BlockBytes)}
			for i := range job.Maps[:nMaps-1] {
				job.Maps[i] = full
			}
		}
		job.Maps[nMaps-1] = sim.TaskSpec{Work: dur(min(r.Input-(nMaps-1)*m.BlockBytes, m.BlockBytes))}
		if nReds > 0 {
			job.Reduces, specs = specs[:nReds:nReds], specs[nReds:]
			d := m.TaskOverhead + sim.FromSeconds(float64(r.Shuffle+r.Output)/float64(nReds)/m.ReduceRate)
			for i := range job.Reduces {
				job.Reduces[i] = sim.TaskSpec{Work: d}
			}
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w, nil
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// checkSize refuses, before anything is allocated, a cluster or a trace
// whose simulation would not fit the memory budget: the cluster's nodes and
// slots (the flags that set them), one line's tasks (its file:line: a few
// bytes of text can imply 10^9 maps), then the whole trace's. Each task
// also keeps one entry per replica of its block in the locality tables.
func (m Model) checkSize(recs []Record, c ClusterSpec, name string) error {
	nodes := float64(c.Nodes)
	if err := sizelimit.Check("--nodes", nodes, sizelimit.SimNode, "nodes"); err != nil {
		return err
	}
	slots := nodes * (float64(c.MapSlots) + float64(c.ReduceSlots))
	if err := sizelimit.Check("--map-slots, --reduce-slots", slots, sizelimit.SimSlot, "slots"); err != nil {
		return err
	}
	perTask := float64(sizelimit.SimTask) + float64(min(c.Replicas, c.Nodes))*sizelimit.SimReplica
	total := 0.0
	for _, r := range recs {
		n := float64(max(1, ceilDiv(r.Input, m.BlockBytes)))
		if r.Shuffle > 0 || r.Output > 0 {
			n += float64(max(1, ceilDiv(r.Shuffle, m.ReduceBytes)))
		}
		what := fmt.Sprintf("%s tasks (%d bytes at --block-mb %v)", strconv.FormatFloat(n, 'g', -1, 64), r.Input, float64(m.BlockBytes)/(1<<20))
		if err := sizelimit.CheckBytes(fmt.Sprintf("%s:%d", name, r.Line), n*perTask, what); err != nil {
			return err
		}
		total += n
	}
	return sizelimit.CheckBytes(name, total*perTask+nodes*sizelimit.SimNode, fmt.Sprintf("%.0f tasks on %d nodes", total, c.Nodes))
}
