package main

import (
	"fmt"
	"sort"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/sim"
)

// mapWaitSplit splits the waits of the jobs with one reduce or none for
// their first map (-waits' map line) by what kept them from a map slot at
// their arrival a, srpt's key (unlaunched work) of every job taken at a:
//   - queued: maps of jobs srpt ranks before the job were still unlaunched
//     at a — no slot kept idle could have served it first; split by whether
//     the job has more maps than the map slots (srpt defers a job of
//     several waves as a whole: its wait is its rank) or not (a burst);
//   - head, blocked by a later-ranked map: it was first in srpt's order at
//     a and a slot ran a map of a job srpt ranks after it, started before
//     a — a clairvoyant rule keeping that slot idle from that start (δ
//     before a) would have started it at a;
//   - head, every running map ranked before it: the slots were all taken by
//     jobs srpt ranks before it.
//
// Each part is its jobs' waits as seconds of the day's mean turnaround.
// A last line counts the short jobs of one wave whose map phase ended with
// a map away from its block: the penalty they paid, which a lower bound
// does not charge.
func mapWaitSplit(w *sim.Workload, res *sim.Result, firstMap []int64, mapSlots int, isShort func(int) bool) string {
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
	firstLocal := make([]bool, nj) // whether each job's first map ran on a node holding its block
	firstStart := make([]int64, nj)
	for j := range firstStart {
		firstStart[j] = -1
	}
	for _, a := range res.Trace {
		if j := int(a.Job); a.Kind == sim.Map && (firstStart[j] < 0 || int64(a.Start) < firstStart[j]) {
			firstStart[j], firstLocal[j] = int64(a.Start), a.Local
		}
	}
	// The parts: queued, with more maps than the map slots (several waves:
	// srpt defers the whole job), queued with one wave, first in srpt's
	// order behind a later-ranked map, and behind earlier-ranked ones only.
	var waits [4]float64
	var count [4]int
	var delta, length, local float64
	for j := range nj {
		a := int64(w.Jobs[j].Arrival)
		if !isShort(j) || firstMap[j] <= a {
			continue
		}
		kj := total[j]
		// The latest-started running map at a of a job ranked after j.
		var latestLower *task
		for k := range maps {
			t := &maps[k]
			if t.launch > a {
				break
			}
			if t.end > a && !before(t.job, keyAt(t.job, a), j, kj) && (latestLower == nil || t.launch > latestLower.launch) {
				latestLower = t
			}
		}
		c, queued := 3, queuedAt(j, a, kj)
		switch {
		case queued && len(w.Jobs[j].Maps) > mapSlots:
			c = 0
		case queued:
			c = 1
		case latestLower != nil:
			c = 2
			delta += float64(a-latestLower.launch) / 1000
			length += float64(latestLower.end-latestLower.start) / 1000
			if firstLocal[j] {
				local++
			}
		}
		waits[c] += float64(firstMap[j]-a) / 1000
		count[c]++
	}
	// Locality: the short jobs of one wave whose map ending last ran away
	// from its block, each paying the cluster's non-local penalty in its map
	// phase.
	lastEnd, lastLocal := make([]int64, nj), make([]bool, nj)
	for _, a := range res.Trace {
		if j := int(a.Job); a.Kind == sim.Map && int64(a.End) >= lastEnd[j] {
			lastEnd[j], lastLocal[j] = int64(a.End), a.Local
		}
	}
	remote, oneWave := 0, 0
	for j := range nj {
		if isShort(j) && len(w.Jobs[j].Maps) > 0 && len(w.Jobs[j].Maps) <= mapSlots {
			oneWave++
			if !lastLocal[j] {
				remote++
			}
		}
	}
	n := float64(nj)
	all := (waits[0] + waits[1] + waits[2] + waits[3]) / n
	s := fmt.Sprintf("\nThe map waits split by srpt's order at each one's arrival (keys: unlaunched work), %.2f s of the mean in all: queued behind maps of jobs ranked before it, with more maps than the %d map slots %s, %.2f s; queued, one wave %s, %.2f s; first in srpt's order with a map of a job ranked after it running %s, %.2f s",
		all, mapSlots, plural.Count(count[0], "job"), waits[0]/n, plural.Count(count[1], "job"), waits[1]/n, plural.Count(count[2], "job"), waits[2]/n)
	if c := float64(count[2]); c > 0 {
		s += fmt.Sprintf(" (%.2f s each; the latest such map started %.2f s before the arrival and ran %.2f s; %.0f%% of their first maps ran local)", waits[2]/c, delta/c, length/c, 100*local/c)
	}
	s += fmt.Sprintf("; first in srpt's order behind maps ranked before it only %s, %.2f s.\n", plural.Count(count[3], "job"), waits[3]/n)
	s += fmt.Sprintf("Of the %s with one reduce or none and at most %d maps, %d ended their map phase with a non-local map (%.2f s of the mean at %v each).\n",
		plural.Count(oneWave, "job"), mapSlots, remote, float64(remote)*float64(w.Cluster.NonLocalPenalty)/1000/n, w.Cluster.NonLocalPenalty)
	return s
}
