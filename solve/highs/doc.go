// Package highs is the "highs" solve.Solver: the real HiGHS, compiled to
// WebAssembly by the highs npm package, run in-process with wazero (pure Go,
// no cgo).
//
// # Set-up
//
// The WebAssembly build is not vendored: `npm ci` in the repository root
// installs the pinned version (package.json, package-lock.json) into
// node_modules/highs/build. At run time the backend loads highs.wasm and its
// emscripten glue highs.js from $MRBOUND_HIGHS_DIR when it is set, else from
// the first node_modules/highs/build found walking up from the working
// directory, from the directory of the executable, and from this package's
// source directory.
//
// # How the module is driven
//
// highs.js is read at load time, not hard-coded: its wasmImports object maps
// the module's minified import names to emscripten host functions, which this
// package implements in Go (console output to the log writer, clocks, memory
// growth; an abort or a C++ throw becomes an error, never a crash), and its
// `_Highs_xxx = Module["_Highs_xxx"] = wasmExports["F"]` lines map the C API
// to minified export names. The module is compiled once per process (with a
// wazero compilation cache under os.UserCacheDir()/mrbound/wazero) and each
// solve gets its own module instance, so concurrent solves share nothing.
//
// # Limits
//
// Options.Start, when feasible for the model (checked with model.Evaluate),
// is passed with Highs_setSolution as a MIP start; HiGHS checks it again.
//
// Options.TimeLimit, RelGap, AbsGap, NodeLimit, IterationLimit and Seed map to
// HiGHS's time_limit, mip_rel_gap, mip_abs_gap, mip_max_nodes,
// simplex_iteration_limit and random_seed. The WebAssembly build is
// single-threaded, so Options.Threads is ignored.
//
// Context cancellation stops a solve without losing what it found: HiGHS
// always runs with a finite time_limit (about 32 years when the caller sets
// none), and once the context is done the clocks the module reads jump far
// ahead, so HiGHS stops at its next time check as at any time limit, with its
// incumbent and bound; the result is Interrupted (TimeLimit when the stop came
// from Options.TimeLimit, which is also enforced that way a grace period after
// HiGHS's own limit). Should HiGHS still run two seconds later, the next clock
// read unwinds the module call and the result has no solution. wazero's
// WithCloseOnContextDone is not used: its termination checks in every loop
// made HiGHS 3.5 times slower.
//
// # Results
//
// Statuses map one to one (HiGHS's solution limit, reached through
// mip_max_nodes, is NodeLimit); an infeasible-or-unbounded answer is settled
// by a second solve (without presolve for an LP, with a zero objective for a
// MIP). Bound is the objective for an optimal LP and HiGHS's mip_dual_bound
// for a MIP. For an optimal LP the result carries row duals, reduced costs
// (d = c − Aᵀy, HiGHS's sign convention) and the basis; an unbounded LP
// carries HiGHS's primal ray and an infeasible one its dual (Farkas) ray, in
// the conventions solvertest.CheckRay and CheckDualRay state. HiGHS always logs,
// into a short buffer that explains failures; the log reaches Options.Log
// when Verbosity ≥ 1 (2 adds HiGHS's log_dev_level 1). A MIP's LP iteration
// count is read from HiGHS's solving report, which has no info value for it.
package highs
