// Package check re-verifies a simulated run against its workload, sharing no
// logic with the engine: it re-derives everything from the workload, the
// options and the per-task trace (policies.md §1.9), either kept (Verify) or
// as the run makes it (Stream).
//
// # What is checked
//
//   - Numbering: each segment's job, kind and index match the task's id.
//   - Releases: no segment launches before its job's arrival (a chained job's
//     arrival is its parent's completion, read from the trace).
//   - Capacity: on every node at every instant, the slot intervals [Launch,
//     End) of each kind (or of both in fungible mode) never exceed the slots,
//     and the running tasks' RAM and disk never exceed the node's.
//   - Task life: a task's segments do not overlap; after a suspension it
//     resumes on the same node; after a kill it starts afresh; its work since
//     the last kill adds up to the attempt's duration; it completes once, last.
//   - Durations: each attempt's duration is recomputed from the workload (per
//     group or work/speed, contention counted from the trace, the non-local
//     penalty from the replicas); with noise it must lie within the noise band.
//     The trace orders an instant's launches, not its releases among them: a
//     task launched at the instant another on its node was killed or
//     suspended, or a reduce launched at the instant a reduce waiting there
//     ended with its job's map phase, may have met it or not, and either
//     count is accepted. A task stopped at its launch instant counts itself
//     and the tasks running at its launch.
//   - Reduces: a reduce launches only when slow-start held (maps completed by
//     then, from the trace), and of each attempt's work (its segments since
//     the last kill, completed, killed or suspended alike) at most
//     d − ceil((1−ω)·d) lies before its job's last map end, d being the
//     attempt's duration: none with ω = 0, and a reduce stopped after the map
//     phase may have begun its work up to ω·d before it.
//   - Locality: replicas are distinct storage-capable nodes; each map's Local
//     flag says whether its node holds one.
//   - Outcomes and metrics: job completions and every metric are recomputed
//     from the trace and must equal the reported ones.
//
// # Two forms
//
// Verify checks a kept trace (sim.Result.Trace) after the run. Stream checks
// the same things while the run goes: set it as the run's sim.Options.Sink
// and call Finish with the result; the engine then keeps no trace. The two
// return the same verdict with the same messages in the same order
// (VerifyStream feeds a kept trace to a Stream; the tests run every case
// through both). Stream relies on nothing but the records' simulated-time
// order, which it checks: it sweeps each instant as Verify sweeps a node
// (releases first, launches in trace order), so the slot counts, the
// contention each launch met and the maps done at each reduce launch are
// Verify's, and it defers to Finish what needs later records.
//
// # Memory
//
// A day's trace has tens of millions of segments. Verify's own state is
// flat: task → job as one int32, the segments of each task and of each node
// as compressed rows of int32 trace indices, and one node's capacity sweep
// at a time; about 30 bytes per task beside the trace (issue 30). Stream
// holds no trace: a byte per task, two bits per record, the segments
// holding each node's slots, a small record per task killed, suspended or
// still running, and a few counters per job.
package check
