// Package native is mrbound's embedded solver backend, registered as
// "native": it needs nothing but Go.
//
// # Linear programs
//
// LPs are solved by package simplex (a sparse bounded dual simplex with a
// primal cleanup); the Result carries the optimal point, row duals, reduced
// costs and the final basis, or a Farkas (Infeasible) or primal
// (Unbounded) ray.
//
// # Mixed-integer programs
//
// A model with integer columns is handed to SolveMIP, which the native
// branch-and-cut (package solve/native/mip) sets from its init function;
// import that package to enable it. Without it, Solve returns an error for
// MIPs.
package native
