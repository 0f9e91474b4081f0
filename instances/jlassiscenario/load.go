package jlassiscenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/internal/strictjson"
)

// Load reads and validates a scenario file.
func Load(path string) (*Instance, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(filepath.Base(path), data)
}

// Parse decodes and validates a scenario; file names it in errors.
func Parse(file string, data []byte) (*Instance, error) {
	sc, err := Decode(file, data)
	if err != nil {
		return nil, err
	}
	return Compile(file, sc)
}

// Decode decodes a scenario's JSON strictly (unknown fields are errors)
// without validating its content.
func Decode(file string, data []byte) (*Scenario, error) {
	if err := strictjson.Check(file, data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			l, c := lineCol(data, se.Offset)
			return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("%d:%d", l, c), Problem: se.Error()}
		case errors.As(err, &te):
			return nil, &badinput.PathError{File: file, Path: strictjson.TypePath(data, te), Problem: fmt.Sprintf("expected %v, got JSON %s", te.Type, te.Value)}
		}
		return nil, &badinput.PathError{File: file, Problem: err.Error()}
	}
	if dec.More() {
		return nil, &badinput.PathError{File: file, Problem: "trailing data after the scenario object"}
	}
	return &sc, nil
}

func lineCol(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := 0; i < int(off)-1 && i < len(data); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// compiler accumulates the first error found.
type compiler struct {
	file string
	err  error
}

func (c *compiler) fail(path, format string, a ...any) {
	if c.err == nil {
		c.err = &badinput.PathError{File: c.file, Path: path, Problem: fmt.Sprintf(format, a...)}
	}
}

func (c *compiler) positive(path string, v float64) {
	if !(v > 0) || math.IsInf(v, 0) {
		c.fail(path, "must be a positive finite number, got %v", v)
	}
}

func (c *compiler) nonNegative(path string, v float64) {
	if !(v >= 0) || math.IsInf(v, 0) {
		c.fail(path, "must be a non-negative finite number, got %v", v)
	}
}

func (c *compiler) id(path, id string, seen map[string]string) {
	if id == "" {
		c.fail(path, "id is empty")
		return
	}
	if prev, dup := seen[id]; dup {
		c.fail(path, "id %q already used at %s", id, prev)
		return
	}
	seen[id] = path
}

// Compile validates a decoded scenario and resolves its references; file
// names it in errors. The first problem found is returned as a *PathError.
func Compile(file string, sc *Scenario) (*Instance, error) {
	c := &compiler{file: file}
	if sc.Kind != Kind {
		c.fail("kind", "must be %q, got %q", Kind, sc.Kind)
	}
	if sc.SchemaVersion != SchemaVersion {
		c.fail("schema_version", "must be %d, got %d", SchemaVersion, sc.SchemaVersion)
	}
	if sc.Scenario < 0 || sc.Scenario > 7 {
		c.fail("scenario", "must be 0 (hand-made) or a Table 5 scenario 1..7, got %d", sc.Scenario)
	}
	if sc.Horizon < 0 {
		c.fail("horizon", "must be a positive number of intervals (or absent for eq 17), got %d", sc.Horizon)
	}
	switch sc.Objective {
	case "", "realtime", "tst", "trc", "feasibility":
	default:
		c.fail("objective", "unknown objective %q (realtime, tst, trc, feasibility)", sc.Objective)
	}
	c.positive("migration_bandwidth", sc.MigrationBandwidth)
	in := &Instance{Source: sc, Name: sc.Name, Bwd: sc.MigrationBandwidth}
	if in.Name == "" {
		in.Name = file
	}
	ids := map[string]string{} // every id of machines, switches, blocks, jobs, tasks
	machine := map[string]int{}
	if len(sc.Machines) == 0 {
		c.fail("machines", "at least one machine is needed")
	}
	for j, m := range sc.Machines {
		p := fmt.Sprintf("machines[%d]", j)
		c.id(p+".id", m.ID, ids)
		machine[m.ID] = j
		c.positive(p+".ram_mb", m.RAMMB)
		c.positive(p+".disk_mb", m.DiskMB)
		c.nonNegative(p+".cost_ram", m.CostRAM)
		c.nonNegative(p+".cost_disk", m.CostDisk)
		for x, slots := range [2][]Slot{m.MapSlots, m.ReduceSlots} {
			kind := [2]string{"map_slots", "reduce_slots"}[x]
			for s, sl := range slots {
				sp := fmt.Sprintf("%s.%s[%d]", p, kind, s)
				c.positive(sp+".ghz", sl.GHz)
				c.nonNegative(sp+".cost", sl.Cost)
			}
		}
		in.Machines = append(in.Machines, MachineInfo{ID: m.ID, RAM: m.RAMMB, Disk: m.DiskMB,
			CostRAM: m.CostRAM, CostDisk: m.CostDisk, MapSlots: m.MapSlots, RedSlots: m.ReduceSlots})
	}
	block := map[string]int{}
	for b, bl := range sc.Blocks {
		p := fmt.Sprintf("blocks[%d]", b)
		c.id(p+".id", bl.ID, ids)
		block[bl.ID] = b
		c.positive(p+".size_mb", bl.SizeMB)
		bi := BlockInfo{ID: bl.ID, Size: bl.SizeMB, home: map[int]bool{}}
		if len(bl.Homes) == 0 {
			c.fail(p+".homes", "a block needs at least one home machine")
		}
		for h, id := range bl.Homes {
			j, ok := machine[id]
			if !ok {
				c.fail(fmt.Sprintf("%s.homes[%d]", p, h), "unknown machine id %q", id)
				continue
			}
			if bi.home[j] {
				c.fail(fmt.Sprintf("%s.homes[%d]", p, h), "machine %q listed twice", id)
			}
			bi.home[j] = true
			bi.Homes = append(bi.Homes, j)
		}
		in.Blocks = append(in.Blocks, bi)
	}
	if len(sc.Jobs) == 0 {
		c.fail("jobs", "at least one job is needed")
	}
	needMap, needRed := "", ""
	for k, jb := range sc.Jobs {
		p := fmt.Sprintf("jobs[%d]", k)
		c.id(p+".id", jb.ID, ids)
		if jb.Type < 0 || jb.Type > 3 {
			c.fail(p+".type", "must be 0 (hand-made) or a Table 3 job type 1..3, got %d", jb.Type)
		}
		if len(jb.Maps) == 0 {
			c.fail(p+".maps", "a job needs at least one map task")
		}
		ji := JobInfo{ID: jb.ID}
		mapOf := map[string]int{}
		for kind, tasks := range [2][]Task{jb.Maps, jb.Reduces} {
			tk, name := Map, "maps"
			if kind == 1 {
				tk, name = Reduce, "reduces"
			}
			for x, t := range tasks {
				tp := fmt.Sprintf("%s.%s[%d]", p, name, x)
				if tk == Map && needMap == "" {
					needMap = tp
				}
				if tk == Reduce && needRed == "" {
					needRed = tp
				}
				c.id(tp+".id", t.ID, ids)
				c.nonNegative(tp+".ram_mb", t.RAMMB)
				c.nonNegative(tp+".disk_mb", t.DiskMB)
				ti := TaskInfo{ID: t.ID, Job: k, Kind: tk, Index: x, RAM: t.RAMMB, Disk: t.DiskMB, Path: tp,
					P: make([][]float64, len(sc.Machines))}
				if tk == Map {
					if len(t.Blocks) == 0 {
						c.fail(tp+".blocks", "a map task needs at least one block")
					}
					seen := map[int]bool{}
					for bx, id := range t.Blocks {
						b, ok := block[id]
						if !ok {
							c.fail(fmt.Sprintf("%s.blocks[%d]", tp, bx), "unknown block id %q", id)
							continue
						}
						if seen[b] {
							c.fail(fmt.Sprintf("%s.blocks[%d]", tp, bx), "block %q listed twice", id)
						}
						seen[b] = true
						ti.Blocks = append(ti.Blocks, b)
					}
					if len(t.Shuffle) > 0 {
						c.fail(tp+".shuffle", "only reduce tasks book shuffle bandwidth")
					}
					mapOf[t.ID] = len(in.Tasks)
					ji.Maps = append(ji.Maps, len(in.Tasks))
				} else {
					if len(t.Blocks) > 0 {
						c.fail(tp+".blocks", "a reduce task reads no block (its input is the maps' output)")
					}
					ji.Reduces = append(ji.Reduces, len(in.Tasks))
				}
				if len(t.Durations) == 0 {
					c.fail(tp+".durations", "the task can run on no machine")
				}
				for _, mid := range sortedKeys(t.Durations) {
					dp := tp + ".durations." + mid
					j, ok := machine[mid]
					if !ok {
						c.fail(dp, "unknown machine id %q", mid)
						continue
					}
					ds := t.Durations[mid]
					ns := len(in.Machines[j].Slots(tk))
					if len(ds) != ns {
						c.fail(dp, "expected one duration per %s slot of %s (%d), got %d", tk, mid, ns, len(ds))
						continue
					}
					for s, d := range ds {
						c.positive(fmt.Sprintf("%s[%d]", dp, s), d)
					}
					ti.P[j] = ds
				}
				in.Tasks = append(in.Tasks, ti)
			}
		}
		// Shuffle bandwidths refer to maps of the same job.
		for x, t := range jb.Reduces {
			tp := fmt.Sprintf("%s.reduces[%d].shuffle", p, x)
			for _, mid := range sortedKeys(t.Shuffle) {
				l, ok := mapOf[mid]
				if !ok {
					c.fail(tp+"."+mid, "%q is not a map task of job %q", mid, jb.ID)
					continue
				}
				v := t.Shuffle[mid]
				c.nonNegative(tp+"."+mid, v)
				if v > 0 {
					in.Shuffles = append(in.Shuffles, Shuffle{Reduce: ji.Reduces[x], Map: l, Bandwidth: v})
				}
			}
		}
		in.Jobs = append(in.Jobs, ji)
	}
	if c.err == nil {
		if needMap != "" && in.TotalSlots(Map) == 0 {
			c.fail("machines", "no machine has a map slot, but %s is a map task", needMap)
		}
		if needRed != "" && in.TotalSlots(Reduce) == 0 {
			c.fail("machines", "no machine has a reduce slot, but %s is a reduce task", needRed)
		}
		for i := range in.Tasks {
			t := &in.Tasks[i]
			for _, j := range sortedKeysInt(t.P) {
				if len(in.Machines[j].Slots(t.Kind)) == 0 {
					c.fail(t.Path+".durations."+in.Machines[j].ID, "machine has no %s slot", t.Kind)
				}
			}
			c.fits(in, t)
		}
	}
	c.network(in, sc, ids, machine)
	if c.err != nil {
		return nil, c.err
	}
	return in, nil
}

// fits fails a task whose RAM or disk demand exceeds every machine it has
// durations on: it could never start, and a simulation would stall with the
// job unfinished instead of saying why.
func (c *compiler) fits(in *Instance, t *TaskInfo) {
	var ram, disk float64 // the largest room among the task's machines
	ramOn, diskOn := "", ""
	for _, j := range sortedKeysInt(t.P) {
		m := &in.Machines[j]
		if t.RAM <= m.RAM && t.Disk <= m.Disk {
			return
		}
		if m.RAM > ram || ramOn == "" {
			ram, ramOn = m.RAM, m.ID
		}
		if m.Disk > disk || diskOn == "" {
			disk, diskOn = m.Disk, m.ID
		}
	}
	switch {
	case ramOn == "":
		// no machine listed: reported at its durations already
	case t.RAM > ram:
		c.fail(t.Path+".ram_mb", "the task needs %g MB of RAM, more than any machine it can run on has (at most %g MB, %s)", t.RAM, ram, ramOn)
	case t.Disk > disk:
		c.fail(t.Path+".disk_mb", "the task needs %g MB of disk, more than any machine it can run on has (at most %g MB, %s)", t.Disk, disk, diskOn)
	default:
		c.fail(t.Path, "the task needs %g MB of RAM and %g MB of disk, and no machine it can run on has both", t.RAM, t.Disk)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sortedKeysInt(p [][]float64) []int {
	var out []int
	for j, d := range p {
		if d != nil {
			out = append(out, j)
		}
	}
	return out
}

// network checks that the links form a tree spanning every machine and
// switch, and computes the link path of every machine pair.
func (c *compiler) network(in *Instance, sc *Scenario, ids map[string]string, machine map[string]int) {
	node := map[string]int{} // machines first, then switches
	for j, m := range in.Machines {
		node[m.ID] = j
	}
	for s, id := range sc.Network.Switches {
		p := fmt.Sprintf("network.switches[%d]", s)
		c.id(p, id, ids)
		node[id] = len(in.Machines) + s
	}
	n := len(in.Machines) + len(sc.Network.Switches)
	type arc struct{ to, link int }
	adj := make([][]arc, n)
	for e, l := range sc.Network.Links {
		p := fmt.Sprintf("network.links[%d]", e)
		a, okA := node[l.A]
		b, okB := node[l.B]
		if !okA {
			c.fail(p+".a", "unknown machine or switch id %q", l.A)
		}
		if !okB {
			c.fail(p+".b", "unknown machine or switch id %q", l.B)
		}
		if okA && okB && a == b {
			c.fail(p, "link from %q to itself", l.A)
		}
		c.positive(p+".capacity", l.Capacity)
		if c.err != nil {
			return
		}
		adj[a] = append(adj[a], arc{b, e})
		adj[b] = append(adj[b], arc{a, e})
		in.Links = append(in.Links, LinkInfo{A: l.A, B: l.B, Capacity: l.Capacity})
	}
	if c.err != nil || n == 0 {
		return
	}
	if len(sc.Network.Links) != n-1 {
		// Either disconnected or with a cycle; find which for the message.
		if len(sc.Network.Links) > n-1 {
			c.fail("network.links", "%s for %d machines and switches: the network must be a tree (it has a cycle)", plural.Count(len(sc.Network.Links), "link"), n)
			return
		}
	}
	// From every machine, walk the tree and record the link path to every
	// other machine.
	in.paths = make([][][]int, len(in.Machines))
	for src := range in.Machines {
		parent := make([]int, n) // link used to reach the node, -1 for none
		prev := make([]int, n)
		for i := range parent {
			parent[i], prev[i] = -2, -1
		}
		parent[src] = -1
		queue := []int{src}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, a := range adj[u] {
				if parent[a.to] == -2 {
					parent[a.to], prev[a.to] = a.link, u
					queue = append(queue, a.to)
				}
			}
		}
		in.paths[src] = make([][]int, len(in.Machines))
		for dst := range in.Machines {
			if parent[dst] == -2 {
				c.fail("network", "the network does not reach machine %q from machine %q", in.Machines[dst].ID, in.Machines[src].ID)
				return
			}
			var path []int
			for v := dst; v != src; v = prev[v] {
				path = append(path, parent[v])
			}
			sort.Ints(path)
			in.paths[src][dst] = path
		}
		if src == 0 {
			for v := range parent {
				if parent[v] == -2 {
					c.fail("network.switches", "switch %q is not connected to the machines", sc.Network.Switches[v-len(in.Machines)])
					return
				}
			}
		}
	}
	if len(sc.Network.Links) != n-1 {
		c.fail("network.links", "%s for %d machines and switches: the network must be a tree", plural.Count(len(sc.Network.Links), "link"), n)
	}
}
