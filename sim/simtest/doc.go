// Package simtest is the conformance suite every policy runs, like
// solve/solvertest for solvers: Run(t, newPolicy, caps) simulates a set of
// small workloads (fixed and fungible slots, heterogeneous nodes, RAM
// limits, chained jobs, noise and contention, both offer modes) and requires
// of each run that
//
//   - the independent checker (sim/check) verifies the trace;
//   - the policy attempted no invalid action;
//   - every job completes (work conservation up to the policy's own rules);
//   - the run is deterministic: a fresh policy on the same seed gives the
//     same trace;
//   - in heartbeat mode, literal heartbeats give the same trace as the
//     engine's parked nodes (the policy keeps the wake contract).
//
// A missing capability is skipped with its reason (Caps). Wrong policies
// (Starver, Rogue) prove that the suite can fail.
package simtest
