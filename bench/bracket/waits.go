package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/upperbound"
)

// waitsRuleNamed is the construction -waits-rule names; main asks first, so
// that a misspelt name fails before the bracket's long table.
func waitsRuleNamed(name string) (upperbound.Rule, error) {
	for _, r := range upperbound.Rules(lowerbound.MeanTurnaround) {
		if r.String() == name {
			return r, nil
		}
	}
	return upperbound.RuleUnknown, fmt.Errorf("-waits-rule: no construction %q for mean turnaround", name)
}

// waitTable is -waits' table for one instance: where the jobs' time goes
// under the -waits-rule construction (srpt by default), per class of jobs
// by reduce count — from arrival to the first map's start, the map phase,
// from the last map's end to the first reduce's start and the reduce phase,
// each as a share of the mean — and, for the jobs with one reduce that
// waited for it, their mean wait and which jobs held the slots when it
// became ready: the waiting that the capacity rows of docs/bounds.md
// §4b–§4c do not see; and the same for the map side (the jobs with one
// reduce or none that waited for their first map, and which jobs held the
// map slots at their arrival).
func waitTable(in instance) (string, error) {
	w := in.w
	rule, err := waitsRuleNamed(waitsRule)
	if err != nil {
		return "", err
	}
	pol, err := upperbound.New(w, rule)
	if err != nil {
		return "", err
	}
	res, err := sim.Run(w, pol, simbridge.IdealOptions())
	if err != nil {
		return "", err
	}
	nj := len(w.Jobs)
	firstMap, lastMapEnd, firstRed := make([]int64, nj), make([]int64, nj), make([]int64, nj)
	for j := range nj {
		firstMap[j], firstRed[j], lastMapEnd[j] = -1, -1, int64(w.Jobs[j].Arrival)
	}
	type change struct {
		at    int64
		delta int
		class int
	}
	class := func(j int) int {
		switch nr := len(w.Jobs[j].Reduces); {
		case nr > 50:
			return 2
		case nr > 1:
			return 1
		}
		return 0
	}
	var reds, maps []change // reduce (map) slots taken (+1, at launch) and freed (−1)
	for _, a := range res.Trace {
		j := a.Job
		if a.Kind == sim.Map {
			if firstMap[j] < 0 || int64(a.Start) < firstMap[j] {
				firstMap[j] = int64(a.Start)
			}
			lastMapEnd[j] = max(lastMapEnd[j], int64(a.End))
			c := class(int(j))
			maps = append(maps, change{int64(a.Launch), 1, c}, change{int64(a.End), -1, c})
			continue
		}
		if firstRed[j] < 0 || int64(a.Start) < firstRed[j] {
			firstRed[j] = int64(a.Start)
		}
		c := class(int(j))
		reds = append(reds, change{int64(a.Launch), 1, c}, change{int64(a.End), -1, c})
	}
	// Frees before takes at the same instant: a slot freed at t is free
	// for a reduce ready at t.
	for _, ch := range [][]change{reds, maps} {
		sort.Slice(ch, func(a, b int) bool {
			if ch[a].at != ch[b].at {
				return ch[a].at < ch[b].at
			}
			return ch[a].delta < ch[b].delta
		})
	}
	slots, mapSlots := 0, 0
	for _, n := range w.Cluster.Nodes {
		slots += n.ReduceSlots
		mapSlots += n.MapSlots
	}
	// heldAt sweeps the instants in at (sorted here): the slots of changes
	// busy per holder class at each, summed, and the jobs' waits from there
	// to start.
	type ready struct {
		at  int64
		job int
	}
	heldAt := func(changes []change, at []ready, start []int64) (held [3]float64, wait float64) {
		sort.Slice(at, func(a, b int) bool { return at[a].at < at[b].at })
		var busy [3]float64 // busy slots per holder class now
		k := 0
		for _, r := range at {
			for k < len(changes) && changes[k].at <= r.at {
				busy[changes[k].class] += float64(changes[k].delta)
				k++
			}
			for c := range held {
				held[c] += busy[c]
			}
			wait += float64(start[r.job]-r.at) / 1000
		}
		return held, wait
	}
	// The reduce slots busy at each one-reduce job's ready time.
	var readies []ready
	for j := range nj {
		if len(w.Jobs[j].Reduces) == 1 && firstRed[j] > lastMapEnd[j] {
			readies = append(readies, ready{lastMapEnd[j], j})
		}
	}
	held, wait := heldAt(reds, readies, firstRed)
	// The map side alike: the jobs with one reduce or none whose first map
	// started after their arrival, and the map slots busy per holder class
	// at their arrival.
	var arrivals []ready
	for j := range nj {
		if class(j) == 0 && firstMap[j] > int64(w.Jobs[j].Arrival) {
			arrivals = append(arrivals, ready{int64(w.Jobs[j].Arrival), j})
		}
	}
	mapHeld, mapWait := heldAt(maps, arrivals, firstMap)
	classes := []string{"≤ 1 reduce", "2–50 reduces", "> 50 reduces"}
	type row struct {
		jobs                                    int
		mapWait, mapSpan, redWait, redSpan, all float64
	}
	rows := make([]row, len(classes))
	n := float64(nj) * 1000
	total := 0.0
	for j := range nj {
		r := &rows[class(j)]
		r.jobs++
		a, done := int64(w.Jobs[j].Arrival), int64(res.Jobs[j].Completion)
		if firstMap[j] >= 0 {
			r.mapWait += float64(firstMap[j]-a) / n
			r.mapSpan += float64(lastMapEnd[j]-firstMap[j]) / n
		}
		if firstRed[j] >= 0 {
			r.redWait += float64(firstRed[j]-lastMapEnd[j]) / n
			r.redSpan += float64(done-firstRed[j]) / n
		}
		r.all += float64(done-a) / n
		total += float64(done-a) / n
	}
	s := fmt.Sprintf("\n%s, %s (%.2f s mean turnaround): where the time goes (s of the mean)\n\n", in.name, waitsRule, total)
	s += "| jobs | count | arrival → first map | map phase | last map → first reduce | reduce phase | all |\n|---|---:|---:|---:|---:|---:|---:|\n"
	for c, r := range rows {
		s += fmt.Sprintf("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", classes[c], r.jobs, r.mapWait, r.mapSpan, r.redWait, r.redSpan, r.all)
	}
	m := math.Max(1, float64(len(readies)))
	s += fmt.Sprintf("\n%s waited after their maps for their reduce to start (a slot busy, or held idle by srpt-hold), %.1f s on average; when their reduce became ready, of the %s, jobs with ≤ 1 / 2–50 / > 50 reduces ran tasks on %.1f / %.1f / %.1f on average (a slot held idle is in none).\n",
		plural.Count(len(readies), "one-reduce job"), wait/m, plural.Count(slots, "reduce slot"), held[0]/m, held[1]/m, held[2]/m)
	mm := math.Max(1, float64(len(arrivals)))
	s += fmt.Sprintf("\n%s waited after their arrival for their first map, %.1f s on average; at their arrival, of the %s, jobs with ≤ 1 / 2–50 / > 50 reduces ran maps on %.1f / %.1f / %.1f on average.\n",
		plural.Count(len(arrivals), "job")+" with one reduce or none", mapWait/mm, plural.Count(mapSlots, "map slot"), mapHeld[0]/mm, mapHeld[1]/mm, mapHeld[2]/mm)
	s += mapWaitSplit(w, res, firstMap, mapSlots, func(j int) bool { return class(j) == 0 })
	return s, nil
}
