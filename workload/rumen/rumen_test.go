package rumen

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/sls"
	"github.com/mrbound/mrbound/workload/trace"
)

const sample = "../../../shared/traces/sls/2jobs2min-rumen-jh.json"

// TestSample: Hadoop's 2jobs2min-rumen-jh.json holds 2 TeraGen jobs of 96
// maps and no reduce, each map with one successful attempt, on 4 hosts
// (counted with python3's json.JSONDecoder.raw_decode over the stream; the
// second object starts at line 5114, column 3). The record, on the 4 hosts
// with the 8 map slots it used at most on one, passes the checker.
func TestSample(t *testing.T) {
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Skipf("the shared samples are absent: %v", err)
	}
	tr, err := Read(data, "rumen.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 2 || len(tr.Hosts) != 4 || len(tr.Recorded) != 192 || len(tr.Notes) != 0 {
		t.Fatalf("%d jobs, %d hosts, %d containers, notes %v", len(tr.Jobs), len(tr.Hosts), len(tr.Recorded), tr.Notes)
	}
	for i, j := range tr.Jobs {
		if len(j.MapsMs) != 96 || len(j.ReducesMs) != 0 || j.User != "jenkins" || j.Pool != "sls_queue_1" {
			t.Errorf("job %d: %d maps, %d reduces, user %q, pool %q", i, len(j.MapsMs), len(j.ReducesMs), j.User, j.Pool)
		}
	}
	j0, j1 := tr.Jobs[0], tr.Jobs[1]
	if j0.ID != "job_1369942127770_1205" || j0.SubmitMs != 0 || j0.MapsMs[0] != 17043 || j1.SubmitMs != 105204 || j1.Where != "rumen.json:5114:3" {
		t.Errorf("job 0 %s at %d, first map %d ms; job 1 at %d ms from %s", j0.ID, j0.SubmitMs, j0.MapsMs[0], j1.SubmitMs, j1.Where)
	}
	w, rec, err := trace.Build(tr, trace.ClusterSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Cluster.Nodes) != 4 || w.Cluster.Nodes[0].MapSlots != 8 {
		t.Errorf("cluster %+v", w.Cluster.Nodes)
	}
	if err := check.Verify(w, rec.Result); err != nil {
		t.Fatal(err)
	}
}

// TestAttempts: testdata/attempts.json's job A has a map that failed once
// then succeeded (the failure stays in the record as a killed segment), a
// map with a speculative copy (left out), a map that never succeeded
// (dropped), and a reduce whose attempt lost its times (the task's are
// used; its work starts when the last map ends); job C failed (dropped); job
// B is A's dependant (chained). The record passes the checker.
func TestAttempts(t *testing.T) {
	data, err := os.ReadFile("testdata/attempts.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Read(data, "a.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []trace.Job{
		{ID: "job_A", SubmitMs: 0, User: "ann", Pool: "etl", DeadlineMs: -1, MapsMs: []int64{7000, 8000}, ReducesMs: []int64{4000}, Where: "a.json:1:1"},
		{ID: "job_B", SubmitMs: 16000, User: "ann", Pool: "etl", DeadlineMs: -1, Parent: "job_A", MapsMs: []int64{3000}, Where: "a.json:25:1"},
	}
	if !reflect.DeepEqual(tr.Jobs, want) {
		t.Errorf("jobs %+v\nwant %+v", tr.Jobs, want)
	}
	wantNotes := []string{
		"dropped 1 job (outcome not SUCCESS, or no successful task) and 1 task without a successful attempt",
		"1 attempt overlapped their task's successful one (speculative copies): left out of the record",
	}
	if !reflect.DeepEqual(tr.Notes, wantNotes) {
		t.Errorf("notes %q", tr.Notes)
	}
	w, rec, err := trace.Build(tr, trace.ClusterSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result == nil {
		t.Fatal(rec.Problem)
	}
	if err := check.Verify(w, rec.Result); err != nil {
		t.Fatal(err)
	}
	if m := rec.Result.Metrics; m.Killed != 1 || m.WorkLost != 2 || rec.Completion[0] != 15000 {
		t.Errorf("killed %d, work lost %v s, job A done at %d ms; want 1, 2, 15000", m.Killed, m.WorkLost, rec.Completion[0])
	}
	if w.Jobs[1].Parent != 0 {
		t.Errorf("job B's parent is %d", w.Jobs[1].Parent)
	}
}

func TestBad(t *testing.T) {
	two := `{"jobID": "p1", "submitTime": 0, "directDependantJobs": ["c"], "mapTasks": []}
{"jobID": "p2", "submitTime": 1, "directDependantJobs": ["c"], "mapTasks": []}
{"jobID": "c", "submitTime": 2, "mapTasks": [{"attempts": [{"hostName": "h", "startTime": 3, "finishTime": 4, "result": "SUCCESS"}]}]}`
	for _, c := range []struct{ in, want string }{
		{`{"jobID": "j", "mapTasks": []}`, `t.json:1:1: submitTime: missing or negative`},
		{`{"jobID": "j", "submitTime": "x"}`, `t.json:1:30: submitTime: string where a whole number was expected`},
		{`{"jobID": "j", "submitTime": 1, "mapTasks": [{}, {"attempts": [{"result": "SUCCESS", "startTime": true}]}]}`,
			`t.json:1:99: mapTasks[1].attempts[0].startTime: bool where a whole number was expected`},
		{`{"jobID": "j", "submitTime": 0, "mapTasks": [{"attempts": [{"hostName": "h", "startTime": 5, "finishTime": 4, "result": "SUCCESS"}]}]}`,
			`t.json:1:1: mapTasks[0].attempts[0]: finishTime 4 before startTime 5, or out of range`},
		{`{"jobID": "j", "submitTime": 0, "mapTasks": []}`, `t.json: no job with a successful task`},
	} {
		_, err := Read([]byte(c.in), "t.json")
		if err == nil || err.Error() != c.want || !errors.Is(err, badinput.Err) {
			t.Errorf("%s:\n error %v\n want  %s", c.in, err, c.want)
		}
	}
	// p1 and p2 have no successful task and are dropped; with tasks, c's
	// two parents are refused
	withTasks := strings.ReplaceAll(two, `"mapTasks": []`, `"mapTasks": [{"attempts": [{"hostName": "h", "startTime": 1, "finishTime": 2, "result": "SUCCESS"}]}]`)
	_, err := Read([]byte(withTasks), "t.json")
	if want := "t.json:3:1: jobID: c depends on p1 and p2: the model chains a job to one parent"; err == nil || err.Error() != want {
		t.Errorf("two parents: %v, want %s", err, want)
	}
}

// FuzzRead: any input is read or refused with one bad-input line; what is
// read builds a workload, and its record, when placeable, can be checked.
func FuzzRead(f *testing.F) {
	data, err := os.ReadFile("testdata/attempts.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	if s, err := os.ReadFile(sample); err == nil {
		f.Add(s[:min(len(s), 12000)]) // the sample's first tasks (cut: a syntax error at the end)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		tr, err := Read(in, "f")
		if err != nil {
			if !errors.Is(err, badinput.Err) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not a one-line bad-input error", err)
			}
			return
		}
		w, rec, err := trace.Build(tr, trace.ClusterSpec{})
		if err != nil {
			if !errors.Is(err, badinput.Err) {
				t.Fatal(err)
			}
			return
		}
		if rec != nil && rec.Result != nil {
			_ = check.Verify(w, rec.Result)
		}
	})
}

// TestToSLS: a Rumen trace written as SLS JSON (its successful containers
// where and when they ran, the chain in mrbound.parent) reads back as the
// same jobs.
func TestToSLS(t *testing.T) {
	data, err := os.ReadFile("testdata/attempts.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Read(data, "a.json")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := sls.WriteJobs(&b, tr); err != nil {
		t.Fatal(err)
	}
	back, err := sls.ReadJobs([]byte(b.String()), "a.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := range back.Jobs {
		back.Jobs[i].Where = tr.Jobs[i].Where
	}
	if !reflect.DeepEqual(back.Jobs, tr.Jobs) {
		t.Errorf("read back %+v\nwant %+v", back.Jobs, tr.Jobs)
	}
}
