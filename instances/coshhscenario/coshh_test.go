package coshhscenario

import (
	"bytes"
	"math"
	"testing"
)

func TestTables(t *testing.T) {
	fb, err := Trace("facebook")
	if err != nil {
		t.Fatal(err)
	}
	y, _ := Trace("yahoo")
	if len(fb) != 10 || len(y) != 8 {
		t.Fatalf("categories: facebook %d, yahoo %d; want 10 and 8", len(fb), len(y))
	}
	n := 0
	for _, c := range fb {
		n += c.Jobs
	}
	if n != 200 || fb[9].MapTime != 4843452 || y[5].ReduceTime != 31884004 {
		t.Errorf("facebook jobs %d (want 200), data summary map %v, large data summary reduce %v", n, fb[9].MapTime, y[5].ReduceTime)
	}
	u, _ := Users("facebook")
	if len(u) != 10 || u[5].MinShare != 15 || u[1].Priority != 2 {
		t.Errorf("facebook users %+v", u)
	}
	c3, _ := Cluster("table3", 0)
	c11, _ := Cluster("table11", 0)
	if len(c3) != 6 || c3[1].Slots != 16 || len(c11) != 4 || c11[3].ExecRateMHz != 3200 {
		t.Errorf("clusters: %+v %+v", c3, c11)
	}
	c10, err := Cluster("table10", 102)
	if err != nil || len(c10) != 102 || c10[101].Name != "R102" || c10[7].ExecRateMHz != c10[1].ExecRateMHz {
		t.Errorf("table10 × 102: %v %d", err, len(c10))
	}
	if _, err := Cluster("table3", 7); err == nil {
		t.Error("table3 resized without error")
	}
	for s, want := range map[string]float64{"0": 0, "21KB": 21 * 1024, "1.9TB": 1.9 * (1 << 40), "10 KB": 10240} {
		if got, err := ParseSize(s); err != nil || math.Abs(got-want) > 1e-6*want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParseSize("-1GB"); err == nil {
		t.Error("negative size accepted")
	}
}

func TestGenerateDeterministic(t *testing.T) {
	o := GenOptions{Trace: "facebook", Jobs: 100, Seed: 1, MaxError: 0.4}
	a, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(o)
	ja, _ := a.Marshal()
	jb, _ := b.Marshal()
	if !bytes.Equal(ja, jb) {
		t.Fatal("two generations with one seed differ")
	}
	o.Seed = 2
	c, _ := Generate(o)
	jc, _ := c.Marshal()
	if bytes.Equal(ja, jc) {
		t.Fatal("seeds 1 and 2 give the same stream")
	}
	// Round trip through Parse.
	back, err := Parse("", ja)
	if err != nil {
		t.Fatal(err)
	}
	if jr, _ := back.Marshal(); !bytes.Equal(ja, jr) {
		t.Error("Parse(Marshal(s)) differs from s")
	}
	if len(a.Jobs) != 100 || len(a.Resources) != 6 {
		t.Fatalf("%d jobs, %d resources", len(a.Jobs), len(a.Resources))
	}
	// Error model: |L̂/L − 1| ≤ I (up to the 6-digit rounding); arrivals
	// non-decreasing.
	for i, j := range a.Jobs {
		for r := range j.ExecTime {
			if e := math.Abs(j.EstTime[r]/j.ExecTime[r] - 1); e > 0.4+1e-5 {
				t.Fatalf("job %s on R%d: relative error %g > 0.4", j.ID, r+1, e)
			}
		}
		if i > 0 && j.Arrival < a.Jobs[i-1].Arrival {
			t.Fatalf("arrivals decrease at %s", j.ID)
		}
	}
}

// TestGenerateProportions: over many jobs the categories follow Table 4's
// proportions (small jobs are 126/200 of the Facebook trace).
func TestGenerateProportions(t *testing.T) {
	s, err := Generate(GenOptions{Trace: "facebook", Jobs: 4000, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	small := 0
	for _, j := range s.Jobs {
		if j.Category == "Small jobs" {
			small++
			if j.User != "U1" {
				t.Fatalf("small job %s from %s, want U1", j.ID, j.User)
			}
		}
		if j.EstTime[0] != j.ExecTime[0] {
			t.Fatalf("exact estimates expected with MaxError 0")
		}
	}
	if f := float64(small) / 4000; math.Abs(f-0.63) > 0.03 {
		t.Errorf("small jobs fraction %.3f, want ≈ 0.63", f)
	}
}

func TestGenerateBadOptions(t *testing.T) {
	for _, o := range []GenOptions{
		{Trace: "google"},
		{Trace: "yahoo", Jobs: -1},
		{Trace: "yahoo", MaxError: 1},
		{Trace: "yahoo", Cluster: "table99"},
		{Trace: "yahoo", MeanInterarrival: -3},
	} {
		if _, err := Generate(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestTable10TypoInSimulatorStreams: a simulator stream on Table 10 reads
// "500GHz" as 500 MHz (A-C12), so its fast types run at the reference speed
// as Table 3's do; the capacity-LP stream keeps the printed rate.
func TestTable10TypoInSimulatorStreams(t *testing.T) {
	sim, err := Generate(GenOptions{Trace: "yahoo", Jobs: 3, Seed: 1, Cluster: "table10", Resources: 12, Tasks: true, Rho: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := Generate(GenOptions{Trace: "yahoo", Jobs: 3, Seed: 1, Cluster: "table10", Resources: 12})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range sim.Resources {
		if r.ExecRateMHz != 5 && r.ExecRateMHz != ReferenceMHz {
			t.Errorf("simulator resource %s: %v MHz, want 5 or %v", r.Name, r.ExecRateMHz, ReferenceMHz)
		}
		if lp.Resources[i].ExecRateMHz == ReferenceMHz {
			t.Errorf("LP resource %s: rate changed to %v MHz", r.Name, ReferenceMHz)
		}
	}
}
