package mrboundcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// deviceCase writes a schedule to device, or is empty when there is none.
func deviceCase(device string) []string {
	if device == "" {
		return nil
	}
	return []string{"solve", "m.json", "--svg", device}
}

// TestOutputsNeverDestroyInputs runs every writing command with an output
// that is its input (directly, through a symbolic link or a relative path),
// a sweep's manifest, a directory or a device node: each exits 1 with one
// line on standard error naming the flag, and the inputs are unchanged.
func TestOutputsNeverDestroyInputs(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "mrbound", "testdata", "mrcp-tiny-text", "input.json"))
	mps, _ := filepath.Abs(filepath.Join("..", "mrbound", "testdata", "models", "tiny.mps"))
	dir := t.TempDir()
	t.Chdir(dir)
	copyFile := func(from, to string) []byte {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(to, b, 0o644)
		return b
	}
	scenario := copyFile(src, "m.json")
	model := copyFile(mps, "a.mps")
	os.Symlink("m.json", "l.json")
	os.Mkdir("d", 0o755)
	// A private character device (as /dev/null, 1:3), never the real one:
	// a regression would replace it with a regular file.
	device := "null"
	if err := syscall.Mknod(device, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("no device node (%v): that case is left out", err)
		device = ""
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"mrbound", "compare", "--family", "mrcp-small", "--jobs", "2", "--lambdas", "1/60", "--seeds", "1", "--policies", "fifo", "--sweep", "sw"}, &stdout, &stderr); code != 0 {
		t.Fatalf("planning a sweep: %d %s", code, stderr.String())
	}
	manifest, _ := os.ReadFile("sw/sweep.json")
	for _, args := range [][]string{
		{"solve", "m.json", "--schedule", "m.json"},
		{"solve", "m.json", "--svg", "./m.json"},
		{"solve", "m.json", "--svg", "l.json"},
		{"solve", "l.json", "--schedule", filepath.Join(dir, "m.json")},
		{"solve", "m.json", "--svg", "d"},
		{"solve", "m.json", "--svg", "x.svg", "--schedule", "x.svg"},
		{"simulate", "m.json", "--trace", "m.json"},
		{"simulate", "m.json", "--svg", "d/../m.json"},
		{"export", "a.mps", "-o", "a.mps"},
		{"export", "a.mps", "--output", "d"},
		{"sweep", "collect", "sw", "--out", "sw/sweep.json"},
		{"sweep", "collect", "sw/sweep.json", "--out", "sw/sweep.json"},
		{"sweep", "collect", "sw", "--out", "sw/results/t.csv"},
		{"compare", "--family", "mrcp-small", "--jobs", "2", "--lambdas", "1/60", "--seeds", "1", "--policies", "fifo", "--table", "d"},
		deviceCase(device),
	} {
		if len(args) == 0 {
			continue
		}
		stdout.Reset()
		stderr.Reset()
		code := run(append([]string{"mrbound"}, args...), &stdout, &stderr)
		msg := stderr.String()
		if code != exitBadInput || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "--") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and one line naming the flag", args, code, msg)
		}
		if b, _ := os.ReadFile("m.json"); !bytes.Equal(b, scenario) {
			t.Fatalf("%v destroyed m.json", args)
		}
		if b, _ := os.ReadFile("a.mps"); !bytes.Equal(b, model) {
			t.Fatalf("%v destroyed a.mps", args)
		}
		if b, _ := os.ReadFile("sw/sweep.json"); !bytes.Equal(b, manifest) {
			t.Fatalf("%v destroyed the sweep manifest", args)
		}
		if st, err := os.Lstat("l.json"); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%v replaced the link l.json", args)
		}
		if st, err := os.Stat(device); device != "" && (err != nil || st.Mode()&os.ModeCharDevice == 0) {
			t.Fatalf("%v replaced the device node", args)
		}
	}
}

// TestCompareTableFailureLeavesNoTable: a compare sweep that fails before
// its first row leaves no table (not a header alone).
func TestCompareTableFailureLeavesNoTable(t *testing.T) {
	table := filepath.Join(t.TempDir(), "t.csv")
	for _, bad := range [][]string{{"--jobs", "0"}, {"--seeds", "0"}, {"--family", "nosuch"}} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"mrbound", "compare", "--family", "mrcp-small", "--jobs", "2", "--lambdas", "1/60", "--seeds", "1", "--policies", "fifo", "--table", table}, bad...)
		if code := run(args, &stdout, &stderr); code != exitBadInput {
			t.Errorf("%v: exit %d (%s)", bad, code, stderr.String())
		}
		if _, err := os.Stat(table); err == nil {
			t.Errorf("%v left %s", bad, table)
		}
	}
}
