// Package coshhscenario holds the COSHH scenario format, its loader and
// validator, the published workloads of Rasooli and Down and a generator of
// job streams.
//
// # Scenario files
//
// A scenario is a JSON object with "kind": "coshh" and "schema_version": 1.
// It either states the job classes directly (the paper's worked example):
//
//	{"kind": "coshh", "schema_version": 1,
//	 "resources": [{"name": "R1"}, {"name": "R2"}],
//	 "classes": [{"name": "C1", "alpha": 2.45, "mu": [9, 5]},
//	             {"name": "C2", "alpha": 2.45, "mu": [2, 1]}]}
//
// or it lists users and a stream of jobs, from which the formulation derives
// the classes by k-means (formulations/coshh):
//
//	{"kind": "coshh", "schema_version": 1, "seed": 1,
//	 "resources": [{"name": "R1", "slots": 2, "exec_rate_mhz": 5}, ...],
//	 "users": [{"name": "U1", "min_share": 5, "priority": 1}, ...],
//	 "jobs": [{"id": "J1", "user": "U1", "arrival": 0,
//	           "exec_time": [1000, 1.25], "est_time": [1043.1, 1.19]}, ...]}
//
// Parse validates every field and names the JSON path of the first problem
// ("$.jobs[3].exec_time[1]: negative execution time -2").
//
// # Workloads
//
// The data files embedded from data/ are the paper's tables as published:
// the job categories of the Facebook 2009 and Yahoo! 2009 traces (Table 4),
// the users of both experiments (Table 5) and the clusters of Tables 3, 10 and
// 11. Generate draws a job stream from a trace: categories in the trace's
// proportions, Poisson arrivals, execution times from the task-seconds of
// Table 4 scaled by each resource's rate and slots, and estimates with the
// over-and-under estimation error of §6.3: L̂ = L·(1 + E), E ~ U[−I, I].
package coshhscenario
