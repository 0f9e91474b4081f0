package bnb

import (
	"math"
	"math/bits"
	"slices"

	"github.com/mrbound/mrbound/lowerbound"
)

// DefaultMemoEntries is the most partial schedules the memo keeps when
// Options.MemoEntries is 0. An entry is its dominance vector — a start, a
// time per slot, two per job between its last map and its last reduce, a
// sum and an index — and a key of 32 bytes (memoKey): 130–190 bytes on
// the 20-job MRCP streams' 4 + 4 slots, so up to about 380 MB. 1 M until
// s28fast's keys made a scan cheap; with buckets of 4,096 the best-first
// phase of seed 5's sums then closes a quarter more nodes by dominance in
// 2 M entries, and 4 M or 8 M give the same bound (docs/results.md, issue
// 26, the twenty-sixth session's lead section).
const DefaultMemoEntries = 2_000_000

// memoBucket is the most entries kept under one set of placed counts: each
// node is compared with all of them (their keys first). At 32 the
// best-first phase of the 20-job MRCP streams' sums kept under 50,000
// entries in 5.5 M expansions, its buckets full, and closed 6 % of its
// nodes by dominance; at 1,024 it closes a third and proves seeds 1 and 3
// (docs/results.md, issue 26, s21sum); at 4,096, with s28fast's keys, it
// closes more for little more time (seed 5's bound +2 s at 3.5 M nodes, 7 %
// less CPU than 1,024 at 4 M). A variable so that the tests can make
// buckets fill and entries give way on tiny problems.
var memoBucket = 4096

// memoSweep is how many replacements in a full bucket pass between two
// sweeps for entries a new node dominates (a variable, as memoBucket).
var memoSweep = 64

// memo remembers partial schedules already searched, by the tasks they
// placed, so that a node another one dominates (§14: the same tasks placed,
// a key, slot free times and per-job times no earlier) is not searched
// again. Every entry of a bucket has the same counts, so the same jobs
// are between their last map and their last reduce: the vectors of a
// bucket have one width, and the components that are 0 for every count
// (a job with maps left, a finished job of the sums) are left out.
//
// A full bucket first drops the entries a new node dominates (dominance is
// transitive: whatever they closed, it closes), and otherwise the new node
// takes the place of an entry going round the bucket. Any node expanded
// (best-first) or visited with the same counts (depth-first: never an
// ancestor) dominates soundly (§14, Lemma 3), so dropping entries loses
// closures, never validity.
type memo struct {
	index   map[uint64]int32 // the counts' hash → bucket
	buckets []memoSet
	entries int // entries held in all buckets
	max     int
	cbuf    []int32 // the current node's counts
	rbuf    []int64 // the current node's vector, raised (raisedKey) or with its index (the sweep)
}

// memoSet is one bucket: the counts its entries share and the entries,
// each its vector followed by its last index, with its key apart: an
// entry dominates a node only if its key is no greater in every part,
// which rules out most entries at one read of a short array (the scan of
// the vectors themselves was a quarter of the search's time with one sum).
type memoSet struct {
	counts []int32
	vals   []int64 // n entries of w components
	keys   []memoKey
	w, n   int
	next   int // the entry a full bucket replaces next
	// minFin is at most every entry's last component (the finished jobs'
	// sum): a node's shift room is measured from it (it never rises, so a
	// dropped entry only leaves it lower than it need be).
	minFin int64
	// sweepAt: a full bucket looks for entries the new one dominates
	// again only after this many more replacements (a sweep that frees
	// nothing costs a scan per insertion otherwise).
	sweepAt int
}

// memoKey holds the first components of a vector — its last start and,
// as far as they go, its sorted map slots' free times and then its reduce
// slots' — and the sum of the rest (per-job times and the finished sum),
// each shifted right by the searcher's keyShift, clamped to [−2^30, 2^30)
// and offset by 2^30 into 31 bits, two to a word. A vector no greater than
// another has every part no greater, and shifts and clamps keep that
// order, so a key not below an entry's rules it out. The free times one
// by one: with four sums (the last start, the map slots', the reduce
// slots', the rest) a third of the entries scanned passed the key and
// nearly all of those then failed on a single map slot's free time, each a
// read of the entry's vector elsewhere in memory (s28fast).
type memoKey [memoKeyWords]uint64

// memoKeyWords is the key's length: four words of two parts.
const memoKeyWords = 4

// keyGuards has the top bit of each 32-bit half set: the guard bits of
// le's packed subtraction.
const keyGuards = 0x8000_0000_8000_0000

// keyPart is x shifted right by shift, clamped to [−2^30, 2^30) and
// offset by 2^30: all non-decreasing maps (the root's last start is
// math.MinInt64), into [0, 2^31).
func keyPart(x int64, shift uint) uint64 {
	return uint64(min(max(x>>shift, -1<<30), 1<<30-1) + 1<<30)
}

// keyShift is the least shift that keeps a key's parts of s's problem
// within 2^30: its times are below the latest arrival plus every duration
// plus a grid step per task (the keys' floors), and the sum of the rest
// has at most a time per slot, two per job and the finished jobs'
// turnarounds. A larger part is clamped, which keeps keys valid and only
// filters less.
func keyShift(s *searcher) uint {
	var h, maxA int64
	for _, jb := range s.jobs {
		maxA = max(maxA, jb.arrival)
		h += int64(jb.nMaps)*jb.pMap + int64(jb.nReds)*jb.pRed + int64(jb.nMaps+jb.nReds)*s.unit
	}
	terms := 2*len(s.jobs) + len(s.slots[0]) + len(s.slots[1]) + 1
	n := bits.Len64(uint64(h+maxA)) + bits.Len(uint(terms))
	return uint(max(0, n-30))
}

// le reports whether k is no greater than l in every part. With each part
// below 2^31, (l | guards) − k subtracts the halves apart (no borrow
// crosses a guard bit) and keeps a half's guard bit set exactly when l's
// part is no less than k's: two parts a subtraction, and no branch, where
// a chain of comparisons mispredicted at most entries of a bucket.
func (k *memoKey) le(l *memoKey) bool {
	return ((l[0]|keyGuards)-k[0])&((l[1]|keyGuards)-k[1])&((l[2]|keyGuards)-k[2])&((l[3]|keyGuards)-k[3])&keyGuards == keyGuards
}

// keyOf is v's key with parts shifted right by shift.
func keyOf(v []int64, shift uint) memoKey {
	var p [2 * memoKeyWords]uint64
	n := min(len(v), len(p)-1)
	for i, x := range v[:n] {
		p[i] = keyPart(x, shift)
	}
	var rest int64 // times ≤ 2^50 ms (lowerbound.Problem), at most 6,000 of them
	for _, x := range v[n:] {
		rest += x
	}
	p[len(p)-1] = keyPart(rest, shift)
	var k memoKey
	for w := range k {
		k[w] = p[2*w]<<32 | p[2*w+1]
	}
	return k
}

func newMemo(maxEntries int) *memo {
	return &memo{index: map[uint64]int32{}, max: maxEntries}
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
// start, the sorted map and reduce slot free times, per job whose maps are
// placed its last map end and completion (a job's remaining maps end after
// its placed ones, so these do not matter before), and the sum of the
// finished jobs' turnarounds (0 but for the sums).
func (s *searcher) vector(v []int64) []int64 {
	v = append(v[:0], s.lastStart)
	for k := range 2 {
		n := len(v)
		for _, sl := range s.slots[k] {
			v = append(v, sl.free)
		}
		s.sortInts(v[n:])
	}
	sums := s.metric == lowerbound.TotalTurnaround || s.metric == lowerbound.MeanTurnaround
	var finished int64
	for j := range s.jobs {
		switch {
		case s.mapsDone[j] < s.jobs[j].nMaps:
		case sums && s.redsDone[j] == s.jobs[j].nReds:
			// A finished job's times matter to the sums only through its
			// turnaround, added to the rest (§14, Lemma 3).
			finished += s.done[j] - s.jobs[j].arrival
		default:
			v = append(v, s.lme[j], s.done[j])
		}
	}
	return append(v, finished)
}

// dominated reports whether an entry with the current counts has every
// component of the vector v no greater and a last key no later; if not, it
// keeps v: in a full bucket in place of the entries it dominates, or else
// of an entry going round the bucket.
func (m *memo) dominated(s *searcher, v []int64) bool {
	n := len(s.jobs)
	m.cbuf = m.cbuf[:0]
	for j := range n {
		m.cbuf = append(m.cbuf, int32(s.mapsDone[j]), int32(s.redsDone[j]))
	}
	idx := int64(s.lastIdx)
	b, ok := m.index[s.hash]
	if !ok {
		if m.entries >= m.max || len(m.buckets) >= math.MaxInt32 {
			return false
		}
		b = int32(len(m.buckets))
		m.index[s.hash] = b
		m.buckets = append(m.buckets, memoSet{counts: slices.Clone(m.cbuf), w: len(v) + 1, minFin: math.MaxInt64})
	}
	set := &m.buckets[b]
	if set.w != len(v)+1 || !slices.Equal(set.counts, m.cbuf) {
		return false // a hash collision: other counts hold the bucket
	}
	w := set.w
	kv := keyOf(v, s.keyShift)
	open, room := s.shiftRoom(set, v)
	kq := kv
	if room > 0 {
		m.rbuf = append(m.rbuf[:0], v...)
		kq = raisedKey(m.rbuf, room, open, s.keyShift)
	}
	q0, q1, q2, q3 := kq[0]|keyGuards, kq[1]|keyGuards, kq[2]|keyGuards, kq[3]|keyGuards
	for i := range set.keys[:set.n] {
		// set.keys[i].le(&kq), written out with kq's guards set once.
		k := &set.keys[i]
		if (q0-k[0])&(q1-k[1])&(q2-k[2])&(q3-k[3])&keyGuards != keyGuards && !s.plain {
			continue // (Options.plain reads every vector: the tests require the same Result)
		}
		if d := shiftOf(set.vals[i*w:(i+1)*w], v, idx, open); d >= 0 {
			if d > 0 {
				s.shifted++
			}
			return true
		}
	}
	if set.n < memoBucket && m.entries < m.max {
		m.add(set, v, idx, kv)
		return false
	}
	if set.n == 0 {
		return false
	}
	if set.sweepAt <= 0 {
		// Full: drop the entries the node dominates by Lemma 3 (whatever
		// they closed, it closes too), then keep it at the end.
		m.rbuf = append(append(m.rbuf[:0], v...), idx) // the node as an entry
		for i := 0; i < set.n; i++ {
			if !kv.le(&set.keys[i]) || shiftOf(m.rbuf, set.vals[i*w:(i+1)*w-1], set.vals[(i+1)*w-1], 0) < 0 {
				continue
			}
			set.n--
			m.entries--
			copy(set.vals[i*w:(i+1)*w], set.vals[set.n*w:(set.n+1)*w])
			set.keys[i] = set.keys[set.n]
			set.vals, set.keys = set.vals[:set.n*w], set.keys[:set.n]
			i--
		}
		if set.n < memoBucket && m.entries < m.max {
			m.add(set, v, idx, kv)
			return false
		}
		set.sweepAt = memoSweep
	}
	// Still full: the node takes the place of the entry at next, which
	// goes round the bucket.
	set.sweepAt--
	if set.next >= set.n {
		set.next = 0
	}
	e := set.vals[set.next*w : (set.next+1)*w]
	copy(e, v)
	e[w-1] = idx
	set.keys[set.next] = kv
	set.minFin = min(set.minFin, v[len(v)-1])
	set.next++
	return false
}

// add appends v, its last index idx and its key kv to set.
func (m *memo) add(set *memoSet, v []int64, idx int64, kv memoKey) {
	set.vals = append(append(set.vals, v...), idx)
	set.keys = append(set.keys, kv)
	set.minFin = min(set.minFin, v[len(v)-1])
	set.n++
	m.entries++
}

// shiftRoom is, for the sums, the number of unfinished jobs (open) and the
// largest shift an entry of set could need to dominate v (Lemma 3′): an
// entry of finished sum f ≥ set.minFin dominates after a shift D only if
// f + open·D ≤ v's, so D ≤ (v's sum − minFin) / open. Zero for the maxima
// (open 0: no shift) and when no entry could pay for any shift.
func (s *searcher) shiftRoom(set *memoSet, v []int64) (open, room int64) {
	if s.noShift || (s.metric != lowerbound.TotalTurnaround && s.metric != lowerbound.MeanTurnaround) {
		return 0, 0
	}
	for j := range s.jobs {
		if s.redsDone[j] < s.jobs[j].nReds || s.mapsDone[j] < s.jobs[j].nMaps {
			open++
		}
	}
	if fin := v[len(v)-1]; open > 0 && fin > set.minFin {
		room = (fin - set.minFin) / open
	}
	return open, room
}

// shiftOf is the least shift by which entry e (a vector and its last
// index) dominates the node of vector v and last index idx, with open
// unfinished jobs (0 for the maxima), or −1 if none does (docs/bounds.md
// §14, Lemma 3′): with D the least shift that makes every time of v, moved
// D later, no earlier than e's — and v's last key moved D later after e's
// (D one more at an equal start and a later index) — every completion of
// v's node, its unplaced tasks started D later, is one of e's whose
// unfinished jobs each end at most D later: e dominates when its finished
// jobs' sum plus open·D is at most v's. D = 0 is Lemma 3's dominance, the
// only one for the maxima (open 0) and for the sweep.
func shiftOf(e, v []int64, idx int64, open int64) int64 {
	last := len(v) - 1
	fin := v[last] - e[last]
	if fin < 0 {
		return -1
	}
	var lim int64 // the largest shift e's finished sum pays for: open·D ≤ fin
	if open > 0 {
		lim = fin / open
	}
	var d int64
	for c := 1; c < last; c++ {
		if x := e[c] - v[c]; x > d {
			if x > lim {
				return -1
			}
			d = x
		}
	}
	if x := e[0] - v[0]; x >= d {
		d = x
		if e[last+1] > idx {
			d++ // an equal last start needs an index no later
		}
	}
	if d > lim {
		return -1
	}
	return d
}

// raisedKey is, with v overwritten, a key that no entry which shiftOf
// admits for v (open unfinished jobs, a shift up to room) lies above: each
// of v's first components raised by room (D ≥ an entry's time less
// v's), the finished sum not (D ≥ 0), and the sum of the rest raised by
// room for each of its times beyond open (each time at most v's + D, the
// finished sum at most v's − open·D).
func raisedKey(v []int64, room, open int64, shift uint) memoKey {
	last := len(v) - 1
	n := min(len(v), 2*memoKeyWords-1) // the components keyed one by one
	for c := range n {
		if c != last {
			v[c] += room
		}
	}
	if times := int64(last - n); times > open { // the rest: v[n:last] and the sum
		v[last] += (times - open) * room
	}
	return keyOf(v, shift)
}
