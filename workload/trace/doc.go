// Package trace is the common form of a cluster's job history, whatever file
// it came from (an SLS JSON job trace, a Rumen trace, an SLS synthetic
// workload, the plain job file): jobs with their tasks' true durations, the
// hosts the source names, and, when the source recorded it, what the real
// cluster did (one container per attempt). Build turns it into a simulator
// workload on a cluster and the recorded schedule into a simulator result
// that the independent checker can verify (docs/traces.md).
//
// # The cluster
//
// Nodes: ClusterSpec.Nodes when set (--nodes), else the nodes the source
// names (an SLS nodes file, the synthetic workload's num_nodes, the job
// file's cluster line, or the hosts the record ran on). Slots per node:
// ClusterSpec.MapSlots and ReduceSlots when set, else the source's (the job
// file's cluster line), else the most containers of that kind the record ran
// at once on one host, else DefaultMapSlots and DefaultReduceSlots.
//
// # The recorded schedule
//
// Each recorded container is placed on the node of its host (the same name,
// or the same last path element: "/default-rack/node1" is node1). A
// container that ran before its task's successful one becomes a killed
// segment; the successful one completes the task. A job completes at its
// last task's end (the job's own end in the trace also counts the
// application master's teardown, which the model has not).
package trace
