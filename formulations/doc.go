// Package formulations is the front door every formulation shares: the
// Report interface its Run returns, one checker Verdict, and the Outcome
// (status, objective, bound) that the CLI and compare read without knowing
// the formulation.
//
// # The front door
//
// Every formulation package (jlassi, mrcp, coshh, tumm) has the same entry:
//
//	func Run(ctx context.Context, path string, data []byte, opts Options) (*Report, error)
//
// with its own Options and Report types; *Report satisfies Report. path only
// names the input in errors. The error is non-nil only for bad input (it
// wraps badinput.Err, and names the file and JSON path when the scenario is
// at fault) or a failed call; what the solve learned — infeasible, a limit,
// a gap — is in the Report's Outcome.
//
// # Bounds
//
// Outcome.Bound is a proven bound on the optimum in the direction of
// Outcome.Sense (a lower bound when minimising). Outcome.Objective is the
// value of the reported answer, which the formulation's independent checker
// judged in Outcome.Verdict; an unchecked or rejected answer never counts.
package formulations
