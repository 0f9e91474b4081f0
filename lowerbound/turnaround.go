package lowerbound

import (
	"container/heap"
	"math"
	"sort"
)

// ------------------------------------------------------- total turnaround

// totalTurnaround returns lower bounds on Σ_j (C_j − a_j).
func (pr *prep) totalTurnaround() []Component {
	if len(pr.jobs) == 0 {
		return nil
	}
	n := len(pr.jobs)
	sumCP, sumHead, sumTail := 0.0, 0.0, 0.0
	for _, j := range pr.jobs {
		sumCP += j.cp
		sumHead += j.head
		sumTail += j.tail
	}
	all, maps, reds := 0.0, 0.0, 0.0
	arr := make([]float64, n)
	heads := make([]float64, n)
	size := make([]float64, n)
	for j, ji := range pr.jobs {
		arr[j] = ji.a
		heads[j] = ji.a + ji.head
	}
	for v := range pr.weights {
		rm, rr := pr.rate[v][kMap], pr.rate[v][kRed]
		rAll := rm + rr
		if pr.fungible {
			rAll = rm
		}
		for j, ji := range pr.jobs {
			size[j] = ji.work[v][kMap] + ji.work[v][kRed]
		}
		all = math.Max(all, srptFlow(arr, size, rAll))
		for j, ji := range pr.jobs {
			size[j] = ji.work[v][kMap]
		}
		maps = math.Max(maps, srptFlow(arr, size, rm)+sumTail)
		for j, ji := range pr.jobs {
			size[j] = ji.work[v][kRed]
		}
		reds = math.Max(reds, srptFlow(heads, size, rr)+sumHead)
	}
	return []Component{
		{"critical-paths", sumCP},
		{"srpt-fast-machine", all},
		{"srpt-maps-plus-tails", maps},
		{"srpt-reduces-from-heads", reds},
	}
}

// srptFlow returns Σ_j (C_j − release_j) of SRPT (preemptive, shortest
// remaining work first) on one machine processing rate units of work per ms:
// the minimum over all preemptive single-machine schedules (Schrage 1968).
func srptFlow(release, size []float64, rate float64) float64 {
	n := len(release)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return release[order[x]] < release[order[y]] })
	h := &remHeap{}
	flow, now := 0.0, 0.0
	next := 0
	for next < n || h.Len() > 0 {
		if h.Len() == 0 {
			now = math.Max(now, release[order[next]])
		}
		for next < n && release[order[next]] <= now {
			i := order[next]
			heap.Push(h, remJob{i, div(size[i], rate)})
			next++
		}
		top := (*h)[0]
		end := now + top.rem
		if next < n && release[order[next]] < end {
			r := release[order[next]]
			(*h)[0].rem -= r - now
			now = r
			continue
		}
		heap.Pop(h)
		now = end
		flow += now - release[top.job]
	}
	return flow
}

type remJob struct {
	job int
	rem float64 // remaining processing time (ms)
}

type remHeap []remJob

func (h remHeap) Len() int { return len(h) }
func (h remHeap) Less(i, j int) bool {
	if h[i].rem != h[j].rem {
		return h[i].rem < h[j].rem
	}
	return h[i].job < h[j].job
}
func (h remHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *remHeap) Push(x any)   { *h = append(*h, x.(remJob)) }
func (h *remHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// --------------------------------------------------------- max turnaround

// maxTurnaround returns lower bounds on max_j (C_j − a_j).
func (pr *prep) maxTurnaround() []Component {
	n := len(pr.jobs)
	if n == 0 {
		return nil
	}
	cp := 0.0
	for _, j := range pr.jobs {
		cp = math.Max(cp, j.cp)
	}
	// Windows of consecutive arrivals i..k: every job of the window arrives
	// by a_k, so the one that completes last has turnaround ≥ (a lower bound
	// on the window's last completion) − a_k.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return pr.jobs[order[x]].a < pr.jobs[order[y]].a })
	maxLen := n
	if n*n/2 > maxWindowPairs {
		maxLen = max(1, maxWindowPairs/n)
	}
	win := 0.0
	nv := len(pr.weights)
	wm := make([]float64, nv)
	wr := make([]float64, nv)
	for x := 0; x < n; x++ {
		clear(wm)
		clear(wr)
		t := pr.jobs[order[x]].a
		minTail, minHead := math.Inf(1), math.Inf(1)
		for y := x; y < n && y < x+maxLen; y++ {
			ji := &pr.jobs[order[y]]
			minTail = math.Min(minTail, ji.tail)
			minHead = math.Min(minHead, ji.a+ji.head)
			for v := range nv {
				wm[v] += ji.work[v][kMap]
				wr[v] += ji.work[v][kRed]
				rm, rr := pr.rate[v][kMap], pr.rate[v][kRed]
				// The window's maps end after t + W^m/rate, then a tail ≥ the least
				// tail; its reduces start after the least head and need W^r/rate.
				c := math.Max(t+div(wm[v], rm)+minTail, minHead+div(wr[v], rr))
				if pr.fungible {
					c = math.Max(c, t+div(wm[v]+wr[v], rm))
				}
				win = math.Max(win, c-ji.a)
			}
		}
	}
	lo := math.Max(cp, win)
	return []Component{{"critical-path", cp}, {"arrival-windows", win}, {"energetic-windows", pr.energeticMaxTurnaround(lo)}}
}

// -------------------------------------------------------------- late jobs

// lateJobs returns lower bounds on the number of late jobs.
func (pr *prep) lateJobs() []Component {
	// Hopeless: a_j + CP_j > d_j. C_j is an integer ≥ ⌈a_j + CP_j⌉, and late
	// means C_j ≥ d_j + 1.
	hopeless := make([]bool, len(pr.jobs))
	nHopeless := 0
	for j, ji := range pr.jobs {
		if ji.hasDeadline && ceilSafe(ji.a+ji.cp) > ji.deadline {
			hopeless[j] = true
			nHopeless++
		}
	}
	comps := []Component{{"critical-path", float64(nHopeless)}}
	best := 0
	var items []dueJob
	for _, t := range pr.releasePoints(maxLatePoints) {
		for v := range pr.weights {
			rm, rr := pr.rate[v][kMap], pr.rate[v][kRed]
			rAll := rm + rr
			if pr.fungible {
				rAll = rm
			}
			// Three fluid relaxations, each with the common release t and
			// Moore–Hodgson's minimum number of late jobs: maps by d_j − R_j,
			// reduces (released at heads) by d_j, all work by d_j.
			for variant := range 3 {
				items = items[:0]
				for j, ji := range pr.jobs {
					if !ji.hasDeadline || hopeless[j] {
						continue
					}
					switch variant {
					case 0:
						if ji.a >= t {
							items = append(items, dueJob{div(ji.work[v][kMap], rm), ji.deadline - ji.tail - t})
						}
					case 1:
						if ji.a+ji.head >= t {
							items = append(items, dueJob{div(ji.work[v][kRed], rr), ji.deadline - t})
						}
					case 2:
						if ji.a >= t {
							items = append(items, dueJob{div(ji.work[v][kMap]+ji.work[v][kRed], rAll), ji.deadline - t})
						}
					}
				}
				best = max(best, mooreHodgson(items))
			}
		}
	}
	comps = append(comps, Component{"critical-path-plus-moore-hodgson", float64(nHopeless + best)})
	return comps
}

type dueJob struct{ proc, due float64 }

// mooreHodgson returns the minimum number of late jobs on one machine with a
// common release 0 (Moore 1968); preemption does not help then. A job counts
// as on time up to roundingSlack past its due date, so floating-point error
// can only lower the count.
func mooreHodgson(items []dueJob) int {
	sort.Slice(items, func(x, y int) bool { return items[x].due < items[y].due })
	h := &procHeap{}
	cum, late := 0.0, 0
	for _, it := range items {
		heap.Push(h, it.proc)
		cum += it.proc
		if cum > it.due+roundingSlack(it.due) {
			cum -= heap.Pop(h).(float64)
			late++
		}
	}
	return late
}

type procHeap []float64

func (h procHeap) Len() int           { return len(h) }
func (h procHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h procHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *procHeap) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *procHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
