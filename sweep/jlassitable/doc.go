// Package jlassitable runs Jlassi et al.'s Table 6 analogue (package
// formulations/jlassi's RunTable) on one machine with resumable records, or
// as the sweep kind "jlassi-table", one (scenario, seed) instance per item.
//
// # One machine
//
// RunTable is `mrbound table jlassi`: every finished instance is appended to
// OUT.instances.csv and the table OUT is rewritten, so an interrupted run
// resumes where it stopped (package sweep/record).
//
// # As a sweep
//
// Plan turns the same table options into a sweep manifest; each item solves
// one instance into its record (the records file's row, as JSON); Collect
// writes OUT and OUT.instances.csv from the results in item order — the
// files RunTable writes — and the table to standard output. The per-item
// time limit is twice the solve's time limit (the MILP, then its LP
// relaxation) plus ItemOverhead.
package jlassitable
