package model

import (
	"fmt"
	"math"
	"reflect"
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
	rowStart     []int // terms of row i are terms rowStart[i] ≤ k < rowStart[i+1]
	terms        termStore

	lits     []string // literal names, indexed by nameRef.entry
	families []namer
	err      error
}

// nameRef names a column or row without formatting it: entry of a family, or
// when family is 0, index entry of Builder.lits (entry -1: no name).
type nameRef struct {
	family int32 // index into families + 1; 0 means a literal
	entry  int32
}

// lit records a literal name.
func (b *Builder) lit(name string) nameRef {
	if name == "" {
		return nameRef{entry: -1}
	}
	b.lits = append(b.lits, name)
	return nameRef{entry: int32(len(b.lits) - 1)}
}

// namer formats the name of a family entry.
type namer interface {
	entryName(i int) string
	appendEntryName(dst []byte, i int) []byte
}

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
	return b.addVar(c.Lower, c.Upper, c.Obj, c.Type, b.lit(c.Name))
}

// Continuous adds a continuous variable in [lo, up].
func (b *Builder) Continuous(name string, lo, up float64) Var {
	return b.addVar(lo, up, 0, Continuous, b.lit(name))
}

// Integer adds an integer variable in [lo, up].
func (b *Builder) Integer(name string, lo, up float64) Var {
	return b.addVar(lo, up, 0, Integer, b.lit(name))
}

// Binary adds a 0/1 variable.
func (b *Builder) Binary(name string) Var {
	return b.addVar(0, 1, 0, Binary, b.lit(name))
}

func (b *Builder) addVar(lo, up, obj float64, t VarType, n nameRef) Var {
	if t == VarTypeUnknown {
		t = Continuous
	}
	v := Var{owner: b.id, index: int32(len(b.obj))}
	if len(b.obj) == cap(b.obj) {
		b.obj, b.colLo, b.colUp = grow(b.obj, 1), grow(b.colLo, 1), grow(b.colUp, 1)
		b.colType, b.colName = grow(b.colType, 1), grow(b.colName, 1)
	}
	b.obj = append(b.obj, obj)
	b.colLo = append(b.colLo, lo)
	b.colUp = append(b.colUp, up)
	b.colType = append(b.colType, t)
	b.colName = append(b.colName, n)
	return v
}

// SetObjCoef sets the objective coefficient of v.
func (b *Builder) SetObjCoef(v Var, c float64) {
	if b.check(v, "SetObjCoef") {
		b.obj[v.index] = c
	}
}

// SetBounds changes the bounds of v.
func (b *Builder) SetBounds(v Var, lo, up float64) {
	if b.check(v, "SetBounds") {
		b.colLo[v.index], b.colUp[v.index] = lo, up
	}
}

// Lower and Upper report the current bounds of v.
func (b *Builder) Lower(v Var) float64 { return b.colLo[v.index] }
func (b *Builder) Upper(v Var) float64 { return b.colUp[v.index] }

func (b *Builder) owns(v Var) bool {
	return v.owner == b.id && v.index >= 0 && int(v.index) < len(b.obj)
}

// badVar records the error for a variable this builder does not own, used
// at where ("row NAME", "objective", ...).
func (b *Builder) badVar(v Var, where string) {
	switch {
	case v.owner == 0:
		b.fail(&ValidationError{Where: where, Problem: "term on the zero Var (never added)"})
	case v.owner != b.id:
		b.fail(&ValidationError{Where: where, Problem: fmt.Sprintf("term on a column from another builder (its column %d)", v.index)})
	default:
		b.fail(&ValidationError{Where: where, Problem: fmt.Sprintf("term on column %d, which does not exist", v.index)})
	}
}

func (b *Builder) check(v Var, where string) bool {
	if !b.owns(v) {
		b.badVar(v, where)
		return false
	}
	return true
}

// SetObjective replaces the objective with e (its constant becomes the offset).
func (b *Builder) SetObjective(sense Sense, e Expr) {
	b.sense = sense
	clear(b.obj)
	for _, t := range e.Terms {
		if b.check(t.Var, "objective") {
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
	return b.addRow(e, lo, up, b.lit(name))
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
		if !b.owns(t.Var) {
			b.badVar(t.Var, "row "+b.rowRefName(n, len(b.rowLo)))
			continue
		}
		b.terms.add(t.Var.index, t.Coef)
	}
	if len(b.rowLo) == cap(b.rowLo) {
		b.rowStart, b.rowLo, b.rowUp, b.rowName = grow(b.rowStart, 1), grow(b.rowLo, 1), grow(b.rowUp, 1), grow(b.rowName, 1)
	}
	b.rowStart = append(b.rowStart, b.terms.n)
	b.rowLo = append(b.rowLo, lo-e.Constant)
	b.rowUp = append(b.rowUp, up-e.Constant)
	b.rowName = append(b.rowName, n)
	return c
}

// rowRefName is the name row i will have, for error messages.
func (b *Builder) rowRefName(n nameRef, i int) string {
	if s := b.refName(n); s != "" {
		return s
	}
	return "R" + strconv.Itoa(i)
}

// termChunk is the number of terms per chunk of a termStore.
const termChunk = 1 << 16

// termStore holds the builder's terms, row after row, in fixed-size chunks:
// growing never copies, so a build allocates about 12 bytes per term here.
type termStore struct {
	col [][]int32
	val [][]float64
	n   int
}

func (s *termStore) add(c int32, v float64) {
	if s.n%termChunk == 0 {
		s.col = append(s.col, make([]int32, termChunk))
		s.val = append(s.val, make([]float64, termChunk))
	}
	k, o := s.n/termChunk, s.n%termChunk
	s.col[k][o], s.val[k][o] = c, v
	s.n++
}

func (s *termStore) at(k int) (int32, float64) {
	return s.col[k/termChunk][k%termChunk], s.val[k/termChunk][k%termChunk]
}

// grow returns s with room for extra more elements, at least doubling the
// capacity when it must reallocate: append's gentler growth for large slices
// would allocate several times the final size over a big build.
func grow[T any](s []T, extra int) []T {
	if cap(s)-len(s) >= extra {
		return s
	}
	c := 2 * cap(s)
	if c < len(s)+extra {
		c = len(s) + extra
	}
	if c < 16 {
		c = 16
	}
	t := make([]T, len(s), c)
	copy(t, s)
	return t
}

func (b *Builder) refName(r nameRef) string {
	if r.family == 0 {
		if r.entry < 0 {
			return ""
		}
		return b.lits[r.entry]
	}
	return b.families[r.family-1].entryName(int(r.entry))
}

// Build validates what was added and returns the model. Coefficients of a
// variable repeated within a row are summed; entries that sum to exactly zero
// are dropped. The builder may be used again afterwards; the model shares no
// memory with it.
func (b *Builder) Build() (*Model, error) { return b.BuildStop(nil) }

// BuildStop is Build that gives up, with ErrStopped and no model, once stop
// (nil: never) returns true: it is asked between the steps and every
// stopEvery names, rows or columns within one, for a caller with a
// deadline (naming and validating a time-indexed model of 10^5 columns
// takes a few tenths of a second).
func (b *Builder) BuildStop(stop func() bool) (*Model, error) {
	pl := &poller{stop: stop}
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
	m.ColNames = b.names(b.colName, pl)
	m.RowNames = b.names(b.rowName, pl)
	// Non-finite coefficients are reported before the transpose, by row.
	for i := 0; i < r; i++ {
		if pl.due() {
			return nil, ErrStopped
		}
		for k := b.rowStart[i]; k < b.rowStart[i+1]; k++ {
			if c, v := b.terms.at(k); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, rowErr(m, i, "coefficient %v on column %s", v, m.ColName(int(c)))
			}
		}
	}
	// Counting sort of the row-major terms into CSC; rows arrive in increasing
	// order, so a repeated (row, column) pair lands next to its twin.
	start := make([]int, n+1)
	for ci, chunk := range b.terms.col {
		for _, c := range chunk[:min(termChunk, b.terms.n-ci*termChunk)] {
			start[c+1]++
		}
	}
	for j := 0; j < n; j++ {
		start[j+1] += start[j]
	}
	nnz := b.terms.n
	rows := make([]int, nnz)
	vals := make([]float64, nnz)
	next := make([]int, n)
	copy(next, start[:n])
	for i := 0; i < r; i++ {
		if pl.due() {
			return nil, ErrStopped
		}
		for k := b.rowStart[i]; k < b.rowStart[i+1]; k++ {
			c, v := b.terms.at(k)
			p := next[c]
			if p > start[c] && rows[p-1] == i {
				vals[p-1] += v
				continue
			}
			rows[p], vals[p] = i, v
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
	if err := m.validate(pl); err != nil {
		return nil, err
	}
	return m, nil
}

// names are the names of refs, or nil when none has one (or pl stopped:
// the caller asks pl again).
func (b *Builder) names(refs []nameRef, pl *poller) []string {
	if pl.due() {
		return nil
	}
	named := false
	for _, r := range refs {
		if r.entry >= 0 || r.family != 0 {
			named = true
			break
		}
	}
	if !named {
		return nil
	}
	// Family names are formatted into one buffer that becomes one string;
	// each name is a substring of it, so a name costs no allocation.
	var buf []byte
	ends := make([]int, len(refs))
	for i, r := range refs {
		if pl.due() {
			return nil
		}
		if r.family != 0 {
			buf = grow(buf, 64) // doubling; append alone would grow by 1.25
			buf = b.families[r.family-1].appendEntryName(buf, int(r.entry))
		}
		ends[i] = len(buf)
	}
	all := string(buf)
	out := make([]string, len(refs))
	start := 0
	for i, r := range refs {
		if r.family == 0 {
			out[i] = b.refName(r)
		} else {
			out[i] = all[start:ends[i]]
		}
		start = ends[i]
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
	f.keys = append(grow(f.keys, 1), k)
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

func (f *Family[K]) appendEntryName(dst []byte, i int) []byte {
	return appendKey(dst, f.prefix, f.keys[i])
}

func (f *Family[K]) entryNameOf(k K) string { return FormatKey(f.prefix, k) }

// FormatKey formats prefix(k1,k2,...) from a key: integers and strings
// directly, structs and arrays field by field.
func FormatKey(prefix string, k any) string {
	return string(appendKey(nil, prefix, k))
}

// appendKey appends FormatKey(prefix, k) to dst. Integers, and structs and
// arrays of integers, are formatted without fmt.
func appendKey(dst []byte, prefix string, k any) []byte {
	dst = append(dst, prefix...)
	dst = append(dst, '(')
	switch x := k.(type) {
	case int:
		dst = strconv.AppendInt(dst, int64(x), 10)
	case string:
		dst = append(dst, x...)
	default:
		if d, ok := appendInts(dst, reflect.ValueOf(k)); ok {
			dst = d
		} else {
			s := fmt.Sprint(k)
			s = strings.Trim(s, "{}[]")
			dst = append(dst, strings.Join(strings.Fields(s), ",")...)
		}
	}
	return append(dst, ')')
}

var (
	stringerType = reflect.TypeFor[fmt.Stringer]()
	errorType    = reflect.TypeFor[error]()
)

// appendInts appends the integer v, or the integer fields or elements of a
// struct or array v, separated by commas; ok is false (and dst unchanged in
// meaning) for anything else.
func appendInts(dst []byte, v reflect.Value) ([]byte, bool) {
	if !v.IsValid() {
		return dst, false // a nil interface key
	}
	if v.Type().Implements(stringerType) || v.Type().Implements(errorType) {
		return dst, false // fmt would call its method
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(dst, v.Uint(), 10), true
	case reflect.Struct, reflect.Array:
		n := v.NumField
		at := v.Field
		if v.Kind() == reflect.Array {
			n, at = v.Len, v.Index
		}
		if n() == 0 {
			return dst, false
		}
		start := len(dst)
		for i := 0; i < n(); i++ {
			f := at(i)
			if f.Type().Implements(stringerType) || f.Type().Implements(errorType) {
				return dst[:start], false
			}
			switch f.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			default:
				return dst[:start], false
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst, _ = appendInts(dst, f)
		}
		return dst, true
	}
	return dst, false
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
	entry := int32(len(f.keys))
	f.keys = append(grow(f.keys, 1), k)
	return f.b.addRow(e, lo, up, nameRef{family: f.id, entry: entry})
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

func (f *RowFamily[K]) appendEntryName(dst []byte, i int) []byte {
	return appendKey(dst, f.prefix, f.keys[i])
}
