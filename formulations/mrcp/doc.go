// Package mrcp builds the MapReduce Constraint Program of Lim, Majumdar and
// Ashwood-Smith (MRCP, Table 1) as a MILP, in a time-indexed and a disjunctive
// form, decodes solutions into schedules and checks them against the instance.
//
// # The model
//
// Jobs j have a release s_j, a deadline d_j, map tasks and reduce tasks; task t
// has an integer duration e_t and a demand q_t; resource r has c^mp_r map and
// c^rd_r reduce slots (see package instances/mrcpscenario). The paper minimises
//
//	(Σ_j N_j + 1) · max_j (C_j − s_j)
//
// subject to (1) each task on one resource, (2) maps start ≥ s_j, (3) reduces
// start after every map of the job ends, (4) C_j = the latest reduce end,
// (5) C_j > d_j ⇒ N_j = 1, (6, 7) cumulative capacity of each resource's map
// and reduce slots, integer start times.
//
// # Linearisation
//
// Common to both forms: C_j ≥ end of each reduce (4 as ≥, exact at a minimum
// since the objective is non-decreasing in C_j);
//
//	C_j − (ubC_j − d_j)·N_j ≤ d_j          (5)
//	Z ≥ C_j − s_j
//
// and one of the objectives (ObjectiveKind):
//
//	product           (K + 1)·Z with K = Σ N_j = Σ_b 2^b y_b (b < bits(|J|)),
//	                  Z + Σ_b 2^b w_b,  w_b ≥ Z − Zmax·(1 − y_b),  w_b ≥ 0
//	                  (w_b = y_b·Z at any minimum: exact)
//	lexicographic     (Zmax + 1)·K + Z    (Z ∈ [0, Zmax] integer at a minimum)
//	weighted          w·K + Z             (w = LateWeight, default 100)
//	late-count        K
//	total-turnaround  Σ_j C_j − Σ_j s_j   (lateness ignored)
//	makespan          Cmax − min_j s_j,  Cmax ≥ C_j
//
// The last two are solved as one model (Monolithic), their windows bounded
// by the best known value U — the greedy heuristic's or Options.Incumbent, a
// schedule verified elsewhere: C_j − s_j ≤ U − F_j with F_j a bound on the
// other jobs' total turnaround (Options.OthersFloor), or C_j ≤ min s + U
// (completionWindows; docs/bounds.md §11a).
//
// The time-indexed form (timeIndexed) has x[t,ℓ,τ] for each start τ in the
// task's window, strong precedence through cumulative starts
// F_t(τ) = Σ_{τ'≤τ} x[t,·,τ'] with F_r(τ) ≤ F_m(τ − e_m), and a capacity row per
// lane and instant. Lanes are resources, or — by default when every demand is
// 1 — one pooled lane per slot kind, which has the same schedules (interval
// colouring gives back the slots) and no resource symmetry. On one lane the
// capacity row takes F_t(τ) − F_t(τ − e_t) (two nonzeros per task instead
// of e_t), and the pooled model is in step form: F_t is the integer
// variable, non-decreasing, and x is gone (the same LP relaxation). The disjunctive
// form (disjunctive) has integer starts, an assignment of each task to a
// unit slot and big-M ordering pairs for tasks whose windows overlap; it needs
// unit demands.
//
// With pooled lanes the identical maps of a job (same duration) share one
// integer count per start time instead of one binary per map, with
// precedence n_m·F_r(τ) ≤ F_m(τ − e_m) (Options.Disaggregated turns it off).
// Lateness also has the strong row N_j ≥ 1 − F_r(d_j − e_r) per reduce.
//
// # Late-count decomposition
//
// Run solves the product objective by default as one MILP per late count K
// (the lexicographic one too, with caps Z ≤ U − 1 − K·(Zmax + 1), and the
// late count alone, which stops at the first K with a schedule):
// minimise Z subject to Σ N_j ≤ K and Z ≤ cap, with caps rising from the
// lower bound Zmin (zlo, zlo+1, zlo+3, …, ⌊(U − 1)/(K + 1)⌋ for the incumbent
// U; windows end at the deadlines for K = 0), K stopping once (K + 1)·Zmin ≥
// U. Each capped subproblem has windows [s_j, s_j + cap], several times
// narrower than the product model's. Options.Method Monolithic solves the
// linearised product instead.
//
// Before any MILP (unit demands; Options.NoSearch turns it off) a
// combinatorial phase settles what it can: the preemptive relaxation on
// pooled slots (a max-flow per slot kind, relax.go) raises Zmin and dismisses
// caps and late sets, and a depth-first search over active schedules
// (search.go) decides whether the jobs can meet given completion deadlines,
// giving schedules (checked like the solvers') or proofs that none exists.
// It runs forward and on the mirror image of the instance (time reversed),
// and proves infeasibility also on the jobs released first or last alone.
// Late counts it cannot settle within its node budget go to the MILP with
// the lower bound it proved. docs/mrcp.md states each argument.
//
// Sizes, with T tasks, W the mean window, L lanes and P overlapping pairs:
// time-indexed ≈ T·W·L binaries and (L·horizon + Σ_reduces maps·W) rows;
// disjunctive ≈ T·slots + 2P binaries and P·(2 + slots) rows.
//
// # Horizon
//
// HorizonBound gives H = max_j s_j + Σ_t e_t, sound for every objective (an
// optimal schedule can be compacted so no instant after the last release is
// idle). For the product and weighted objectives a greedy schedule of value U
// further gives C_j ≤ s_j + U. Build documents the task windows that follow.
//
// # Checking
//
// Decode reads a schedule from a solution vector; Check verifies it against
// the instance alone — placement, releases, precedence, capacity at every
// instant on every resource and slot kind, completion times, lateness flags
// and the totals — and Run compares the recomputed objective with the
// solver's.
//
// # Front door
//
// Run(ctx, path, data, Options) is the library entry point, the same as
// every formulation's (see package formulations): load, build, solve,
// decode, check. Its *Report is a formulations.ScheduleReport: it writes the
// text report (with a Gantt chart), JSON, the schedule and SVG. Options is
// one struct: the model (Formulation, Objective, Horizon, PerResource,
// Disaggregated, which Build reads too) and the solve (Method, NoSearch,
// Solve).
package mrcp
