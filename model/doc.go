// Package model is mrbound's common representation of a linear or mixed-integer
// program: plain data that every formulation emits and every solver consumes.
//
// # Representation
//
// A Model is
//
//	minimise or maximise  c·x + offset
//	subject to            rowLower ≤ A·x ≤ rowUpper
//	                      colLower ≤ x   ≤ colUpper
//	                      x_j integer for integer and binary columns
//
// with A stored in compressed sparse column (CSC) form. A row-wise (CSR) view is
// built on demand by RowMatrix. Bounds may be ±Inf; a row with both sides
// infinite is a free row.
//
// # Building
//
// Models are built with a Builder: variables, families of variables indexed by
// typed keys, linear expressions and constraints. Build validates and returns a
// Model that nobody mutates afterwards: solvers and checkers share it read-only.
// Adding a constraint copies its terms, so one Expr may be reset and reused for
// the next row. Family names are formatted only by Build, into one buffer; a
// model with a million nonzeros builds with about 80 bytes allocated per
// nonzero (BenchmarkBuild1M, docs/results.md).
//
// # Checking
//
// Evaluate computes the objective, every row activity and the largest bound, row
// and integrality violations of a point; every backend test and every checker
// uses it.
//
// Package model imports nothing else of mrbound.
package model
