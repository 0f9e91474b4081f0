package lowerbound

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// mrcpJob is an MRCP WordCount job: m maps of 12 s and one reduce of 39 s.
func mrcpJob(arrival int64, maps int) Job {
	j := Job{Arrival: arrival}
	for range maps {
		j.Maps = append(j.Maps, Task{Dur: []int64{12000}})
	}
	j.Reduces = []Task{{Dur: []int64{39000}}}
	return j
}

// mrcpCluster is MRCP's 4 slaves with 1 map and 1 reduce slot each.
func mrcpCluster() []Node {
	return []Node{{MapSlots: 1, ReduceSlots: 1}, {MapSlots: 1, ReduceSlots: 1},
		{MapSlots: 1, ReduceSlots: 1}, {MapSlots: 1, ReduceSlots: 1}}
}

// TestCriticalPathIsAloneTime: the critical path of each MRCP job type is its
// alone time ceil(m/4)·12 s + 39 s (policies.md §3.1: 51, 75 and 99 s), the
// wave bound giving the ceiling.
func TestCriticalPathIsAloneTime(t *testing.T) {
	for _, c := range []struct {
		maps int
		want float64
	}{{3, 51000}, {10, 75000}, {20, 99000}} {
		p := &Problem{Mode: Fixed, Groups: 1, Nodes: mrcpCluster(), Jobs: []Job{mrcpJob(5000, c.maps)}}
		b, err := Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.CriticalPath[0]; got != c.want {
			t.Errorf("%d maps: CP = %g, want %g", c.maps, got, c.want)
		}
		for _, m := range []Metric{Makespan, TotalTurnaround, MaxTurnaround} {
			if got := b.Get(m).Certified; got != c.want {
				t.Errorf("%d maps: %s bound %g, want the alone time %g", c.maps, m, got, c.want)
			}
		}
	}
}

// TestWaves checks the wave bound on hand-computed cases.
func TestWaves(t *testing.T) {
	for _, c := range []struct {
		p    []float64
		s    int
		want float64
	}{
		{[]float64{12, 12, 12, 12, 12}, 4, 24},   // two waves
		{[]float64{12, 12, 12, 12, 12}, 1, 60},   // one slot: the sum
		{[]float64{10, 9, 8, 7}, 3, 15},          // 7 + 8 share a slot
		{[]float64{10, 9, 8, 7, 1, 1, 1}, 3, 15}, // short tasks change nothing
		{nil, 3, 0},
	} {
		if got := waves(c.p, c.s); got != c.want {
			t.Errorf("waves(%v, %d) = %g, want %g", c.p, c.s, got, c.want)
		}
	}
}

// TestSRPTFlow: two jobs released together, sizes 2 and 4 at rate 2: SRPT ends
// them at 1 and 3, flow 4; a later short job preempts a long one.
func TestSRPTFlow(t *testing.T) {
	if got := srptFlow([]float64{0, 0}, []float64{2, 4}, 2); got != 4 {
		t.Errorf("flow %g, want 4", got)
	}
	// Job 0 (size 10) from 0; job 1 (size 2) at 3 preempts: ends 5, job 0 ends 12.
	if got := srptFlow([]float64{0, 3}, []float64{10, 2}, 1); got != 14 {
		t.Errorf("flow %g, want 14", got)
	}
	// A zero-size job completes at its release.
	if got := srptFlow([]float64{7}, []float64{0}, 1); got != 0 {
		t.Errorf("flow %g, want 0", got)
	}
}

// TestMooreHodgson: jobs (p, d) = (2,3) (2,3) (1,4): one must be late.
func TestMooreHodgson(t *testing.T) {
	if got := mooreHodgson([]dueJob{{2, 3}, {2, 3}, {1, 4}}); got != 1 {
		t.Errorf("late = %d, want 1", got)
	}
	if got := mooreHodgson([]dueJob{{1, 1}, {1, 2}, {1, 3}}); got != 0 {
		t.Errorf("late = %d, want 0 (ends exactly on the due dates)", got)
	}
}

// TestLateBoundsCountsHopelessAndOverload: a job whose critical path exceeds
// its deadline is late; two jobs that each fit alone but not together make a
// second late job (Moore–Hodgson on the map load).
func TestLateBoundsCountsHopelessAndOverload(t *testing.T) {
	one := []Node{{MapSlots: 1, ReduceSlots: 1}}
	job := func(a, d int64) Job {
		return Job{Arrival: a, Deadline: d, HasDeadline: true, Maps: []Task{{Dur: []int64{10}}}}
	}
	p := &Problem{Mode: Fixed, Groups: 1, Nodes: one, Jobs: []Job{job(0, 5), job(0, 10), job(0, 10)}}
	b, err := Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Get(LateJobs).Certified; got != 2 {
		t.Errorf("late bound %g, want 2 (one hopeless, one of two overloaded)", got)
	}
	opt, _ := Exact(p)
	if opt.LateJobs != 2 {
		t.Errorf("exact late %d, want 2", opt.LateJobs)
	}
}

// TestHeterogeneousRelatedSpeeds: on related machines (durations ∝ 1/speed)
// the estimated speed weighting makes the load bound exact: 12 maps of base
// 12 s on a speed-2 node (6 s) and a speed-1 node (12 s), one map slot each,
// take 12·12/(1+2) = 48 s.
func TestHeterogeneousRelatedSpeeds(t *testing.T) {
	j := Job{}
	for range 12 {
		j.Maps = append(j.Maps, Task{Dur: []int64{6000, 12000}})
	}
	p := &Problem{Mode: Fixed, Groups: 2, Nodes: []Node{{Group: 0, MapSlots: 1}, {Group: 1, MapSlots: 1}}, Jobs: []Job{j}}
	b, err := Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Get(Makespan).Value; math.Abs(got-48000) > 1e-6 {
		t.Errorf("makespan bound %g, want 48000", got)
	}
}

// TestFungibleLoad: in fungible mode maps and reduces share the slots: 4 maps
// and 4 reduces of 10 on 2 slots need 40, while the fixed split 1+1 also
// needs 40 for the maps and 40 for the reduces after them: 50 at least
// (the last map ends ≥ 40, then a reduce).
func TestFungibleLoad(t *testing.T) {
	j := Job{}
	for range 4 {
		j.Maps = append(j.Maps, Task{Dur: []int64{10}})
		j.Reduces = append(j.Reduces, Task{Dur: []int64{10}})
	}
	fun := &Problem{Mode: Fungible, Groups: 1, Nodes: []Node{{Slots: 2}}, Jobs: []Job{j}}
	fix := &Problem{Mode: Fixed, Groups: 1, Nodes: []Node{{MapSlots: 1, ReduceSlots: 1}}, Jobs: []Job{j}}
	for _, c := range []struct {
		p    *Problem
		want float64
	}{{fun, 40}, {fix, 80}} {
		b, err := Compute(c.p)
		if err != nil {
			t.Fatal(err)
		}
		opt, _ := Exact(c.p)
		if got := b.Get(Makespan).Certified; got != c.want || float64(opt.Makespan) != c.want {
			t.Errorf("%v: bound %g, optimum %d, want both %g", c.p.Mode, got, opt.Makespan, c.want)
		}
	}
}

// TestValidateNamesThePlace: errors wrap badinput.Err and name the JSON path.
func TestValidateNamesThePlace(t *testing.T) {
	good := func() *Problem {
		return &Problem{Mode: Fixed, Groups: 1, Nodes: mrcpCluster(), Jobs: []Job{mrcpJob(0, 3)}}
	}
	for _, c := range []struct {
		edit func(p *Problem)
		want string
	}{
		{func(p *Problem) { p.Mode = 0 }, "mode"},
		{func(p *Problem) { p.Groups = 0 }, "groups"},
		{func(p *Problem) { p.Nodes[2].Group = 1 }, "nodes[2].group"},
		{func(p *Problem) { p.Nodes[1].MapSlots = -1 }, "nodes[1]"},
		{func(p *Problem) { p.Jobs[0].Arrival = -5 }, "jobs[0].arrival"},
		{func(p *Problem) { p.Jobs[0].Maps[1].Dur = []int64{-1} }, "jobs[0].maps[1].dur[0]"},
		{func(p *Problem) { p.Jobs[0].Reduces[0].Dur = []int64{1, 2} }, "jobs[0].reduces[0].dur"},
		{func(p *Problem) { p.Jobs[0].Maps[1].Dur = []int64{maxTime + 1} }, "jobs[0].maps[1].dur[0]"},
		// Each value within the cap, the horizon past it: the task where
		// the sum passes is named.
		{func(p *Problem) {
			p.Jobs[0].Arrival = maxTime / 2
			p.Jobs[0].Maps[1].Dur = []int64{maxTime / 2}
		}, "jobs[0].maps[1].dur: the latest arrival plus"},
		{func(p *Problem) {
			for i := range p.Nodes {
				p.Nodes[i].ReduceSlots = 0
			}
		}, "jobs[0].reduces"},
	} {
		p := good()
		c.edit(p)
		_, err := Compute(p)
		if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want a bad-input error naming %q, got %v", c.want, err)
		}
	}
	if _, err := Compute(good()); err != nil {
		t.Errorf("valid problem: %v", err)
	}
}

// TestPropertyHarnessCatchesInvalidBound shows the property test has teeth:
// Σ_j CP_j is a bound on total turnaround, not on the makespan, and the same
// instances and enumeration expose it.
func TestPropertyHarnessCatchesInvalidBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 19))
	caught := 0
	for range 200 {
		p := randomProblem(rng, 6)
		b, err := Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		opt, _ := Exact(p)
		sum := 0.0
		for _, cp := range b.CriticalPath {
			sum += cp
		}
		if sum > float64(opt.Makespan)+roundingSlack(sum) {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("the invalid makespan bound Σ CP_j was never caught")
	}
	t.Logf("invalid bound caught on %d of 200 instances", caught)
}

// TestEmptyProblem: no jobs, every bound 0.
func TestEmptyProblem(t *testing.T) {
	b, err := Compute(&Problem{Mode: Fungible, Groups: 1, Nodes: []Node{{Slots: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Metrics() {
		if v := b.Get(m).Certified; v != 0 {
			t.Errorf("%s: %g, want 0", m, v)
		}
	}
}

// TestPreemptiveDropsWaves: three tasks of 2 on two slots take 4 without
// preemption (waves) but 3 with it (McNaughton), so the preemptive bound
// must not exceed 3.
func TestPreemptiveDropsWaves(t *testing.T) {
	j := Job{Maps: []Task{{Dur: []int64{2}}, {Dur: []int64{2}}, {Dur: []int64{2}}}}
	p := &Problem{Mode: Fixed, Groups: 1, Nodes: []Node{{MapSlots: 2, ReduceSlots: 1}}, Jobs: []Job{j}}
	b, err := Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Get(Makespan).Certified; got != 4 {
		t.Errorf("non-preemptive bound %g, want 4", got)
	}
	p.Preemptive = true
	if b, err = Compute(p); err != nil {
		t.Fatal(err)
	}
	if got := b.Get(Makespan).Certified; got != 3 {
		t.Errorf("preemptive bound %g, want 3", got)
	}
	if _, err := Exact(p); err == nil {
		t.Error("Exact accepted a preemptive problem")
	}
}

// TestMetricNames: every metric round-trips by name; unknown names fail.
func TestMetricNames(t *testing.T) {
	for _, m := range Metrics() {
		var back Metric
		b, _ := m.MarshalText()
		if err := back.UnmarshalText(b); err != nil || back != m {
			t.Errorf("%v: round trip gave %v, %v", m, back, err)
		}
	}
	if _, err := ParseMetric("speed"); err == nil {
		t.Error("unknown metric accepted")
	}
	var mode SlotMode
	if err := mode.UnmarshalText([]byte("fungible")); err != nil || mode != Fungible {
		t.Errorf("slot mode %v, %v", mode, err)
	}
}

// TestExactRefusesTooManyJobs: jobs without tasks cost the enumeration
// nothing, but each may be late, and (late + 1) times a max turnaround near
// 2^50 ms must stay inside int64; so more than ExactMaxJobs jobs are refused,
// and exactly that many are enumerated.
func TestExactRefusesTooManyJobs(t *testing.T) {
	mk := func(n int) *Problem {
		p := &Problem{Mode: Fixed, Groups: 1, Nodes: []Node{{MapSlots: 1, ReduceSlots: 1}}}
		p.Jobs = append(p.Jobs, Job{Maps: []Task{{Dur: []int64{maxTime / 2}}}})
		for len(p.Jobs) < n {
			p.Jobs = append(p.Jobs, Job{Arrival: 10, HasDeadline: true, Deadline: 5})
		}
		return p
	}
	if _, err := Exact(mk(ExactMaxJobs + 1)); err == nil {
		t.Errorf("Exact took %d jobs", ExactMaxJobs+1)
	}
	opt, err := Exact(mk(ExactMaxJobs))
	if err != nil {
		t.Fatal(err)
	}
	// Every task-less job is late (deadline before arrival); the one task
	// gives the max turnaround.
	if want := int64(ExactMaxJobs) * (maxTime / 2); opt.MRCPProduct != want || opt.LateJobs != ExactMaxJobs-1 {
		t.Errorf("product %d, late %d; want %d, %d", opt.MRCPProduct, opt.LateJobs, want, ExactMaxJobs-1)
	}
}
