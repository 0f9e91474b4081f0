// Command hostile audits the mrbound binary with hostile inputs and counts
// the outcomes, for docs/reliability.md.
//
// # Cases
//
// Deterministic given -seed: hostile sweep titles, partitions and #SBATCH
// options (the generated script is run with sh beside a stand-in mrbound,
// and a PWNED marker file is looked for); outputs that name an input, a
// sweep's manifest, a directory or a device; usage errors of every kind;
// each example scenario mutated (a key repeated, a byte dropped or
// inserted, the document cut short, a number made 1e308 or -1); SWIM
// traces with repeated ids and times going back; SIGINT and SIGTERM sent
// while a simulation writes its trace and timeline.
//
// # Outcomes
//
// For every run: the exit code (0, 1, 2, a signal's 128+n, or killed at
// the per-run timeout), whether standard error is one line, whether it
// shows a panic, whether a temporary file or a PWNED marker was left, and
// whether an input changed. The summary counts them per class; any run
// that panics, leaves a temporary file, changes an input, creates the
// marker, exits 2 or needs the timeout is listed as a finding.
//
// # Use
//
//	go build -o bin/mrbound ./cmd/mrbound
//	nice go run ./bench/hostile -mrbound bin/mrbound -seed 1
package main
