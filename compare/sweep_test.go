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
		{"mrcp-mixed", 1.0 / 40, 0.8, 1, "fifo", lowerbound.MeanTurnaround, "s", 120.5, 100, 1.205, "bound", true},
		{"mrcp-mixed", 1.0 / 40, 0.8, 2, "fifo", lowerbound.MeanTurnaround, "s", 130, 100, 1.3, "bound", true},
		{"mrcp-mixed", 1.0 / 40, 0.8, 1, "edf", lowerbound.MeanTurnaround, "s", 90, 100, 0.9, "bound", false},
		{"mrcp-mixed", 1.0 / 35, 0.9, 1, "fifo", lowerbound.LateJobs, "jobs", 3, 0, math.NaN(), "bound", true},
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
		if got[i].Key() != recs[i].Key() || strings.Join(got[i].fields(), ",") != strings.Join(recs[i].fields(), ",") {
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

// TestSweepUnits: the table's header names the unit of value and bound in a
// unit column (as compare's CSV report does); a table written before that
// column (times in ms) reads in seconds, and one from before lambda's unit
// (lambda_per_s) reads as it was; a unit that does not match the metric, or a
// row of another width, is refused with its line.
func TestSweepUnits(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSweepHeader(&buf); err != nil {
		t.Fatal(err)
	}
	if h := buf.String(); h != "workload,lambda_per_s,load,seed,policy,metric,unit,value,bound,ratio,bound_status,verified\n" {
		t.Errorf("header %q", h)
	}
	legacy := "workload,lambda,load,seed,policy,metric,value,bound,ratio,bound_status,verified\n" +
		"mrcp-small,0.016666666666666666,0.375,1,fifo,mean-turnaround,58500,51200,1.142578125,bound,true\n" +
		"mrcp-small,0.016666666666666666,0.375,1,fifo,late-jobs,2,1,2,bound,true\n"
	if !IsLegacySweep([]byte(legacy)) || IsLegacySweep(buf.Bytes()) {
		t.Errorf("IsLegacySweep: legacy %t, current %t", IsLegacySweep([]byte(legacy)), IsLegacySweep(buf.Bytes()))
	}
	got, err := ReadSweep("old.csv", strings.NewReader(legacy))
	if err != nil {
		t.Fatal(err)
	}
	want := []SweepRecord{
		{"mrcp-small", 1.0 / 60, 0.375, 1, "fifo", lowerbound.MeanTurnaround, "s", 58.5, 51.2, 1.142578125, "bound", true},
		{"mrcp-small", 1.0 / 60, 0.375, 1, "fifo", lowerbound.LateJobs, "jobs", 2, 1, 2, "bound", true},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("legacy record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// The same records under the header that had the unit but not lambda's:
	// read as they are, and the table is legacy (rewritten on resume).
	unitOnly := "workload,lambda,load,seed,policy,metric,unit,value,bound,ratio,bound_status,verified\n" +
		"mrcp-small,0.016666666666666666,0.375,1,fifo,mean-turnaround,s,58.5,51.2,1.142578125,bound,true\n" +
		"mrcp-small,0.016666666666666666,0.375,1,fifo,late-jobs,jobs,2,1,2,bound,true\n"
	if !IsLegacySweep([]byte(unitOnly)) {
		t.Error("IsLegacySweep: a table headed lambda (with unit) is not the current form")
	}
	got, err = ReadSweep("unit.csv", strings.NewReader(unitOnly))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("unit-only legacy table read as %+v, want %+v", got, want)
	}
	var rt bytes.Buffer
	if err := SweepRecords.WriteAll(&rt, got); err != nil {
		t.Fatal(err)
	}
	if w := strings.Replace(unitOnly, "workload,lambda,", "workload,lambda_per_s,", 1); rt.String() != w {
		t.Errorf("rewritten as\n%s\nwant\n%s", rt.String(), w)
	}
	for _, c := range []struct{ row, wantErr string }{
		{"mrcp-small,0.02,0.4,1,fifo,mean-turnaround,ms,58500,51200,1.14,bound,true", `bad.csv:2: unit "ms", want "s" for metric mean-turnaround`},
		{"mrcp-small,0.02,0.4,1,fifo,late-jobs,s,2,1,2,bound,true", `bad.csv:2: unit "s", want "jobs" for metric late-jobs`},
	} {
		_, err := ReadSweep("bad.csv", strings.NewReader(buf.String()+c.row+"\n"))
		if err == nil || err.Error() != c.wantErr {
			t.Errorf("%s: error %v, want %s", c.row, err, c.wantErr)
		}
	}
	if _, err := SweepRecords.Parse([]string{"mrcp-small", "0.02"}); err == nil || err.Error() != "2 fields, want 12" {
		t.Errorf("short row: %v", err)
	}
}

// TestSweepSummary: each line gives λ with its unit (jobs/s) and counts the
// instances in the singular for one.
func TestSweepSummary(t *testing.T) {
	var buf bytes.Buffer
	pts := []SweepPoint{{Policy: "fifo", Lambda: 1.0 / 40, Load: 0.8, Mean: 1.25, N: 1}, {Policy: "fifo", Lambda: 1.0 / 30, Load: 0.9, Mean: 1.5, N: 3}}
	if err := WriteSweepSummary(&buf, "mrcp-small", lowerbound.MeanTurnaround, pts, 4); err != nil {
		t.Fatal(err)
	}
	want := "mrcp-small, mean-turnaround: 4 records\n" +
		"  fifo           λ 0.025/s     load 0.800  mean ratio 1.250 over 1 instance\n" +
		"  fifo           λ 0.03333/s   load 0.900  mean ratio 1.500 over 3 instances\n"
	if buf.String() != want {
		t.Errorf("summary\n%s\nwant\n%s", buf.String(), want)
	}
}
