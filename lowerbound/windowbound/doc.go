// Package windowbound bounds the number of late jobs and the maximum
// turnaround of a long job stream by the exact MRCP optimum (package
// formulations/mrcp) of consecutive windows of the stream.
//
// # Why it is valid
//
// Split the jobs, in arrival order, into consecutive windows W_k. Any
// schedule of the whole stream, restricted to W_k, is a schedule of W_k alone
// (the other jobs only took capacity). So, for every schedule S,
//
//	late(S) ≥ Σ_k OPT_late(W_k)    and    maxT(S) ≥ max_k OPT_maxT(W_k)
//
// (policies.md §6). Each window is turned into an MRCP instance in time units
// of u ms (time 0 at its first arrival), in the direction that can only lower its optimum: releases
// rounded down, durations rounded down (each task's fastest eligible node
// group), deadlines rounded up (one before the arrival, which MRCP cannot
// hold, to the release: such a job is late either way), jobs that MRCP
// cannot express (no maps or no reduces) and, for the late count, jobs
// without a deadline dropped. With
// integer data the MILP's integer-time optimum is the continuous optimum of
// the rounded window, so
//
//	late(S) ≥ Σ_k K_k                with K_k ≤ OPT_late of window k,
//	maxT(S) > (Z_k − 1)·u  ms        since the rounded release is at most u
//	                                 below the true one.
//
// When nothing was rounded or dropped (every time a multiple of u, one
// duration per task on every group) the window is its MRCP instance, and
// Z_k·u is its optimum; a single such window holding the whole stream gives
// the stream's optima (Result.Exact).
//
// A window is solved in parts, cut before every job that arrives once the
// jobs since the previous cut are provably done (their latest arrival plus
// all their work, gapParts): the parts' optima combine exactly (sum, max),
// and no MRCP instance spans the gap (docs/bounds.md §10).
//
// K_k and Z_k come from the solver's dual bound (proven optima when the
// solve finishes): the late count from the lexicographic objective
// K·(Zmax+1) + Z, the maximum turnaround from the same objective with every
// deadline at the release, which makes every job late and leaves
// n·(Zmax+1) + Z.
//
// # The whole stream (Optimum)
//
// A stream that is an MRCP instance exactly — fixed slots, every time a
// multiple of one unit (the gcd of all durations, arrivals and deadlines),
// one duration per task on every group, every job with maps, reduces and a
// deadline — is solved whole by Optimum for one metric: the late-count
// objective for late jobs, the product for the MRCP product, the product
// with every deadline at the horizon (so no compacted schedule is late) for
// the maximum turnaround, the total-turnaround objective for the total and
// mean turnaround (windows narrowed by an incumbent and by the certified
// total turnaround of the other jobs, othersFloors), and for the makespan
// a binary search of late-count decisions "every job done by min s + T?"
// (makespanByDecisions). An Optimal solve is then the optimum of the
// continuous-time problem (integer data: active schedules start tasks at
// integer times); a limit leaves its dual bound. docs/bounds.md §11, §11a
// give the arguments.
//
// A stream that gapParts cuts at idle gaps is solved part by part, each in
// its own unit and from its own first arrival (so its span limit is the
// part's), and the parts' schedules, left-shifted, are one schedule of the
// stream, checked whole (checkStream): sums, maximum, or the last part's
// makespan plus its offset (optimumInParts; docs/bounds.md §10). The MRCP
// product is not a function of its parts' optima and is solved whole only.
//
// # Limits
//
// Fixed slots only (MRCP has no fungible slots). Bound drops a task shorter
// than the unit (and a job it leaves without a map or a reduce), which only
// lowers the optimum, and counts it in Result.DroppedTasks; Optimum declines
// such a stream (nil). The windows (Bound) bound late jobs and the maximum
// turnaround only. The total-turnaround MILP's relaxation is weak: it proves
// streams of a few jobs only.
package windowbound
