package mrboundcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCompareSweepResumesAfterKill: a table cut in the middle of a line (a
// killed sweep) is resumed: the partial line is dropped, finished instances
// are not redone, and the table ends as a full run's.
func TestCompareSweepResumesAfterKill(t *testing.T) {
	table, args, full := fullSweepTable(t)
	var out, errb bytes.Buffer
	lines := strings.SplitAfter(string(full), "\n")
	for _, cut := range []string{
		// the header, the first instance (two rows) and half of the third row
		strings.Join(lines[:3], "") + lines[3][:len(lines[3])/2],
		// the second instance's last row cut inside "true": its fields all
		// parse, but it is not finished and must be redone
		strings.Join(lines[:4], "") + strings.TrimSuffix(lines[4], "e\n"),
	} {
		if err := os.WriteFile(table, []byte(cut), 0o644); err != nil {
			t.Fatal(err)
		}
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("resume exit %d: %s", code, errb.String())
		}
		again, _ := os.ReadFile(table)
		if string(again) != string(full) {
			t.Errorf("resumed from\n%s\nthe table\n%s\ndiffers from the full run\n%s", cut, again, full)
		}
	}
}

// TestCompareSweepResumesLegacyTable: a table written before the unit
// column (value and bound in ms), or before lambda's unit (lambda_per_s), is
// resumed: its rows are kept, in seconds under the current header, and the
// rest is appended.
func TestCompareSweepResumesLegacyTable(t *testing.T) {
	table, args, full := fullSweepTable(t)
	var out, errb bytes.Buffer
	lines := strings.Split(strings.TrimSuffix(string(full), "\n"), "\n")
	if lines[0] != "workload,lambda_per_s,load,seed,policy,metric,unit,value,bound,ratio,bound_status,verified" {
		t.Fatalf("header %q", lines[0])
	}
	// The old form of the first instance's rows: no unit, ms. The first
	// value is off by 1 ms, so that the resumed table shows it was read
	// (in seconds), not recomputed.
	legacy := []string{"workload,lambda,load,seed,policy,metric,value,bound,ratio,bound_status,verified"}
	want := append([]string(nil), lines...)
	for i := 1; i <= 2; i++ {
		f := strings.Split(lines[i], ",")
		if f[6] != "s" {
			t.Fatalf("row %d: unit %q", i, f[6])
		}
		value, err1 := strconv.ParseFloat(f[7], 64)
		bound, err2 := strconv.ParseFloat(f[8], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %d: %q", i, lines[i])
		}
		value *= 1000
		if i == 1 {
			value++
			f[7] = strconv.FormatFloat(value/1000, 'g', -1, 64)
			want[i] = strings.Join(f, ",")
		}
		old := append(append(f[:6:6], strconv.FormatFloat(value, 'g', -1, 64), strconv.FormatFloat(bound*1000, 'g', -1, 64)), f[9:]...)
		legacy = append(legacy, strings.Join(old, ","))
	}
	if err := os.WriteFile(table, []byte(strings.Join(legacy, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("resume exit %d: %s", code, errb.String())
	}
	again, _ := os.ReadFile(table)
	if string(again) != strings.Join(want, "\n")+"\n" {
		t.Errorf("resumed from\n%s\nthe table\n%s\nwant\n%s", strings.Join(legacy, "\n"), again, strings.Join(want, "\n"))
	}
	// A table from before lambda had its unit in the header (lambda, with
	// the unit column): its first instance's rows, the altered value kept, are
	// read as they are and the table is rewritten under lambda_per_s.
	unitOnly := []string{strings.Replace(want[0], "lambda_per_s", "lambda", 1), want[1], want[2]}
	if err := os.WriteFile(table, []byte(strings.Join(unitOnly, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("resume exit %d: %s", code, errb.String())
	}
	again, _ = os.ReadFile(table)
	if string(again) != strings.Join(want, "\n")+"\n" {
		t.Errorf("resumed from\n%s\nthe table\n%s\nwant\n%s", strings.Join(unitOnly, "\n"), again, strings.Join(want, "\n"))
	}
}

// fullSweepTable runs a small compare sweep to completion in a temporary
// directory and returns its table's path, the command (to resume it) and
// the table's content.
func fullSweepTable(t *testing.T) (table string, args []string, full []byte) {
	t.Helper()
	table = filepath.Join(t.TempDir(), "t.csv")
	args = []string{"mrbound", "compare", "--family", "mrcp-small", "--jobs", "4", "--lambdas", "1/60,1/30", "--seeds", "1",
		"--policies", "fifo,edf", "--table", table}
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	full, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	return table, args, full
}
