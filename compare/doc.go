// Package compare puts online policies' runs next to the offline side of the
// same instance — the exact optimum when one is proven, else certified lower
// bounds — and checks, on every report, that no policy lies below the bound.
//
// # Inputs
//
// A lowerbound.Problem (the instance with true durations), the bounds of
// package lowerbound (optionally raised by windowbound), an optional proven
// optimum (enumerated, or windowbound.Optimum's whole-stream MRCP solve),
// and one Run per policy: each job's completion time from the
// simulator and the independent checker's verdict on the trace.
//
// # The invariant
//
// A verified run's metric value below the certified bound (or the proven
// optimum) means a bug in the simulator, the policy, the checker or a bound.
// Build returns ErrBelowBound, naming the policy, and the CLI exits non-zero:
// a report is never printed with it.
//
// # Outputs
//
// Report writes text (a table), JSON (metric, bound, bound_status, optimum,
// policies[{policy, value, ratio, verified}]), CSV, Markdown and an SVG bar
// chart of the ratios.
package compare
