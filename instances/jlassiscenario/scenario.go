package jlassiscenario

import (
	"encoding/json"
	"fmt"
)

// Kind is the value of the top-level "kind" of a Jlassi scenario file.
const Kind = "jlassi"

// SchemaVersion is the only schema version this package reads and writes.
const SchemaVersion = 1

// Scenario is the JSON form of an instance, exactly as stored in a file. Load
// turns it into an Instance after validating it.
type Scenario struct {
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schema_version"`
	// Name is free text.
	Name string `json:"name,omitempty"`
	// Scenario is the Table 5 scenario (1..7) the instance was generated
	// from, 0 when hand-made; Seed is the generator's seed.
	Scenario int   `json:"scenario,omitempty"`
	Seed     int64 `json:"seed,omitempty"`
	// Horizon is the number of intervals T; 0 means eq 17.
	Horizon int `json:"horizon,omitempty"`
	// Objective names the default objective (realtime, tst, trc,
	// feasibility); empty means realtime.
	Objective string `json:"objective,omitempty"`
	// MigrationBandwidth is bwd, the bandwidth (MB/s) a block migration
	// books on every link of its path for one interval; > 0.
	MigrationBandwidth float64 `json:"migration_bandwidth"`

	Machines []Machine `json:"machines"`
	Blocks   []Block   `json:"blocks"`
	Jobs     []Job     `json:"jobs"`
	Network  Network   `json:"network"`
}

// Machine is one physical machine.
type Machine struct {
	ID string `json:"id"`
	// Category is free text (Table 2's c3.2xlarge, i2.2xlarge, r3.xlarge).
	Category string `json:"category,omitempty"`
	// RAMMB and DiskMB are the capacities m^r_j and m^h_j in MB; > 0.
	RAMMB  float64 `json:"ram_mb"`
	DiskMB float64 `json:"disk_mb"`
	// CostRAM and CostDisk are α^r_j and α^h_j per MB and second; ≥ 0.
	CostRAM  float64 `json:"cost_ram"`
	CostDisk float64 `json:"cost_disk"`
	// MapSlots and ReduceSlots list the slots; a machine may have none of a kind.
	MapSlots    []Slot `json:"map_slots"`
	ReduceSlots []Slot `json:"reduce_slots"`
}

// Slot is one map or reduce slot of a machine.
type Slot struct {
	// GHz is the slot's CPU frequency v_{s,j}; > 0.
	GHz float64 `json:"ghz"`
	// Cost is α^c_{s,j} per second of use; ≥ 0.
	Cost float64 `json:"cost"`
}

// Block is one HDFS data block.
type Block struct {
	ID string `json:"id"`
	// SizeMB is S; > 0.
	SizeMB float64 `json:"size_mb"`
	// Homes lists the machines holding a replica (D_b); at least one.
	Homes []string `json:"homes"`
}

// Job is one MapReduce job: its maps precede its reduces.
type Job struct {
	ID string `json:"id"`
	// Type is Table 3's job type (1..3), 0 when hand-made.
	Type    int    `json:"type,omitempty"`
	Maps    []Task `json:"maps"`
	Reduces []Task `json:"reduces"`
}

// Task is a map or a reduce task.
type Task struct {
	ID string `json:"id"`
	// RAMMB and DiskMB are n^r_i and n^h_i; ≥ 0.
	RAMMB  float64 `json:"ram_mb"`
	DiskMB float64 `json:"disk_mb"`
	// Blocks lists the blocks a map reads (B_i); at least one; reduces have none.
	Blocks []string `json:"blocks,omitempty"`
	// Durations gives p_{i,j,s}: for each machine the task may run on, one
	// processing time (seconds, > 0) per slot of the task's kind on that
	// machine. A machine left out cannot run the task.
	Durations map[string][]float64 `json:"durations"`
	// Shuffle (reduces only) gives b_{l,l'}: the bandwidth (MB/s) booked from
	// each map l' of the same job to this reduce while both are on different
	// machines. A map left out books nothing.
	Shuffle map[string]float64 `json:"shuffle,omitempty"`
}

// Network is the tree linking machines through switches.
type Network struct {
	Switches []string `json:"switches"`
	Links    []Link   `json:"links"`
}

// Link is an undirected edge of the network tree.
type Link struct {
	// A and B are machine or switch ids.
	A string `json:"a"`
	B string `json:"b"`
	// Capacity is b_max for this link (MB/s), shared by both directions; > 0.
	Capacity float64 `json:"capacity"`
}

// Marshal encodes the scenario as indented JSON with a final newline.
func (sc *Scenario) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("jlassi: %v", err)
	}
	return append(b, '\n'), nil
}
