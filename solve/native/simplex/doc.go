// Package simplex is mrbound's native LP engine: a sparse bounded revised
// simplex method (dual and primal) that a branch-and-cut can warm-start.
//
// # Problem
//
// The engine works on the continuous relaxation of a model.Model,
//
//	minimise  c·x   subject to   rowLower ≤ A·x ≤ rowUpper,  colLower ≤ x ≤ colUpper,
//
// directly, without conversion to standard form: each row i gets a logical
// variable r_i = a_i·x bounded by the row bounds, so the constraint system
// is [A −I]·(x, r) = 0 and every variable is bounded (possibly by ±Inf).
// A maximisation is solved as the minimisation of −c; all quantities returned
// are in the model's own sense.
//
// # Method
//
// The basis is factorised by a sparse LU with threshold Markowitz pivoting
// (lu.go: row singletons first, then a Markowitz search over column-count
// buckets). FTRAN and BTRAN are hyper-sparse (hyper.go): for a sparse
// right-hand side (a unit vector, a column of A, a row of B⁻¹) each stage —
// the L etas, the row etas of the updates, U; for BTRAN Uᵀ, the row etas
// and a row-wise copy of L — first computes the nonzero pattern of its
// result by a depth-first search over the factor's structure and then
// solves over that pattern alone, in the search's topological order; a
// stage whose pattern exceeds hyperDensity·m falls back to the dense loop,
// which skips zeros. The iterations keep the pivot row, the entering column
// and the steepest-edge vector as sparse vectors (values and the list of
// nonzeros), so updates of x_B and of the weights, the primal ratio test and
// the pivot row's products (row-wise over ρ's nonzeros when that is less
// work) cost their nonzeros, not m. The dual ratio test works on a compact
// copy of its candidates and sorts them by ratio once bound flipping has
// taken more than bfrtSortPasses passes (ratio.go).
// Basis changes are Forrest–Tomlin updates: the leaving column of U is
// replaced by the spike L⁻¹a_q, moved last in the pivot order, and the old
// pivot row is eliminated into a row eta. The basis is refactorised every
// refactorEvery updates, when U has doubled in size, when an update is
// unstable and when the pivot computed by row and by column disagree. A
// singular basis is repaired by row logicals.
//
// Solve first makes the basis dual feasible (boxed variables are flipped to
// the other bound, the costs of the others shifted), runs the bounded dual
// simplex (dual.go: dual steepest-edge pricing, a Harris two-pass ratio
// test with bound flipping, costs perturbed once it stalls), restores the
// true costs and runs the primal simplex (primal.go: Devex pricing, random
// pricing once it stalls, Harris ratio test) to remove any dual
// infeasibility left. On a cold start whose
// slack basis is dual infeasible, the primal simplex does most of the work.
// Each simplex phase is capped at phaseCapFactor·(m+n)+phaseCapBase
// iterations against cycling. The final check recomputes x_B and y with one
// step of iterative refinement (skipped when the residual is already at
// rounding level, refineSkipTol). The
// problem is scaled by powers of two (geometric mean, then column
// equilibration), so scaling introduces no rounding.
//
// # Never a wrong optimum
//
// Before Optimal is reported the unscaled point is checked: bounds and rows
// to finalTol relative to the bound, row activities recomputed from the
// columns, and reduced-cost signs relative to the magnitude of their terms.
// On failure Solve retries from a fresh factorisation without perturbation
// and with working tolerances ten times tighter, up to maxAttempts times,
// then reports NumericalTrouble. Infeasible is reported only when the dual
// ratio test finds no candidate with a fresh factorisation (Ray is the
// Farkas certificate); Unbounded only from the primal simplex on a primal
// feasible basis (Ray is the improving direction).
//
// # Warm start
//
// A Solver keeps its basis between Solve calls: after SetColBounds or
// AddRows the next Solve resumes with the dual simplex; Clone copies the
// whole state for branch-and-bound.
package simplex
