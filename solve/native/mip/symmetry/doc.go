// Package symmetry finds column permutations that map a mixed-integer program
// onto itself, for symmetry handling in the native branch-and-cut.
//
// # Detection
//
// The model is read as a coloured bipartite graph: one vertex per column
// (coloured by integrality, bounds and objective coefficient), one per row
// (coloured by its bounds), and an edge per nonzero coloured by its value.
// Colour refinement splits the vertices until every vertex of a colour sees
// the same multiset of (neighbour colour, coefficient) pairs. Columns left in
// the same colour are candidates to be exchanged. For a pair a, b of such
// columns, Find searches by individualisation and refinement (a small
// version of what graph-automorphism tools do) for a permutation that swaps
// a and b and fixes as many other vertices as it can, so that it is a
// transposition of whole blocks when the model has them (identical machines,
// identical bins). Every permutation returned has been verified against the
// model: bounds, types, objective, row bounds and every coefficient.
//
// # Limits
//
// All work is counted (refinement steps over the edges), never timed, and
// stops at a budget, so that detection is deterministic and cheap on models
// without symmetry: when refinement leaves every column in its own colour the
// search does not start.
package symmetry
