package bnb

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// sameResult reports whether a and b are the same Result: status, value
// and bound to the bit (NaN equal to NaN), nodes, dominated and schedule.
func sameResult(a, b *Result) bool {
	if a == nil || b == nil {
		return a == b
	}
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	}
	return a.Metric == b.Metric && a.Status == b.Status && same(a.Value, b.Value) && same(a.Bound, b.Bound) &&
		a.Nodes == b.Nodes && a.Dominated == b.Dominated && slices.Equal(a.Placements, b.Placements)
}

// TestFastMatchesPlain: the search's fast forms (best-first nodes rebuilt
// from the nearest applied ancestor, the sorted-queue listEnd, fluid's
// prefix of free slots, its pick kept between events and its ends listed
// in order, the reduce tails precomputed, the small sorts by insertion,
// the sums' bound without the due-date form where the rest closes the
// node, the memo's keys ruling out entries before their vectors are read)
// decide exactly what the reference forms of Options.plain decide: on 60 seeded tiny problems with
// a depth-first phase of 4 nodes and a best-first one of 300, and on a
// 12-job MRCP mixed stream with 2,000 + 10,000 nodes (split and whole),
// for every metric, the two Results are equal — status, value, bound,
// nodes, dominated and schedule.
func TestFastMatchesPlain(t *testing.T) {
	ctx := context.Background()
	check := func(name string, p *lowerbound.Problem, m lowerbound.Metric, o Options) {
		t.Helper()
		fast, err1 := Solve(ctx, p, m, o)
		o.plain = true
		plain, err2 := Solve(ctx, p, m, o)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s %v: %v, %v", name, m, err1, err2)
		}
		if !sameResult(fast, plain) {
			t.Fatalf("%s %v: fast %+v\nplain %+v", name, m, fast, plain)
		}
	}
	r := rand.New(rand.NewPCG(17, 26))
	for it := range 60 {
		p := tiny(r)
		for _, m := range metrics {
			check(fmt.Sprintf("tiny problem %d", it), p, m, Options{NodeLimit: 4, BoundNodes: 300, whole: true})
		}
	}
	p := mrcpGenerated(t, 12, 3)
	for _, m := range metrics {
		check("mrcp 12 split", p, m, Options{NodeLimit: 2_000, BoundNodes: 10_000})
		check("mrcp 12 whole", p, m, Options{NodeLimit: 2_000, BoundNodes: 10_000, whole: true})
	}
}

// TestKernelsMatchPlain: listEnd and fluid give, to the bit, what their
// reference forms give on 20,000 seeded sorted slot lists and job sets
// (ties of free times, releases before and after them, slots free far
// apart and close together); the ends fluid lists as they come are the
// reference's ends sorted; insertionSort sorts as slices.Sort does.
func TestKernelsMatchPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 17))
	for it := range 20_000 {
		avail := make([]int64, 1+r.IntN(20))
		for i := range avail {
			avail[i] = int64(r.IntN(1 + 5*r.IntN(20)))
		}
		slices.Sort(avail)
		rho, n, d := int64(r.IntN(60)), r.IntN(30), int64(1+r.IntN(9))
		if a, b := listEnd(avail, rho, n, d, make([]int64, n)), listEndPlain(avail, rho, n, d); a != b {
			t.Fatalf("case %d: listEnd(%v, %d, %d, %d) = %d, plain %d", it, avail, rho, n, d, a, b)
		}
		js := make([]fluidJob, 1+r.IntN(8))
		for i := range js {
			js[i] = fluidJob{release: float64(r.IntN(50)), work: float64(1 + r.IntN(40)), deadline: float64(r.IntN(120))}
		}
		for _, rl := range []rule{srpt, edf} {
			a, b := slices.Clone(js), slices.Clone(js)
			ma, ends := fluid(avail, a, rl, make([]int32, 2*len(a)), nil)
			mb := fluidPlain(avail, b, rl)
			if ma != mb {
				t.Fatalf("case %d rule %d: missed %v, plain %v", it, rl, ma, mb)
			}
			for i := range a {
				if math.Float64bits(a[i].end) != math.Float64bits(b[i].end) {
					t.Fatalf("case %d rule %d: job %d ends at %v, plain %v", it, rl, i, a[i].end, b[i].end)
				}
			}
			// The ends as listed are the plain ends sorted, to the bit.
			want := make([]float64, len(b))
			for i := range b {
				want[i] = b[i].end
			}
			slices.Sort(want)
			if !slices.EqualFunc(ends, want, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
				t.Fatalf("case %d rule %d: ends listed %v, plain sorted %v", it, rl, ends, want)
			}
		}
		// insertionSort sorts as slices.Sort does (ties among few values).
		xi, xf := make([]int64, r.IntN(30)), make([]float64, r.IntN(30))
		for i := range xi {
			xi[i] = int64(r.IntN(12))
		}
		for i := range xf {
			xf[i] = float64(r.IntN(12)) / 4
		}
		wi, wf := slices.Clone(xi), slices.Clone(xf)
		slices.Sort(wi)
		slices.Sort(wf)
		if insertionSort(xi); !slices.Equal(xi, wi) {
			t.Fatalf("case %d: insertionSort gives %v, slices.Sort %v", it, xi, wi)
		}
		if insertionSort(xf); !slices.Equal(xf, wf) {
			t.Fatalf("case %d: insertionSort gives %v, slices.Sort %v", it, xf, wf)
		}
	}
}

// refHeap is the best-first heap as first written: container/heap over
// node indices, the keys read from the nodes.
type refHeap struct {
	keys []bfOpen
	open []int32
}

func (h *refHeap) Len() int { return len(h.open) }
func (h *refHeap) Less(a, b int) bool {
	x, y := &h.keys[h.open[a]], &h.keys[h.open[b]]
	if x.lb != y.lb {
		return x.lb < y.lb
	}
	if x.depth != y.depth {
		return x.depth > y.depth
	}
	return x.parent > y.parent
}
func (h *refHeap) Swap(a, b int) { h.open[a], h.open[b] = h.open[b], h.open[a] }
func (h *refHeap) Push(x any)    { h.open = append(h.open, x.(int32)) }
func (h *refHeap) Pop() any {
	x := h.open[len(h.open)-1]
	h.open = h.open[:len(h.open)-1]
	return x
}

// TestHeapOrder: bfHeap pops open nodes in container/heap's order, ties
// included (siblings of equal bound and depth, where the order is the
// sifts'), over
// 200 seeded runs of 2,000 pushes and pops on a few keys, and one of
// 120,000 that holds several chunks of the heap's array at once (its
// sifts cross from chunk to chunk).
func TestHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	for it := range 201 {
		var h bfHeap
		ref := &refHeap{}
		steps := 2_000
		if it == 200 {
			steps = 120_000
		}
		for step := range steps {
			if h.len() == 0 || r.IntN(3) > 0 {
				// Nodes come in pairs of one parent (siblings, tied on
				// the whole key when bound and depth agree); parent and
				// j name the node.
				n := len(ref.keys)
				o := bfOpen{lb: float64(r.IntN(4)), parent: int32(n / 2), j: int16(n % 2), depth: int16(r.IntN(3))}
				ref.keys = append(ref.keys, o)
				heap.Push(ref, int32(n))
				h.push(o)
				continue
			}
			got := h.pop()
			if want := ref.keys[heap.Pop(ref).(int32)]; got.parent != want.parent || got.j != want.j {
				t.Fatalf("run %d step %d: popped %+v, container/heap %+v", it, step, got, want)
			}
		}
		if it == 200 && len(h.open.c) < 3 {
			t.Fatalf("the long run held %d chunks, want several", len(h.open.c))
		}
	}
}
