package bnb

import (
	"math"
	"slices"

	"github.com/mrbound/mrbound/lowerbound"
)

// DefaultMemoEntries is the most partial schedules the memo keeps when
// Options.MemoEntries is 0 (each is 2 counts and 2 times per job plus a time
// per slot: about 0.5 KB for a 20-job stream on 4 + 4 slots).
const DefaultMemoEntries = 200_000

// memoBucket is the most entries kept under one set of placed counts: each
// node is compared with all of them.
const memoBucket = 32

// memo remembers partial schedules already searched, by the tasks they
// placed, so that a node another one dominates (§14: the same tasks placed,
// a key, slot free times and per-job times no earlier) is not searched
// again.
type memo struct {
	index map[uint64][]int32
	// counts and vals hold memoChunk entries per chunk, so that growing
	// them copies nothing (a doubling slice's copies were a fifth of the
	// memo's time on the MRCP streams).
	counts  [][]int32 // per entry: every job's maps and reduces placed
	vals    [][]int64 // per entry: the dominance vector (searcher.vector) and last index
	width   int
	entries int
	max     int
	cbuf    []int32 // the current node's counts
}

// memoChunk is the entries per chunk of memo.counts and memo.vals.
const memoChunk = 1024

func newMemo(width, maxEntries int) *memo {
	return &memo{index: map[uint64][]int32{}, width: width, max: maxEntries}
}

// zobrist is the hash term of job j having placed c tasks of kind k
// (splitmix64 of the triple).
func zobrist(j, k, c int) uint64 {
	x := uint64(j)<<33 ^ uint64(k)<<32 ^ uint64(c)
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// vector writes the current node's dominance vector into v: the last key's
// start, the sorted map and reduce slot free times, and per job its last map
// end and completion once its maps are placed (0 before: a job's remaining
// maps end after its placed ones, so these do not matter yet).
func (s *searcher) vector(v []int64) []int64 {
	v = append(v[:0], s.lastStart)
	for k := range 2 {
		n := len(v)
		for _, sl := range s.slots[k] {
			v = append(v, sl.free)
		}
		slices.Sort(v[n:])
	}
	sums := s.metric == lowerbound.TotalTurnaround || s.metric == lowerbound.MeanTurnaround
	var finished int64
	for j := range s.jobs {
		switch {
		case s.mapsDone[j] < s.jobs[j].nMaps:
			v = append(v, 0, 0)
		case sums && s.redsDone[j] == s.jobs[j].nReds:
			// A finished job's times matter to the sums only through its
			// turnaround, added to the rest (§14, Lemma 3).
			v = append(v, 0, 0)
			finished += s.done[j] - s.jobs[j].arrival
		default:
			v = append(v, s.lme[j], s.done[j])
		}
	}
	return append(v, finished)
}

// dominated reports whether an entry with the current counts has every
// component of the vector v no greater and a last key no later; if not, it
// keeps v while there is room.
func (m *memo) dominated(s *searcher, v []int64) bool {
	ids := m.index[s.hash]
	n := len(s.jobs)
	m.cbuf = m.cbuf[:0]
	for j := range n {
		m.cbuf = append(m.cbuf, int32(s.mapsDone[j]), int32(s.redsDone[j]))
	}
	for _, id := range ids {
		// The counts (equal but for a hash collision) are compared last:
		// the vector rules out most entries in its first components (the
		// last start, the map slots' free times).
		ch, at := int(id)/memoChunk, int(id)%memoChunk
		e := m.vals[ch][at*m.width : (at+1)*m.width]
		dom := true
		for i := range v {
			if e[i] > v[i] {
				dom = false
				break
			}
		}
		// At an equal last start the index must not be later either: an
		// entry stores its index after its vector (see keep).
		if dom && e[0] == v[0] && e[m.width-1] > int64(s.lastIdx) {
			dom = false
		}
		if dom && !slices.Equal(m.counts[ch][at*2*n:(at+1)*2*n], m.cbuf) {
			dom = false
		}
		if dom {
			return true
		}
	}
	if m.entries < m.max && len(ids) < memoBucket && m.entries < math.MaxInt32 {
		if m.entries%memoChunk == 0 {
			// The first chunk grows by append (a search of a few nodes
			// allocates little), the others are made whole.
			var c []int32
			var x []int64
			if m.entries > 0 {
				c, x = make([]int32, 0, memoChunk*2*n), make([]int64, 0, memoChunk*m.width)
			}
			m.counts = append(m.counts, c)
			m.vals = append(m.vals, x)
		}
		ch := len(m.vals) - 1
		m.counts[ch] = append(m.counts[ch], m.cbuf...)
		m.vals[ch] = append(m.vals[ch], v...)
		m.vals[ch] = append(m.vals[ch], int64(s.lastIdx))
		m.index[s.hash] = append(ids, int32(m.entries))
		m.entries++
	}
	return false
}
