// Package mps reads fixed and free MPS files into a model.Model and writes
// models as free MPS.
//
// # Reading
//
// Read accepts the sections NAME, OBJSENSE (section form "OBJSENSE" followed by
// a line " MAX", or same-line form "OBJSENSE MAX"; MIN, MAX, MINIMIZE and
// MAXIMIZE are understood), OBJNAME, ROWS, COLUMNS, RHS, RANGES, BOUNDS and
// ENDATA. Lines starting with '*' and blank lines are comments. SOS, quadratic
// and indicator sections, and SC bounds, are refused with an error.
//
// Fixed or free format is decided per file: the file is parsed as free MPS
// (fields separated by white space, an RHS, RANGES or BOUNDS set name may be
// omitted and is recognised by the number of fields); if that fails it is
// parsed again as fixed MPS (fields by column: 2-3, 5-12, 15-22, 25-36, 40-47,
// 50-61), whose names may contain spaces; those spaces become '_' since model
// names carry no white space. When both fail, the error of the parse that got
// further is returned.
//
// # Conventions
//
// These follow CPLEX, Gurobi, SCIP and HiGHS where readers differ:
//
//   - The first N row is the objective; further N rows are dropped together
//     with their entries. OBJNAME picks another N row as the objective.
//   - A value in RHS on the objective row r gives the objective constant −r
//     (so that e226 from NETLIB has optimum −11.638929066; GLPK uses +r).
//   - RANGES with value R on row with right-hand side b: L row [b−|R|, b];
//     G row [b, b+|R|]; E row [b, b+R] when R > 0 and [b+R, b] when R < 0.
//   - An integer column inside MARKER 'INTORG'/'INTEND' that has no entry in
//     BOUNDS gets bounds [0, 1] (type Integer); any BOUNDS entry on the column
//     cancels that default, so the other bound keeps its usual default (0 or
//     +Inf). GLPK, lp_solve and Xpress use [0, +Inf) instead; our writer always
//     writes bounds for integer columns, so its files mean the same everywhere.
//   - An UP (or UI) bound with a negative value on a column that has no
//     explicit lower bound sets the lower bound to −Inf (CPLEX, HiGHS, SAS).
//   - BV makes a column Binary with bounds [0, 1]; LI and UI make it Integer.
//   - Only the first RHS, RANGES and BOUNDS set named in the file is used;
//     lines without a set name always apply.
//   - Values are parsed by strconv.ParseFloat, so "Inf" and "1e+30" are read
//     as written: 1e30 stays 1e30. NaN is refused, as are infinite matrix
//     coefficients and ranges.
//   - Matrix entries with value 0 are dropped; a repeated (row, column) entry
//     is an error.
//
// Every error is a *ParseError "file:line: message" naming the offending row
// or column where there is one.
//
// # Writing
//
// Write emits free MPS that Read turns back into the same model, array for
// array: unnamed rows and columns get generated names (R<i>, C<j>, made unique),
// floats are written with strconv.FormatFloat(v, 'g', -1, 64), a maximisation
// gets OBJSENSE MAX, the objective constant is written as minus the RHS of the
// objective row, ranged rows go through RANGES (with a range value chosen so
// that the bounds are recomputed bit for bit; a range wider than the largest
// float64 is an error), free rows are L rows with RHS
// +Inf, and integer columns are written in MARKER blocks with explicit bounds.
// The one exception to "the same model": a binary column whose bounds are not
// [0, 1] is written BV then FX (CBC refuses LO and UP after BV), with
// fractional bounds rounded inwards, so [0.3, 1] reads back as [1, 1] — the
// same values of the column. Only an empty binary ([0.3, 0.7]) is written
// with LO and UP, which CBC refuses and Read reads back exactly.
package mps
