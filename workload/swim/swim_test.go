package swim

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
)

func TestReadFixture(t *testing.T) {
	w, err := Load("testdata/fb2009-first20.tsv", DefaultModel(), ClusterSpec{Nodes: 10, MapSlots: 2, ReduceSlots: 2, Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 20 {
		t.Fatalf("%d jobs, want 20", len(w.Jobs))
	}
	// job0: 49 s, 740773 input bytes (1 map), 2339561 shuffle (1 reduce)
	j := w.Jobs[0]
	wantMap := sim.Time(1000) + sim.FromSeconds(740773.0/(16<<20))
	wantRed := sim.Time(1000) + sim.FromSeconds(float64(2339561+627471)/(16<<20))
	if j.Name != "job0" || j.Arrival != 49000 || len(j.Maps) != 1 || len(j.Reduces) != 1 || j.Maps[0].Work != wantMap || j.Reduces[0].Work != wantRed {
		t.Errorf("job0 = %s at %d ms, %d maps (%d ms), %d reduces (%d ms); want job0 at 49000, 1 map %d, 1 reduce %d",
			j.Name, j.Arrival, len(j.Maps), j.Maps[0].Work, len(j.Reduces), j.Reduces[0].Work, wantMap, wantRed)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestModelCounts(t *testing.T) {
	m := DefaultModel()
	recs := []Record{
		{ID: "big", Input: 3*m.BlockBytes + 1, Shuffle: 2*m.ReduceBytes + 5, Output: 7},
		{ID: "load", Input: 10, Output: 0},
		{ID: "out", Input: 10, Output: 100},
	}
	w, err := m.Workload(recs, DefaultCluster(), "x")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]int{{4, 3}, {1, 0}, {1, 1}} {
		if got := [2]int{len(w.Jobs[i].Maps), len(w.Jobs[i].Reduces)}; got != want {
			t.Errorf("%s: maps, reduces = %v, want %v", recs[i].ID, got, want)
		}
	}
	// the last map of "big" reads 1 byte
	if got := w.Jobs[0].Maps[3].Work; got != m.TaskOverhead {
		t.Errorf("last map of big: %d ms, want the overhead %d", got, m.TaskOverhead)
	}
	m.ReducesNeedShuffle = true
	w, _ = m.Workload(recs, DefaultCluster(), "x")
	if len(w.Jobs[2].Reduces) != 0 {
		t.Errorf("ReducesNeedShuffle: a job without shuffle has %d reduces", len(w.Jobs[2].Reduces))
	}
}

func TestBadLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"job0\t1\t1\t5\t5\n", "t.tsv:1: 5 tab-separated fields, want 6 (job id, submit time, gap, map input bytes, shuffle bytes, reduce output bytes)"},
		{"job0\t1\t1\t5\t5\t5\njob1\t2\t1\t-5\t0\t0\n", "t.tsv:2: field 4 (map input bytes): -5 is negative"},
		{"job0\tx\t1\t5\t5\t5\n", "t.tsv:1: field 2 (submit time): \"x\" is not a number"},
		{"job0\t1\t1\t5\t5\t5.5\n", "t.tsv:1: field 6 (reduce output bytes): \"5.5\" is not a whole number of bytes"},
		{"job0\t-1\t1\t5\t5\t5\n", "t.tsv:1: field 2 (submit time): -1 is negative"},
		{"\n\n", "t.tsv: no job lines"},
	} {
		_, err := Read(strings.NewReader(c.in), "t.tsv")
		if err == nil || err.Error() != c.want || !errors.Is(err, badinput.Err) {
			t.Errorf("%q: error %v, want %q (bad input)", c.in, err, c.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	b, err := os.ReadFile("testdata/fb2009-first20.tsv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("job0\t1\t1\t5\t5\n")
	f.Add("job0\t1e300\t1\t99999999999999999999\t0\t0\n")
	f.Add("a\tNaN\t0\t0\t0\t0\n")
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := Read(strings.NewReader(in), "f")
		if err != nil {
			if !errors.Is(err, badinput.Err) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not a one-line bad-input error", err)
			}
			return
		}
		m := DefaultModel()
		m.BlockBytes = 1 << 40 // keep task counts small for arbitrary byte counts
		m.ReduceBytes = 1 << 40
		w, err := m.Workload(recs, ClusterSpec{Nodes: 2, MapSlots: 1, ReduceSlots: 1}, "f")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("a workload from valid records fails validation: %v", err)
		}
	})
}
