package bnb

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// go test -run TestScratchArrivePath -v ./lowerbound/bnb (scratch, not kept)
func TestScratchArrivePath(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip("scratch")
	}
	p := mrcpGenerated(t, 20, 5)
	var seq []int
	if b, err := os.ReadFile("/tmp/s28arrive/path.json"); err == nil {
		json.Unmarshal(b, &seq)
	} else {
		res, err := Solve(context.Background(), p, lowerbound.TotalTurnaround, Options{whole: true, NodeLimit: 250_000, ImproveNodes: 1_500_000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("value %v bound %v", res.Value, res.Bound)
		for _, pl := range res.Placements {
			seq = append(seq, pl.Job)
		}
		b, _ := json.Marshal(seq)
		os.WriteFile("/tmp/s28arrive/path.json", b, 0o644)
	}
	s := newSearcher(p)
	s.ctx, s.metric = context.Background(), lowerbound.TotalTurnaround
	for d, j := range seq {
		s.arrive = false
		b0 := s.bound()
		s.arrive = true
		b1 := s.bound()
		if b1 > b0+1e-6 || d%25 == 0 {
			fmt.Printf("placed %3d t0 %6.0f bound %8.1f arrive %8.1f gain %6.1f\n", d, float64(s.lastStart), b0, b1, b1-b0)
		}
		c := s.childOf(j)
		s.apply(&c)
	}
	fmt.Println("score", s.score(), math.Inf(1))
}

func TestScratchArriveSearch(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip("scratch")
	}
	nodes, _ := strconv.ParseInt(os.Getenv("NODES"), 10, 64)
	if h := os.Getenv("HORIZON"); h != "" {
		arriveHorizon, _ = strconv.ParseInt(h, 10, 64)
	}
	arriveOnlyNearest = os.Getenv("NEAREST") != ""
	arriveMerge = os.Getenv("MERGE") != ""
	p := mrcpGenerated(t, 20, 5)
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	res, err := Solve(context.Background(), p, lowerbound.TotalTurnaround, Options{Incumbent: 3072, NodeLimit: nodes / 12, BoundNodes: nodes - nodes/12, arrive: os.Getenv("ARRIVE") != "", arriveLazy: os.Getenv("LAZY") != ""})
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	if err != nil {
		t.Fatal(err)
	}
	cpu := float64(ru1.Utime.Nano()-ru0.Utime.Nano()+ru1.Stime.Nano()-ru0.Stime.Nano()) / 1e9
	fmt.Printf("merge %v horizon %d nearest %v arrive=%q lazy=%q nodes %d: %v bound %v value %v nodes %d cpu %.1f\n", arriveMerge, arriveHorizon, arriveOnlyNearest, os.Getenv("ARRIVE"), os.Getenv("LAZY"), nodes, res.Status, res.Bound, res.Value, res.Nodes, cpu)
}

func TestScratchArriveAudit(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip("scratch")
	}
	r := rand.New(rand.NewPCG(28, 1))
	due := 0
	gains := 0
	for it := range 600 {
		p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 2 + r.IntN(2), ReduceSlots: 1}}}
		tasks := 0
		lens := []int64{4, 5, 6, 7}
		for range 2 + r.IntN(3) {
			j := lowerbound.Job{Arrival: int64(r.IntN(14))}
			dm := lens[r.IntN(len(lens))]
			for range 1 + r.IntN(3) {
				if tasks < lowerbound.ExactMaxTasks {
					j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{dm}})
					tasks++
				}
			}
			if r.IntN(2) == 0 && tasks < lowerbound.ExactMaxTasks {
				j.Reduces = append(j.Reduces, lowerbound.Task{Dur: []int64{int64(1 + r.IntN(3))}})
				tasks++
			}
			p.Jobs = append(p.Jobs, j)
		}
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearcher(p)
		s.ctx, s.metric, s.arrive = context.Background(), lowerbound.TotalTurnaround, true
		name := fmt.Sprintf("problem %d\n%s", it, dumpP(p))
		if got := treeAudit(t, s, name, &due); float64(got) != opt.Value(lowerbound.TotalTurnaround, len(p.Jobs)) {
			t.Fatalf("%s: the tree's best %d, Exact %d", name, got, opt.TotalTurnaround)
		}
		g := arriveGains(s)
		gains += g
	}
	t.Logf("due led at %d, arrive gained at %d nodes", due, gains)
}

// arriveGains walks the tree again counting nodes where arrive raises the bound.
func arriveGains(s *searcher) int {
	if s.placed == s.nTasks {
		return 0
	}
	s.arrive = false
	b0 := s.bound()
	s.arrive = true
	b1 := s.bound()
	n := 0
	if b1 > b0+1e-9 {
		n = 1
	}
	for _, c := range s.children(nil) {
		u := s.apply(&c)
		n += arriveGains(s)
		s.undo(&c, u)
	}
	return n
}

// TestScratchSubsetGap: at a node of the path, the jobs with maps left
// released by an arrival + 30 s (and the placed parts of the others):
// the subproblem's root bound against its optimum (best-first).
func TestScratchSubsetGap(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip("scratch")
	}
	p := mrcpGenerated(t, 20, 5)
	var seq []int
	b, _ := os.ReadFile("/tmp/s28arrive/path.json")
	json.Unmarshal(b, &seq)
	at, _ := strconv.Atoi(os.Getenv("AT"))
	until, _ := strconv.ParseInt(os.Getenv("UNTIL"), 10, 64)
	nodes, _ := strconv.ParseInt(os.Getenv("NODES"), 10, 64)
	// Counts placed per job at the node.
	mapsP := make([]int, len(p.Jobs))
	redsP := make([]int, len(p.Jobs))
	s0 := newSearcher(p)
	for _, j := range seq[:at] {
		if s0.mapsDone[j] < s0.jobs[j].nMaps {
			mapsP[j]++
		} else {
			redsP[j]++
		}
		c := s0.childOf(j)
		s0.apply(&c)
	}
	q := &lowerbound.Problem{Mode: p.Mode, Groups: p.Groups, Nodes: p.Nodes}
	var idx []int
	inG := 0
	for j, jb := range p.Jobs {
		keep := mapsP[j] < len(jb.Maps) && jb.Arrival <= until
		if keep {
			inG++
			q.Jobs = append(q.Jobs, jb)
			idx = append(idx, j)
			continue
		}
		if mapsP[j] > 0 {
			// Only its placed tasks.
			q.Jobs = append(q.Jobs, lowerbound.Job{Arrival: jb.Arrival, Maps: jb.Maps[:mapsP[j]], Reduces: jb.Reduces[:redsP[j]]})
			idx = append(idx, j)
		}
	}
	newIdx := map[int]int{}
	for k, j := range idx {
		newIdx[j] = k
	}
	s := newSearcher(q)
	s.ctx, s.metric = context.Background(), lowerbound.TotalTurnaround
	for _, j := range seq[:at] {
		k, ok := newIdx[j]
		if !ok {
			t.Fatalf("job %d placed but dropped", j)
		}
		c := s.childOf(k)
		s.apply(&c)
	}
	if s.lastStart != s0.lastStart {
		t.Fatalf("t0 %d vs %d", s.lastStart, s0.lastStart)
	}
	b0 := s.bound()
	s.arrive = true
	b1 := s.bound()
	s.arrive = false
	s.inc = math.MaxInt64
	s.limit = math.MaxInt64
	s.memo = newMemo(DefaultMemoEntries)
	s.maxOpen = 40_000_000
	bf, cut := s.bestFirst(nodes, 40_000_000)
	fmt.Printf("at %d t0 %d: %d jobs in G (%d in q), bound %.1f arrive %.1f, best-first %.1f cut %v inc %d nodes %d\n", at, s.lastStart, inG, len(q.Jobs), b0, b1, bf, cut, s.inc, s.nodes)
}
