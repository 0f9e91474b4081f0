// Package bnb proves optima of small MapReduce job streams by a depth-first
// branch and bound over job-level dispatch decisions, for the makespan, the
// total and mean turnaround and the maximum turnaround.
//
// # The class it solves
//
// A lowerbound.Problem with fixed map and reduce slots, no preemption, every
// task's duration the same on every node group, and within each job one
// duration for all its maps and one for all its reduces, each at least 1 ms:
// MRCP's streams (instances/mrcpscenario) are of this class. Solve returns nil
// for any other problem. With one duration per task on every node, the slots
// of a kind are interchangeable, so they are pooled: M map slots and R reduce
// slots, each remembered with its node to decode the schedule.
//
// # The search (docs/bounds.md §14)
//
// A node is a partial schedule built in non-decreasing (start, task index)
// order: each step takes one job's next task — its next map, or once its maps
// are placed its next reduce — and puts it on the earliest-free slot of its
// kind at the earliest time that slot, the job's arrival and (for a reduce)
// the job's last map end allow. lowerbound.Exact proves that these build
// orders contain an optimum of every regular metric; pooling identical slots
// and taking a job's identical tasks in index order keep one. Two more rules
// cut the tree, both proven in §14: a task is not placed when another
// available task of its kind could run entirely, on the same slot, before it
// starts (the schedule would not be active), and a node whose lower bound
// reaches the incumbent is closed. Identical jobs (the same numbers and
// durations of maps and of reduces) are taken in order: a job places no map
// (reduce) while an identical job of lower index and no later arrival has
// maps (reduces) left, since exchanging their tasks' owners makes any
// schedule one of that order, no worse for every metric (§14f). A memo of
// the nodes searched closes a node that an earlier one with the same
// counts of placed tasks dominates (§14, Lemma 3): every slot's free time,
// job's time and the last key no later — or, on the sums, later by at most
// a shift D that the earlier node's finished jobs pay for, their sum less
// by at least D per unfinished job (Lemma 3′, memo.go).
//
// Node bounds use that every remaining task starts no earlier than the last
// placed start: per job, its critical path over the slots' free times; for
// the sums, preemptive SRPT of the remaining map work on the slots'
// availability profile (SRPT's sorted completion times are componentwise
// least) plus the least reduce tail, the same SRPT run on the jobs due by
// each time (each job due at its critical path less its tail, §14i), and a
// time-indexed Lagrangian (per-cell
// prices of the slots, each job alone bounded by chains of its tasks that
// never exceed its parallelism; docs/bounds.md §14e, lagsum.go); for the
// maximum turnaround, EDF feasibility of the same relaxation against the
// incumbent's deadlines. RootLagrangian measures that Lagrangian at the
// root against multipliers from column generation (an LP over each job's
// own schedules, colgen.go, §14g), whose master value bounds what any
// multipliers could give.
//
// With Options.BoundNodes a best-first phase follows a depth-first search
// stopped by its node limit: the same tree expanded from the root in order
// of bound, pruned by the incumbent found so far; the least bound of its
// open nodes is a lower bound, on the sums far above the depth-first one's.
// Every 512 expansions it dives below the node expanded (a short
// depth-first search) for a better incumbent, which it needs to close nodes.
//
// On the total and mean turnaround Solve first splits the stream where a
// FIFO schedule leaves the map slots idle and searches each group alone
// (§14, Lemma 4): the groups' bounds add up to a bound on the whole, and
// their schedules, put together when no slot count is exceeded (else two
// groups are merged), to a schedule of the whole, optimal when each is.
// Bounds are rounded up to the data's grid (the gcd of the arrivals and
// durations), on which an optimum lies.
//
// # The maxima as decision problems (docs/bounds.md §14d)
//
// With an incumbent U the makespan and the maximum turnaround ask whether a
// schedule scores U − 1 or less: each job's last map gets a deadline, which
// window loads, edge finding, whole-task capacities and a packing of the
// map lengths into the slots' rooms check at every node (bound_max.go),
// with a weighted load whose weights an LP finds at the root and a few
// shallow nodes, each refuting weight vector checked exactly and kept for
// every later node (bound_lp.go).
// The search probes the levels from the proven bound up, each with its
// level + 1 as incumbent — a complete search refutes the level, a leaf at
// it is optimal — on half the node limit, then spends the rest in rounds of
// three child orders, each restarted below every better schedule
// (decide.go). The sums are searched as above.
//
// # Results
//
// Optimal means the search closed every node: the best schedule (its own,
// or the caller's incumbent when nothing better exists) is optimal. A search
// stopped by its node limit or its context reports the least lower bound of
// its open nodes, never an optimum. The node limit, not a clock, decides the
// result, so a run is deterministic.
package bnb
