// Package mip is the native branch-and-cut solver for mixed-integer linear
// programs, built on the native simplex (solve/native/simplex).
//
// # Algorithm
//
// Solve presolves the model (package presolve), solves the LP relaxation at
// the root, adds cutting planes in rounds (clique, knapsack cover, aggregated
// c-MIR and Gomory mixed-integer cuts from package cuts, filtered by a pool on
// efficacy and parallelism, slack cuts aged out), fixes columns by reduced
// costs, runs primal heuristics, and then searches a branch-and-bound tree:
//
//   - node selection: best bound, with depth-first plunging into a child while
//     its bound stays close to the best open bound;
//   - branching: reliability branching — pseudo-costs, initialised for each
//     column by strong branching (iteration-limited dual simplex on a clone of
//     the LP) until both directions have been observed reliabilityCount times;
//     a node stops strong branching after maxFlatStrong candidates in a row
//     that moved the bound in neither direction (flat objectives);
//   - node LPs are warm-started from the parent's final basis (dual simplex
//     after the bound change), after activity-based bound propagation on the
//     rows of the branched columns, on the symmetry constraints and on the
//     stored proofs (below);
//   - symmetry: package symmetry finds column permutations that map the
//     presolved model onto itself (swaps of identical machines, bins,
//     colours); each becomes a lexicographic constraint x ≥lex σ(x) in one
//     fixed column order (binaries first), which the lexicographically
//     largest image of any point satisfies, and nodes propagate them;
//   - proofs: when a node LP is infeasible its Farkas ray, and when its bound
//     reaches the cutoff its duals together with the cutoff, aggregate the
//     rows into one inequality that the node's bounds violate; a ring of
//     maxProofs of them is propagated at later nodes, which prunes nodes
//     before their LP and rounds integer bounds;
//   - reduced-cost fixing at every node once an incumbent exists: an integer
//     column nonbasic at a bound whose reduced cost times one unit of move
//     exceeds the gap between the incumbent and the node LP is bounded for
//     the node's subtree (at the root the same test tightens global bounds);
//   - heuristics: simple rounding by locks at every node, ZI rounding (shifts
//     within row slacks) at the root and every ziFreq nodes, fix-and-propagate
//     (integer columns fixed by decreasing LP value with bound propagation and
//     bounded backtracking, no LP until the final one over the continuous
//     columns) on the root LP before the cuts and in the tree every diveFreq
//     nodes at first, on an interval that doubles after each run without a
//     better incumbent, fractional diving at the root and every diveFreq
//     nodes while the dives' simplex iterations stay within a quota of the
//     node LPs', a feasibility pump at the root when diving found nothing,
//     RINS (a sub-MIP on the columns where the LP and the incumbent agree,
//     the incumbent as its start) at the root once an incumbent exists, then
//     with a doubling interval. All budgets are counts (nodes, iterations,
//     row visits), never clock time, so that the search is deterministic.
//
// # MIP start
//
// Options.Start is checked on the original model (integer columns rounded,
// tolerance feasTol); a start that fails is ignored and the log says why. A
// feasible start is mapped to the presolved model; when a reduction excludes
// it, its integer values are fixed and the LP over the continuous columns
// completes it. The result is the first incumbent: it prunes from the root on.
//
// Cuts are separated at the root only: the cut rows stay in the LP for the
// whole tree, so every stored basis has the same rows.
//
// # Log
//
// With Options.Log set and Options.Verbosity ≥ 1 the solver prints the
// presolve summary, the root cut summary and a progress line at the root, at
// every new incumbent and every two seconds: nodes, open nodes, incumbent,
// bound, gap, LP iterations and time. The first column tags the line: r root
// LP, c root after cuts, and the source of a new incumbent — L an integral
// node LP, R simple rounding, N nearest rounding, D diving, F feasibility pump,
// Z ZI rounding, P fix-and-propagate, I RINS, S the MIP start; * is the final
// line. The progress line also shows the share of the tree closed so far
// (2^−depth summed over the nodes that ended without children), and the
// final log a line on the symmetry, proof and strong-branching counts.
// Verbosity 2 adds one line per cut round.
//
// # Results
//
// The result follows solve.Result: the incumbent postsolved and checked
// against the original model with Model.Evaluate (a point that fails the check
// is dropped, never reported), the dual bound from the open nodes, node and
// simplex iteration counts. Limits (time, nodes, iterations, context
// cancellation) stop the search with the incumbent and an honest bound.
//
// The bound is the global dual bound at the stop: the least of the bounds of
// the open nodes, the node in process, the subtrees abandoned for numerical
// trouble and every region pruned within the gap tolerance (a node whose
// bound came within max(AbsGap, RelGap·|incumbent|) of the incumbent, a
// strong-branching child cut off at that cutoff, what a cutoff proof
// excluded), never past the incumbent. The tolerance prunes such regions
// without searching them, so they may hold points better than the incumbent
// and the bound must count them: Optimal then means "within the tolerance",
// and Bound and Gap say by how much. (Until issue #14 the pruned regions were
// forgotten and a search that pruned within the tolerance reported the
// incumbent as the bound: on p0033 with RelGap 0.1, bound 3095 above the
// optimum 3089.)
//
// The search runs on one thread and is deterministic for a given
// Options.Seed.
package mip
