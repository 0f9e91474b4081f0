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
// a report is never printed with it. The same holds for a verified offline
// schedule (Offline.Schedules, package upperbound's constructions); one that
// failed the checker is listed with its verdict and never used.
//
// # The bracket
//
// The optimum lies in [bound, upper]: upper is the least verified value of
// the policies and the offline schedules (or the proven optimum), upper_by
// names what gives it, and bracket = upper/bound. bound_status is "optimal"
// exactly when the bracket is 1 — a proven optimum, or a verified schedule
// at the certified bound.
//
// # Outputs
//
// Report writes text (a table), JSON (metric, bound, bound_by,
// bound_status, optimum, upper, upper_by, upper_verified, bracket,
// policies[{policy, value, ratio, ratio_to_upper, verified}],
// offline_schedules[{by, value, verified}]), CSV, Markdown and an SVG bar
// chart of the ratios with the bound and the best known schedule as lines.
package compare
