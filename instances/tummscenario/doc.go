// Package tummscenario holds the TuMM / H_TuMM scenario format (Yao et al.,
// "Self-adjusting slot configurations for homogeneous and heterogeneous
// Hadoop clusters") and its validating loader.
//
// # Scenario files
//
// A scenario is a JSON object with "kind": "tumm", "schema_version": 1 and one
// or both of two parts:
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
// eqs 8–17. Parse names the JSON path of the first problem.
package tummscenario
