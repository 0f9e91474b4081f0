package progress

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// waitLines polls until buf (written under the reporter's lock, read here
// only after Finish) has at least n lines or a second has passed.
func finishAfterLines(t *testing.T, r *Reporter, buf *bytes.Buffer, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		got := strings.Count(buf.String(), "\n")
		r.mu.Unlock()
		if got >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.Finish()
	return strings.Split(strings.TrimSpace(buf.String()), "\n")
}

// A writer that is not a terminal gets plain lines, each naming the
// command, the count, the total and the elapsed time; no carriage return.
func TestLinesOnNonTerminal(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "compare", 12, Options{Interval: 10 * time.Millisecond, Unit: "instances"})
	if r == nil || r.bar != nil {
		t.Fatal("a bytes.Buffer is not a terminal: want plain lines, got a bar or nothing")
	}
	r.Set(3, 0)
	lines := finishAfterLines(t, r, &buf, 2)
	re := regexp.MustCompile(`^compare: 3/12 instances \(25%\), \d+ s elapsed$`)
	for _, l := range lines {
		if !re.MatchString(l) {
			t.Errorf("line %q does not match %s", l, re)
		}
	}
	if strings.Contains(buf.String(), "\r") {
		t.Error("plain lines contain a carriage return")
	}
	// Finish stops the lines.
	n := buf.Len()
	time.Sleep(30 * time.Millisecond)
	if buf.Len() != n {
		t.Error("lines written after Finish")
	}
}

func TestUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "solve", 0, Options{Mode: Lines, Interval: 10 * time.Millisecond})
	lines := finishAfterLines(t, r, &buf, 1)
	if !regexp.MustCompile(`^solve: running, \d+ s elapsed$`).MatchString(lines[0]) {
		t.Errorf("unknown total: got %q", lines[0])
	}
}

// --quiet gets nothing, and a nil Reporter's methods are no-ops.
func TestQuiet(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "compare", 5, Options{Mode: Quiet, Interval: time.Millisecond})
	if r != nil {
		t.Fatal("Quiet returned a reporter")
	}
	r.Set(1, 5)
	r.Add(1)
	time.Sleep(20 * time.Millisecond)
	r.Finish()
	if buf.Len() != 0 {
		t.Errorf("quiet wrote %q", buf.String())
	}
}

func TestAddAndNewTotal(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "sweep", 4, Options{Mode: Lines, Interval: 10 * time.Millisecond, Unit: "items"})
	r.Add(1)
	r.Add(2)
	r.Set(3, 8)
	lines := finishAfterLines(t, r, &buf, 1)
	if want := "sweep: 3/8 items (38%)"; !strings.HasPrefix(lines[len(lines)-1], want) {
		t.Errorf("got %q, want prefix %q", lines[len(lines)-1], want)
	}
	r.Finish() // twice is fine
}
