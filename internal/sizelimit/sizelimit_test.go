package sizelimit

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1", 1}, {"1e9", 1e9}, {"64GiB", 64 << 30}, {"64gib", 64 << 30}, {"500MB", 500e6},
		{"1.5G", 3 << 29}, {"2 KiB", 2048}, {"7B", 7}, {"1TB", 1e12},
	} {
		got, err := ParseBytes(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GiB", "abc", "-1GiB", "0", "0.5", "NaN", "Inf", "1e30", "9EiB", "64 GiBs"} {
		if got, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", bad, got)
		}
	}
}

func TestCheckRefusesOverBudget(t *testing.T) {
	defer SetBudget(1 << 30)()
	if err := Check("--nodes", 1000, SimNode, "nodes"); err != nil {
		t.Fatalf("1000 nodes under 1 GiB: %v", err)
	}
	err := Check("--nodes", 1e8, SimNode, "nodes")
	if err == nil {
		t.Fatal("1e8 nodes under 1 GiB: accepted")
	}
	want := "--nodes: 100000000 nodes need about 23.8 GiB, more than the memory budget of 1 GiB (raise it with --max-memory or MRBOUND_MAX_MEMORY)"
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	if !errors.Is(err, badinput.Err) || !errors.Is(err, ErrTooLarge) {
		t.Errorf("%v does not wrap badinput.Err and ErrTooLarge", err)
	}
	// Counts that overflow any integer, NaN and negative counts.
	// A negative count comes from an overflowed estimate: refused too.
	for _, n := range []float64{1e300, math.Inf(1), nan(), -1} {
		if err := Check("x", n, SimTask, "tasks"); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("count %v: %v, want a one-line refusal", n, err)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }

func TestBudgetSources(t *testing.T) {
	t.Setenv(EnvVar, "")
	if Budget() != DefaultBudget() || DefaultBudget() <= 0 {
		t.Fatalf("Budget %d, DefaultBudget %d", Budget(), DefaultBudget())
	}
	t.Setenv(EnvVar, "3GiB")
	if Budget() != 3<<30 {
		t.Errorf("with %s=3GiB: %d", EnvVar, Budget())
	}
	restore := SetBudget(5 << 30)
	if Budget() != 5<<30 {
		t.Errorf("SetBudget(5 GiB) over the environment: %d", Budget())
	}
	restore()
	if Budget() != 3<<30 {
		t.Errorf("after restore: %d, want the environment's 3 GiB", Budget())
	}
	if err := CheckEnv(); err != nil {
		t.Errorf("CheckEnv with 3GiB: %v", err)
	}
	t.Setenv(EnvVar, "lots")
	if err := CheckEnv(); err == nil || !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), EnvVar+": ") {
		t.Errorf("CheckEnv with lots: %v, want a bad-input error naming %s", err, EnvVar)
	}
	if Budget() != DefaultBudget() {
		t.Errorf("a malformed %s changed the budget to %d", EnvVar, Budget())
	}
}

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
	}{{900, "900 B"}, {1536, "1.5 KiB"}, {640 << 20, "640 MiB"}, {8 << 30, "8 GiB"}, {1e300, "8.67e+281 EiB"}} {
		if got := FormatBytes(c.b); got != c.want {
			t.Errorf("FormatBytes(%v) = %q, want %q", c.b, got, c.want)
		}
	}
}
