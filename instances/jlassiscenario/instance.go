package jlassiscenario

import (
	"math"

	"github.com/mrbound/mrbound/instances"
)

// TaskKind says whether a task is a map or a reduce (shared by the formats).
type TaskKind = instances.TaskKind

// The task kinds.
const (
	KindUnknown = instances.KindUnknown
	Map         = instances.Map
	Reduce      = instances.Reduce
)

// Instance is a validated scenario with every reference resolved to an index.
// It is read-only once built by Compile or Load.
type Instance struct {
	// Source is the scenario it was compiled from.
	Source *Scenario
	// Name is the scenario's name or, failing that, the file name.
	Name string

	Machines []MachineInfo
	Tasks    []TaskInfo
	Jobs     []JobInfo
	Blocks   []BlockInfo
	// Shuffles lists every (reduce, map) pair with a positive b_{l,l'}.
	Shuffles []Shuffle
	Links    []LinkInfo
	// Bwd is the migration bandwidth.
	Bwd float64

	// paths[j][j2] lists the links on the tree path between machines j and j2.
	paths [][][]int
}

// MachineInfo is a machine with its slots split by kind.
type MachineInfo struct {
	ID                 string
	RAM, Disk          float64
	CostRAM, CostDisk  float64
	MapSlots, RedSlots []Slot
}

// Slots returns the machine's slots of kind k.
func (m *MachineInfo) Slots(k TaskKind) []Slot {
	if k == Map {
		return m.MapSlots
	}
	return m.RedSlots
}

// TaskInfo is a task with resolved references.
type TaskInfo struct {
	ID   string
	Job  int
	Kind TaskKind
	// Index within its job's maps or reduces.
	Index     int
	RAM, Disk float64
	// Blocks are block indices (maps only).
	Blocks []int
	// P[j][s] is the processing time on slot s (of the task's kind) of
	// machine j; P[j] is nil when the task cannot run on j.
	P [][]float64
	// Path is the task's JSON path, for messages.
	Path string
}

// JobInfo lists a job's task indices.
type JobInfo struct {
	ID            string
	Maps, Reduces []int
}

// BlockInfo is a block with its home machines.
type BlockInfo struct {
	ID    string
	Size  float64
	Homes []int
	home  map[int]bool
}

// IsHome reports whether machine j holds a replica of the block.
func (b *BlockInfo) IsHome(j int) bool { return b.home[j] }

// Shuffle is a positive b_{l,l'} between reduce task Reduce and map task Map.
type Shuffle struct {
	Reduce, Map int
	Bandwidth   float64
}

// LinkInfo is a network link.
type LinkInfo struct {
	A, B     string
	Capacity float64
}

// Name is "a-b".
func (l LinkInfo) Name() string { return l.A + "-" + l.B }

// Path lists the links between machines j and j2 (empty when j == j2).
func (in *Instance) Path(j, j2 int) []int { return in.paths[j][j2] }

// NumMaps and NumReduces count the tasks of each kind.
func (in *Instance) NumMaps() int    { return in.count(Map) }
func (in *Instance) NumReduces() int { return in.count(Reduce) }

func (in *Instance) count(k TaskKind) int {
	n := 0
	for i := range in.Tasks {
		if in.Tasks[i].Kind == k {
			n++
		}
	}
	return n
}

// TotalSlots is the number of slots of kind k over all machines.
func (in *Instance) TotalSlots(k TaskKind) int {
	n := 0
	for j := range in.Machines {
		n += len(in.Machines[j].Slots(k))
	}
	return n
}

// Eq17 is the paper's horizon, eq 17:
//
//	T = ⌊N^m/ΣSm + N^r/ΣSr⌋ + 2
//
// (a kind with no task contributes 0).
func (in *Instance) Eq17() int {
	f := 0.0
	if n := in.NumMaps(); n > 0 {
		f += float64(n) / float64(in.TotalSlots(Map))
	}
	if n := in.NumReduces(); n > 0 {
		f += float64(n) / float64(in.TotalSlots(Reduce))
	}
	return int(math.Floor(f)) + 2
}

// Table5Horizon is the T that Table 5 lists for scenarios 1..7.
var Table5Horizon = [8]int{0, 3, 3, 9, 15, 7, 15, 6}

// MinHorizon is a horizon below which no schedule exists: every job needs an
// interval for its maps and a later one for its reduces, and every kind needs
// enough slot-intervals for its tasks.
func (in *Instance) MinHorizon() int {
	lb := 1
	ceil := func(a, b int) int {
		if b == 0 {
			return 0
		}
		return (a + b - 1) / b
	}
	sm, sr := in.TotalSlots(Map), in.TotalSlots(Reduce)
	lb = max(lb, ceil(in.NumMaps(), sm), ceil(in.NumReduces(), sr))
	for _, jb := range in.Jobs {
		lb = max(lb, ceil(len(jb.Maps), sm)+ceil(len(jb.Reduces), sr))
	}
	return lb
}
