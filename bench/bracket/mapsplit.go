package main

import (
	"fmt"
	"sort"

	"github.com/mrbound/mrbound/sim"
)

// mapWaitSplit splits the waits of the jobs with one reduce or none for
// their first map (-waits' map line) by what kept them from a map slot at
// their arrival a, srpt's key (unlaunched work) of every job taken at a:
//   - queued: maps of jobs srpt ranks before the job were still unlaunched
//     at a — a burst; no slot kept idle could have served it first;
//   - head, blocked by a later-ranked map: it was first in srpt's order at
//     a and a slot ran a map of a job srpt ranks after it, started before
//     a — a clairvoyant rule keeping that slot idle from that start (δ
//     before a) would have started it at a;
//   - head, every running map ranked before it: the slots were all taken by
//     jobs srpt ranks before it.
//
// Each part is its jobs' waits as seconds of the day's mean turnaround.
func mapWaitSplit(w *sim.Workload, res *sim.Result, firstMap []int64, isShort func(int) bool) string {
	nj := len(w.Jobs)
	total := make([]int64, nj) // each job's work
	for j, jb := range w.Jobs {
		for _, t := range jb.Maps {
			total[j] += int64(t.Work)
		}
		for _, t := range jb.Reduces {
			total[j] += int64(t.Work)
		}
	}
	type task struct {
		job                int
		launch, start, end int64
		work               int64
	}
	var maps []task
	launches := make([][]task, nj) // per job, its attempts (maps and reduces)
	for _, a := range res.Trace {
		j := int(a.Job)
		var work int64
		if a.Kind == sim.Map {
			work = int64(w.Jobs[j].Maps[a.Index].Work)
		} else {
			work = int64(w.Jobs[j].Reduces[a.Index].Work)
		}
		t := task{j, int64(a.Launch), int64(a.Start), int64(a.End), work}
		launches[j] = append(launches[j], t)
		if a.Kind == sim.Map {
			maps = append(maps, t)
		}
	}
	sort.Slice(maps, func(a, b int) bool { return maps[a].launch < maps[b].launch })
	// keyAt is srpt's key of job o at time a: its work not launched by a.
	keyAt := func(o int, a int64) int64 {
		k := total[o]
		for _, t := range launches[o] {
			if t.launch <= a {
				k -= t.work
			}
		}
		return k
	}
	before := func(o int, ko int64, j int, kj int64) bool {
		if ko != kj {
			return ko < kj
		}
		if w.Jobs[o].Arrival != w.Jobs[j].Arrival {
			return w.Jobs[o].Arrival < w.Jobs[j].Arrival
		}
		return o < j
	}
	lastLaunch := make([]int64, nj) // per job, its last map's launch
	for _, t := range maps {
		lastLaunch[t.job] = max(lastLaunch[t.job], t.launch)
	}
	// queuedAt reports whether a job srpt ranks before j (key kj) had a
	// map unlaunched at a.
	queuedAt := func(j int, a, kj int64) bool {
		for o := range nj {
			if o != j && int64(w.Jobs[o].Arrival) <= a && lastLaunch[o] > a && before(o, keyAt(o, a), j, kj) {
				return true
			}
		}
		return false
	}
	var waits [3]float64
	var count [3]int
	var delta, length, lenAll float64
	var nRunning float64
	for j := range nj {
		a := int64(w.Jobs[j].Arrival)
		if !isShort(j) || firstMap[j] <= a {
			continue
		}
		wait := float64(firstMap[j]-a) / 1000
		kj := total[j]
		// The maps running at a, and the queue at a.
		var latestLower *task
		higherRunning := 0
		for k := range maps {
			t := &maps[k]
			if t.launch > a {
				break
			}
			if t.end <= a {
				continue
			}
			if before(t.job, keyAt(t.job, a), j, kj) {
				higherRunning++
				continue
			}
			if latestLower == nil || t.launch > latestLower.launch {
				latestLower = t
			}
		}
		c := 2
		switch {
		case queuedAt(j, a, kj):
			c = 0
		case latestLower != nil:
			c = 1
			delta += float64(a-latestLower.launch) / 1000
			length += float64(latestLower.end-latestLower.start) / 1000
		}
		nRunning += float64(higherRunning)
		waits[c] += wait
		count[c]++
		lenAll += wait
	}
	n := float64(nj)
	s := fmt.Sprintf("\nThe map waits split (srpt's keys at each waiting job's arrival): %.2f s of the mean in all; queued behind maps of jobs ranked before it %d jobs, %.2f s of the mean; first in srpt's order with a map of a job ranked after it running %d jobs, %.2f s",
		lenAll/n, count[0], waits[0]/n, count[1], waits[1]/n)
	if count[1] > 0 {
		s += fmt.Sprintf(" (the latest such map started %.2f s before the arrival, ran %.2f s, on average)", delta/float64(count[1]), length/float64(count[1]))
	}
	s += fmt.Sprintf("; first in srpt's order, every running map ranked before it %d jobs, %.2f s. Maps ranked before the job among the 40 running at its arrival: %.1f on average.\n", count[2], waits[2]/n, nRunning/float64(max(1, count[0]+count[1]+count[2])))
	return s
}
