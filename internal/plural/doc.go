// Package plural writes a count with its noun, in the singular for one: "1
// job", "2 jobs", "0 jobs".
//
// # Why a package
//
// Reports, chart titles and bar labels all print counts of jobs, tasks and
// items; "1 jobs" in a chart is the first thing a reader notices, and one
// helper keeps every place consistent.
package plural
