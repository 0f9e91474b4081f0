// Package mrcpsched is MRCP's CP-Scheduler as an online policy of the
// simulator: at every job arrival it re-solves MRCP's Table 1 model over the
// current problem with our solvers and dispatches the plan (Lim et al.,
// ICPE'15, §3–4; policies.md §2.4). It is the one policy that imports solve.
//
// # The current problem
//
// At the instant of one or more arrivals (a timer at now fires after every
// arrival of the instant, so simultaneous arrivals give one solve, Table 2,
// and the solve does not depend on the engine's offers), with now rounded up
// to whole seconds
// (A-M5) as the origin: the jobs that arrived and are not complete; their
// unstarted tasks, released at now (A-M2, A-M4), with durations the policy's
// estimates (sim.Estimate, mean over the nodes when they differ, rounded up
// to whole seconds); their running tasks fixed on their node until
// max(start + e, now + 1) (A-M3). Every release being raised to now, the
// Table 1 objective (Σ N_j + 1) · max_j (C_j − s'_j) is (late + 1) · Z with
// Z the latest completion counted from now.
//
// # Solving
//
// The best of several greedy list schedules (job orders: the previous
// plan's with new jobs appended — the §2.4 fallback —, arrival, deadline,
// least slack, least work, the jobs a Moore–Hodgson relaxation keeps on time
// by due date first, then single-job moves within a work budget) gives the
// incumbent U. A lower bound zlb on Z follows from work and critical paths,
// and one on the late jobs (K ≥ kmin) from the jobs late in every schedule
// plus Moore and Hodgson's rule on a fluid relaxation per slot kind
// (lateLowerBound). Then the late-count
// decomposition: for K = kmin, kmin+1, … while ⌊(U−1)/(K+1)⌋ ≥ zlb, the
// time-indexed MILP of buildSub (cumulative starts, pooled lanes, identical
// maps of a job sharing one integer count) minimises Z with at most K late
// jobs and Z ≤ ⌊(U−1)/(K+1)⌋, unless no late set of size K passes the
// preemptive relaxation at that cap (passingLateSets); when that MILP is
// over the size limit and at most four late sets pass, one MILP per set
// instead, its other jobs on time (their windows end at their deadlines,
// which makes it far smaller); each solution is decoded, checked against the
// problem (verifyPlan) and becomes the incumbent. When no K is left the plan
// is proven optimal. A plan whose value equals (kmin + 1)·zlb needs no MILP.
//
// # Limits and determinism
//
// The limits that decide are deterministic: a node limit per MILP
// (DefaultNodeLimit), a size limit per MILP (DefaultMaxColumns) and a budget
// of late sets. The whole re-solve also has a wall limit (DefaultSolveLimit
// = 60 s, A-M6), a safety net far above what the deterministic limits let a
// re-solve take; a re-solve stopped by any limit keeps its incumbent and is
// recorded as not optimal. Runs are deterministic given the seed unless the
// safety net binds; SolveRecord.WallHit counts when it did (TestDeterministic
// fails then).
//
// # Dispatch
//
// Each node has its planned maps and reduces in (planned start, task id)
// order; planned times are not awaited (A-M1). A free map slot takes the
// node's first planned map; a free reduce slot its first planned reduce if
// every map of that job is complete, else the slot stays idle (head of line,
// Table 2). Tasks planned on a node run only there until the next solve.
//
// # Overhead
//
// Each re-solve records its wall and CPU time (SolveRecord); O per job is the
// total callback wall time over the completed jobs (sim.Result.Overhead).
package mrcpsched
