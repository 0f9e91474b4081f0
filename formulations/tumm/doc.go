// Package tumm implements the slot-configuration models of TuMM and H_TuMM
// (Yao et al., "Self-adjusting slot configurations for homogeneous and
// heterogeneous Hadoop clusters", IEEE TCC 2015): Algorithm 1, the best
// static map/reduce split under FIFO, and the per-node integer program of
// eqs 8–17 for heterogeneous clusters.
//
// # Algorithm 1
//
// For a FIFO batch and S slots, StaticConfig enumerates s_m = 1..S,
// s_r = S − s_m, and evaluates
//
//	st(i) = st(i−1) + w_m(i−1)/s_m
//	ft(i) = max(st(i) + w_m(i)/s_m, ft(i−1)) + w_r(i)/s_r
//
// keeping the smallest ft(n) (first on ties). Simulate is an independent,
// task-level simulation of the same FIFO pipeline used to test it.
//
// # The per-node program (eqs 8–17)
//
// BuildHet emits, for nodes i with S^i slots and mean task times t̄_m^i,
// t̄_r^i, and n'_m, n'_r remaining tasks, the program of §5.1 with integer
// waves v and slots s. The products v·s of eqs 10–11 are linearised exactly
// with a one-hot z[i,k] (node i has k map slots) and y = v_m·z, u = v_r·z.
// Size: per node 3(S^i+1) + 2 columns and 2(S^i+1) + 4 rows, plus the
// objective column, two coverage rows and, with Align, k(k−1) + k² rows.
//
// Readings (the published conditions are garbled): eqs 12–15 are applied to
// every unordered pair of nodes as |F^i − F^j| ≤ max(t̄^i, t̄^j), which is the
// published pair of rows for the pair oriented so that t̄^i < t̄^j; eqs 16–17
// to every (i, j) as |F_m^i − F_r^j| ≤ max(t̄_m^i, t̄_r^j). Eq 8 minimises the
// map phase's finish ("published"); the "stage" objective minimises the later
// of the map and reduce finishes and is the one that matches Algorithm 1 on a
// homogeneous cluster.
//
// # Checking
//
// CheckHet re-verifies the decoded slots and waves against the instance; the
// predicted makespan is recomputed from the slots alone by PhaseFinish (each
// slot runs its phase's tasks back to back).
//
// # Front door
//
// Run(ctx, path, data, Options) loads a scenario, runs Algorithm 1 and/or
// solves the per-node program and checks both, the same entry as every
// formulation's (see package formulations). RunScenario does the same for a
// parsed scenario.
package tumm
