package lpformat

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/model"
)

// termsPerLine is how many terms the writer puts on one line of an
// expression before continuing on the next.
const termsPerLine = 8

// Write writes m in CPLEX LP format. The model must be valid.
func Write(w io.Writer, m *model.Model) error {
	if err := m.Validate(); err != nil {
		return err
	}
	cols := legalNames(m.NumCols(), m.ColNames, "C")
	rows := legalNames(m.NumRows(), m.RowNames, "R")
	objName := "obj"
	for k, taken := 1, set(rows); taken[objName]; k++ {
		objName = "obj_" + strconv.Itoa(k)
	}
	o := &out{w: bufio.NewWriterSize(w, 1<<16)}
	if name := strings.Join(strings.Fields(m.Name), "_"); name != "" {
		o.str("\\ Problem: ", name, "\n")
	}
	if m.Sense == model.Maximize {
		o.str("Maximize\n")
	} else {
		o.str("Minimize\n")
	}
	o.str(" ", objName, ":")
	for j := range m.Obj {
		o.term(j, m.Obj[j], cols[j])
	}
	if m.ObjOffset != 0 {
		o.sep(len(m.Obj))
		o.signed(m.ObjOffset)
	}
	o.str("\n")

	o.str("Subject To\n")
	csr := m.RowMatrix()
	for i := 0; i < m.NumRows(); i++ {
		lo, up := m.RowLower[i], m.RowUpper[i]
		o.str(" ", rows[i], ":")
		ranged := lo != up && !math.IsInf(lo, -1) && !math.IsInf(up, 1)
		if ranged {
			o.str(" ")
			o.num(lo)
			o.str(" <=")
		}
		s, e := csr.RowStart[i], csr.RowStart[i+1]
		switch {
		case s < e:
			for k := s; k < e; k++ {
				o.term(k-s, csr.Value[k], cols[csr.ColIndex[k]])
			}
		case len(cols) > 0:
			o.str(" 0 ", cols[0])
		default:
			o.str(" 0")
		}
		switch {
		case ranged:
			o.str(" <= ")
			o.num(up)
		case lo == up:
			o.str(" = ")
			o.num(lo)
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			o.str(" >= -inf")
		case math.IsInf(lo, -1):
			o.str(" <= ")
			o.num(up)
		default:
			o.str(" >= ")
			o.num(lo)
		}
		o.str("\n")
	}

	o.str("Bounds\n")
	for j := 0; j < m.NumCols(); j++ {
		lo, up := m.ColLower[j], m.ColUpper[j]
		defUp := math.Inf(1)
		if m.ColType[j] == model.Binary {
			defUp = 1
		}
		switch {
		case lo == 0 && up == defUp:
		case lo == up:
			o.str(" ", cols[j], " = ")
			o.num(lo)
			o.str("\n")
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			o.str(" ", cols[j], " free\n")
		case lo == 0:
			o.str(" ", cols[j], " <= ")
			o.num(up)
			o.str("\n")
		case up == defUp:
			o.str(" ", cols[j], " >= ")
			o.num(lo)
			o.str("\n")
		default:
			o.str(" ")
			o.num(lo)
			o.str(" <= ", cols[j], " <= ")
			o.num(up)
			o.str("\n")
		}
	}
	for _, sec := range []struct {
		kw string
		t  model.VarType
	}{{"General", model.Integer}, {"Binary", model.Binary}} {
		n := 0
		for j, t := range m.ColType {
			if t != sec.t {
				continue
			}
			if n == 0 {
				o.str(sec.kw, "\n")
			}
			if n%termsPerLine == 0 {
				if n > 0 {
					o.str("\n")
				}
				o.str(" ")
			}
			o.str(" ", cols[j])
			n++
		}
		if n > 0 {
			o.str("\n")
		}
	}
	o.str("End\n")
	return o.flush()
}

// out is a buffered writer that remembers its first error.
type out struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func (o *out) str(ss ...string) {
	for _, s := range ss {
		if o.err == nil {
			_, o.err = o.w.WriteString(s)
		}
	}
}

// num writes v in full precision, with inf words for infinities.
func (o *out) num(v float64) {
	switch {
	case math.IsInf(v, 1):
		o.str("+inf")
	case math.IsInf(v, -1):
		o.str("-inf")
	default:
		o.buf = strconv.AppendFloat(o.buf[:0], v, 'g', -1, 64)
		if o.err == nil {
			_, o.err = o.w.Write(o.buf)
		}
	}
}

// sep starts a new line within a long expression.
func (o *out) sep(k int) {
	if k > 0 && k%termsPerLine == 0 {
		o.str("\n  ")
	}
}

// signed writes " + |v|" or " - |v|" (the sign bit decides, so −0 survives).
func (o *out) signed(v float64) {
	if math.Signbit(v) {
		o.str(" - ")
		v = -v
	} else {
		o.str(" + ")
	}
	o.num(v)
}

// term writes the k-th term of an expression: " + c name".
func (o *out) term(k int, c float64, name string) {
	o.sep(k)
	o.signed(c)
	o.str(" ", name)
}

func (o *out) flush() error {
	if o.err != nil {
		return o.err
	}
	return o.w.Flush()
}

func set(names []string) map[string]bool {
	s := make(map[string]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}

// reserved holds words that cannot be names (compared in lower case).
var reserved = map[string]bool{
	"inf": true, "infinity": true, "free": true,
	"minimize": true, "minimise": true, "minimum": true, "min": true,
	"maximize": true, "maximise": true, "maximum": true, "max": true,
	"subject": true, "such": true, "st": true, "s.t.": true, "st.": true,
	"bounds": true, "bound": true, "general": true, "generals": true, "gen": true,
	"integer": true, "integers": true, "int": true,
	"binary": true, "binaries": true, "bin": true,
	"semi-continuous": true, "semi": true, "semis": true, "sos": true, "end": true,
}

// isNameChar reports whether c may appear in an LP name.
func isNameChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!\"#$%&()/,.;?@_`'{}|~", c) >= 0
}

// maxNameLen is the longest name CPLEX accepts.
const maxNameLen = 255

// legal reports whether s may be written as is.
func legal(s string) bool {
	if s == "" || len(s) > maxNameLen || (s[0] >= '0' && s[0] <= '9') || s[0] == '.' || reserved[strings.ToLower(s)] {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// sanitise turns s into a legal name (not necessarily unique).
func sanitise(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !isNameChar(c) {
			b[i] = '_'
		}
	}
	if len(b) > maxNameLen-12 {
		b = b[:maxNameLen-12] // room for a "_k" suffix
	}
	s = string(b)
	if !legal(s) {
		s = "_" + s
	}
	return s
}

// legalNames returns n distinct legal names: given[i] when it is legal,
// otherwise a sanitised or generated (prefix+i) one made unique by "_k".
func legalNames(n int, given []string, prefix string) []string {
	out := make([]string, n)
	taken := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		if given != nil && legal(given[i]) {
			out[i] = given[i]
			taken[given[i]] = true
		}
	}
	for i := 0; i < n; i++ {
		if out[i] != "" {
			continue
		}
		s := prefix + strconv.Itoa(i)
		if given != nil && given[i] != "" {
			s = sanitise(given[i])
		}
		b := s
		for k := 1; taken[s]; k++ {
			s = b + "_" + strconv.Itoa(k)
		}
		taken[s] = true
		out[i] = s
	}
	return out
}
