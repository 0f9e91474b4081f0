// Package tummscenario holds the TuMM / H_TuMM scenario format (Yao et al.,
// "Self-adjusting slot configurations for homogeneous and heterogeneous
// Hadoop clusters") and its validating loader.
//
// # Scenario files
//
// A scenario is a JSON object with "kind": "tumm", "schema_version": 1 or 2
// and one or more of three parts:
//
//	"static": {"slots": 16, "jobs": [{"name": "j1", "map_tasks": 40,
//	           "reduce_tasks": 10, "map_time": 12, "reduce_time": 30}, ...]}
//
// a batch of jobs in FIFO order for Algorithm 1 (the best static split of S
// slots between map and reduce), and
//
//	"heterogeneous": {"map_tasks": 60, "reduce_tasks": 24,
//	                  "nodes": [{"name": "n1", "slots": 4, "map_time": 10,
//	                             "reduce_time": 20}, ...],
//	                  "objective": "published", "align": true}
//
// the remaining map and reduce tasks of the running jobs and the cluster's
// nodes with their mean task times, for the per-node integer program of
// eqs 8–17, and (schema_version 2)
//
//	"batch": {"cluster": {"name": "heter1", "groups": [{"name": "m1.large",
//	            "compute_units": 1.33, "memory_gb": 2.5}, ...],
//	          "nodes": [{"name": "n1", "group": 0, "slots": 3,
//	                     "map_slots": 1, "reduce_slots": 2}, ...]},
//	          "jobs": [{"name": "q15-2", "parent": "q15-1", "maps": 32,
//	                    "reduces": 8, "map_time": [7.7, ...],
//	                    "reduce_time": [12.2, ...]}, ...]}
//
// a workload for the simulator: fungible nodes with S^i slots and the static
// split the FIFO baseline runs with, and a batch at t = 0 whose task times
// are given per node group (Batch.Workload converts it). Parse names the
// JSON path of the first problem.
//
// # Generator
//
// Generate builds TuMM's workloads (policies.md §3.2): the 4 × 4-slot
// homogeneous cluster and Table 3's Heter1/Heter2; simple batches (3 jobs of
// a benchmark), mixed batches (10 jobs in Johnson's order, its reverse or a
// seeded random order), TPC-H-like chains (A-T10) and Fig 6's toy, with
// Table 4's task times interpolated per node group (A-T9).
package tummscenario
