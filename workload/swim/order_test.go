package swim

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// TestReadRefusesRepeatsAndDisorder: a repeated job id and a submit time
// before the previous line's are refused at file:line naming the earlier
// line; equal submit times are fine.
func TestReadRefusesRepeatsAndDisorder(t *testing.T) {
	for text, want := range map[string]string{
		"a\t0\t0\t1\t1\t1\nb\t1\t1\t1\t1\t1\na\t2\t1\t1\t1\t1\n":   `t.tsv:3: job id "a" repeats line 1`,
		"a\t0\t0\t1\t1\t1\n\nb\t5\t5\t1\t1\t1\nc\t4\t0\t1\t1\t1\n": "t.tsv:4: field 2 (submit time): 4 s is before line 3's 5 s",
	} {
		_, err := Read(strings.NewReader(text), "t.tsv")
		if !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
	recs, err := Read(strings.NewReader("a\t3\t3\t1\t1\t1\nb\t3\t0\t1\t1\t1\n"), "t.tsv")
	if err != nil || len(recs) != 2 {
		t.Errorf("equal submit times: %v, %d records", err, len(recs))
	}
}
