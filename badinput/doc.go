// Package badinput holds the one error every mrbound library returns when
// the caller's input is wrong, so that a caller tells bad input from a failed
// call with errors.Is(err, badinput.Err) whatever the formulation.
//
// # Errors
//
// Err is the sentinel. PathError names the place of the problem (file, JSON
// path or line:column) and wraps Err; Errorf wraps Err around any other
// message. The CLI maps Err to exit code 1.
package badinput
