// Package sim is a deterministic discrete-event simulator of a slot-based
// Hadoop 1 cluster on which online scheduling policies run (policies.md §1).
//
// It is plain data plus an event heap and imports nothing of ours but
// internal/hugepage, a leaf that asks the kernel for huge pages: a
// Workload (cluster, users, jobs with their true task durations) goes in,
// a Policy makes every decision, and a Result with a per-task trace comes
// out. The trace is re-verified by sim/check, which shares no logic with
// this package. With Options.Sink the trace goes to a TraceSink as the run
// makes it (sim/check's Stream, sim/report's TraceWriter) and the result
// holds none: a day of tens of millions of attempts is then checked and
// written without holding them (issue 30).
//
// # Model
//
// Time is int64 milliseconds. A node has fixed map and reduce slots, or in
// fungible mode TotalSlots whose kind is chosen at each launch. The true
// duration of task τ on node x is
//
//	d(τ,x) = base(τ,x) · (1 + γ_kind·(c−1)) · noise + nonLocal(τ,x)
//
// where base is TaskSpec.ByGroup[group(x)] if given, else Work/speed(x); c
// counts the same-kind tasks holding a slot on x including τ, leaving out
// those that hold it for no time (zero-length, launched and ended at this
// instant; a zero-length reduce waiting for its map phase counts); noise is
// U[1−Noise, 1+Noise] per launch; nonLocal is Cluster.NonLocalPenalty for a
// map whose node holds no replica of its block. Map i reads block i; at a
// job's arrival the policy (BlockPlacer) or the default rule places Replicas
// copies of each block on distinct storage-capable nodes, uniformly at
// random.
//
// A reduce may launch once ceil(f·nMaps) maps completed (slow-start f). It
// ends at max(launch + d, lastMapEnd + (1−ω)·d): with ω = 0 its slot idles in
// shuffle until the job's last map ends. Its work is counted (from the
// trace's Start) only once the map phase ended and its end is known: a reduce
// killed or suspended after that has worked since its end less its work left,
// which with ω > 0 may be up to ω·d before the last map end; one stopped
// earlier has done no work. A job completes with its last task.
// A job with a Parent arrives when the parent completes.
//
// # Events and their order
//
// Events are task ends, job arrivals, policy timers and heartbeats. At
// equal times they are processed in that order, then by insertion sequence,
// so freed slots and new jobs are visible to the decisions of the same
// instant and a seed fixes a run. Derived events (reduces becoming eligible,
// the map phase ending, the job completing) happen inside the task end, before
// Policy.TaskEnd is called.
//
// Offers: with Heartbeat H > 0 (hadoop1 mode) node x offers its free slots at
// x·H/|nodes| + kH. Shortcuts keep the event count proportional to the work
// and change no decision: a node without a free slot sends no heartbeat (its
// next one is scheduled when a slot frees); a node whose offer launched
// nothing is parked until the next wake (a job arrival, a reduce becoming
// eligible, a map phase ending, a kill or suspend, a timer, or Sim.Wake), and
// after a wake a single sweep event visits the parked nodes in phase order,
// each at its own grid instant, once round the grid; and the policy is not
// called for an offer that no launchable (or resumable) task could use. A
// policy whose offers depend on anything else calls Wake or sets a timer;
// Options.LiteralHeartbeats turns the shortcuts off (the conformance suite
// checks that both give the same trace). With H = 0 (ideal mode) after all
// events of an instant the engine offers, in node-id order, every node with a
// free slot if a wake happened, else the nodes whose slots freed.
//
// # How a run ends
//
// Result.Status: finished (every job completed), horizon (Options.Horizon),
// stalled (no event left with jobs left) or stuck. The stuck rule ends a
// run that can only idle for ever: no job is still to arrive, no running
// task has a known end (only reduces waiting for maps that do not run), and
// nothing changed (arrival, launch, resume, task end, kill, suspend) for
// Options.StuckAfter (default DefaultStuckAfter, at least two heartbeats);
// then only the policy's timers and offers are left, and they did nothing.
//
// # Policies
//
// A Policy gets callbacks (Init, JobArrival, TaskEnd with the observed
// duration, Timer, Offer) and acts through the Sim: Launch, Kill, Suspend,
// Resume, SetTimer, Wake, and SetReplicas inside BlockPlacer.PlaceBlocks. Each
// action is checked (the task is pending, its job arrived, the slot is
// free, slow-start holds, RAM and disk fit) and an invalid one returns an
// error and changes nothing. The view (Job, Task, Running, Free, Replicas,
// Estimate, PickMap, PickReduce) never shows a true duration: Estimate follows
// Options.Estimates (exact, given, mean, noisy, none). Wall time inside the
// callbacks is summed as the scheduling overhead (Result.Overhead, timed by
// the CPU's time-stamp counter where it is invariant: clock.go); it is not
// charged to simulated time.
//
// # Randomness
//
// One PCG stream per purpose, seeded from (Options.Seed, purpose): placement,
// noise, estimate, policy (Sim.Rand). NewStream gives workload generators the
// same scheme.
//
// # Speed
//
// Jobs and nodes live in pre-allocated arrays. A task's run-time record (40
// bytes: what can be derived is not stored) lives in a chunk of 4,096
// consecutive ids, allocated when the first job with a task in it arrives
// and recycled once all of them are done, so a day's run writes the
// records of its live jobs only, in memory that stays in cache (state.go).
// Events are 32-byte values in a 4-ary heap that holds running tasks,
// heartbeats and timers (arrivals are read from a sorted list); the task
// ends of one instant pushed one after another share one heap entry
// (eventQueue). The hot path (launch, end, offer) does not allocate. The
// other per-task arrays of a large run ask the kernel for transparent huge
// pages (internal/hugepage): each is written once, page after page, and on a
// virtual machine the first touch of 4-KB pages cost a quarter of a day's
// run. The callback clock reads the CPU's time-stamp counter where it is
// invariant (clock.go). docs/results.md has the figures.
package sim
