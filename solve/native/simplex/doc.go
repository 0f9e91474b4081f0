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
// (lu.go); updates use the product form with refactorisation every
// refactorEvery updates and on numerical trouble. The bounded dual simplex
// (dual.go) uses dual steepest-edge pricing and a Harris two-pass ratio test
// with bound flipping; a primal simplex with Devex pricing (primal.go)
// cleans up after cost shifts and perturbations are removed. The problem is
// scaled by powers of two (geometric mean, then equilibration). Before
// Optimal is reported the unscaled point is checked for primal and dual
// feasibility; on failure the engine refactorises and re-solves without
// perturbation, and reports NumericalTrouble rather than a doubtful optimum.
//
// # Warm start
//
// A Solver keeps its basis between Solve calls: after SetColBounds or
// AddRows the next Solve resumes with the dual simplex; Clone copies the
// whole state for branch-and-bound.
package simplex
