// Package tumm is TuMM and H_TuMM, the self-adjusting slot configurations of
// Yao et al. (TuMM §4–5, policies.md §2.6–2.7), and the static splits they
// are compared with, as sim policies on a fungible cluster with FIFO job
// order.
//
// # TuMM (homogeneous)
//
// Over the running jobs (a job runs once one of its tasks launched) the
// phase sets are M (unfinished maps) and R (maps done, unfinished reduces),
// and the remaining workloads (eq 2, Algorithm 2)
//
//	w'_m = Σ_{i∈M} t̄_m(i)·n'_m(i),   w'_r = Σ_{i∈R} t̄_r(i)·n'_r(i)
//
// with n' the unfinished (pending + running) tasks and t̄ the Welford mean of
// the job's finished tasks' observed times (A-T1: else the mean over all
// finished tasks of the kind, else 1; Known uses the estimates). The cluster
// target s_m ∈ [k, S−k] follows eq 4 when M or R changes and eq 6 at every
// other task end (A-T3):
//
//	s_m = ⌊w'_m/(w'_m+w'_r)·S⌋                               (eq 4)
//	s_m = s_m + trunc(α·(ρ_new − ρ_prev)·S),  α = 1.2        (eq 6, A-T2)
//
// Algorithm 3 splits it per node at each free slot and launches the kind
// with the larger node deficit; if no job has work of that kind the other
// kind launches when its node deficit is positive, else the slot stays free
// (A-T4) — unless the cluster runs nothing: then either kind launches, as
// the target of no running job would otherwise never change. k counts the
// nodes with slots.
//
// # H_TuMM (heterogeneous)
//
// At each free slot of node i, Algorithm 4 (A-T7's reading) sets
//
//	sⁱ_m = ⌊Sⁱ·t̄ⁱ_m n'_m / D⌋,  sⁱ_r = ⌊Sⁱ·t̄ⁱ_r n'_r / D⌋,  D = t̄ⁱ_m n'_m + t̄ⁱ_r n'_r
//
// from the unassigned tasks of the running jobs in each phase and the means
// over the running jobs' finished tasks on node i and in the cluster (A-T6);
// the leftover slot goes to the kind that is relatively fast on node i.
// When D = 0 the node keeps its targets and either kind may take the slot.
//
// # Static splits
//
// Static is FIFO whose node x runs at most m_x maps and r_x reduces: a
// per-node ratio (1:3, 2:2, 3:1), Algorithm 1's split spread evenly, or the
// nodes' configured MapSlots/ReduceSlots (Table 3). On a fungible cluster
// this is exactly fixed slots, and utilisation has the same denominator as
// TuMM's.
//
// # Names
//
// "tumm", "htumm", "static:M:R", "static:alg1", "static:nodes" (ByName).
package tumm
