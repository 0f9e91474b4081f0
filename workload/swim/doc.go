// Package swim reads SWIM workload traces (SWIMProjectUCB/SWIM, e.g. the
// Facebook 2009 samples) and turns them into simulator workloads
// (policies.md §3.5).
//
// # Format
//
// Tab-separated, no header, one job a line: job id, submit time (s from the
// start), gap to the previous submission (s), map input bytes, shuffle
// bytes, reduce output bytes. Blank lines are skipped. A line with too few
// or too many fields, a number that does not parse, a negative value, or a
// non-finite one is an error naming file:line and the field.
//
// # Bytes to tasks (the model; every parameter is a field of Model)
//
//	maps     = max(1, ⌈input / BlockBytes⌉); map i reads min(BlockBytes, the rest)
//	reduces  = 0 if shuffle = output = 0 (map-only; with ReducesNeedShuffle: if shuffle = 0),
//	           else max(1, ⌈shuffle / ReduceBytes⌉)
//	map      = TaskOverhead + its input bytes / MapRate
//	           (+ its share of the output / MapRate for a map-only job)
//	reduce   = TaskOverhead + (shuffle + output) / reduces / ReduceRate
//
// Durations are at speed 1 on a homogeneous cluster of Nodes nodes with
// MapSlots and ReduceSlots each; blocks have Replicas copies placed by the
// simulator, and a non-local map pays NonLocalPenalty. The trace has no
// users, priorities or deadlines: every job is in one pool.
package swim
