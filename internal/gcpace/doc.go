// Package gcpace lowers the garbage collector's growth target for runs of
// millions of tasks, where the heap's growth, not its live data, sets the
// peak resident memory.
//
// # Why
//
// With Go's default pacing (GOGC=100) the heap may grow to twice what was
// live at the last collection before the next one starts. A compare run on
// FB-2009 day 0 allocates each policy's engine, trace and checker arrays
// (a few hundred bytes per task) and drops them after the run; its peak
// resident set was 564 bytes per task with the default pacing and 346 with
// a growth target of 25 %, at the same CPU time (docs/results.md, issue
// 30): the arrays are pointer-free, so a collection costs little. A target
// of 10 % gave 324 bytes per task for a quarter more CPU time.
//
// # What it does not do
//
// It never overrides a GOGC the user set in the environment, and it leaves
// small runs (under LargeTasks tasks) alone.
package gcpace
