package cuts

import (
	"math"
	"sort"
)

const (
	// maxExtraCliqueRow is the longest row from which, besides its largest
	// clique, the cliques of every lighter item are also extracted.
	maxExtraCliqueRow = 30
	// maxTableSize bounds the total number of literals stored in the table.
	maxTableSize = 2_000_000
)

// Literal encodes x_j (2j) or its complement 1 − x_j (2j+1).
type Literal int

// Lit returns the literal of column j, complemented when neg is true.
func Lit(j int, neg bool) Literal {
	if neg {
		return Literal(2*j + 1)
	}
	return Literal(2 * j)
}

// Col is the column of the literal; Neg whether it is complemented.
func (l Literal) Col() int  { return int(l) / 2 }
func (l Literal) Neg() bool { return l&1 == 1 }

// Value is the literal's value at x.
func (l Literal) Value(x []float64) float64 {
	if l.Neg() {
		return 1 - x[l.Col()]
	}
	return x[l.Col()]
}

// CliqueTable stores sets of binary literals of which at most one can be 1
// in any feasible point: the conflict graph in clique form.
type CliqueTable struct {
	Cliques [][]Literal
	// of[l] lists the cliques containing literal l.
	of   [][]int32
	seen map[uint64]bool
	size int
}

// NewCliqueTable extracts the cliques implied by the rows of p.
func NewCliqueTable(p *Problem) *CliqueTable {
	t := &CliqueTable{of: make([][]int32, 2*p.NumCols), seen: map[uint64]bool{}}
	for i := 0; i < p.NumRows(); i++ {
		p.leForms(i, func(ind []int, coef []float64, rhs float64) { t.fromRow(p, ind, coef, rhs) })
	}
	return t
}

// NumCliques is the number of stored cliques.
func (t *CliqueTable) NumCliques() int { return len(t.Cliques) }

func (t *CliqueTable) fromRow(p *Problem, ind []int, coef []float64, rhs float64) {
	b := rhs
	type item struct {
		l Literal
		a float64
	}
	items := make([]item, 0, len(ind))
	for k, j := range ind {
		a := coef[k]
		if p.IsBinary(j) {
			if a > 0 {
				items = append(items, item{Lit(j, false), a})
			} else {
				items = append(items, item{Lit(j, true), -a})
				b -= a
			}
			continue
		}
		if a > 0 {
			if math.IsInf(p.Lower[j], -1) {
				return
			}
			b -= a * p.Lower[j]
		} else {
			if math.IsInf(p.Upper[j], 1) {
				return
			}
			b -= a * p.Upper[j]
		}
	}
	if len(items) < 2 {
		return
	}
	sort.SliceStable(items, func(x, y int) bool { return items[x].a > items[y].a })
	tol := 1e-9 * math.Max(1, math.Abs(b))
	conflict := func(x, y float64) bool { return x+y > b+tol }
	if !conflict(items[0].a, items[1].a) {
		return
	}
	k := 2
	for k < len(items) && conflict(items[k-1].a, items[k].a) {
		k++
	}
	main := make([]Literal, k)
	for q := 0; q < k; q++ {
		main[q] = items[q].l
	}
	t.add(main)
	if len(items) > maxExtraCliqueRow {
		return
	}
	for l := k; l < len(items); l++ {
		// Items of the prefix conflicting with item l.
		q := 0
		for q < k && conflict(items[q].a, items[l].a) {
			q++
		}
		if q == 0 {
			break
		}
		c := make([]Literal, 0, q+1)
		for r := 0; r < q; r++ {
			c = append(c, items[r].l)
		}
		t.add(append(c, items[l].l))
	}
}

func (t *CliqueTable) add(c []Literal) {
	if t.size+len(c) > maxTableSize {
		return
	}
	sort.Slice(c, func(a, b int) bool { return c[a] < c[b] })
	h := uint64(14695981039346656037)
	for _, l := range c {
		h ^= uint64(l)
		h *= 1099511628211
	}
	if t.seen[h] {
		return
	}
	t.seen[h] = true
	id := int32(len(t.Cliques))
	t.Cliques = append(t.Cliques, c)
	t.size += len(c)
	for _, l := range c {
		t.of[l] = append(t.of[l], id)
	}
}

// Adjacent reports whether literals u and v cannot both be 1.
func (t *CliqueTable) Adjacent(u, v Literal) bool {
	if u.Col() == v.Col() {
		return u != v
	}
	a, b := t.of[u], t.of[v]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// Neighbours returns the literals adjacent to u through stored cliques.
func (t *CliqueTable) Neighbours(u Literal) []Literal {
	var out []Literal
	seen := map[Literal]bool{u: true}
	for _, id := range t.of[u] {
		for _, v := range t.Cliques[id] {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// Separate grows, from every literal with a fractional LP value, a clique
// greedily by decreasing LP value, extends it to a maximal clique, and returns
// the distinct ones violated by at least MinViolation.
func (t *CliqueTable) Separate(p *Problem, x []float64) []Cut {
	if len(t.Cliques) == 0 {
		return nil
	}
	var out []Cut
	found := map[uint64]bool{}
	for j := 0; j < p.NumCols; j++ {
		if !p.IsBinary(j) || x[j] < intTol || x[j] > 1-intTol {
			continue
		}
		for _, start := range []Literal{Lit(j, false), Lit(j, true)} {
			if len(t.of[start]) == 0 {
				continue
			}
			nb := t.Neighbours(start)
			sort.SliceStable(nb, func(a, b int) bool {
				va, vb := nb[a].Value(x), nb[b].Value(x)
				if va != vb {
					return va > vb
				}
				return nb[a] < nb[b]
			})
			c := []Literal{start}
			w := start.Value(x)
			for _, v := range nb {
				ok := true
				for _, u := range c {
					if !t.Adjacent(u, v) {
						ok = false
						break
					}
				}
				if ok {
					c = append(c, v)
					w += v.Value(x)
				}
			}
			if w-1 < MinViolation {
				continue
			}
			sort.Slice(c, func(a, b int) bool { return c[a] < c[b] })
			h := uint64(14695981039346656037)
			for _, l := range c {
				h ^= uint64(l)
				h *= 1099511628211
			}
			if found[h] {
				continue
			}
			found[h] = true
			cut := Cut{Rhs: 1}
			for _, l := range c {
				cut.Ind = append(cut.Ind, l.Col())
				if l.Neg() {
					cut.Coef = append(cut.Coef, -1)
					cut.Rhs--
				} else {
					cut.Coef = append(cut.Coef, 1)
				}
			}
			if normalize(&cut, p) {
				out = append(out, cut)
			}
		}
	}
	return out
}
