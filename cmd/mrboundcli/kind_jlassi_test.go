package mrboundcli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseScenarios(t *testing.T) {
	got, err := parseScenarios("1-3,5,7")
	if err != nil || !reflect.DeepEqual(got, []int{1, 2, 3, 5, 7}) {
		t.Errorf("parseScenarios(1-3,5,7) = %v, %v", got, err)
	}
	for _, bad := range []string{"0", "8", "3-1", "a", "1-", ""} {
		if _, err := parseScenarios(bad); err == nil {
			t.Errorf("parseScenarios(%q) accepted", bad)
		}
	}
}

// TestTableJlassiResume runs `mrbound table jlassi --out` over a records file
// that already holds every instance: nothing is solved, the table is rendered
// from the records with the published rows, and the file, written before
// the objective columns, is rewritten with them (objective realtime, value
// = RealTime) and realtime's unit in its column's name, and nothing else
// changed.
func TestTableJlassiResume(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.md")
	recs := "scenario,seed,solver,status,T,nodes,seconds,realtime,bound,lp_bound,gap,verified\n" +
		"1,1,highs,optimal,3,1,1.5,256,256,226,0,true\n" +
		"1,2,highs,optimal,3,80,7.2,237,237,207,0,true\n"
	if err := os.WriteFile(out+".instances.csv", []byte(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"mrbound", "table", "jlassi", "--scenarios", "1", "--instances", "2", "--solver", "highs", "--out", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Sc1 | highs | 2 | 0 | 2 |", "85.33", "paper (CPLEX 12.2)", "85.66", "| RealTime (s) |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	upgraded := "scenario,seed,solver,status,T,nodes,seconds,realtime_s,bound,lp_bound,gap,verified,objective,value\n" +
		"1,1,highs,optimal,3,1,1.5,256,256,226,0,true,realtime,256\n" +
		"1,2,highs,optimal,3,80,7.2,237,237,207,0,true,realtime,237\n"
	if got, _ := os.ReadFile(out + ".instances.csv"); string(got) != upgraded {
		t.Errorf("records file:\n%s\nwant:\n%s", got, upgraded)
	}
	code = run([]string{"mrbound", "table", "jlassi", "--scenarios", "9"}, &stdout, &stderr)
	if code != exitBadInput {
		t.Errorf("--scenarios 9: exit %d, want %d", code, exitBadInput)
	}
	code = run([]string{"mrbound", "table", "jlassi", "--objective", "makespan"}, &stdout, &stderr)
	if code != exitBadInput {
		t.Errorf("--objective makespan: exit %d, want %d", code, exitBadInput)
	}
}

// TestTableJlassiObjective resumes an --objective tst table: its records
// (tst) are used, the realtime ones beside them are not, the row is
// labelled with the objective, and the records keep their values.
func TestTableJlassiObjective(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.md")
	recs := "scenario,seed,solver,status,T,nodes,seconds,realtime,bound,lp_bound,gap,verified,objective,value\n" +
		"1,1,highs,optimal,3,1,1.5,256,256,226,0,true,realtime,256\n" +
		"1,1,highs,optimal,3,1,0.5,300,13,13,0,true,tst,13\n"
	if err := os.WriteFile(out+".instances.csv", []byte(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"mrbound", "table", "jlassi", "--scenarios", "1", "--instances", "1", "--solver", "highs", "--objective", "tst", "--out", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	md, _ := os.ReadFile(out)
	for _, want := range []string{"| Sc1 | highs, tst | 1 | 0 | 1 |", "| 13.0 | 13.0 | 300.0 | 0.0% |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	// The file, written before realtime's column named its unit, is
	// rewritten with the name, and nothing else changed.
	want := strings.Replace(recs, ",realtime,bound,", ",realtime_s,bound,", 1)
	if got, _ := os.ReadFile(out + ".instances.csv"); string(got) != want {
		t.Errorf("records file:\n%s\nwant:\n%s", got, want)
	}
}
