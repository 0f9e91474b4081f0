package mps

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/internal/textfile"
)

// ParseError reports bad input at a line of a file.
type ParseError = textfile.ParseError

// ReadFile reads the MPS file at path.
func ReadFile(path string) (*model.Model, error) { return textfile.ReadFile(path, Read) }

// Read reads a fixed or free MPS model from r; name is used in error messages.
func Read(r io.Reader, name string) (*model.Model, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	m, errFree := parse(data, name, false)
	if errFree == nil {
		return m, nil
	}
	m, errFixed := parse(data, name, true)
	if errFixed == nil {
		return m, nil
	}
	var pf, px *ParseError
	if errors.As(errFree, &pf) && errors.As(errFixed, &px) && px.Line > pf.Line {
		return nil, errFixed
	}
	return nil, errFree
}

type section int

const (
	secNone section = iota
	secName
	secObjSense
	secObjName
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
)

// parser holds the state of one pass over an MPS file.
type parser struct {
	file  string
	fixed bool
	line  int
	sec   section

	name    string
	sense   model.Sense
	objName string // from OBJNAME; "" to take the first N row
	objRow  string // the N row used as objective
	objRHS  float64
	dropped map[string]bool // N rows other than the objective

	rowIdx   map[string]int
	rowNames []string
	rowType  []byte
	rowLine  []int
	rhs, rng []float64
	hasRng   []bool
	rhsLine  []int // line of the last RHS or RANGES entry, else the ROWS line
	rowMark  []int32

	colIdx    map[string]int
	colNames  []string
	obj       []float64
	objSeen   []bool
	lo, up    []float64
	typ       []model.VarType
	marked    []bool // declared inside an integer marker block
	bounded   []bool // has at least one BOUNDS entry
	lowerSet  []bool // has an explicit lower bound
	boundLine []int  // last BOUNDS line, else the first COLUMNS line

	colStart []int
	entRow   []int
	entVal   []float64
	cur      int // column being read, -1 before the first

	fbuf []string // reused by splitFields

	inMarker   bool
	markerLine int

	rhsSet, rngSet, bndSet string // first non-empty set name of each section
}

func (p *parser) errf(format string, a ...any) error {
	return &ParseError{File: p.file, Line: p.line, Msg: fmt.Sprintf(format, a...)}
}

// splitFields splits s around runs of white space (as strings.Fields does)
// into buf, which it reuses: no allocation for the usual short lines.
func splitFields(s string, buf []string) []string {
	buf = buf[:0]
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		var space bool
		size := 1
		if c < utf8.RuneSelf {
			space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			if start >= 0 {
				buf = append(buf, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		buf = append(buf, s[start:])
	}
	return buf
}

func parse(raw []byte, file string, fixed bool) (*model.Model, error) {
	data := strings.TrimPrefix(string(raw), "\ufeff") // one copy; lines and fields are substrings of it
	p := &parser{
		file: file, fixed: fixed, sense: model.Minimize,
		dropped: map[string]bool{}, rowIdx: map[string]int{}, colIdx: map[string]int{},
		colStart: []int{0}, cur: -1, fbuf: make([]string, 0, 8),
	}
	ended := false
	for len(data) > 0 && !ended {
		var line string
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, ""
		}
		p.line++
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" || line[0] == '*' {
			continue
		}
		var err error
		if line[0] != ' ' && line[0] != '\t' {
			ended, err = p.header(line)
		} else {
			err = p.data(line)
		}
		if err != nil {
			return nil, err
		}
	}
	if !ended {
		return nil, p.errf("missing ENDATA")
	}
	return p.finish()
}

// header handles a section line.
func (p *parser) header(line string) (ended bool, err error) {
	f := splitFields(line, nil)
	kw := strings.ToUpper(f[0])
	if p.sec == secColumns && kw != "COLUMNS" {
		if err := p.endColumns(); err != nil {
			return false, err
		}
	}
	switch kw {
	case "NAME":
		p.sec = secName
		if len(f) > 1 {
			p.name = strings.Clone(f[1])
		}
	case "OBJSENSE", "OBJSENS":
		p.sec = secObjSense
		if len(f) > 1 {
			return false, p.setSense(f[1])
		}
	case "OBJNAME":
		p.sec = secObjName
		if len(f) > 1 {
			return false, p.setObjName(f[1])
		}
	case "ROWS":
		p.sec = secRows
	case "COLUMNS":
		p.sec = secColumns
	case "RHS":
		p.sec = secRHS
	case "RANGES":
		p.sec = secRanges
	case "BOUNDS":
		p.sec = secBounds
	case "ENDATA":
		return true, nil
	case "SOS", "QUADOBJ", "QMATRIX", "QSECTION", "QCMATRIX", "CSECTION", "INDICATORS", "GENCONS", "PWLOBJ":
		return false, p.errf("section %s is not supported", kw)
	default:
		return false, p.errf("unknown section %q", f[0])
	}
	return false, nil
}

func (p *parser) setSense(s string) error {
	switch strings.ToUpper(s) {
	case "MIN", "MINIMIZE", "MINIMISE":
		p.sense = model.Minimize
	case "MAX", "MAXIMIZE", "MAXIMISE":
		p.sense = model.Maximize
	default:
		return p.errf("unknown objective sense %q", s)
	}
	return nil
}

func (p *parser) setObjName(s string) error {
	if len(p.rowIdx) > 0 || p.objRow != "" {
		return p.errf("OBJNAME must come before ROWS")
	}
	p.objName = s
	return nil
}

// fld returns columns a..b (1-based, inclusive) of line, trimmed, with inner
// spaces turned into '_'.
func fld(line string, a, b int) string {
	if len(line) < a {
		return ""
	}
	if len(line) < b {
		b = len(line)
	}
	s := strings.TrimSpace(line[a-1 : b])
	return strings.ReplaceAll(s, " ", "_")
}

// data handles a data line of the current section.
func (p *parser) data(line string) error {
	switch p.sec {
	case secNone:
		return p.errf("data line before the first section")
	case secName:
		return p.errf("unexpected data line in NAME")
	case secObjSense:
		f := splitFields(line, p.fbuf[:0])
		if len(f) != 1 {
			return p.errf("OBJSENSE line must hold one word")
		}
		return p.setSense(f[0])
	case secObjName:
		f := splitFields(line, p.fbuf[:0])
		if len(f) != 1 {
			return p.errf("OBJNAME line must hold one word")
		}
		return p.setObjName(f[0])
	case secRows:
		f := splitFields(line, p.fbuf[:0])
		if p.fixed {
			f = []string{fld(line, 2, 3), fld(line, 5, 12)}
		}
		if len(f) != 2 || f[0] == "" || f[1] == "" {
			return p.errf("ROWS line must hold a type and a name")
		}
		return p.row(f[0], f[1])
	case secColumns:
		return p.columns(line)
	case secRHS, secRanges:
		f := splitFields(line, p.fbuf[:0])
		if p.fixed {
			f = trimPair([]string{fld(line, 5, 12), fld(line, 15, 22), fld(line, 25, 36), fld(line, 40, 47), fld(line, 50, 61)})
		} else if len(f)%2 == 0 {
			f = append([]string{""}, f...)
		}
		if len(f) != 3 && len(f) != 5 {
			return p.errf("%s line must hold a set name and one or two (row, value) pairs", secName2(p.sec))
		}
		return p.rhsLine2(f)
	case secBounds:
		return p.bound(line)
	}
	return nil
}

func secName2(s section) string {
	if s == secRHS {
		return "RHS"
	}
	return "RANGES"
}

// trimPair drops an empty trailing (name, value) pair from fixed fields.
func trimPair(f []string) []string {
	if len(f) == 5 && f[3] == "" && f[4] == "" {
		return f[:3]
	}
	return f
}

func (p *parser) num(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, nil // ±Inf or 0 on over/underflow, as written
		}
		return 0, p.errf("invalid number %q", s)
	}
	if math.IsNaN(v) {
		return 0, p.errf("invalid number %q (NaN)", s)
	}
	return v, nil
}

func (p *parser) row(typ, name string) error {
	t := strings.ToUpper(typ)
	if _, dup := p.rowIdx[name]; dup || p.dropped[name] || (p.objRow != "" && p.objRow == name) {
		return p.errf("row %s declared twice", name)
	}
	switch t {
	case "N":
		name = strings.Clone(name)
		if p.objRow == "" && (p.objName == "" || p.objName == name) {
			p.objRow = name
		} else {
			p.dropped[name] = true
		}
		return nil
	case "L", "G", "E":
	default:
		return p.errf("row %s: unknown row type %q", name, typ)
	}
	name = strings.Clone(name) // do not pin the whole file
	p.rowIdx[name] = len(p.rowNames)
	p.rowNames = append(p.rowNames, name)
	p.rowType = append(p.rowType, t[0])
	p.rowLine = append(p.rowLine, p.line)
	p.rhs = append(p.rhs, 0)
	p.rng = append(p.rng, 0)
	p.hasRng = append(p.hasRng, false)
	p.rhsLine = append(p.rhsLine, p.line)
	p.rowMark = append(p.rowMark, 0)
	return nil
}

func (p *parser) columns(line string) error {
	var f []string
	if p.fixed {
		f = []string{fld(line, 5, 12), fld(line, 15, 22), fld(line, 25, 36), fld(line, 40, 47), fld(line, 50, 61)}
		if f[1] == "'MARKER'" {
			f = []string{f[0], f[1], f[3]}
		} else {
			f = trimPair(f)
		}
		if f[0] == "" && p.cur >= 0 {
			f[0] = p.colNames[p.cur]
		}
	} else {
		f = splitFields(line, p.fbuf[:0])
	}
	if len(f) == 3 && f[1] == "'MARKER'" {
		_, isRow := p.rowIdx[f[1]]
		switch strings.ToUpper(f[2]) {
		case "'INTORG'":
			if p.inMarker {
				return p.errf("INTORG marker inside the integer block opened at line %d", p.markerLine)
			}
			p.inMarker, p.markerLine = true, p.line
			return nil
		case "'INTEND'":
			if !p.inMarker {
				return p.errf("INTEND marker without INTORG")
			}
			p.inMarker = false
			return nil
		default:
			if !isRow {
				return p.errf("unknown marker %s", f[2])
			}
		}
	}
	if len(f) != 3 && len(f) != 5 {
		return p.errf("COLUMNS line must hold a column name and one or two (row, value) pairs")
	}
	if f[0] == "" {
		return p.errf("missing column name")
	}
	if p.cur < 0 || f[0] != p.colNames[p.cur] {
		if _, seen := p.colIdx[f[0]]; seen {
			return p.errf("column %s appears again after column %s; a column's entries must be contiguous", f[0], p.colNames[p.cur])
		}
		p.finishColumn()
		p.newColumn(f[0])
	}
	for k := 1; k+1 < len(f); k += 2 {
		if err := p.entry(f[k], f[k+1]); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) newColumn(name string) {
	p.cur = len(p.colNames)
	name = strings.Clone(name)
	p.colIdx[name] = p.cur
	p.colNames = append(p.colNames, name)
	p.obj = append(p.obj, 0)
	p.objSeen = append(p.objSeen, false)
	p.lo = append(p.lo, 0)
	p.up = append(p.up, math.Inf(1))
	t := model.Continuous
	if p.inMarker {
		t = model.Integer
	}
	p.typ = append(p.typ, t)
	p.marked = append(p.marked, p.inMarker)
	p.bounded = append(p.bounded, false)
	p.lowerSet = append(p.lowerSet, false)
	p.boundLine = append(p.boundLine, p.line)
}

func (p *parser) entry(row, val string) error {
	v, err := p.num(val)
	if err != nil {
		return err
	}
	if math.IsInf(v, 0) {
		return p.errf("column %s, row %s: coefficient %s is not finite", p.colNames[p.cur], row, val)
	}
	i, ok := p.rowIdx[row]
	if !ok {
		switch {
		case row == p.objRow:
			if p.objSeen[p.cur] {
				return p.errf("column %s: objective coefficient given twice", p.colNames[p.cur])
			}
			p.objSeen[p.cur] = true
			p.obj[p.cur] = v
			return nil
		case p.dropped[row]:
			return nil
		}
		return p.errf("column %s: row %q is not declared in ROWS", p.colNames[p.cur], row)
	}
	if p.rowMark[i] == int32(p.cur+1) {
		return p.errf("column %s: row %s given twice", p.colNames[p.cur], row)
	}
	p.rowMark[i] = int32(p.cur + 1)
	if v != 0 {
		p.entRow = append(p.entRow, i)
		p.entVal = append(p.entVal, v)
	}
	return nil
}

// finishColumn closes the current column, sorting its entries by row.
func (p *parser) finishColumn() {
	if p.cur < 0 {
		return
	}
	s := p.colStart[len(p.colStart)-1]
	if !sort.IntsAreSorted(p.entRow[s:]) {
		sort.Sort(byRow{p.entRow[s:], p.entVal[s:]})
	}
	p.colStart = append(p.colStart, len(p.entRow))
}

type byRow struct {
	r []int
	v []float64
}

func (b byRow) Len() int           { return len(b.r) }
func (b byRow) Less(i, j int) bool { return b.r[i] < b.r[j] }
func (b byRow) Swap(i, j int) {
	b.r[i], b.r[j] = b.r[j], b.r[i]
	b.v[i], b.v[j] = b.v[j], b.v[i]
}

func (p *parser) endColumns() error {
	if p.inMarker {
		p.line = p.markerLine
		return p.errf("integer marker INTORG is never closed by INTEND")
	}
	return nil
}

func (p *parser) rhsLine2(f []string) error {
	set := f[0]
	if p.sec == secRHS {
		if !useSet(set, &p.rhsSet) {
			return nil
		}
	} else if !useSet(set, &p.rngSet) {
		return nil
	}
	for k := 1; k+1 < len(f); k += 2 {
		row := f[k]
		v, err := p.num(f[k+1])
		if err != nil {
			return err
		}
		if row == p.objRow {
			if p.sec == secRHS {
				if math.IsInf(v, 0) {
					return p.errf("objective row %s: RHS %s is not finite", row, f[k+1])
				}
				p.objRHS = v
			}
			continue
		}
		if p.dropped[row] {
			continue
		}
		i, ok := p.rowIdx[row]
		if !ok {
			return p.errf("row %q is not declared in ROWS", row)
		}
		if p.sec == secRHS {
			p.rhs[i] = v
		} else {
			if math.IsInf(v, 0) {
				return p.errf("row %s: range %s is not finite", row, f[k+1])
			}
			p.rng[i], p.hasRng[i] = v, true
		}
		p.rhsLine[i] = p.line
	}
	return nil
}

// useSet reports whether a line of set name set applies: lines without a set
// name always do; otherwise only the first set name seen counts.
func useSet(set string, first *string) bool {
	if set == "" {
		return true
	}
	if *first == "" {
		*first = set
	}
	return set == *first
}

func (p *parser) bound(line string) error {
	var typ, set, col, val string
	if p.fixed {
		typ, set, col, val = fld(line, 2, 3), fld(line, 5, 12), fld(line, 15, 22), fld(line, 25, 36)
	} else {
		f := splitFields(line, p.fbuf[:0])
		typ = f[0]
		switch strings.ToUpper(typ) {
		case "UP", "LO", "FX", "LI", "UI", "SC":
			switch len(f) {
			case 4:
				set, col, val = f[1], f[2], f[3]
			case 3:
				col, val = f[1], f[2]
			default:
				return p.errf("bound %s needs a column and a value", typ)
			}
		case "FR", "MI", "PL", "BV":
			switch len(f) {
			case 4:
				set, col, val = f[1], f[2], f[3]
			case 3:
				if _, isCol := p.colIdx[f[2]]; isCol {
					set, col = f[1], f[2]
				} else {
					col, val = f[1], f[2]
				}
			case 2:
				col = f[1]
			default:
				return p.errf("bound %s needs a column", typ)
			}
		}
	}
	t := strings.ToUpper(typ)
	needVal := false
	switch t {
	case "UP", "LO", "FX", "LI", "UI":
		needVal = true
	case "FR", "MI", "PL", "BV":
	case "SC":
		return p.errf("semi-continuous bound SC (column %s) is not supported", col)
	default:
		return p.errf("unknown bound type %q", typ)
	}
	if !useSet(set, &p.bndSet) {
		return nil
	}
	j, ok := p.colIdx[col]
	if !ok {
		return p.errf("bound %s on column %q, which is not declared in COLUMNS", t, col)
	}
	var v float64
	if needVal {
		if val == "" {
			return p.errf("bound %s on column %s needs a value", t, col)
		}
		var err error
		if v, err = p.num(val); err != nil {
			return err
		}
	}
	switch t {
	case "UP", "UI":
		p.up[j] = v
		if v < 0 && !p.lowerSet[j] {
			p.lo[j] = math.Inf(-1)
		}
	case "LO", "LI":
		p.lo[j] = v
		p.lowerSet[j] = true
	case "FX":
		p.lo[j], p.up[j] = v, v
		p.lowerSet[j] = true
	case "FR":
		p.lo[j], p.up[j] = math.Inf(-1), math.Inf(1)
		p.lowerSet[j] = true
	case "MI":
		p.lo[j] = math.Inf(-1)
		p.lowerSet[j] = true
	case "PL":
		p.up[j] = math.Inf(1)
	case "BV":
		p.lo[j], p.up[j] = 0, 1
		p.lowerSet[j] = true
		p.typ[j] = model.Binary
	}
	if t == "LI" || t == "UI" {
		p.typ[j] = model.Integer
	}
	p.bounded[j] = true
	p.boundLine[j] = p.line
	return nil
}

// finish assembles and checks the model.
func (p *parser) finish() (*model.Model, error) {
	if p.sec == secColumns {
		if err := p.endColumns(); err != nil {
			return nil, err
		}
	}
	p.finishColumn()
	n, r := len(p.colNames), len(p.rowNames)
	for j := 0; j < n; j++ {
		if p.marked[j] && !p.bounded[j] {
			p.lo[j], p.up[j] = 0, 1
		}
	}
	m := &model.Model{
		Name: p.name, Sense: p.sense,
		Obj: p.obj, ColLower: p.lo, ColUpper: p.up, ColType: p.typ, ColNames: p.colNames,
		RowLower: make([]float64, r), RowUpper: make([]float64, r), RowNames: p.rowNames,
		ColStart: p.colStart, RowIndex: p.entRow, Value: p.entVal,
	}
	if p.objRHS != 0 {
		m.ObjOffset = -p.objRHS
	}
	if m.ColNames == nil {
		m.ColNames = []string{}
	}
	if m.RowNames == nil {
		m.RowNames = []string{}
	}
	if m.RowIndex == nil {
		m.RowIndex, m.Value = []int{}, []float64{}
	}
	inf := math.Inf(1)
	for i := 0; i < r; i++ {
		b, R := p.rhs[i], p.rng[i]
		lo, up := -inf, inf
		switch p.rowType[i] {
		case 'L':
			up = b
			if p.hasRng[i] {
				lo = b - math.Abs(R)
			}
		case 'G':
			lo = b
			if p.hasRng[i] {
				up = b + math.Abs(R)
			}
		case 'E':
			lo, up = b, b
			if p.hasRng[i] {
				if R > 0 {
					up = b + R
				} else if R < 0 {
					lo = b + R
				}
			}
		}
		m.RowLower[i], m.RowUpper[i] = lo, up
		if msg := boundsProblem(lo, up); msg != "" {
			p.line = p.rhsLine[i]
			return nil, p.errf("row %s: %s", p.rowNames[i], msg)
		}
	}
	for j := 0; j < n; j++ {
		msg := boundsProblem(p.lo[j], p.up[j])
		if msg == "" && p.typ[j] == model.Binary && (p.lo[j] < 0 || p.up[j] > 1) {
			msg = fmt.Sprintf("binary column with bounds [%v, %v] outside [0, 1]", p.lo[j], p.up[j])
		}
		if msg != "" {
			p.line = p.boundLine[j]
			return nil, p.errf("column %s: %s", p.colNames[j], msg)
		}
	}
	if err := m.Validate(); err != nil {
		return nil, &ParseError{File: p.file, Msg: err.Error()}
	}
	return m, nil
}

func boundsProblem(lo, up float64) string {
	switch {
	case math.IsInf(lo, 1):
		return "lower bound is +Inf"
	case math.IsInf(up, -1):
		return "upper bound is -Inf"
	case lo > up:
		return fmt.Sprintf("lower bound %v > upper bound %v", lo, up)
	}
	return ""
}
