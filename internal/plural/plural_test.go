package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 jobs"}, {1, "1 job"}, {2, "2 jobs"}, {-1, "-1 jobs"}, {11, "11 jobs"}} {
		if got := Count(c.n, "job"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	// A fractional count (a mean over seeds) is plural unless exactly 1.
	if Noun(1, "job") != "job" || Noun(0.5, "job") != "jobs" || Noun(1.5, "job") != "jobs" {
		t.Error("Noun: a count other than exactly 1 must be plural")
	}
}
