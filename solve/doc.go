// Package solve is mrbound's solver interface: one Solve call that takes a
// model.Model and returns what the solve learned.
//
// # Two channels
//
// Solve returns an error only when the call itself failed (bad options, a
// backend that cannot start, a model a backend rejects). Everything the solve
// learned — optimal, infeasible, unbounded, a limit reached — is data in
// Result, which always carries a primal bound (Objective, the best solution
// found) and a dual bound (Bound), both in the model's own sense.
//
// # Backends
//
// Backends live in sub-packages (solve/highs, solve/native) and register
// themselves by name with Register from an init function; a program selects
// them by importing the package and naming the backend in Options.Solver.
// solve/solvertest is the conformance suite that every backend runs.
package solve
