package simbridge

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/workload/sls"
	"github.com/mrbound/mrbound/workload/trace"
)

// TestRecordedRow: the record of Hadoop's inputsls.json is a verified row
// "recorded" at or above the proven optimum (the comparison would fail
// otherwise); on 2 nodes, where its third host has no node, the row stays
// with its value, unverified, saying why.
func TestRecordedRow(t *testing.T) {
	data, err := os.ReadFile("../../workload/sls/testdata/inputsls.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := sls.ReadJobs(data, "inputsls.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cs       trace.ClusterSpec
		verified bool
		why      string
	}{
		{trace.ClusterSpec{}, true, ""},
		{trace.ClusterSpec{Nodes: 2}, false, `host "/default-rack/node2" of the record is not a node of the cluster (2 nodes)`},
	} {
		w, rec, err := trace.Build(tr, c.cs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Compare(context.Background(), "inputsls", w, NameAll(fifo.New()), Options{Sim: IdealOptions(), Recorded: rec})
		if err != nil {
			t.Fatal(err)
		}
		rows := out.Report.Policies
		if len(rows) != 2 || rows[1].Policy != RecordedPolicy {
			t.Fatalf("rows %+v", rows)
		}
		r := rows[1]
		// mean turnaround of the record: jobs end at 86613 and 133985 ms,
		// submitted at 0 and 105204
		if r.Value != (86613+133985-105204)/2.0 || r.Verified != c.verified || !strings.Contains(r.CheckError, c.why) {
			t.Errorf("%+v: row %+v", c.cs, r)
		}
		if r.Verified && r.Value < out.Report.Bound {
			t.Errorf("the verified record %v is below the bound %v", r.Value, out.Report.Bound)
		}
	}
}
