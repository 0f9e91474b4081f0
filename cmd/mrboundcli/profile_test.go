package mrboundcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfileFlag: the hidden --cpuprofile=FILE writes a gzipped pprof
// profile of the command, leaves the command's output as it is without
// the flag, and stays out of the help.
func TestCPUProfileFlag(t *testing.T) {
	trace := "../../workload/swim/testdata/fb2009-first20.tsv"
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	var plain, profiled, errb bytes.Buffer
	if code := run([]string{"mrbound", "simulate", trace, "--json"}, &plain, &errb); code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, errb.String())
	}
	if code := run([]string{"mrbound", "--cpuprofile=" + prof, "simulate", trace, "--json"}, &profiled, &errb); code != 0 {
		t.Fatalf("simulate --cpuprofile: exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile (%d bytes) is not gzipped pprof data", len(b))
	}
	strip := func(s string) string { // the timings differ from run to run
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "seconds") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(plain.String()) != strip(profiled.String()) {
		t.Errorf("the report changed with --cpuprofile:\n%s\nwithout:\n%s", profiled.String(), plain.String())
	}
	// a profile path that names the input is refused before anything runs
	in := filepath.Join(t.TempDir(), "day.tsv")
	orig, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"mrbound", "--cpuprofile=" + in, "simulate", in, "--json"}, &bytes.Buffer{}, &errb); code != 1 || !strings.Contains(errb.String(), "--cpuprofile") {
		t.Errorf("--cpuprofile naming the input: exit %d, %q; want exit 1 naming the flag", code, errb.String())
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(after, orig) {
		t.Error("--cpuprofile overwrote the input")
	}
	var help bytes.Buffer
	run([]string{"mrbound", "--help"}, &help, &errb)
	if strings.Contains(help.String(), "cpuprofile") {
		t.Error("--cpuprofile shows in the help")
	}
}
