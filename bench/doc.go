// Package bench holds mrbound's benchmarks that span packages: model I/O at
// scale, solver comparisons on the test sets and on the project's own
// formulations. Figures are recorded in docs/results.md with the date and the
// machine; nothing here asserts a time.
//
// Run them with
//
//	go test -run '^$' -bench . -benchmem ./bench/
package bench
