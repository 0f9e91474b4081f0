// Package lpformat reads and writes models in CPLEX LP format.
//
// # Writing
//
// Write emits
//
//	\ Problem: NAME
//	Minimize            (or Maximize)
//	 obj: + 3 x + 0 y + 2 z + 5
//	Subject To
//	 c1: + x + y >= 2
//	 c2: 1 <= + x - z <= 4
//	Bounds
//	 x free
//	 -inf <= y <= 5
//	General
//	 z
//	Binary
//	 b
//	End
//
// Every column appears in the objective, in index order, with a 0 coefficient
// where it has none, so that reading assigns the same column indices. The
// objective constant is the last term of the objective (HiGHS reads it;
// GLPK's LP reader refuses constants in the objective). A ranged row is
// written as "name: lo <= expr <= up": CPLEX's own LP dialect has no one-line
// ranged row (CPLEX and GLPK write an extra range variable instead, which
// would change the column count); HiGHS and this package read the two-sided
// form. A free row is written "name: expr >= -inf". A row without entries is
// written "name: 0 x >= rhs" with x the first column (or "name: 0 >= rhs" in a
// model without columns).
//
// Names: a name is kept verbatim when it is legal in LP format: 1 to 255
// characters from letters, digits and !"#$%&()/,.;?@_`'{}|~, not starting
// with a digit or '.', and not a word the format reserves (inf, infinity,
// free and the section keywords, in any case). Otherwise every illegal
// character becomes '_', a leading digit or '.' (or a reserved word) gets a
// '_' prefix, and "_k" is appended if the result clashes with another name.
// Unnamed rows and columns become R<i> and C<j> (also made unique). The
// objective is named "obj" unless a row already is.
//
// Bounds are written only when they differ from the default: [0, +Inf) for
// continuous and General columns, [0, 1] for Binary ones. A lower bound other
// than 0 is always written explicitly, so negative upper bounds never rely on
// a reader's convention.
//
// # Reading
//
// Read accepts what Write emits and the common hand-written forms: the
// section keywords in any case (minimize/minimise/minimum/min,
// maximize/maximise/maximum/max, subject to/such that/st/s.t., bounds/bound,
// general/generals/gen/integers, binary/binaries/bin, end), expressions
// spread over several lines, repeated variables (summed), constants on either
// side, the senses <, <=, =<, >, >=, =>, =, the ranged form "lo <= expr <= up",
// inf/infinity with optional sign, "x free", bounds written either way round,
// and comments from '\' to the end of the line. A leading comment
// "\ Problem: NAME" sets the model name. Semi-continuous, SOS and quadratic
// parts are refused with an error.
//
// Conventions: default bounds are [0, +Inf); a Binary column's bounds not set
// in Bounds are [0, 1]; an upper bound below 0 does not move the default lower
// bound 0 (as CPLEX documents), so "x <= -1" alone is an error naming x.
// Columns are numbered in order of first appearance; rows in file order.
//
// Every error is a *ParseError "file:line: message".
package lpformat
