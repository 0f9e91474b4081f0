// Package jlassi builds, solves, decodes and checks the time-indexed MILP of
// Jlassi, Martineau and Tkindt, "Offline scheduling of map and reduce tasks on
// Hadoop systems" (CLOSER 2015), as read in ../shared/docs/formulations.md §1.
//
// # Model
//
// The horizon is T intervals of variable length; a task placed in interval t
// runs entirely inside it and L_t is the longest task there. With W_i(t) =
// Σ_{j,c} w[i,j,c,t] (c ranges over slot classes, see below):
//
//	min   Σ_t L_t                                          (realtime; or eq 1, eq 2, none)
//	s.t.  Σ_t W_i(t) = 1                                    assign (8, 9)
//	      Σ_i w[i,j,c,t] ≤ |c|                               slot (4, 5)
//	      Σ_{c,i} n^r_i w[i,j,c,t] ≤ R_j                     ram (3)
//	      Σ_{c,i} n^h_i w[i,j,c,t] + Σ_b S_b y[b,j,t] ≤ H_j   disk (6)
//	      Σ_{t'≤t} W_k(t') ≤ Σ_{t'<t} W_l(t')                precedence (7), reduce k, map l of its job
//	      y[b,j,t] ≤ y[b,j,t−1] + Σ_{j'} u[b,j'→j,t−1]      arrival (11)
//	      y[b,j,t] ≥ y[b,j,t−1],  y[b,j,t] ≥ u[b,j'→j,t−1]
//	      u[b,j→j',t] ≤ y[b,j,t]                   (j not a home of b)      source
//	      Σ_c w[l,j,c,t] ≤ y[b,j,t]                (b ∈ B_l, j not a home)  locality (12, 13)
//	      z[l,l',j,j',t] ≥ Σ_{t1≤t} W_{l'}(j',t1) + Σ_{t2≥t} W_l(j,t2) − 1   shuffle (15)
//	      Σ_{(j,j')∈P_e} [bwd Σ_b u[b,j→j',t] + Σ b_{l,l'} z[l,l',j,j',t]] ≤ b_max(e)   bandwidth (14)
//	      Σ_i p_{i,j,c} w[i,j,c,t] ≤ |c| L_t,  Σ_{j,c} p_{i,j,c} w[i,j,c,t] ≤ L_t    length (18)
//	      Σ_t L_t ≥ max_jobs (max_l p^min_l + max_k p^min_k)                       critical path
//
// w, u, y, z binary; L ≥ 0. Home replicas are the constant 1 (eq 10).
//
// # Forms
//
// Strong (the default) is the model above: slots that no task and no cost
// tell apart form one class c (removing their symmetry), precedence is
// cumulative, block arrival incremental, shuffle compact, and RAM, disk and
// bandwidth rows that cannot bind are dropped. Published keeps one class per
// slot, per-task length rows, aggregated precedence, the y ≤ Σ u and y ≥ u
// pairs of (11), per-slot locality and the O(T³) shuffle family. Both have the
// same schedules; the strong LP bound is at least the published one.
//
// # Size
//
// With N tasks, M machines, K slot classes per machine and kind, B blocks,
// P shuffle pairs and E links: about N·M·K·T w, B·M·(M−1)·T u, B·M·T y,
// P·M·(M−1)·T z and T L columns; about N + 2·M·K·T + N·T + 2·M·T + maps·reduces·T
// + B·M²·T + maps·B·M·T + P·M²·T + E·T rows. Scenario 5 (30 tasks, 3
// machines, T = 7): 2219 columns, 2579 rows in the strong form.
//
// # Decoding and checking
//
// Model.Decode turns a solution into a Schedule (placements, migrations,
// shuffle reservations, interval lengths, RealTime = Σ_t L_t and the unit of
// T = RealTime / T). Check verifies a Schedule against the instance alone,
// family by family, recomputes RealTime and the objective, and returns a
// CheckReport naming the first violation. RunInstance chains build, solve,
// decode and check; RunTable regenerates the paper's Table 6.
//
// # Front door
//
// Run(ctx, path, data, Options) loads a scenario and runs it; its *Report
// is a formulations.ScheduleReport, like every formulation's (see package
// formulations).
//
// # Heuristic and MIP start
//
// Heuristic builds a schedule by list scheduling (maps, then reduces, each
// where it adds least to RealTime, with migrations and shuffle bandwidth
// planned on the way) under several task orders and settings, and keeps the
// best one the checker accepts. Model.Encode turns a schedule into a vector
// over the model's columns and verifies it with model.Evaluate. Run (unless
// Options.NoHeuristic) passes that vector as solve.Options.Start and
// reports the heuristic's schedule, marked as such, when the solver returns
// none or a worse one.
package jlassi
