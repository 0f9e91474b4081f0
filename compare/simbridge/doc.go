// Package simbridge turns a simulator workload into the bound's problem and a
// simulated run into completion times, so that package compare can put
// policies next to the offline side of the same instance.
//
// # Durations
//
// A task's duration in the problem is a lower bound on every duration the
// simulator can give it on a node: the base duration (ByGroup[group], or
// Work/speed) times (1 − Noise), rounded as the simulator rounds (to the
// nearest ms; a hair is taken off first). Contention (factor ≥ 1), the
// non-local penalty and heartbeats only add time (docs/bounds.md §0). Nodes
// are grouped by (group, speed).
//
// # Refused
//
// Overlap ω > 0 (a reduce's work may then start before the last map ends).
// Chained jobs (Parent ≥ 0, submitted when the parent completes) get the
// arrival lower bound a_parent + CP_parent, which is valid for the makespan
// only: Compare refuses the other metrics on chained workloads.
package simbridge
