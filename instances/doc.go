// Package instances holds what the scenario formats of mrbound share; each
// format lives in its own sub-package, named <formulation>scenario
// (jlassiscenario, mrcpscenario, coshhscenario, tummscenario) so that it
// imports beside formulations/<formulation> without an alias.
//
// # Errors
//
// Every loader reports the first problem as a *badinput.PathError naming the
// file and JSON path; errors.Is(err, badinput.Err) holds for all of them.
package instances
