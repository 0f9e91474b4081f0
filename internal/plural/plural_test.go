package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{0, "job", "0 jobs"}, {1, "job", "1 job"}, {2, "job", "2 jobs"}, {-1, "job", "-1 jobs"}, {11, "job", "11 jobs"},
		{1, "item", "1 item"}, {3, "item", "3 items"},
		// Sibilant endings take "es"; the last word of a phrase carries the ending.
		{1, "class", "1 class"}, {2, "class", "2 classes"}, {3, "box", "3 boxes"}, {2, "batch", "2 batches"},
		{1, "entry", "1 entry"}, {2, "entry", "2 entries"}, {2, "day", "2 days"},
		{1, "task event", "1 task event"}, {5, "task event", "5 task events"}, {0, "fungible slot", "0 fungible slots"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	// A fractional count (a mean over seeds) is plural unless exactly 1.
	if Noun(1, "job") != "job" || Noun(0.5, "job") != "jobs" || Noun(1.5, "job") != "jobs" {
		t.Error("Noun: a count other than exactly 1 must be plural")
	}
}
