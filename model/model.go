package model

import (
	"errors"
	"fmt"
	"math"
)

// VarType is the type of a column. The zero value is unknown and invalid in a
// built model. Values are only ever appended.
type VarType int8

const (
	VarTypeUnknown VarType = iota
	Continuous
	Integer
	Binary
)

var varTypeNames = [...]string{"unknown", "continuous", "integer", "binary"}

func (t VarType) String() string {
	if int(t) >= 0 && int(t) < len(varTypeNames) {
		return varTypeNames[t]
	}
	return fmt.Sprintf("VarType(%d)", int(t))
}

// IsInteger reports whether the column must take an integral value.
func (t VarType) IsInteger() bool { return t == Integer || t == Binary }

// MarshalText encodes the type by name.
func (t VarType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText decodes a type name.
func (t *VarType) UnmarshalText(b []byte) error {
	for i, n := range varTypeNames {
		if n == string(b) {
			*t = VarType(i)
			return nil
		}
	}
	return fmt.Errorf("model: unknown variable type %q", b)
}

// Sense is the objective sense. The zero value is unknown and invalid in a built
// model.
type Sense int8

const (
	SenseUnknown Sense = iota
	Minimize
	Maximize
)

var senseNames = [...]string{"unknown", "minimize", "maximize"}

func (s Sense) String() string {
	if int(s) >= 0 && int(s) < len(senseNames) {
		return senseNames[s]
	}
	return fmt.Sprintf("Sense(%d)", int(s))
}

// MarshalText encodes the sense by name.
func (s Sense) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a sense name.
func (s *Sense) UnmarshalText(b []byte) error {
	for i, n := range senseNames {
		if n == string(b) {
			*s = Sense(i)
			return nil
		}
	}
	return fmt.Errorf("model: unknown objective sense %q", b)
}

// Model is a linear or mixed-integer program in column-major sparse form.
//
// A Model is plain data. Once built (by Builder.Build or a reader) it is shared
// read-only: solvers, writers and checkers never modify it. Use Clone to get a
// copy to edit, and Validate to check the invariants stated on each field.
type Model struct {
	// Name is free text; empty when unknown.
	Name string
	// Sense is Minimize or Maximize.
	Sense Sense
	// ObjOffset is a finite constant added to the objective.
	ObjOffset float64

	// Obj holds the objective coefficient of each column: finite, len NumCols.
	Obj []float64
	// ColLower and ColUpper hold column bounds: len NumCols, no NaN,
	// ColLower[j] ≤ ColUpper[j], ColLower[j] < +Inf, ColUpper[j] > -Inf.
	// Binary columns have bounds inside [0, 1].
	ColLower, ColUpper []float64
	// ColType holds each column's type: len NumCols, never VarTypeUnknown.
	ColType []VarType
	// ColNames is nil (no names) or has len NumCols; non-empty names are
	// distinct and contain no white space.
	ColNames []string

	// RowLower and RowUpper hold row bounds: len NumRows, no NaN,
	// RowLower[i] ≤ RowUpper[i], RowLower[i] < +Inf, RowUpper[i] > -Inf.
	RowLower, RowUpper []float64
	// RowNames is nil or has len NumRows; non-empty names are distinct among
	// rows and contain no white space (a row may share a column's name, as in
	// MPS).
	RowNames []string

	// ColStart, RowIndex and Value hold the constraint matrix in CSC form:
	// ColStart has len NumCols+1, ColStart[0] = 0, non-decreasing, and
	// ColStart[NumCols] = len(RowIndex) = len(Value). Within a column the row
	// indices are strictly increasing and in [0, NumRows). Values are finite
	// and non-zero.
	ColStart []int
	RowIndex []int
	Value    []float64
}

// NumCols is the number of columns (variables).
func (m *Model) NumCols() int { return len(m.Obj) }

// NumRows is the number of rows (constraints).
func (m *Model) NumRows() int { return len(m.RowLower) }

// NumNonzeros is the number of stored matrix entries.
func (m *Model) NumNonzeros() int { return len(m.Value) }

// IsMIP reports whether any column is integer or binary.
func (m *Model) IsMIP() bool {
	for _, t := range m.ColType {
		if t.IsInteger() {
			return true
		}
	}
	return false
}

// ColName is the name of column j, or a generated "C<j>" when it has none.
func (m *Model) ColName(j int) string {
	if m.ColNames != nil && m.ColNames[j] != "" {
		return m.ColNames[j]
	}
	return fmt.Sprintf("C%d", j)
}

// RowName is the name of row i, or a generated "R<i>" when it has none.
func (m *Model) RowName(i int) string {
	if m.RowNames != nil && m.RowNames[i] != "" {
		return m.RowNames[i]
	}
	return fmt.Sprintf("R%d", i)
}

// Clone returns a deep copy that may be modified freely.
func (m *Model) Clone() *Model {
	c := *m
	c.Obj = append([]float64(nil), m.Obj...)
	c.ColLower = append([]float64(nil), m.ColLower...)
	c.ColUpper = append([]float64(nil), m.ColUpper...)
	c.ColType = append([]VarType(nil), m.ColType...)
	if m.ColNames != nil {
		c.ColNames = append([]string(nil), m.ColNames...)
	}
	c.RowLower = append([]float64(nil), m.RowLower...)
	c.RowUpper = append([]float64(nil), m.RowUpper...)
	if m.RowNames != nil {
		c.RowNames = append([]string(nil), m.RowNames...)
	}
	c.ColStart = append([]int(nil), m.ColStart...)
	c.RowIndex = append([]int(nil), m.RowIndex...)
	c.Value = append([]float64(nil), m.Value...)
	return &c
}

// Relaxation returns a copy of m with every column continuous: its LP
// relaxation.
func (m *Model) Relaxation() *Model {
	r := m.Clone()
	for j := range r.ColType {
		r.ColType[j] = Continuous
	}
	return r
}

// CSR is a row-major view of a constraint matrix: the entries of row i are
// ColIndex[RowStart[i]:RowStart[i+1]] and Value[RowStart[i]:RowStart[i+1]],
// with column indices strictly increasing within a row.
type CSR struct {
	RowStart []int
	ColIndex []int
	Value    []float64
}

// RowMatrix builds the row-wise view of the constraint matrix. It costs one pass
// over the nonzeros; callers that need it repeatedly keep the result.
func (m *Model) RowMatrix() CSR {
	nr := m.NumRows()
	start := make([]int, nr+1)
	for _, r := range m.RowIndex {
		start[r+1]++
	}
	for i := 0; i < nr; i++ {
		start[i+1] += start[i]
	}
	next := append([]int(nil), start[:nr]...)
	cols := make([]int, len(m.RowIndex))
	vals := make([]float64, len(m.Value))
	for j := 0; j < m.NumCols(); j++ {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			r := m.RowIndex[k]
			p := next[r]
			cols[p] = j
			vals[p] = m.Value[k]
			next[r]++
		}
	}
	return CSR{RowStart: start, ColIndex: cols, Value: vals}
}

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("model: invalid model")

// ValidationError names the row or column that breaks an invariant.
type ValidationError struct {
	// Where is "column NAME", "row NAME", "objective" or "matrix".
	Where string
	// Problem says what is wrong.
	Problem string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("model: %s: %s", e.Where, e.Problem)
}

// Unwrap lets errors.Is(err, ErrInvalid) hold.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

func colErr(m *Model, j int, format string, a ...any) error {
	return &ValidationError{Where: "column " + m.ColName(j), Problem: fmt.Sprintf(format, a...)}
}

func rowErr(m *Model, i int, format string, a ...any) error {
	return &ValidationError{Where: "row " + m.RowName(i), Problem: fmt.Sprintf(format, a...)}
}

// Validate checks every invariant stated on Model's fields and returns the
// first violation, naming the row or column.
func (m *Model) Validate() error { return m.validate(&poller{}) }

// ValidateStop is Validate that gives up with ErrStopped once stop (nil:
// never) returns true, asked every stopEvery columns, rows or names: a
// solve with a deadline validates its model first.
func (m *Model) ValidateStop(stop func() bool) error { return m.validate(&poller{stop: stop}) }

// ErrStopped is returned by Builder.BuildStop and Model.ValidateStop when
// their stop function said to stop.
var ErrStopped = errors.New("model: stopped")

// stopEvery is how many names, rows or columns go between two calls of a
// stop function (a call may read the clock, well under a microsecond; a
// thousand rows take a few).
const stopEvery = 1024

// poller asks a stop function every stopEvery calls of due and keeps a
// stop once seen; a nil stop never stops.
type poller struct {
	stop func() bool
	n    int
	hit  bool
}

func (p *poller) due() bool {
	if p.stop == nil || p.hit {
		return p.hit
	}
	if p.n++; p.n%stopEvery == 1 {
		p.hit = p.stop()
	}
	return p.hit
}

func (m *Model) validate(pl *poller) error {
	n, r := m.NumCols(), m.NumRows()
	if m.Sense != Minimize && m.Sense != Maximize {
		return &ValidationError{Where: "objective", Problem: "sense must be minimize or maximize"}
	}
	if math.IsNaN(m.ObjOffset) || math.IsInf(m.ObjOffset, 0) {
		return &ValidationError{Where: "objective", Problem: fmt.Sprintf("offset %v is not finite", m.ObjOffset)}
	}
	if len(m.ColLower) != n || len(m.ColUpper) != n || len(m.ColType) != n || (m.ColNames != nil && len(m.ColNames) != n) {
		return &ValidationError{Where: "columns", Problem: "column arrays differ in length"}
	}
	if len(m.RowUpper) != r || (m.RowNames != nil && len(m.RowNames) != r) {
		return &ValidationError{Where: "rows", Problem: "row arrays differ in length"}
	}
	if len(m.ColStart) != n+1 || m.ColStart[0] != 0 || m.ColStart[n] != len(m.RowIndex) || len(m.RowIndex) != len(m.Value) {
		return &ValidationError{Where: "matrix", Problem: "column starts do not match the entries"}
	}
	for j := 0; j < n; j++ {
		if pl.due() {
			return ErrStopped
		}
		if c := m.Obj[j]; math.IsNaN(c) || math.IsInf(c, 0) {
			return colErr(m, j, "objective coefficient %v is not finite", c)
		}
		lo, up := m.ColLower[j], m.ColUpper[j]
		if err := checkBounds(lo, up); err != "" {
			return colErr(m, j, "%s", err)
		}
		switch m.ColType[j] {
		case Continuous, Integer:
		case Binary:
			if lo < 0 || up > 1 {
				return colErr(m, j, "binary with bounds [%v, %v] outside [0, 1]", lo, up)
			}
		default:
			return colErr(m, j, "type %v", m.ColType[j])
		}
		if m.ColStart[j+1] < m.ColStart[j] {
			return colErr(m, j, "column start decreases")
		}
		prev := -1
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			ri := m.RowIndex[k]
			if ri < 0 || ri >= r {
				return colErr(m, j, "row index %d out of range", ri)
			}
			if ri <= prev {
				return colErr(m, j, "row indices not strictly increasing (row %s)", m.RowName(ri))
			}
			prev = ri
			if v := m.Value[k]; v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return colErr(m, j, "coefficient %v in row %s", v, m.RowName(ri))
			}
		}
	}
	for i := 0; i < r; i++ {
		if pl.due() {
			return ErrStopped
		}
		if err := checkBounds(m.RowLower[i], m.RowUpper[i]); err != "" {
			return rowErr(m, i, "%s", err)
		}
	}
	return checkNames(m, pl)
}

func checkBounds(lo, up float64) string {
	switch {
	case math.IsNaN(lo) || math.IsNaN(up):
		return fmt.Sprintf("bound is NaN ([%v, %v])", lo, up)
	case math.IsInf(lo, 1):
		return "lower bound is +Inf"
	case math.IsInf(up, -1):
		return "upper bound is -Inf"
	case lo > up:
		return fmt.Sprintf("lower bound %v > upper bound %v", lo, up)
	}
	return ""
}

func checkNames(m *Model, pl *poller) error {
	if m.ColNames == nil && m.RowNames == nil {
		return nil
	}
	seen := make(map[string]bool, len(m.ColNames))
	for j, s := range m.ColNames {
		if pl.due() {
			return ErrStopped
		}
		if s == "" {
			continue
		}
		if !validName(s) {
			return colErr(m, j, "name %q contains white space", s)
		}
		if seen[s] {
			return colErr(m, j, "duplicate name")
		}
		seen[s] = true
	}
	clear(seen)
	for i, s := range m.RowNames {
		if pl.due() {
			return ErrStopped
		}
		if s == "" {
			continue
		}
		if !validName(s) {
			return rowErr(m, i, "name %q contains white space", s)
		}
		if seen[s] {
			return rowErr(m, i, "duplicate name")
		}
		seen[s] = true
	}
	return nil
}

func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] == 0x7f {
			return false
		}
	}
	return true
}
