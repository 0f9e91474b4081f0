// Package presolve simplifies a mixed-integer program before branch-and-cut and
// maps solutions of the reduced program back to the original one.
//
// # Reductions
//
// Run applies, until nothing changes or a pass limit is reached:
//
//   - empty rows (dropped, or infeasibility detected);
//   - singleton rows (turned into column bounds, rounded for integer columns);
//   - activity-based bound tightening of integer columns from rows;
//   - redundant rows (the activity range lies inside the row bounds);
//   - coefficient tightening of binary columns in one-sided rows;
//   - duplicate (parallel) rows, whose bounds are intersected;
//   - fixed columns (substituted into the row bounds and the offset);
//   - empty columns (fixed at the bound the objective prefers).
//
// Every reduction keeps the set of integer-feasible points' objective values
// (bound tightening and coefficient tightening may cut off fractional points
// only), so an optimum of the reduced model is an optimum of the original.
//
// # Postsolve
//
// Reductions that remove columns push a record on a postsolve stack; Primal
// undoes them in reverse order, turning a point of the reduced model into a
// point of the original model.
package presolve
