package mrboundcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareSweepResumesAfterKill: a table cut in the middle of a line (a
// killed sweep) is resumed: the partial line is dropped, finished instances
// are not redone, and the table ends as a full run's.
func TestCompareSweepResumesAfterKill(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "t.csv")
	args := []string{"mrbound", "compare", "--family", "mrcp-small", "--jobs", "4", "--lambdas", "1/60,1/30", "--seeds", "1",
		"--policies", "fifo,edf", "--table", table}
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	full, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(full), "\n")
	// Keep the header, the first instance (two rows) and half of the third row.
	cut := strings.Join(lines[:3], "") + lines[3][:len(lines[3])/2]
	if err := os.WriteFile(table, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("resume exit %d: %s", code, errb.String())
	}
	again, _ := os.ReadFile(table)
	if string(again) != string(full) {
		t.Errorf("resumed table\n%s\ndiffers from the full run\n%s", again, full)
	}
}
