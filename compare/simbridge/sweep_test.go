package simbridge

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/lowerbound"
)

// TestSweepResumes: a sweep writes one record per policy and instance; read
// back as Done, a second sweep emits nothing; with one record missing it
// redoes that instance only, emits the missing record alone and gets the
// same values (determinism).
func TestSweepResumes(t *testing.T) {
	var file bytes.Buffer
	if err := compare.WriteSweepHeader(&file); err != nil {
		t.Fatal(err)
	}
	o := SweepOptions{Family: "mrcp-small", Jobs: 6, Lambdas: []float64{1.0 / 60, 1.0 / 30}, Seeds: 2,
		Policies: []string{"fifo", "edf"}, Compare: Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions()}}
	o.Emit = func(r compare.SweepRecord) error { return compare.WriteSweepRecord(&file, r) }
	first, err := Sweep(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2*2*2 {
		t.Fatalf("%d records, want 8", len(first))
	}
	for _, r := range first {
		if !r.Verified || !(r.Ratio >= 1) || r.Load <= 0 {
			t.Errorf("record %+v", r)
		}
	}
	recs, err := compare.ReadSweep("sweep.csv", strings.NewReader(file.String()))
	if err != nil {
		t.Fatal(err)
	}
	emitted := 0
	o.Emit = func(compare.SweepRecord) error { emitted++; return nil }
	o.Done = recs
	if _, err := Sweep(context.Background(), o); err != nil || emitted != 0 {
		t.Fatalf("resume emitted %d records (%v), want 0", emitted, err)
	}
	// The table holds the instance's other record: emitting it again would
	// write it twice.
	var emittedKeys []string
	o.Emit = func(r compare.SweepRecord) error { emittedKeys = append(emittedKeys, r.Key()); return nil }
	o.Done = recs[1:]
	again, err := Sweep(context.Background(), o)
	if err != nil || len(emittedKeys) != 1 || emittedKeys[0] != recs[0].Key() {
		t.Fatalf("resume with one record missing emitted %q (%v), want only %q", emittedKeys, err, recs[0].Key())
	}
	if again[0].Value != first[0].Value || again[0].Bound != first[0].Bound {
		t.Errorf("redone record %+v differs from %+v", again[0], first[0])
	}
	pts := compare.SweepMeans(again)
	if len(pts) != 4 {
		t.Errorf("%d mean points, want 2 policies × 2 loads", len(pts))
	}
	if _, err := Sweep(context.Background(), SweepOptions{Family: "tpch"}); err == nil {
		t.Error("unknown family accepted")
	}
}
