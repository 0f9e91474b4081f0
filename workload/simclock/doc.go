// Package simclock converts a scenario's times in seconds to the
// simulator's int64 milliseconds, refusing a time too large for them with
// the field that holds it.
//
// # Why
//
// Converting 1e308 s straight to int64 wraps to a negative number, which
// the simulator then reports as a negative arrival against its own job
// path; a Clock keeps the first such value with the scenario's field.
package simclock
