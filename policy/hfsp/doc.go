// Package hfsp is the Hadoop Fair Sojourn Protocol (policies.md §2.8): a
// size-based scheduler that serves, per slot kind, the job phase with the
// smallest remaining size in a virtual processor-sharing cluster.
//
// # Phases and sizes
//
// Each job has a map phase and (if it has reduces) a reduce phase, each
// with its own size (serial work in slot-ms), training and virtual size. A
// phase with fewer tasks than the training count t (2) is tiny: size 0,
// served first (A-H1). Otherwise its first t launched tasks are training
// tasks; until they end the phase has the initial size
// S_i = n·μ̄_kind (μ̄ the mean observed duration of finished tasks of that
// kind so far, 60 s before any), and when they have all ended
// S_f = n·mean(training durations) (A-H2, A-H3). Only observed durations
// (TaskEnd) are used; Sizes = SizeEstimated instead takes Σ Sim.Estimate
// at the phase's start (no training), which with exact estimates is the
// "known sizes" case of FSP.
//
// # Virtual time (aging)
//
// A virtual cluster with the same slots per kind is shared max-min fairly
// by the phases still unfinished in it, as a fluid (A-H4): phase p gets
// min(⌈V_p/σ_p⌉, share) slots, σ_p its estimated task size. The virtual
// clock advances at job arrivals, task ends and (kill/suspend) the 5 s
// update timer; an offer reads the sizes of the last advance, so a run's
// decisions do not depend on when heartbeats happen. When S_f replaces S_i,
// V ← max(0, S_f − (S_i − V)) (A-H5). A phase finished in the virtual
// cluster keeps V = 0, the top priority (FSP's rule); a phase finished in
// reality stays in the virtual cluster until its virtual work is served.
//
// # Assignment (Alg 1) and preemption
//
// Per free slot: if fewer than T_k = ⌈0.25·slots_k⌉ training tasks run, the
// training phase with the smallest S_i launches its next training task
// (strict <, A-H6); otherwise the phase with the smallest V (ties: arrival,
// job id) launches a task (a node-local map first). Preemption wait (the
// default) only uses freed slots; kill and suspend compute the ideal
// allocation (phases in priority order, each min(demand, slots left)) at
// each job arrival and every 5 s, and preempt running tasks of phases over
// their allocation, newest first, as many as higher-priority tasks wait
// (A-H7). Training tasks are never preempted [ours]; a victim is taken only
// on a node where a waiting higher-priority task fits. A suspended task
// resumes on its node when its phase is the best candidate there.
//
// In fungible mode both kinds share one pool of slots (one virtual
// cluster, one training budget, one allocation).
package hfsp
