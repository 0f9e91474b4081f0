// Package progress reports how far a long command has got on standard error:
// a bar when the writer is a terminal, a plain line every Interval otherwise
// (a log file, a pipe, a batch job's output), nothing when quiet.
//
// # Why plain lines
//
// A bar redraws itself with carriage returns, which a log file keeps as one
// line of garbage; a batch job or a pipe gets instead one readable line per
// interval ("compare: 3/12 instances (25%), 40 s elapsed"), so that a run of
// minutes is never silent and never floods its log.
//
// # Unknown totals
//
// A step whose size is unknown (one solve) gets total 0: the bar is a
// spinner and the plain line says only how long it has been running.
package progress
