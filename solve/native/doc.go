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
// A model with integer columns is solved by the branch-and-cut of package
// solve/native/mip, which this package imports: importing native (or only
// registering it with a blank import) is enough to solve MIPs.
package native
