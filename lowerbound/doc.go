// Package lowerbound computes certified lower bounds on the offline optimum of
// the continuous-time slot-scheduling problem that the simulator runs, for the
// makespan, the total (= mean) turnaround, the maximum turnaround and the
// number of late jobs, and enumerates the exact optimum of tiny instances to
// test them.
//
// # The problem (Problem)
//
// A cluster of nodes, each in a duration group, with either a fixed split of
// map and reduce slots or (SlotMode Fungible) S_x slots that serve either kind.
// Jobs j have an arrival a_j, an optional deadline d_j, map tasks and reduce
// tasks; task τ takes Dur[g] milliseconds on a node of group g. A task runs
// without preemption on one slot of its kind; maps start no earlier than a_j;
// a reduce's work starts no earlier than the end of the job's last map
// (lastMapEnd). C_j is the end of the job's last task (a_j for a job without
// tasks).
//
// # Why the bounds hold for the simulator
//
// The simulator's reduce model (policies.md §1.4, A-G1) launches a reduce once
// the slow-start condition holds and ends it at
//
//	max(launch + d_r, lastMapEnd + (1−ω)·d_r).
//
// With ω = 0 the end is max(launch, lastMapEnd) + d_r, so the slot is busy
// over an interval that contains [end − d_r, end), which starts after
// lastMapEnd: every simulated schedule, for any slow-start f, is a schedule of
// the problem above with the same completion times. Problem has no ω field:
// callers must refuse ω > 0 (there part of a reduce's work may precede
// lastMapEnd and the precedence used here would not hold). Non-local map
// penalties, contention factors ≥ 1 and heartbeat delays only lengthen tasks
// or delay starts, and the optimum is non-decreasing in every duration (shrink
// each task inside its interval of an optimal schedule), so bounds computed
// with every map local and base durations hold for the simulated run.
//
// # Bounds
//
// Every bound is a maximum of components, each a valid lower bound with a proof
// sketch in docs/bounds.md: per-job critical paths (map phase by work, longest
// task and wave counts, then the reduce phase), per-kind load with releases,
// map load plus the shortest remaining reduce phase, wave bounds, single fast
// machine SRPT for total turnaround (all work, maps plus reduce tails, reduces
// from their heads), Moore–Hodgson on fluid relaxations for late jobs, and
// arrival windows for maximum turnaround. Opt-in through ComputeWith: the
// bucketed LP (BucketLP) and the interval Lagrangian (IntervalLagrangian: an
// interval-indexed LP whose capacity rows are priced by subgradient steps,
// each iterate's value a dual objective computed exactly; per job, the larger
// of that relaxation's term and a start-time term with reduces in one piece)
// for total and mean turnaround; IntervalLP solves the Lagrangian's
// relaxation itself as an LP, the oracle that tells how far the subgradient
// method is from it, and IntervalLagrangianCG (ComputeWith's LagrangeCG)
// continues the steps by column generation over the Lagrangian's own per-job
// minimisers, still certified by the Lagrangian's value at the best point.
// TimeIndexedLP (ComputeWith's TimeIndexed) is the LP of the pooled
// time-indexed model, in which each task holds a slot for its whole window
// (non-preemption, fractionally): one column per task group and time unit,
// for instances of a few dozen jobs. SlotColumns is the per-slot
// set-partitioning relaxation of the reduce side (a column is one reduce
// slot's sequence of whole reduces), solved by column generation and
// certified by its Lagrangian value at any stop: also opt-in, for small
// instances.
// Heterogeneous durations are handled
// by weighting each slot with a positive speed v_g: any choice gives a valid
// bound, and several are tried.
//
// All data are whole milliseconds, so every semi-active schedule, and hence an
// optimum, has integer times: Certified is the real bound rounded up (after a
// named floating-point tolerance is taken off).
//
// # Exact optimum
//
// Exact enumerates semi-active schedules of instances with up to about eight
// tasks (see exact.go for why an optimum is among them). The property tests
// compare every bound with it on hundreds of seeded random instances.
package lowerbound
