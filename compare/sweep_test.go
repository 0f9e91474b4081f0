package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// TestSweepRoundTripAndResume: records survive a write/read round trip
// exactly, a truncated last line (a killed sweep) is dropped, and the means
// skip unverified and undefined ratios.
func TestSweepRoundTripAndResume(t *testing.T) {
	recs := []SweepRecord{
		{"mrcp-mixed", 1.0 / 40, 0.8, 1, "fifo", lowerbound.MeanTurnaround, 120500, 100000, 1.205, "bound", true},
		{"mrcp-mixed", 1.0 / 40, 0.8, 2, "fifo", lowerbound.MeanTurnaround, 130000, 100000, 1.3, "bound", true},
		{"mrcp-mixed", 1.0 / 40, 0.8, 1, "edf", lowerbound.MeanTurnaround, 90000, 100000, 0.9, "bound", false},
		{"mrcp-mixed", 1.0 / 35, 0.9, 1, "fifo", lowerbound.LateJobs, 3, 0, math.NaN(), "bound", true},
	}
	var buf bytes.Buffer
	if err := WriteSweepHeader(&buf); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := WriteSweepRecord(&buf, r); err != nil {
			t.Fatal(err)
		}
	}
	full := buf.String()
	got, err := ReadSweep("sweep.csv", strings.NewReader(full+"mrcp-mixed,0.02"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("read %d records, want %d", len(got), len(recs))
	}
	for i := range recs {
		if got[i].Key() != recs[i].Key() || got[i].fields()[6] != recs[i].fields()[6] || got[i].Verified != recs[i].Verified {
			t.Errorf("record %d: %+v, want %+v", i, got[i], recs[i])
		}
	}
	means := SweepMeans(got)
	if len(means) != 1 || means[0].Policy != "fifo" || means[0].N != 2 || math.Abs(means[0].Mean-1.2525) > 1e-12 || means[0].Load != 0.8 {
		t.Errorf("means %+v", means)
	}
	var svg bytes.Buffer
	if err := WriteSweepSVG(&svg, "mrcp mixed", means); err != nil || !strings.Contains(svg.String(), "<svg") {
		t.Errorf("svg: %v", err)
	}
	if _, err := ReadSweep("bad.csv", strings.NewReader("a,b\n")); err == nil || !strings.Contains(err.Error(), "bad.csv:1") {
		t.Errorf("bad header: %v", err)
	}
}
