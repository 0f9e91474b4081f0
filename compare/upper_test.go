package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// TestBracket: the upper value is the least verified value of the policies
// and the offline schedules; an offline schedule that failed the checker is
// listed and never used, even below the bound; every output shows the
// bracket fields.
func TestBracket(t *testing.T) {
	p := tinyProblem()
	m := lowerbound.TotalTurnaround
	// A weaker bound than the real one (35, tight here) leaves a bracket.
	off := Offline{Bound: 30, By: "hand-made"}
	off.Schedules = []Schedule{
		{By: "offline-good", Value: 35, Verified: true},
		{By: "offline-bad", Value: 1, CheckError: "capacity exceeded"},
	}
	runs := []Run{{Policy: "fifo", Completion: []int64{20, 25}, Verified: true}} // 20 + 20 = 40
	r, err := Build(p, m, off, runs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Upper == nil || *r.Upper != 35 || r.UpperBy != "offline-good" || !r.UpperVerified {
		t.Errorf("upper %v by %q (verified %v), want 35 by offline-good", r.Upper, r.UpperBy, r.UpperVerified)
	}
	if r.Bracket == nil || *r.Bracket != 35/off.Bound || r.BoundStatus != "bound" {
		t.Errorf("bracket %v, status %s; want 35/%g, bound", r.Bracket, r.BoundStatus, off.Bound)
	}
	if rt := r.Policies[0].RatioToUpper; rt == nil || *rt != 40.0/35 {
		t.Errorf("fifo's ratio to the upper %v, want 40/35", rt)
	}
	text, js, md, csv, svg, obj := writeAll(t, r)
	for _, k := range []string{"bound", "bound_by", "upper", "upper_by", "upper_verified", "bracket", "offline_schedules"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if !strings.Contains(js.String(), `"ratio_to_upper": 1.1428`) {
		t.Errorf("JSON lacks fifo's ratio_to_upper:\n%s", js.String())
	}
	if !strings.Contains(text.String(), "best known schedule 0.035 (by offline-good, verified)") ||
		!strings.Contains(text.String(), "FAILED: capacity exceeded (not used)") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "| fifo | 0.04 |") || !strings.Contains(md.String(), "| 1.143 | verified |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if lines := strings.Split(strings.TrimSpace(csv.String()), "\n"); len(lines) != 2 ||
		!strings.HasSuffix(lines[0], "upper,upper_by,upper_verified,bracket,ratio_to_upper") ||
		!strings.Contains(lines[1], ",0.035,offline-good,true,") {
		t.Errorf("CSV:\n%s", csv.String())
	}
	if !strings.Contains(svg.String(), "best known") {
		t.Error("the SVG has no best-known line")
	}

	// The same schedule verified is a bug: below the bound.
	off.Schedules[1].Verified, off.Schedules[1].CheckError = true, ""
	if _, err := Build(p, m, off, runs); !errors.Is(err, ErrBelowBound) || !strings.Contains(err.Error(), "offline-bad") {
		t.Errorf("a verified offline schedule below the bound: want ErrBelowBound naming it, got %v", err)
	}
}

// TestBracketOneIsOptimal: a verified schedule at the certified bound
// proves the optimum (status optimal, bracket 1); a proven optimum is the
// upper value unless a verified schedule attains it, with bracket 1 too.
func TestBracketOneIsOptimal(t *testing.T) {
	p := tinyProblem()
	b, err := lowerbound.Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	m := lowerbound.TotalTurnaround
	off := OfflineFromBounds(b, m, nil)
	off.Schedules = []Schedule{{By: "offline-at-bound", Value: off.Bound, Verified: true}}
	r, err := Build(p, m, off, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.BoundStatus != "optimal" || r.Bracket == nil || *r.Bracket != 1 || r.Optimum == nil || *r.Optimum != off.Bound {
		t.Errorf("status %s, bracket %v, optimum %v; want optimal, 1, %g", r.BoundStatus, r.Bracket, r.Optimum, off.Bound)
	}
	ex, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	off = OfflineFromBounds(b, m, ex)
	r, err = Build(p, m, off, []Run{{Policy: "fifo", Completion: []int64{20, 25}, Verified: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r.BoundStatus != "optimal" || r.UpperBy != "optimum" || *r.Upper != 35 || *r.Bracket != 1 {
		t.Errorf("status %s, upper %v by %s, bracket %v; want optimal, 35 by optimum, 1", r.BoundStatus, *r.Upper, r.UpperBy, *r.Bracket)
	}
	// Without any schedule the bracket is open.
	r, err = Build(p, m, OfflineFromBounds(b, m, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Upper != nil || r.Bracket != nil || r.BoundStatus != "bound" {
		t.Errorf("no schedule: upper %v, bracket %v, status %s", r.Upper, r.Bracket, r.BoundStatus)
	}
}
