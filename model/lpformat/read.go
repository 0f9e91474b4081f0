package lpformat

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/internal/textfile"
)

// ParseError reports bad input at a line of a file.
type ParseError = textfile.ParseError

// ReadFile reads the LP file at path.
func ReadFile(path string) (*model.Model, error) { return textfile.ReadFile(path, Read) }

type tokKind int8

const (
	tEOF tokKind = iota
	tNum
	tName
	tSign // val is +1 or -1
	tOp   // op is opLE, opGE or opEQ
	tColon
	tSection // sec says which
)

type op int8

const (
	opLE op = iota + 1
	opGE
	opEQ
)

func (o op) String() string { return [...]string{"", "<=", ">=", "="}[o] }

type secKind int8

const (
	secMin secKind = iota + 1
	secMax
	secST
	secBounds
	secGeneral
	secBinary
	secSemi
	secSOS
	secEnd
)

var sectionWords = map[string]secKind{
	"minimize": secMin, "minimise": secMin, "minimum": secMin, "min": secMin,
	"maximize": secMax, "maximise": secMax, "maximum": secMax, "max": secMax,
	"st": secST, "s.t.": secST, "st.": secST,
	"bounds": secBounds, "bound": secBounds,
	"general": secGeneral, "generals": secGeneral, "gen": secGeneral, "integer": secGeneral, "integers": secGeneral,
	"binary": secBinary, "binaries": secBinary, "bin": secBinary,
	"semi-continuous": secSemi, "semi": secSemi, "semis": secSemi,
	"sos": secSOS, "end": secEnd,
}

type token struct {
	kind tokKind
	line int
	val  float64
	op   op
	sec  secKind
	text string
}

type lexer struct {
	file   string
	toks   []token
	name   string
	ended  bool
	hasTok bool
}

func (lx *lexer) errf(line int, format string, a ...any) error {
	return &ParseError{File: lx.file, Line: line, Msg: fmt.Sprintf(format, a...)}
}

// lexLine appends the tokens of one line.
func (lx *lexer) lexLine(s string, line int) error {
	if c := strings.IndexByte(s, '\\'); c >= 0 {
		if !lx.hasTok && lx.name == "" {
			rest := strings.TrimSpace(s[c+1:])
			if after, ok := strings.CutPrefix(rest, "Problem:"); ok {
				if f := strings.Fields(after); len(f) > 0 {
					lx.name = f[0]
				}
			}
		}
		s = s[:c]
	}
	s = strings.TrimLeft(s, " \t\r")
	if s == "" {
		return nil
	}
	// A section keyword opens the line unless it is a name followed by ':'.
	word := s
	if i := strings.IndexAny(s, " \t\r:"); i >= 0 {
		word = s[:i]
	}
	lw := strings.ToLower(word)
	rest := s[len(word):]
	isName := strings.HasPrefix(strings.TrimLeft(rest, " \t\r"), ":")
	if !isName {
		if (lw == "subject" || lw == "such") && len(strings.Fields(rest)) > 0 {
			second := strings.ToLower(strings.Fields(rest)[0])
			if (lw == "subject" && second == "to") || (lw == "such" && second == "that") {
				lx.toks = append(lx.toks, token{kind: tSection, line: line, sec: secST})
				lx.hasTok = true
				r := strings.TrimLeft(rest, " \t\r")
				return lx.lexLine(r[len(second):], line)
			}
		} else if k, ok := sectionWords[lw]; ok {
			lx.toks = append(lx.toks, token{kind: tSection, line: line, sec: k})
			lx.hasTok = true
			if k == secEnd {
				lx.ended = true
				return nil
			}
			return lx.lexLine(rest, line)
		}
	}
	lx.hasTok = true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && s[k] >= '0' && s[k] <= '9' {
					for k < len(s) && s[k] >= '0' && s[k] <= '9' {
						k++
					}
					j = k
				}
			}
			v, err := strconv.ParseFloat(s[i:j], 64)
			if err != nil {
				if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
					return lx.errf(line, "invalid number %q", s[i:j])
				}
			}
			lx.toks = append(lx.toks, token{kind: tNum, line: line, val: v, text: s[i:j]})
			i = j
		case c == '+' || c == '-':
			v := 1.0
			if c == '-' {
				v = -1
			}
			lx.toks = append(lx.toks, token{kind: tSign, line: line, val: v, text: s[i : i+1]})
			i++
		case c == '<' || c == '>' || c == '=':
			j := i + 1
			o := opEQ
			switch c {
			case '<':
				o = opLE
			case '>':
				o = opGE
			}
			if j < len(s) {
				switch {
				case c == '=' && s[j] == '<':
					o, j = opLE, j+1
				case c == '=' && s[j] == '>':
					o, j = opGE, j+1
				case s[j] == '=':
					j++
				}
			}
			lx.toks = append(lx.toks, token{kind: tOp, line: line, op: o, text: s[i:j]})
			i = j
		case c == ':':
			lx.toks = append(lx.toks, token{kind: tColon, line: line, text: ":"})
			i++
		case isNameChar(c):
			j := i
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			lx.toks = append(lx.toks, token{kind: tName, line: line, text: s[i:j]})
			i = j
		case c == '[':
			return lx.errf(line, "quadratic terms are not supported")
		default:
			return lx.errf(line, "unexpected character %q", c)
		}
	}
	return nil
}

// Read reads a model in CPLEX LP format from r; name is used in error
// messages.
func Read(r io.Reader, name string) (*model.Model, error) {
	lx := &lexer{file: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	line := 0
	for sc.Scan() && !lx.ended {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte order mark
		}
		if err := lx.lexLine(text, line); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	p := &parser{lexer: lx, colIdx: map[string]int{}, rowIdx: map[string]int{}, lastLine: line}
	return p.parse()
}

type entry struct {
	row, col int
	val      float64
}

type parser struct {
	*lexer
	pos      int
	lastLine int

	sense    model.Sense
	offset   float64
	colIdx   map[string]int
	cols     []string
	colLine  []int
	obj      []float64
	lo, up   []float64
	loSet    []bool
	upSet    []bool
	typ      []model.VarType
	rowIdx   map[string]int
	rows     []string
	rowLine  []int
	rlo, rup []float64
	ents     []entry
	mark     []int // mark[col] = position+1 in ents of this row's entry, per row
	markRow  []int
}

func (p *parser) peek(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return token{kind: tEOF, line: p.lastLine}
}

func (p *parser) next() token {
	t := p.peek(0)
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *parser) errAt(t token, format string, a ...any) error {
	return p.errf(t.line, format, a...)
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tSection:
		return "a section keyword"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) col(name string, line int) int {
	if j, ok := p.colIdx[name]; ok {
		return j
	}
	j := len(p.cols)
	p.colIdx[name] = j
	p.cols = append(p.cols, name)
	p.colLine = append(p.colLine, line)
	p.obj = append(p.obj, 0)
	p.lo = append(p.lo, 0)
	p.up = append(p.up, math.Inf(1))
	p.loSet = append(p.loSet, false)
	p.upSet = append(p.upSet, false)
	p.typ = append(p.typ, model.Continuous)
	p.mark = append(p.mark, 0)
	p.markRow = append(p.markRow, -1)
	return j
}

func isInfWord(t token) bool {
	if t.kind != tName {
		return false
	}
	s := strings.ToLower(t.text)
	return s == "inf" || s == "infinity"
}

// valueStart reports whether a value ([sign] number or inf) starts at k.
func (p *parser) valueStart(k int) bool {
	t := p.peek(k)
	if t.kind == tSign {
		t = p.peek(k + 1)
	}
	return t.kind == tNum || isInfWord(t)
}

// value reads [sign] (number | inf | infinity).
func (p *parser) value() (float64, error) {
	s := 1.0
	t := p.next()
	if t.kind == tSign {
		s = t.val
		t = p.next()
	}
	switch {
	case t.kind == tNum:
		return s * t.val, nil
	case isInfWord(t):
		return s * math.Inf(1), nil
	}
	return 0, p.errAt(t, "expected a number, found %s", describe(t))
}

type term struct {
	col  int
	coef float64
}

// expr reads a linear expression up to an operator or section keyword.
func (p *parser) expr() ([]term, float64, error) {
	var ts []term
	// The constant starts as −0, the identity of float addition, so that a
	// lone "-0" stays −0 (0.0 + −0 is +0): the writer writes a row without
	// variables as "0 <= -0" and must read it back as it wrote it.
	constant := math.Copysign(0, -1)
	first := true
	for {
		t := p.peek(0)
		if t.kind == tEOF || t.kind == tSection || t.kind == tOp {
			return ts, constant, nil
		}
		s := 1.0
		signed := false
		for p.peek(0).kind == tSign {
			s *= p.next().val
			signed = true
		}
		if !first && !signed {
			// A new row or bound starts ("name:" is handled by the caller).
			return ts, constant, nil
		}
		first = false
		t = p.next()
		switch t.kind {
		case tNum:
			if n := p.peek(0); n.kind == tName && p.peek(1).kind != tColon {
				p.next()
				ts = append(ts, term{p.col(n.text, n.line), s * t.val})
			} else {
				constant += s * t.val
			}
		case tName:
			if p.peek(0).kind == tColon {
				return nil, 0, p.errAt(t, "unexpected name %q followed by ':' inside an expression", t.text)
			}
			ts = append(ts, term{p.col(t.text, t.line), s})
		default:
			return nil, 0, p.errAt(t, "expected a term, found %s", describe(t))
		}
	}
}

func (p *parser) parse() (*model.Model, error) {
	t := p.next()
	if t.kind != tSection || (t.sec != secMin && t.sec != secMax) {
		if t.kind == tEOF {
			return nil, p.errAt(t, "empty file: expected Minimize or Maximize")
		}
		return nil, p.errAt(t, "expected Minimize or Maximize, found %s", describe(t))
	}
	p.sense = model.Minimize
	if t.sec == secMax {
		p.sense = model.Maximize
	}
	if err := p.objective(); err != nil {
		return nil, err
	}
	for {
		t := p.next()
		var err error
		switch {
		case t.kind == tEOF:
			return p.finish()
		case t.kind != tSection:
			return nil, p.errAt(t, "unexpected %s", describe(t))
		}
		switch t.sec {
		case secMin, secMax:
			err = p.errAt(t, "a second objective section")
		case secST:
			err = p.constraints()
		case secBounds:
			err = p.bounds()
		case secGeneral, secBinary:
			err = p.typeSection(t.sec)
		case secSemi:
			err = p.errAt(t, "semi-continuous variables are not supported")
		case secSOS:
			err = p.errAt(t, "SOS constraints are not supported")
		case secEnd:
			return p.finish()
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *parser) objective() error {
	if p.peek(0).kind == tName && p.peek(1).kind == tColon {
		p.pos += 2
	}
	ts, c, err := p.expr()
	if err != nil {
		return err
	}
	if t := p.peek(0); t.kind != tSection && t.kind != tEOF {
		return p.errAt(t, "unexpected %s in the objective", describe(t))
	}
	for _, tm := range ts {
		p.obj[tm.col] += tm.coef
	}
	if c == 0 {
		c = 0 // the writer leaves a zero offset out, of either sign
	}
	p.offset = c
	return nil
}

func (p *parser) constraints() error {
	for {
		t := p.peek(0)
		if t.kind == tSection || t.kind == tEOF {
			return nil
		}
		name := ""
		if t.kind == tName && p.peek(1).kind == tColon {
			name = t.text
			p.pos += 2
		}
		lo, up := math.Inf(-1), math.Inf(1)
		var ts []term
		var c float64
		var err error
		k := 1
		if p.peek(0).kind == tSign {
			k = 2
		}
		if p.valueStart(0) && p.peek(k).kind == tOp {
			// v op expr [op v]
			v1, _ := p.value()
			o1 := p.next().op
			if ts, c, err = p.expr(); err != nil {
				return err
			}
			if p.peek(0).kind == tOp {
				o2t := p.next()
				v2, err := p.value()
				if err != nil {
					return err
				}
				switch {
				case o1 == opLE && o2t.op == opLE:
					lo, up = v1, v2
				case o1 == opGE && o2t.op == opGE:
					lo, up = v2, v1
				default:
					return p.errAt(o2t, "a ranged row needs two <= or two >=, found %v and %v", o1, o2t.op)
				}
			} else if len(ts) == 0 {
				// "v1 op v2" with no variables: the left side is the
				// (constant) expression.
				lo, up = sides(o1, c)
				c = v1
			} else {
				// v op expr: flip it round.
				switch o1 {
				case opLE:
					lo = v1
				case opGE:
					up = v1
				case opEQ:
					lo, up = v1, v1
				}
			}
		} else {
			if ts, c, err = p.expr(); err != nil {
				return err
			}
			ot := p.next()
			if ot.kind != tOp {
				return p.errAt(ot, "expected <=, >= or = in row %s, found %s", orUnnamed(name), describe(ot))
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			lo, up = sides(ot.op, v)
		}
		if err := p.addRow(name, t.line, ts, moveConstant(lo, c), moveConstant(up, c)); err != nil {
			return err
		}
	}
}

func orUnnamed(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// moveConstant is the bound v of "expr + c" as a bound of expr: v − c,
// and v itself when c is zero of either sign (so that "x <= -0" keeps −0).
func moveConstant(v, c float64) float64 {
	if c == 0 {
		return v
	}
	return v - c
}

// sides gives the row bounds of "expr o v".
func sides(o op, v float64) (float64, float64) {
	switch o {
	case opLE:
		return math.Inf(-1), v
	case opGE:
		return v, math.Inf(1)
	}
	return v, v
}

func (p *parser) addRow(name string, line int, ts []term, lo, up float64) error {
	i := len(p.rows)
	if name != "" {
		if _, dup := p.rowIdx[name]; dup {
			return p.errf(line, "row %s defined twice", name)
		}
		p.rowIdx[name] = i
	}
	p.rows = append(p.rows, name)
	p.rowLine = append(p.rowLine, line)
	p.rlo = append(p.rlo, lo)
	p.rup = append(p.rup, up)
	start := len(p.ents)
	for _, tm := range ts {
		if p.markRow[tm.col] == i {
			p.ents[p.mark[tm.col]].val += tm.coef
			continue
		}
		p.markRow[tm.col], p.mark[tm.col] = i, len(p.ents)
		p.ents = append(p.ents, entry{i, tm.col, tm.coef})
	}
	// Drop entries that are (or sum to) zero.
	w := start
	for _, e := range p.ents[start:] {
		if e.val != 0 {
			if math.IsInf(e.val, 0) || math.IsNaN(e.val) {
				return p.errf(line, "row %s: coefficient of %s is not finite", orUnnamed(name), p.cols[e.col])
			}
			p.ents[w] = e
			w++
		}
	}
	p.ents = p.ents[:w]
	return nil
}

func (p *parser) bounds() error {
	for {
		t := p.peek(0)
		if t.kind == tSection || t.kind == tEOF {
			return nil
		}
		if t.kind == tName && !isInfWord(t) {
			p.next()
			j := p.col(t.text, t.line)
			n := p.peek(0)
			if n.kind == tName && strings.EqualFold(n.text, "free") {
				p.next()
				p.lo[j], p.up[j] = math.Inf(-1), math.Inf(1)
				p.loSet[j], p.upSet[j] = true, true
				p.colLine[j] = t.line
				continue
			}
			o := p.next()
			if o.kind != tOp {
				return p.errAt(o, "bound on %s: expected <=, >=, = or free, found %s", t.text, describe(o))
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			p.setBound(j, o.op, v, t.line)
			if p.peek(0).kind == tOp {
				return p.errAt(p.peek(0), "bound on %s: unexpected %s", t.text, describe(p.peek(0)))
			}
			continue
		}
		v, err := p.value()
		if err != nil {
			return err
		}
		o := p.next()
		if o.kind != tOp {
			return p.errAt(o, "bound: expected <=, >= or = after a number, found %s", describe(o))
		}
		n := p.next()
		if n.kind != tName || isInfWord(n) {
			return p.errAt(n, "bound: expected a column name, found %s", describe(n))
		}
		j := p.col(n.text, n.line)
		switch o.op { // v op x is x op' v
		case opLE:
			p.setBound(j, opGE, v, n.line)
		case opGE:
			p.setBound(j, opLE, v, n.line)
		default:
			p.setBound(j, opEQ, v, n.line)
		}
		if p.peek(0).kind == tOp {
			o2 := p.next()
			v2, err := p.value()
			if err != nil {
				return err
			}
			p.setBound(j, o2.op, v2, n.line)
		}
	}
}

func (p *parser) setBound(j int, o op, v float64, line int) {
	if o == opLE || o == opEQ {
		p.up[j], p.upSet[j] = v, true
	}
	if o == opGE || o == opEQ {
		p.lo[j], p.loSet[j] = v, true
	}
	p.colLine[j] = line
}

func (p *parser) typeSection(k secKind) error {
	for {
		t := p.peek(0)
		if t.kind == tSection || t.kind == tEOF {
			return nil
		}
		if t.kind != tName {
			return p.errAt(t, "expected a column name, found %s", describe(t))
		}
		p.next()
		j := p.col(t.text, t.line)
		if k == secBinary {
			p.typ[j] = model.Binary
		} else {
			p.typ[j] = model.Integer
		}
	}
}

func (p *parser) finish() (*model.Model, error) {
	n, r := len(p.cols), len(p.rows)
	for j := 0; j < n; j++ {
		if p.typ[j] == model.Binary && !p.upSet[j] {
			p.up[j] = 1
		}
		msg := boundsProblem(p.lo[j], p.up[j])
		if msg == "" && p.typ[j] == model.Binary && (p.lo[j] < 0 || p.up[j] > 1) {
			msg = fmt.Sprintf("binary column with bounds [%v, %v] outside [0, 1]", p.lo[j], p.up[j])
		}
		if msg != "" {
			return nil, p.errf(p.colLine[j], "column %s: %s", p.cols[j], msg)
		}
	}
	for i := 0; i < r; i++ {
		if msg := boundsProblem(p.rlo[i], p.rup[i]); msg != "" {
			return nil, p.errf(p.rowLine[i], "row %s: %s", orUnnamed(p.rows[i]), msg)
		}
	}
	if math.IsInf(p.offset, 0) || math.IsNaN(p.offset) {
		return nil, p.errf(0, "objective constant is not finite")
	}
	for j, c := range p.obj {
		if math.IsInf(c, 0) || math.IsNaN(c) {
			return nil, p.errf(p.colLine[j], "column %s: objective coefficient is not finite", p.cols[j])
		}
	}
	m := &model.Model{
		Name: p.name, Sense: p.sense, ObjOffset: p.offset,
		Obj: p.obj, ColLower: p.lo, ColUpper: p.up, ColType: p.typ, ColNames: p.cols,
		RowLower: p.rlo, RowUpper: p.rup,
	}
	if m.Obj == nil {
		m.Obj, m.ColLower, m.ColUpper, m.ColType, m.ColNames = []float64{}, []float64{}, []float64{}, []model.VarType{}, []string{}
	}
	if m.RowLower == nil {
		m.RowLower, m.RowUpper = []float64{}, []float64{}
	}
	for _, s := range p.rows {
		if s != "" {
			m.RowNames = p.rows
			break
		}
	}
	// Entries arrive row by row; a counting sort by column keeps rows
	// increasing within each column.
	start := make([]int, n+1)
	for _, e := range p.ents {
		start[e.col+1]++
	}
	for j := 0; j < n; j++ {
		start[j+1] += start[j]
	}
	next := append([]int(nil), start[:n]...)
	m.RowIndex = make([]int, len(p.ents))
	m.Value = make([]float64, len(p.ents))
	for _, e := range p.ents {
		k := next[e.col]
		m.RowIndex[k], m.Value[k] = e.row, e.val
		next[e.col]++
	}
	m.ColStart = start
	if err := m.Validate(); err != nil {
		return nil, p.errf(0, "%v", err)
	}
	return m, nil
}

func boundsProblem(lo, up float64) string {
	switch {
	case math.IsNaN(lo) || math.IsNaN(up):
		return "bound is NaN"
	case math.IsInf(lo, 1):
		return "lower bound is +Inf"
	case math.IsInf(up, -1):
		return "upper bound is -Inf"
	case lo > up:
		return fmt.Sprintf("lower bound %v > upper bound %v", lo, up)
	}
	return ""
}
