// Package sls reads the inputs of YARN's Scheduler Load Simulator (SLS,
// apache/hadoop hadoop-tools/hadoop-sls) into the common trace form
// (workload/trace), and writes SLS JSON job traces so that mrbound's
// workloads replay in SLS.
//
// # SLS JSON job traces (ReadJobs, WriteJobs)
//
// A stream of concatenated job objects: job.id, job.start.ms (the
// submission), job.end.ms, job.queue.name (the Fair pool), job.user and
// job.tasks, each a container with container.type (map or reduce),
// container.host, container.start.ms and container.end.ms (or only
// container.duration.ms), optionally container.count (that many copies).
// Numbers may be JSON numbers or strings of digits, as SLS reads them. A
// map's duration is its container's length; a reduce's is its length after
// the job's last map ended (the model's reduce idles in shuffle until then).
// When every container has a host, a start and an end, the trace also
// records what the cluster did (trace.Trace.Recorded). Refused, naming
// file:line:column and the JSON path: job.count above 1, a container type
// other than map or reduce, and, in a DAG job (yarn.sls.am.type dag), a
// container with a request delay (the model releases a job's tasks
// together). Our own keys, which SLS ignores: mrbound.weight,
// mrbound.deadline.ms, mrbound.parent, and mrbound.schedule "none" (the
// container times are durations laid out from the submission, not a
// record).
//
// # Nodes files (ReadNodes)
//
// A stream of {"rack": R, "nodes": [{"node": N, ...}]}: the cluster has one
// node per entry, named /R/N; an entry without "node" is skipped. Memory,
// vcores and labels are not read: slots come from --map-slots and
// --reduce-slots (or the record).
//
// # Synthetic workloads (ReadSynth)
//
// One object (num_jobs, rand_seed, num_nodes, nodes_per_rack, workloads
// with workload_weight, queue_name, job_classes and time_distribution)
// from which jobs are generated deterministically (see Synth.Generate).
package sls
