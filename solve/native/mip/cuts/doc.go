// Package cuts holds the cutting-plane separators of the native branch-and-cut
// and the pool that filters and ages cuts.
//
// # Cuts
//
// Every cut is a valid inequality Σ_k Coef[k]·x[Ind[k]] ≤ Rhs over the columns
// of the (presolved) model. Separators are pure functions: they are given the
// problem's rows and bounds, an LP point and, for Gomory cuts, a simplex
// tableau row, and return cuts; they never touch an LP.
//
//   - Cover: lifted (extended) knapsack cover inequalities from single rows,
//     after complementing binaries with negative coefficients and moving other
//     columns to their bounds.
//   - Clique: a clique table built from set-packing and knapsack rows (any two
//     binaries, or complemented binaries, whose coefficients together exceed
//     the right-hand side conflict); separation grows maximal cliques greedily
//     by LP value.
//   - MIR: complemented mixed-integer rounding on aggregations of up to five
//     rows (row activities treated as bounded variables), with variable upper
//     bounds x ≤ U·y substituted (flow-cover-like cuts).
//   - GMI: Gomory mixed-integer cuts from a tableau row, with nonbasic columns
//     and row activities shifted to their bounds, mapped back to the columns.
//
// # Pool
//
// Pool keeps cuts in a canonical scaled form, rejects duplicates, ranks new
// cuts by efficacy (violation divided by the Euclidean norm) and keeps only
// cuts that are nearly orthogonal to cuts already chosen; cuts that stay slack
// in the LP for several rounds age out.
package cuts
