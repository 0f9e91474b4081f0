package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
)

// Var is a handle on a column of one Builder. The zero Var is invalid.
type Var struct {
	owner uint32 // id of the Builder that made it; 0 for the zero Var
	index int32
}

// Index is the column index the variable has in the built model.
func (v Var) Index() int { return int(v.index) }

// Term is one coefficient × variable product.
type Term struct {
	Var  Var
	Coef float64
}

// Expr is a linear expression Σ coef·var + Constant. The zero Expr is 0.
// Repeated variables are allowed and summed when the model is built.
type Expr struct {
	Terms    []Term
	Constant float64
}

// NewExpr returns an empty expression with room for n terms.
func NewExpr(n int) Expr { return Expr{Terms: make([]Term, 0, n)} }

// Sum returns Σ vars with unit coefficients.
func Sum(vars ...Var) Expr {
	e := NewExpr(len(vars))
	for _, v := range vars {
		e.Terms = append(e.Terms, Term{v, 1})
	}
	return e
}

// Add appends coef·v and returns e for chaining.
func (e *Expr) Add(v Var, coef float64) *Expr {
	e.Terms = append(e.Terms, Term{v, coef})
	return e
}

// AddConst adds c to the constant.
func (e *Expr) AddConst(c float64) *Expr {
	e.Constant += c
	return e
}

// AddExpr adds scale·f to e.
func (e *Expr) AddExpr(f Expr, scale float64) *Expr {
	for _, t := range f.Terms {
		e.Terms = append(e.Terms, Term{t.Var, t.Coef * scale})
	}
	e.Constant += f.Constant * scale
	return e
}

// Scale multiplies every coefficient and the constant by s.
func (e *Expr) Scale(s float64) *Expr {
	for i := range e.Terms {
		e.Terms[i].Coef *= s
	}
	e.Constant *= s
	return e
}

// Constr is a handle on a row of one Builder.
type Constr struct {
	owner uint32
	index int32
}

// Index is the row index the constraint has in the built model.
func (c Constr) Index() int { return int(c.index) }

var builderIDs atomic.Uint32

// Builder assembles a Model. It is not safe for concurrent use. Errors found
// while adding (a foreign variable, a duplicate family key, a NaN) are kept and
// returned by Build, so that call sites need not check each addition.
type Builder struct {
	id    uint32
	name  string
	sense Sense
	off   float64

	obj, colLo, colUp []float64
	colType           []VarType
	colName           []nameRef

	rowLo, rowUp []float64
	rowName      []nameRef
	rowStart     []int // terms of row i are termCol/termVal[rowStart[i]:rowStart[i+1]]
	termCol      []int32
	termVal      []float64

	families []namer
	err      error
}

// nameRef names a column or row without formatting it: either a literal or an
// entry of a family, formatted only by Build.
type nameRef struct {
	lit    string
	family int32 // index into families + 1; 0 means lit
	entry  int32
}

// namer formats the name of a family entry.
type namer interface{ entryName(i int) string }

// NewBuilder starts an empty minimisation model.
func NewBuilder(name string) *Builder {
	return &Builder{id: builderIDs.Add(1), name: name, sense: Minimize, rowStart: []int{0}}
}

func (b *Builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// NumVars is the number of variables added so far.
func (b *Builder) NumVars() int { return len(b.obj) }

// NumConstrs is the number of constraints added so far.
func (b *Builder) NumConstrs() int { return len(b.rowLo) }

// Column describes a new variable.
type Column struct {
	Name         string
	Lower, Upper float64
	Obj          float64
	Type         VarType
}

// AddVar adds a variable.
func (b *Builder) AddVar(c Column) Var {
	return b.addVar(c.Lower, c.Upper, c.Obj, c.Type, nameRef{lit: c.Name})
}

// Continuous adds a continuous variable in [lo, up].
func (b *Builder) Continuous(name string, lo, up float64) Var {
	return b.addVar(lo, up, 0, Continuous, nameRef{lit: name})
}

// Integer adds an integer variable in [lo, up].
func (b *Builder) Integer(name string, lo, up float64) Var {
	return b.addVar(lo, up, 0, Integer, nameRef{lit: name})
}

// Binary adds a 0/1 variable.
func (b *Builder) Binary(name string) Var {
	return b.addVar(0, 1, 0, Binary, nameRef{lit: name})
}

func (b *Builder) addVar(lo, up, obj float64, t VarType, n nameRef) Var {
	if t == VarTypeUnknown {
		t = Continuous
	}
	v := Var{owner: b.id, index: int32(len(b.obj))}
	b.obj = append(b.obj, obj)
	b.colLo = append(b.colLo, lo)
	b.colUp = append(b.colUp, up)
	b.colType = append(b.colType, t)
	b.colName = append(b.colName, n)
	return v
}

// SetObjCoef sets the objective coefficient of v.
func (b *Builder) SetObjCoef(v Var, c float64) {
	if b.check(v) {
		b.obj[v.index] = c
	}
}

// SetBounds changes the bounds of v.
func (b *Builder) SetBounds(v Var, lo, up float64) {
	if b.check(v) {
		b.colLo[v.index], b.colUp[v.index] = lo, up
	}
}

// Lower and Upper report the current bounds of v.
func (b *Builder) Lower(v Var) float64 { return b.colLo[v.index] }
func (b *Builder) Upper(v Var) float64 { return b.colUp[v.index] }

func (b *Builder) check(v Var) bool {
	if v.owner != b.id || int(v.index) >= len(b.obj) || v.index < 0 {
		if v.owner == 0 {
			b.fail(&ValidationError{Where: "expression", Problem: "term on the zero Var (never added)"})
		} else {
			b.fail(&ValidationError{Where: "expression", Problem: "term on a column from another builder"})
		}
		return false
	}
	return true
}

// SetObjective replaces the objective with e (its constant becomes the offset).
func (b *Builder) SetObjective(sense Sense, e Expr) {
	b.sense = sense
	clear(b.obj)
	for _, t := range e.Terms {
		if b.check(t.Var) {
			b.obj[t.Var.index] += t.Coef
		}
	}
	b.off = e.Constant
}

// Minimize sets the objective to minimise e.
func (b *Builder) Minimize(e Expr) { b.SetObjective(Minimize, e) }

// Maximize sets the objective to maximise e.
func (b *Builder) Maximize(e Expr) { b.SetObjective(Maximize, e) }

// AddConstr adds lo ≤ e ≤ up. The expression's constant is moved to the
// bounds. Use ±Inf for a free side.
func (b *Builder) AddConstr(name string, e Expr, lo, up float64) Constr {
	return b.addRow(e, lo, up, nameRef{lit: name})
}

// LessEq adds e ≤ rhs.
func (b *Builder) LessEq(name string, e Expr, rhs float64) Constr {
	return b.AddConstr(name, e, math.Inf(-1), rhs)
}

// GreaterEq adds e ≥ rhs.
func (b *Builder) GreaterEq(name string, e Expr, rhs float64) Constr {
	return b.AddConstr(name, e, rhs, math.Inf(1))
}

// Equal adds e = rhs.
func (b *Builder) Equal(name string, e Expr, rhs float64) Constr {
	return b.AddConstr(name, e, rhs, rhs)
}

func (b *Builder) addRow(e Expr, lo, up float64, n nameRef) Constr {
	c := Constr{owner: b.id, index: int32(len(b.rowLo))}
	for _, t := range e.Terms {
		if !b.check(t.Var) {
			continue
		}
		b.termCol = append(b.termCol, t.Var.index)
		b.termVal = append(b.termVal, t.Coef)
	}
	b.rowStart = append(b.rowStart, len(b.termCol))
	b.rowLo = append(b.rowLo, lo-e.Constant)
	b.rowUp = append(b.rowUp, up-e.Constant)
	b.rowName = append(b.rowName, n)
	return c
}

func (b *Builder) refName(r nameRef) string {
	if r.family == 0 {
		return r.lit
	}
	return b.families[r.family-1].entryName(int(r.entry))
}

// Build validates what was added and returns the model. Coefficients of a
// variable repeated within a row are summed; entries that sum to exactly zero
// are dropped. The builder may be used again afterwards; the model shares no
// memory with it.
func (b *Builder) Build() (*Model, error) {
	if b.err != nil {
		return nil, b.err
	}
	n, r := len(b.obj), len(b.rowLo)
	m := &Model{
		Name:      b.name,
		Sense:     b.sense,
		ObjOffset: b.off,
		Obj:       append([]float64(nil), b.obj...),
		ColLower:  append([]float64(nil), b.colLo...),
		ColUpper:  append([]float64(nil), b.colUp...),
		ColType:   append([]VarType(nil), b.colType...),
		RowLower:  append([]float64(nil), b.rowLo...),
		RowUpper:  append([]float64(nil), b.rowUp...),
	}
	if names := b.names(b.colName); names != nil {
		m.ColNames = names
	}
	if names := b.names(b.rowName); names != nil {
		m.RowNames = names
	}
	// Non-finite coefficients are reported before the transpose, by row.
	for i := 0; i < r; i++ {
		for k := b.rowStart[i]; k < b.rowStart[i+1]; k++ {
			if v := b.termVal[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, rowErr(m, i, "coefficient %v on column %s", v, m.ColName(int(b.termCol[k])))
			}
		}
	}
	// Counting sort of the row-major terms into CSC; rows arrive in increasing
	// order, so a repeated (row, column) pair lands next to its twin.
	start := make([]int, n+1)
	for _, c := range b.termCol {
		start[c+1]++
	}
	for j := 0; j < n; j++ {
		start[j+1] += start[j]
	}
	nnz := len(b.termCol)
	rows := make([]int, nnz)
	vals := make([]float64, nnz)
	next := make([]int, n)
	copy(next, start[:n])
	for i := 0; i < r; i++ {
		for k := b.rowStart[i]; k < b.rowStart[i+1]; k++ {
			c := b.termCol[k]
			p := next[c]
			if p > start[c] && rows[p-1] == i {
				vals[p-1] += b.termVal[k]
				continue
			}
			rows[p], vals[p] = i, b.termVal[k]
			next[c]++
		}
	}
	// Compact away the slots freed by merged duplicates and exact zeros.
	w := 0
	for j := 0; j < n; j++ {
		s := start[j]
		start[j] = w
		for k := s; k < next[j]; k++ {
			if vals[k] != 0 {
				rows[w], vals[w] = rows[k], vals[k]
				w++
			}
		}
	}
	start[n] = w
	m.ColStart, m.RowIndex, m.Value = start, rows[:w:w], vals[:w:w]
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func (b *Builder) names(refs []nameRef) []string {
	named := false
	for _, r := range refs {
		if r.lit != "" || r.family != 0 {
			named = true
			break
		}
	}
	if !named {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = b.refName(r)
	}
	return out
}

// Family is a set of variables indexed by a typed key, such as
// w[i,j,s,t] with K = struct{ I, J, S, T int }. Names are formatted only when
// the model is built, as prefix(k1,k2,...).
type Family[K comparable] struct {
	b      *Builder
	id     int32 // position in b.families + 1
	prefix string
	index  map[K]Var
	keys   []K
}

// NewFamily starts a family of variables whose names begin with prefix.
func NewFamily[K comparable](b *Builder, prefix string) *Family[K] {
	f := &Family[K]{b: b, prefix: prefix, index: make(map[K]Var)}
	b.families = append(b.families, f)
	f.id = int32(len(b.families))
	return f
}

// Add adds the variable for key k. Adding a key twice is an error reported by
// Build.
func (f *Family[K]) Add(k K, lo, up, obj float64, t VarType) Var {
	if _, dup := f.index[k]; dup {
		f.b.fail(&ValidationError{Where: "column " + f.entryNameOf(k), Problem: "duplicate key in family"})
	}
	v := f.b.addVar(lo, up, obj, t, nameRef{family: f.id, entry: int32(len(f.keys))})
	f.index[k] = v
	f.keys = append(f.keys, k)
	return v
}

// Get returns the variable for k and whether it exists.
func (f *Family[K]) Get(k K) (Var, bool) {
	v, ok := f.index[k]
	return v, ok
}

// Len is the number of variables in the family.
func (f *Family[K]) Len() int { return len(f.keys) }

// Keys returns the keys in the order they were added.
func (f *Family[K]) Keys() []K { return f.keys }

func (f *Family[K]) entryName(i int) string { return f.entryNameOf(f.keys[i]) }

func (f *Family[K]) entryNameOf(k K) string { return FormatKey(f.prefix, k) }

// FormatKey formats prefix(k1,k2,...) from a key: integers and strings
// directly, structs and arrays field by field.
func FormatKey(prefix string, k any) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	sb.WriteByte('(')
	switch x := k.(type) {
	case int:
		sb.WriteString(strconv.Itoa(x))
	case string:
		sb.WriteString(x)
	default:
		s := fmt.Sprint(k)
		s = strings.Trim(s, "{}[]")
		sb.WriteString(strings.Join(strings.Fields(s), ","))
	}
	sb.WriteByte(')')
	return sb.String()
}

// RowFamily is a set of constraints indexed by a typed key; names are
// formatted only when the model is built, as prefix(k1,k2,...).
type RowFamily[K comparable] struct {
	b      *Builder
	id     int32
	prefix string
	keys   []K
	seen   map[K]struct{}
}

// NewRowFamily starts a family of constraints whose names begin with prefix.
func NewRowFamily[K comparable](b *Builder, prefix string) *RowFamily[K] {
	f := &RowFamily[K]{b: b, prefix: prefix, seen: make(map[K]struct{})}
	b.families = append(b.families, f)
	f.id = int32(len(b.families))
	return f
}

// Add adds lo ≤ e ≤ up under key k.
func (f *RowFamily[K]) Add(k K, e Expr, lo, up float64) Constr {
	if _, dup := f.seen[k]; dup {
		f.b.fail(&ValidationError{Where: "row " + FormatKey(f.prefix, k), Problem: "duplicate key in family"})
	}
	f.seen[k] = struct{}{}
	c := f.b.addRow(e, lo, up, nameRef{family: f.id, entry: int32(len(f.keys))})
	f.keys = append(f.keys, k)
	return c
}

// LessEq adds e ≤ rhs under key k.
func (f *RowFamily[K]) LessEq(k K, e Expr, rhs float64) Constr { return f.Add(k, e, math.Inf(-1), rhs) }

// GreaterEq adds e ≥ rhs under key k.
func (f *RowFamily[K]) GreaterEq(k K, e Expr, rhs float64) Constr {
	return f.Add(k, e, rhs, math.Inf(1))
}

// Equal adds e = rhs under key k.
func (f *RowFamily[K]) Equal(k K, e Expr, rhs float64) Constr { return f.Add(k, e, rhs, rhs) }

// Len is the number of constraints in the family.
func (f *RowFamily[K]) Len() int { return len(f.keys) }

func (f *RowFamily[K]) entryName(i int) string { return FormatKey(f.prefix, f.keys[i]) }
