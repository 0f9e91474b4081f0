// Package stopper lets a model build's loops honour the caller's context and
// time limit without reading either on every step.
//
// # Why
//
// A time-indexed model of a long horizon takes seconds to minutes to emit,
// before any solver sees it; a --time-limit or a Ctrl-C that is only passed
// to the solve is not honoured there. A builder creates one Stopper per run,
// calls Tick once per unit of work (a task, an interval, a node) and gives up
// when it reports a stop; the caller then reports Status (interrupted or
// time_limit) with only what it had proven before the build.
//
// formulations/mrcp keeps its own stopper (the same rules, shared with its
// combinatorial search); the Jlassi, TuMM and COSHH builds use this one.
package stopper
