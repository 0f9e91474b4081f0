package mrboundcli

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of cmd/mrbound/testdata")

// caseDir is where TestCLI runs: the cases are in its testdata, beside the
// command (other packages' tests read their inputs there too).
const caseDir = "../mrbound"

// TestCLI runs every case under testdata/<case>/:
//
//	args            one argument per line; $CASE is the case folder, $OUT a fresh
//	                temporary folder, $TESTSETS ../shared/testsets (the case is
//	                skipped when that folder is absent)
//	exit            the expected exit code (0 when the file is absent)
//	env             optional: NAME=VALUE lines set for the run ($CASE replaced)
//	stdout.golden   the expected standard output
//	stderr.golden   the expected standard error
//	files           optional: one "name" per line of files the run must leave in
//	                $OUT, each compared with out.<name>.golden
//
// JSON output is compared by content, ignoring fields that vary between runs
// or with solver tuning (volatileFields); in text output the time, iterations
// and nodes lines and the size of a violation are masked.
// go test -run TestCLI -update rewrites the golden files.
func TestCLI(t *testing.T) {
	// the cases' arguments and goldens are relative to the command's folder
	t.Chdir(caseDir)
	cases, err := filepath.Glob("testdata/*/args")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no CLI cases under testdata")
	}
	testsets, _ := filepath.Abs("../../../shared/testsets")
	for _, argsFile := range cases {
		dir := filepath.Dir(argsFile)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(argsFile)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), "$TESTSETS") {
				if _, err := os.Stat(testsets); err != nil {
					t.Skip("../shared/testsets is absent")
				}
			}
			out := t.TempDir()
			args := []string{"mrbound"}
			for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				line = strings.NewReplacer("$CASE", dir, "$OUT", out, "$TESTSETS", testsets).Replace(strings.TrimSpace(line))
				if line != "" {
					args = append(args, line)
				}
			}
			if b, err := os.ReadFile(filepath.Join(dir, "env")); err == nil {
				for _, kv := range strings.Fields(string(b)) {
					name, value, _ := strings.Cut(kv, "=")
					t.Setenv(name, strings.ReplaceAll(value, "$CASE", dir))
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			want := 0
			if b, err := os.ReadFile(filepath.Join(dir, "exit")); err == nil {
				want, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			if code != want {
				t.Errorf("exit code %d, want %d; stderr: %s", code, want, stderr.String())
			}
			mask := strings.NewReplacer(out, "$OUT", dir, "$CASE", testsets, "$TESTSETS")
			compareGolden(t, filepath.Join(dir, "stdout.golden"), mask.Replace(stdout.String()))
			compareGolden(t, filepath.Join(dir, "stderr.golden"), mask.Replace(stderr.String()))
			if b, err := os.ReadFile(filepath.Join(dir, "files")); err == nil {
				for _, name := range strings.Fields(string(b)) {
					got, err := os.ReadFile(filepath.Join(out, name))
					if err != nil {
						t.Errorf("output file %s: %v", name, err)
						continue
					}
					compareGolden(t, filepath.Join(dir, "out."+name+".golden"), mask.Replace(string(got)))
				}
				// Nothing half-written: no temporary files are left behind.
				left, _ := filepath.Glob(filepath.Join(out, ".*.tmp*"))
				if len(left) > 0 {
					t.Errorf("temporary files left behind: %v", left)
				}
			}
		})
	}
}

// volatileLine matches report lines whose values vary with the machine or
// with solver tuning; they are masked before comparing text output.
var volatileLine = regexp.MustCompile(`(?m)^(time|iterations|nodes)( +).*$|max violation [^)]*`)

func maskVolatile(s string) string { return volatileLine.ReplaceAllString(s, "$1$2X") }

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if got == "" {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wantB, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if got != "" {
			t.Errorf("unexpected output (no %s):\n%s", filepath.Base(path), got)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	want := string(wantB)
	var gj, wj any
	if json.Unmarshal([]byte(got), &gj) == nil && json.Unmarshal(wantB, &wj) == nil {
		if !sameJSON(stripVolatile(gj), stripVolatile(wj)) {
			t.Errorf("%s: JSON differs\ngot:\n%s\nwant:\n%s", filepath.Base(path), got, want)
		}
		return
	}
	if maskVolatile(got) != maskVolatile(want) {
		t.Errorf("%s differs\ngot:\n%s\nwant:\n%s", filepath.Base(path), got, want)
	}
}

// volatileFields vary from run to run, or with solver tuning, and are not
// compared.
var volatileFields = map[string]bool{"seconds": true, "wall_seconds": true, "overhead_seconds": true, "overhead_per_job_seconds": true, "solver_version": true, "iterations": true, "nodes": true, "max_violation": true,
	"o_mean_seconds": true, "o_median_seconds": true, "o_median_cpu_seconds": true, "o_over_t": true, "max_solve_seconds": true}

// sameJSON compares decoded JSON values, numbers to 1e-9 relative.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func stripVolatile(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			if volatileFields[k] {
				delete(x, k)
			} else {
				x[k] = stripVolatile(x[k])
			}
		}
	case []any:
		for i := range x {
			x[i] = stripVolatile(x[i])
		}
	}
	return v
}

func TestInterspersedFlags(t *testing.T) {
	app := newApp(nil, nil)
	got := interspersed(app, []string{"mrbound", "solve", "x.mps", "--solver", "highs", "--json", "--time-limit=3s"})
	want := []string{"mrbound", "solve", "--solver", "highs", "--json", "--time-limit=3s", "x.mps"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	got = interspersed(app, []string{"mrbound", "export", "m.lp", "-o", "out.mps"})
	want = []string{"mrbound", "export", "-o", "out.mps", "m.lp"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
