package mps

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/model"
)

// Write writes m as free MPS. The model must be valid (see model.Validate).
func Write(w io.Writer, m *model.Model) error {
	if err := m.Validate(); err != nil {
		return err
	}
	cols := uniqueNames(m.NumCols(), m.ColNames, "C")
	rows := uniqueNames(m.NumRows(), m.RowNames, "R")
	taken := make(map[string]bool, len(rows))
	for _, s := range rows {
		taken[s] = true
	}
	objName := freshName("obj", taken)

	o := &out{w: bufio.NewWriterSize(w, 1<<16)}
	name := strings.Join(strings.Fields(m.Name), "_")
	if name == "" {
		o.str("NAME\n")
	} else {
		o.str("NAME ", name, "\n")
	}
	if m.Sense == model.Maximize {
		o.str("OBJSENSE\n    MAX\n")
	}

	type rowCode struct {
		typ      byte
		rhs, rng float64
		ranged   bool
	}
	codes := make([]rowCode, m.NumRows())
	anyRange := false
	o.str("ROWS\n N  ", objName, "\n")
	for i := range codes {
		lo, up := m.RowLower[i], m.RowUpper[i]
		var c rowCode
		switch {
		case lo == up:
			c = rowCode{typ: 'E', rhs: lo}
		case math.IsInf(lo, -1):
			c = rowCode{typ: 'L', rhs: up} // up = +Inf makes a free row
		case math.IsInf(up, 1):
			c = rowCode{typ: 'G', rhs: lo}
		default:
			c.typ, c.rhs, c.rng = encodeRange(lo, up)
			if math.IsInf(c.rng, 0) {
				return fmt.Errorf("mps: row %s: range [%v, %v] is wider than the largest float64", rows[i], lo, up)
			}
			c.ranged, anyRange = true, true
		}
		codes[i] = c
		o.str(" ", string(c.typ), "  ", rows[i], "\n")
	}

	o.str("COLUMNS\n")
	inMarker, markers := false, 0
	marker := func(kind string) {
		o.str("    MARKER", strconv.Itoa(markers), " 'MARKER' '", kind, "'\n")
		markers++
	}
	for j := 0; j < m.NumCols(); j++ {
		if isInt := m.ColType[j].IsInteger(); isInt != inMarker {
			if isInt {
				marker("INTORG")
			} else {
				marker("INTEND")
			}
			inMarker = isInt
		}
		s, e := m.ColStart[j], m.ColStart[j+1]
		if m.Obj[j] != 0 || s == e {
			o.str("    ", cols[j], " ", objName, " ")
			o.num(m.Obj[j])
			o.str("\n")
		}
		for k := s; k < e; k++ {
			o.str("    ", cols[j], " ", rows[m.RowIndex[k]], " ")
			o.num(m.Value[k])
			o.str("\n")
		}
	}
	if inMarker {
		marker("INTEND")
	}

	o.str("RHS\n")
	if m.ObjOffset != 0 {
		o.str("    RHS ", objName, " ")
		o.num(-m.ObjOffset)
		o.str("\n")
	}
	for i, c := range codes {
		if c.rhs != 0 {
			o.str("    RHS ", rows[i], " ")
			o.num(c.rhs)
			o.str("\n")
		}
	}
	if anyRange {
		o.str("RANGES\n")
		for i, c := range codes {
			if c.ranged {
				o.str("    RNG ", rows[i], " ")
				o.num(c.rng)
				o.str("\n")
			}
		}
	}

	o.str("BOUNDS\n")
	bnd := func(t string, j int, v float64, withValue bool) {
		o.str(" ", t, " BND ", cols[j])
		if withValue {
			o.str(" ")
			o.num(v)
		}
		o.str("\n")
	}
	inf := math.Inf(1)
	for j := 0; j < m.NumCols(); j++ {
		lo, up := m.ColLower[j], m.ColUpper[j]
		switch m.ColType[j] {
		case model.Binary:
			bnd("BV", j, 0, false)
			// CBC refuses LO or UP after BV but takes FX. A binary takes
			// only 0 or 1, so bounds other than [0, 1] either fix it (FX,
			// with fractional bounds rounded inwards: [0.3, 1] is 1) or
			// leave it empty, which only LO and UP can say.
			ilo, iup := math.Ceil(lo), math.Floor(up)
			if ilo == iup {
				bnd("FX", j, ilo, true)
				break
			}
			if ilo < iup {
				break
			}
			if lo != 0 {
				bnd("LO", j, lo, true)
			}
			if up != 1 {
				bnd("UP", j, up, true)
			}
		case model.Integer:
			// Always at least one entry, so that the [0, 1] default for
			// marker columns without bounds never applies.
			switch {
			case lo == up:
				bnd("FX", j, lo, true)
			default:
				if math.IsInf(lo, -1) {
					bnd("MI", j, 0, false)
				} else if lo != 0 {
					bnd("LO", j, lo, true)
				}
				if up == inf {
					bnd("PL", j, 0, false)
				} else {
					bnd("UP", j, up, true)
				}
			}
		default:
			switch {
			case lo == up:
				bnd("FX", j, lo, true)
			case math.IsInf(lo, -1) && up == inf:
				bnd("FR", j, 0, false)
			default:
				// A negative upper bound implies lo < 0, written first, so
				// the reader's negative-UP rule never fires.
				if math.IsInf(lo, -1) {
					bnd("MI", j, 0, false)
				} else if lo != 0 {
					bnd("LO", j, lo, true)
				}
				if up != inf {
					bnd("UP", j, up, true)
				}
			}
		}
	}
	o.str("ENDATA\n")
	return o.flush()
}

// encodeRange picks a row type (G or L), a right-hand side and a positive
// range R such that the reader's rule (G: [b, b+R], L: [b−R, b]) gives back
// exactly [lo, up]. It tries R = up−lo and a few neighbouring floats; should
// none reproduce the bounds bit for bit it returns the G encoding with up−lo.
func encodeRange(lo, up float64) (byte, float64, float64) {
	r0 := up - lo
	try := []float64{r0}
	a, b := r0, r0
	for k := 0; k < 4; k++ {
		a, b = math.Nextafter(a, math.Inf(1)), math.Nextafter(b, 0)
		try = append(try, a, b)
	}
	for _, r := range try {
		if r < 0 || math.IsInf(r, 0) {
			continue
		}
		if lo+r == up {
			return 'G', lo, r
		}
		if up-r == lo {
			return 'L', up, r
		}
	}
	return 'G', lo, r0
}

// uniqueNames returns n names: given[i] where it is non-empty, otherwise
// prefix+i, made distinct from every other name by appending "_k".
func uniqueNames(n int, given []string, prefix string) []string {
	out := make([]string, n)
	taken := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		if given != nil && given[i] != "" {
			out[i] = given[i]
			taken[given[i]] = true
		}
	}
	for i := 0; i < n; i++ {
		if out[i] == "" {
			out[i] = freshName(prefix+strconv.Itoa(i), taken)
		}
	}
	return out
}

// freshName returns base, or base_k for the smallest k ≥ 1 making it unused,
// and marks it as taken.
func freshName(base string, taken map[string]bool) string {
	s := base
	for k := 1; taken[s]; k++ {
		s = base + "_" + strconv.Itoa(k)
	}
	taken[s] = true
	return s
}

// out is a buffered writer that remembers its first error.
type out struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func (o *out) str(ss ...string) {
	if o.err != nil {
		return
	}
	for _, s := range ss {
		if _, err := o.w.WriteString(s); err != nil {
			o.err = err
			return
		}
	}
}

func (o *out) num(v float64) {
	o.buf = strconv.AppendFloat(o.buf[:0], v, 'g', -1, 64)
	if o.err == nil {
		_, o.err = o.w.Write(o.buf)
	}
}

func (o *out) flush() error {
	if o.err != nil {
		return o.err
	}
	return o.w.Flush()
}
