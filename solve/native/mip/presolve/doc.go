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
//   - empty columns (fixed at the bound the objective prefers);
//   - dual fixing: a column that no row stops from moving to the bound its
//     objective coefficient prefers (or is indifferent to) is fixed there;
//   - slack columns: a continuous column without cost in a single row is
//     removed and the row's bounds absorb its range.
//
// Every reduction keeps an optimal point (bound tightening and coefficient
// tightening cut off fractional points only; dual fixing keeps, for every
// feasible point, one at least as good; a slack column can take a feasible
// value whenever its row's new bounds hold), so an optimum of the reduced
// model maps to an optimum of the original.
//
// # Postsolve
//
// Reductions that remove columns push a record on a postsolve stack; Primal
// undoes them in reverse order, turning a point of the reduced model into a
// point of the original model (a slack column gets the value closest to 0
// that satisfies its row as it was when the column was removed).
package presolve
