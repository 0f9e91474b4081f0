// Package solvertest is the conformance suite that every solve.Solver backend
// runs: small LPs and MIPs with known answers, and the public test problems of
// ../shared/testsets with their published optima.
//
// # Use
//
// A backend's test file calls Run and lists its opt-outs, each with a reason:
//
//	func TestConformance(t *testing.T) {
//		solvertest.Run(t, func() solve.Solver { return mybackend.New() }, solvertest.Caps{
//			NoBasis: "the interior-point path returns no basis",
//		})
//	}
//
// A capability a backend opts out of is skipped with t.Skip(reason), never
// passed silently; the zero Caps claims everything.
//
// # Subtests
//
// "lp/<case>" and "mip/<case>" solve the models of Cases, each built in its
// own function whose doc comment states the model and its LP and IP optima;
// "lp/relaxation_<mip>" solves the LP relaxation of each MIP;
// "testsets/<name>" solves every problem listed in ../shared/testsets/optima.tsv
// (found beside the module root; skipped when absent), skipping the "hard"
// ones, and the "medium" ones under -short;
// "bounds/<case>/<stop>" is the bound matrix: every BoundCase (seeded random
// pure-integer MILPs whose optima are enumerated, minimisations and
// maximisations with objective offsets, and four small test-set MIPs plus
// three mirrored into maximisations) solved under every Stop (relative gaps
// 1e-1, 1e-2, 1e-4, an absolute gap, node limits 1, 10, 100, an iteration
// limit, an expired time limit, a cancelled context).
//
// # Checks
//
// Every result: the call returns no error, the status is the known one
// (InfeasibleOrUnbounded for an infeasible or unbounded model only when
// Caps.InfeasibleOrUnbounded opts out of exact statuses), Bound and Objective are in
// the right order, and a claimed solution evaluates (model.Evaluate) to
// within FeasTol of its bounds, rows and integrality, with the reported
// objective. Optimal results: the objective matches the known optimum to
// ObjTol relative, the dual bound is no better than the optimum, a MIP's gap
// is within the default tolerance, an LP's bound equals its objective, and an
// LP's duals satisfy d = c − Aᵀy, dual feasibility and complementary
// slackness (CheckDuals), and its basis matches the point (CheckBasis).
// Every stop of the bound matrix: bound ≤ optimum ≤ objective when
// minimising (mirrored when maximising) to BoundTol relative, whatever the
// status; Optimal only within the requested gap (CheckBounds). A dual bound
// past the optimum is the worst defect a solver of this project can have.
// Unbounded results carry an infinite bound and infeasible ones no solution;
// a primal ray (unbounded) or a Farkas dual ray (infeasible LP), when the
// result has one, is checked too (CheckRay, CheckDualRay).
//
// The suite is itself tested: an oracle fake that returns the stored answers
// passes it, and fakes that are wrong in one way each (objective, point,
// bound, status, integrality, duals) fail it; so do fakes with a bound past
// the optimum at a limit, an objective past it, or an Optimal gap past the
// tolerance on every case of the bound matrix.
package solvertest
