package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// listSchedule is a feasible schedule of p built by a random list order:
// tasks in a random order that keeps each job's maps before its reduces,
// each on a random node with a slot of its kind, on that node's earliest-free
// slot, as early as arrival and the job's last map end allow. It returns the
// completion time of every job.
func listSchedule(p *lowerbound.Problem, rng *rand.Rand) []int64 {
	type slotSet [2][]int64
	free := make([]slotSet, len(p.Nodes))
	for x, n := range p.Nodes {
		if p.Mode == lowerbound.Fungible {
			free[x][0] = make([]int64, n.Slots)
		} else {
			free[x][0] = make([]int64, n.MapSlots)
			free[x][1] = make([]int64, n.ReduceSlots)
		}
	}
	type ref struct{ job, kind, idx int }
	var pending []ref
	mapsLeft := make([]int, len(p.Jobs))
	lme := make([]int64, len(p.Jobs))
	done := make([]int64, len(p.Jobs))
	for j, job := range p.Jobs {
		for i := range job.Maps {
			pending = append(pending, ref{j, 0, i})
		}
		mapsLeft[j] = len(job.Maps)
		lme[j], done[j] = job.Arrival, job.Arrival
		if len(job.Maps) == 0 {
			for i := range job.Reduces {
				pending = append(pending, ref{j, 1, i})
			}
		}
	}
	for len(pending) > 0 {
		k := rng.IntN(len(pending))
		t := pending[k]
		pending = append(pending[:k], pending[k+1:]...)
		job := &p.Jobs[t.job]
		task := job.Maps
		if t.kind == 1 {
			task = job.Reduces
		}
		sk := t.kind
		if p.Mode == lowerbound.Fungible {
			sk = 0
		}
		var nodes []int
		for x := range p.Nodes {
			if len(free[x][sk]) > 0 {
				nodes = append(nodes, x)
			}
		}
		x := nodes[rng.IntN(len(nodes))]
		s := 0
		for i, f := range free[x][sk] {
			if f < free[x][sk][s] {
				s = i
			}
		}
		d := task[t.idx].Dur[min(p.Nodes[x].Group, len(task[t.idx].Dur)-1)]
		start := max(free[x][sk][s], job.Arrival)
		if t.kind == 1 {
			start = max(start, lme[t.job])
		}
		end := start + d
		free[x][sk][s] = end
		done[t.job] = max(done[t.job], end)
		if t.kind == 0 {
			lme[t.job] = max(lme[t.job], end)
			if mapsLeft[t.job]--; mapsLeft[t.job] == 0 {
				for i := range job.Reduces {
					pending = append(pending, ref{t.job, 1, i})
				}
			}
		}
	}
	return done
}

// randomProblem draws a mid-sized instance (beyond enumeration): 2–6 nodes,
// up to 8 jobs of up to 8 maps and 3 reduces (possibly none).
func randomProblem(rng *rand.Rand) *lowerbound.Problem {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 2}
	if rng.IntN(3) == 0 {
		p.Mode = lowerbound.Fungible
	}
	for x := range 2 + rng.IntN(5) {
		n := lowerbound.Node{Group: x % 2, MapSlots: 1 + rng.IntN(2), ReduceSlots: 1 + rng.IntN(2), Slots: 1 + rng.IntN(3)}
		p.Nodes = append(p.Nodes, n)
	}
	for range 1 + rng.IntN(8) {
		j := lowerbound.Job{Arrival: rng.Int64N(60000)}
		for range rng.IntN(9) {
			d := 1000 + rng.Int64N(20000)
			j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{d, d * 3 / 2}})
		}
		for range rng.IntN(4) {
			j.Reduces = append(j.Reduces, lowerbound.Task{Dur: []int64{1000 + rng.Int64N(30000)}})
		}
		if rng.IntN(2) == 0 {
			j.HasDeadline = true
			j.Deadline = j.Arrival + 20000 + rng.Int64N(100000)
		}
		p.Jobs = append(p.Jobs, j)
	}
	return p
}

// TestNoScheduleBelowBound: the invariant on instances too large to
// enumerate. Random feasible list schedules (standing in for policies) are
// never below the certified bound of any metric, and Build accepts them.
func TestNoScheduleBelowBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 19))
	n := 300
	if testing.Short() {
		n = 100
	}
	for i := range n {
		p := randomProblem(rng)
		b, err := lowerbound.Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		runs := []Run{}
		for k := range 5 {
			runs = append(runs, Run{Policy: string(rune('a' + k)), Completion: listSchedule(p, rng), Verified: true})
		}
		for _, m := range lowerbound.Metrics() {
			if _, err := Build(p, m, OfflineFromBounds(b, m, nil), runs); err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
		}
	}
}

func tinyProblem() *lowerbound.Problem {
	return &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1,
		Nodes: []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}},
		Jobs: []lowerbound.Job{
			{Arrival: 0, Deadline: 25, HasDeadline: true, Maps: []lowerbound.Task{{Dur: []int64{10}}}, Reduces: []lowerbound.Task{{Dur: []int64{10}}}},
			{Arrival: 5, Maps: []lowerbound.Task{{Dur: []int64{10}}}},
		}}
}

// TestValue: metric values of a hand-made schedule.
func TestValue(t *testing.T) {
	p := tinyProblem()
	c := []int64{30, 20} // job 0 late (30 > 25)
	for m, want := range map[lowerbound.Metric]float64{
		lowerbound.Makespan: 30, lowerbound.TotalTurnaround: 45, lowerbound.MeanTurnaround: 22.5,
		lowerbound.MaxTurnaround: 30, lowerbound.LateJobs: 1, lowerbound.MRCPProduct: 60,
	} {
		if got, err := Value(p, m, c); err != nil || got != want {
			t.Errorf("%s = %g (%v), want %g", m, got, err, want)
		}
	}
	if _, err := Value(p, lowerbound.Makespan, []int64{30}); err == nil {
		t.Error("a completion list of the wrong length was accepted")
	}
}

// TestBuildFailsBelowBound: a verified run below the bound fails loudly; the
// same run unverified is reported with its verdict.
func TestBuildFailsBelowBound(t *testing.T) {
	p := tinyProblem()
	b, err := lowerbound.Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	impossible := []int64{15, 15} // job 0 needs 20 at least
	_, err = Build(p, lowerbound.Makespan, OfflineFromBounds(b, lowerbound.Makespan, nil), []Run{{Policy: "broken", Completion: impossible, Verified: true}})
	if !errors.Is(err, ErrBelowBound) || !strings.Contains(err.Error(), "broken") {
		t.Errorf("want ErrBelowBound naming the policy, got %v", err)
	}
	r, err := Build(p, lowerbound.Makespan, OfflineFromBounds(b, lowerbound.Makespan, opt),
		[]Run{{Policy: "broken", Completion: impossible, CheckErr: "capacity"}, {Policy: "fifo", Completion: []int64{20, 20}, Verified: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r.BoundStatus != "optimal" || *r.Optimum != 20 || r.Policies[1].Ratio == nil || *r.Policies[1].Ratio != 1 {
		t.Errorf("report %+v", r)
	}
	text, js, md, csv, svg, obj := writeAll(t, r)
	for _, k := range []string{"metric", "bound", "bound_status", "optimum", "policies"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, js.String())
		}
	}
	// JSON keeps milliseconds and names them; the human reports show seconds.
	if obj["unit"] != "ms" || obj["bound"] != 20.0 {
		t.Errorf("JSON unit %v bound %v, want ms and 20", obj["unit"], obj["bound"])
	}
	if !strings.Contains(text.String(), "value (s)") || !strings.Contains(text.String(), "optimum 0.02 (proven") ||
		!strings.HasPrefix(csv.String(), "instance,metric,unit,") || !strings.Contains(csv.String(), ",makespan,s,0.02,optimal,") {
		t.Errorf("human reports not in seconds:\n%s\n%s", text.String(), csv.String())
	}
	if !strings.Contains(text.String(), "FAILED: capacity") || !strings.Contains(md.String(), "| fifo | 0.02 | 1.000 |") ||
		strings.Count(csv.String(), "\n") != 3 || !strings.Contains(svg.String(), "<svg") {
		t.Errorf("outputs:\n%s\n%s\n%s", text.String(), md.String(), csv.String())
	}
}

// writeAll writes r in every format, failing the test on an error, and
// decodes the JSON.
func writeAll(t *testing.T, r *Report) (text, js, md, csv, svg bytes.Buffer, obj map[string]any) {
	t.Helper()
	for _, f := range []func() error{
		func() error { return r.WriteText(&text) }, func() error { return r.WriteJSON(&js) },
		func() error { return r.WriteMarkdown(&md) }, func() error { return r.WriteCSV(&csv) }, func() error { return r.WriteSVG(&svg) },
	} {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	if err := json.Unmarshal(js.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	return text, js, md, csv, svg, obj
}
