// Package workload turns input files into simulator workloads: SWIM traces
// (.tsv, through workload/swim) and the scenario files of the offline
// formulations (JSON with "kind" mrcp or coshh), so that the same instance
// can be solved offline and simulated online; and job histories told by
// their content (Detect): SLS JSON job traces, Rumen traces and SLS
// synthetic workloads (workload/sls, workload/rumen), and the plain job file
// (workload/jobfile), all through the common form of workload/trace, whose
// record of what the real cluster did LoadAll keeps (docs/traces.md).
//
// # MRCP streams (instances/mrcpscenario)
//
// Every resource is a node with its map and reduce slots; every task keeps
// its duration (time units × time_unit_seconds, 1 s when absent); a job's
// release is its arrival and its deadline is kept. The policy's estimate is
// the duration itself (MRCP's user-supplied e_t). Tasks with a slot demand
// above 1 are refused: the simulator's slots hold one task each.
//
// # COSHH job streams (instances/coshhscenario)
//
// The scenario gives each job's mean execution time on each resource, not
// its tasks. Each job becomes one map task whose duration on resource r is
// exec_time[r] (per-node durations: node r is group r), with est_time as the
// estimate; each resource is a node with its slots as map slots. Users keep
// their min shares and priorities (the Fair weights). A scenario that states
// classes instead of a job stream has nothing to simulate and is refused.
// A stream whose jobs carry task counts (`generate coshh --tasks`) is read
// task by task instead, by workload/coshhsim (Table 3 slot split, storage,
// blocks, per-job estimate factor).
package workload
