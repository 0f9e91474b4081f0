package tummscenario

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

func gen(t *testing.T, o GenOptions) *Scenario {
	t.Helper()
	s, err := Generate(o)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", o, err)
	}
	return s
}

// TestTimesA_T9: on Heter1 the 2.67 CU group gets Table 4's min, the 1.33
// CU group its max, the 2 CU group min + (max − min)/3; the homogeneous
// cluster that 2 CU value; Heter2 maps scale with 2/CU and reduces with
// 3.75/memory from it.
func TestTimesA_T9(t *testing.T) {
	const tol = 1e-3 // times are rounded to whole ms
	near := func(a, b float64) bool { return math.Abs(a-b) <= tol }
	wc := Benchmarks[3] // word count: map 11.5–31.4, reduce 12.6–25.2
	mid := func(lo, hi float64) float64 { return lo + (hi-lo)/3 }

	h1 := gen(t, GenOptions{Benchmark: "word-count", Cluster: "heter1"}).Batch.Jobs[0]
	if !near(h1.MapTime[0], wc.MapMin) || !near(h1.MapTime[2], wc.MapMax) || !near(h1.MapTime[1], mid(wc.MapMin, wc.MapMax)) {
		t.Errorf("heter1 map times %v", h1.MapTime)
	}
	if !near(h1.ReduceTime[0], wc.ReduceMin) || !near(h1.ReduceTime[2], wc.ReduceMax) {
		t.Errorf("heter1 reduce times %v", h1.ReduceTime)
	}
	hom := gen(t, GenOptions{Benchmark: "word-count"}).Batch.Jobs[0]
	if !near(hom.MapTime[0], mid(wc.MapMin, wc.MapMax)) || !near(hom.ReduceTime[0], mid(wc.ReduceMin, wc.ReduceMax)) {
		t.Errorf("homogeneous times %v %v", hom.MapTime, hom.ReduceTime)
	}
	h2 := gen(t, GenOptions{Benchmark: "word-count", Cluster: "heter2"}).Batch.Jobs[0]
	m, r := mid(wc.MapMin, wc.MapMax), mid(wc.ReduceMin, wc.ReduceMax)
	want := [2][]float64{{m, m * 2 / 5, m * 2 / 1.63}, {r, r * 3.75 / 1.75, r * 3.75 / 4.25}}
	for g := range 3 {
		if !near(h2.MapTime[g], want[0][g]) || !near(h2.ReduceTime[g], want[1][g]) {
			t.Errorf("heter2 group %d: %v/%v, want %v/%v", g, h2.MapTime[g], h2.ReduceTime[g], want[0][g], want[1][g])
		}
	}
}

// TestClusters: Table 3's slot totals (30 and 36) and the 16-slot
// homogeneous cluster; counts per §6.3.1 and A-T8.
func TestClusters(t *testing.T) {
	for c, want := range map[string]int{"homogeneous": 16, "heter1": 30, "heter2": 36} {
		b := gen(t, GenOptions{Benchmark: "grep", Cluster: c}).Batch
		S := 0
		for _, n := range b.Cluster.Nodes {
			S += n.Slots
		}
		if S != want {
			t.Errorf("%s: %d slots, want %d", c, S, want)
		}
		if j := b.Jobs[0]; c != "homogeneous" && (j.Maps != 128 || j.Reduces != 80) {
			t.Errorf("%s grep: %d maps %d reduces", c, j.Maps, j.Reduces)
		}
	}
	ii := gen(t, GenOptions{Benchmark: "inverted-index"}).Batch
	cl := gen(t, GenOptions{Benchmark: "classification"}).Batch
	if len(ii.Jobs) != 3 || ii.Jobs[0].Maps != 112 || ii.Jobs[0].Reduces != 150 || cl.Jobs[0].Maps != 160 || cl.Jobs[0].Reduces != 80 {
		t.Errorf("homogeneous counts: ii %+v, classification %+v", ii.Jobs[0], cl.Jobs[0])
	}
}

// TestJohnsonOrder: the first group (w_m ≤ w_r) ascends in w_m, the second
// descends in w_r; reverse is its mirror; a seed fixes every order.
func TestJohnsonOrder(t *testing.T) {
	s := gen(t, GenOptions{Benchmark: "mixed", Seed: 3})
	st := s.Static
	second := false
	for i := range st.Jobs {
		wm := float64(st.Jobs[i].MapTasks) * st.Jobs[i].MapTime
		wr := float64(st.Jobs[i].ReduceTasks) * st.Jobs[i].ReduceTime
		if wm > wr {
			second = true
		} else if second {
			t.Fatalf("job %d (w_m ≤ w_r) after the second group", i)
		}
		if i == 0 {
			continue
		}
		pm := float64(st.Jobs[i-1].MapTasks) * st.Jobs[i-1].MapTime
		pr := float64(st.Jobs[i-1].ReduceTasks) * st.Jobs[i-1].ReduceTime
		if wm <= wr && pm > wm || wm > wr && pm > pr && pr < wr {
			t.Errorf("job %d out of Johnson order", i)
		}
	}
	rev := gen(t, GenOptions{Benchmark: "mixed", Seed: 3, Order: "reverse"})
	for i := range st.Jobs {
		if a, b := s.Batch.Jobs[i].Benchmark, rev.Batch.Jobs[len(st.Jobs)-1-i].Benchmark; a != b {
			t.Fatalf("reverse order differs at %d: %s vs %s", i, a, b)
		}
	}
	r1 := gen(t, GenOptions{Benchmark: "mixed", Seed: 3, Order: "random"})
	r2 := gen(t, GenOptions{Benchmark: "mixed", Seed: 3, Order: "random"})
	if !reflect.DeepEqual(r1, r2) {
		t.Error("the random order is not fixed by the seed")
	}
	if len(r1.Batch.Jobs) != 10 {
		t.Errorf("%d mixed jobs", len(r1.Batch.Jobs))
	}
}

func TestTPCHChains(t *testing.T) {
	b := gen(t, GenOptions{Benchmark: "tpch", Cluster: "heter1"}).Batch
	if len(b.Jobs) != 15 {
		t.Fatalf("%d jobs", len(b.Jobs))
	}
	w := b.Workload("x", true)
	for i, j := range w.Jobs {
		first := i%5 == 0
		if first != (j.Parent < 0) || !first && j.Parent != i-1 {
			t.Errorf("job %d: parent %d", i, j.Parent)
		}
		if !first && len(j.Maps) >= len(w.Jobs[i-1].Maps) {
			t.Errorf("job %d: the first sub-query must read the most", i)
		}
	}
	if err := w.Validate(); err != nil {
		t.Error(err)
	}
}

func TestBatchRoundTripAndErrors(t *testing.T) {
	for _, o := range []GenOptions{{Benchmark: "mixed", Cluster: "heter2", Order: "random", Seed: 9}, {Benchmark: "tpch", Cluster: "heter1"}, {Benchmark: "fig6", Cluster: "fig6c"}} {
		s := gen(t, o)
		b, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse("", b)
		if err != nil || !reflect.DeepEqual(s, back) {
			t.Fatalf("%+v: round trip: %v", o, err)
		}
		again, _ := gen(t, o).Marshal()
		if !bytes.Equal(b, again) {
			t.Errorf("%+v: not deterministic", o)
		}
	}
	ok := `"cluster":{"name":"c","groups":[{"name":"g"}],"nodes":[{"name":"n","group":0,"slots":4,"map_slots":2,"reduce_slots":2}]}`
	job := `{"name":"a","maps":2,"reduces":1,"map_time":[1],"reduce_time":[1]}`
	for js, want := range map[string]string{
		`{"kind":"tumm","schema_version":1,"batch":{` + ok + `,"jobs":[` + job + `]}}`:                                                                                                               "needs schema_version 2",
		`{"kind":"tumm","schema_version":3,"batch":{}}`:                                                                                                                                              "$.schema_version",
		`{"kind":"tumm","schema_version":2,"batch":{` + ok + `,"jobs":[]}}`:                                                                                                                          "$.batch.jobs",
		`{"kind":"tumm","schema_version":2,"batch":{` + ok + `,"jobs":[{"name":"a","parent":"b","maps":2,"reduces":1,"map_time":[1],"reduce_time":[1]}]}}`:                                           "$.batch.jobs[0].parent",
		`{"kind":"tumm","schema_version":2,"batch":{` + ok + `,"jobs":[{"name":"a","maps":2,"reduces":1,"map_time":[1,2],"reduce_time":[1]}]}}`:                                                      "$.batch.jobs[0].map_time: 2 times for 1 node group",
		`{"kind":"tumm","schema_version":2,"batch":{` + ok + `,"jobs":[{"name":"a","maps":2,"reduces":1,"map_time":[0],"reduce_time":[1]}]}}`:                                                        "$.batch.jobs[0].map_time[0]",
		`{"kind":"tumm","schema_version":2,"batch":{"cluster":{"name":"c","groups":[{"name":"g"}],"nodes":[{"name":"n","group":1,"slots":4}]},"jobs":[` + job + `]}}`:                                "$.batch.cluster.nodes[0].group",
		`{"kind":"tumm","schema_version":2,"batch":{"cluster":{"name":"c","groups":[{"name":"g"}],"nodes":[{"name":"n","group":0,"slots":4,"map_slots":3,"reduce_slots":2}]},"jobs":[` + job + `]}}`: "exceeds",
	} {
		// want+"s" must not be there: "1 node group" is not the start of
		// "1 node groups".
		if _, err := Parse("f.json", []byte(js)); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), want+"s") {
			t.Errorf("%s: error %v, want %q", js, err, want)
		}
	}
	for _, o := range []GenOptions{{Benchmark: "nope"}, {Benchmark: "grep", Cluster: "nope"}, {Benchmark: "mixed", Order: "nope"}, {Benchmark: "fig6"}, {Benchmark: "grep", Cluster: "fig6a"}} {
		if _, err := Generate(o); err == nil {
			t.Errorf("Generate(%+v) accepted", o)
		}
	}
}

// TestBatchTimeOverflow: a batch task time of 1e308 s, which Workload's
// int64 milliseconds would wrap to a negative time, is refused by Parse on
// one line naming the file and the JSON path of the time; 10^12 s, the
// simulator clock's bound, still loads and converts to a positive time.
func TestBatchTimeOverflow(t *testing.T) {
	cluster := `"cluster":{"name":"c","groups":[{"name":"g"}],"nodes":[{"name":"n","group":0,"slots":4,"map_slots":2,"reduce_slots":2}]}`
	doc := func(mt, rt string) []byte {
		return []byte(`{"kind":"tumm","schema_version":2,"batch":{` + cluster + `,"jobs":[{"name":"a","maps":2,"reduces":1,"map_time":[` + mt + `],"reduce_time":[` + rt + `]}]}}`)
	}
	for _, c := range []struct{ mt, rt, path string }{{"1e308", "1", "$.batch.jobs[0].map_time[0]"}, {"1", "1e308", "$.batch.jobs[0].reduce_time[0]"}} {
		_, err := Parse("f.json", doc(c.mt, c.rt))
		if err == nil || !errors.Is(err, badinput.Err) || strings.Contains(err.Error(), "\n") ||
			!strings.HasPrefix(err.Error(), "f.json: "+c.path+": ") || !strings.Contains(err.Error(), "too large") {
			t.Errorf("%s = 1e308: %v, want one line naming f.json and %s", c.path, err, c.path)
		}
	}
	s, err := Parse("f.json", doc("1e12", "1"))
	if err != nil {
		t.Fatalf("1e12 s: %v", err)
	}
	if w := s.Batch.Workload("x", true); w.Jobs[0].Maps[0].ByGroup()[0] <= 0 {
		t.Errorf("1e12 s converted to %v", w.Jobs[0].Maps[0].ByGroup()[0])
	}
}
