package upperbound_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
	. "github.com/mrbound/mrbound/upperbound"
)

// errTestReject is the verdict of the test's checker.
var errTestReject = errors.New("rejected by the test")

// loadedStream is simtest's random stream on two of its nodes, no
// non-local penalty: loaded enough that the constructions differ.
func loadedStream(seed uint64) *sim.Workload {
	w := simtest.Random(seed, simtest.RandomSpec{})
	w.Cluster.Nodes = w.Cluster.Nodes[:2]
	w.Cluster.NonLocalPenalty = 0
	return w
}

// withChecker runs f with the checker replaced by v.
func withChecker(t *testing.T, v func(*sim.Workload, *sim.Result) error, f func()) {
	t.Helper()
	defer SetVerifyTrace(v)()
	f()
}

// TestRejectedNeverUpper: a schedule the checker rejects never becomes the
// upper value, whether a construction or a search candidate (which is
// simulated first and checked only when the search would keep it). The
// test's checker rejects every run as good as the best construction found
// with the real checker; Best must then return a strictly worse, verified
// schedule, list the rejected ones with the verdict, and never mark one of
// them verified.
func TestRejectedNeverUpper(t *testing.T) {
	opt := simbridge.IdealOptions()
	for _, seed := range []uint64{1, 2, 3} {
		w := loadedStream(seed)
		p, err := simbridge.Problem(w, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []lowerbound.Metric{lowerbound.MeanTurnaround, lowerbound.Makespan, lowerbound.MaxTurnaround} {
			o := Options{Metric: m, Sim: opt, Evaluations: 30, Seed: seed}
			honest, err := Best(context.Background(), w, p, o)
			if err != nil {
				t.Fatal(err)
			}
			if honest.Best == nil {
				t.Fatalf("seed %d, %s: nothing verified with the real checker", seed, m)
			}
			// The best construction's value: at least that construction
			// is then rejected (the search's best may lie below it).
			cut := math.Inf(1)
			for _, sc := range honest.Tried {
				if sc.Verified && sc.By != "offline-search" {
					cut = math.Min(cut, sc.Value)
				}
			}
			var r *Result
			withChecker(t, func(w *sim.Workload, res *sim.Result) error {
				c, err := simbridge.Completions(res)
				if err != nil {
					return err
				}
				if v, err := compare.Value(p, m, c); err != nil || v <= cut {
					return errTestReject
				}
				return check.Verify(w, res)
			}, func() {
				if r, err = Best(context.Background(), w, p, o); err != nil {
					t.Fatal(err)
				}
			})
			rejected := 0
			for _, sc := range r.Tried {
				if strings.Contains(sc.CheckError, errTestReject.Error()) {
					rejected++
				}
				if sc.Verified && sc.Value <= cut {
					t.Errorf("seed %d, %s: %s is marked verified at %g, which the checker rejects (≤ %g)", seed, m, sc.By, sc.Value, cut)
				}
			}
			if rejected == 0 {
				t.Errorf("seed %d, %s: no schedule was rejected; the test did not reach the checker", seed, m)
			}
			if r.Best != nil && (!r.Best.Verified || r.Best.Value <= cut) {
				t.Errorf("seed %d, %s: upper %g by %s (verified %v) although every schedule ≤ %g was rejected", seed, m, r.Best.Value, r.Best.By, r.Best.Verified, cut)
			}
		}
	}
}

// TestRejectedSearchCandidate: the search checks the candidates that would
// become its best; when the checker rejects every one of them, no search
// schedule is verified or the upper value, and the constructions' best
// stands. Both searches are run: around srpt's dynamic keys (mean
// turnaround) and over static orders (max turnaround, from latest-start).
func TestRejectedSearchCandidate(t *testing.T) {
	opt := simbridge.IdealOptions()
	// Stream 2: on stream 1 srpt-hold's schedule is the best and 20 runs
	// of the search around it find none as good, so none is checked.
	w := loadedStream(2)
	p, err := simbridge.Problem(w, opt, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []lowerbound.Metric{lowerbound.MeanTurnaround, lowerbound.MaxTurnaround} {
		o := Options{Metric: m, Sim: opt, Evaluations: 20, Seed: 1}
		var r *Result
		asked := 0
		withChecker(t, func(w *sim.Workload, res *sim.Result) error {
			if res.Policy == "offline-"+Order.String() {
				asked++
				return errTestReject
			}
			return check.Verify(w, res)
		}, func() {
			if r, err = Best(context.Background(), w, p, o); err != nil {
				t.Fatal(err)
			}
		})
		if asked == 0 {
			t.Errorf("%s: the checker was never asked about a search candidate", m)
		}
		for _, sc := range r.Tried {
			if sc.By == "offline-search" && sc.Verified {
				t.Errorf("%s: the search's schedule is listed as verified at %g", m, sc.Value)
			}
		}
		if r.Best == nil || r.Best.By == "offline-search" || !r.Best.Verified {
			t.Fatalf("%s: best %+v: want a verified construction", m, r.Best)
		}
	}
}

// TestSameKeysRunOnce: a static construction whose keys equal one already
// run is skipped (edf without any deadline is arrival order), and one that
// differs is run: with deadlines, edf is tried.
func TestSameKeysRunOnce(t *testing.T) {
	opt := simbridge.IdealOptions()
	w := loadedStream(1)
	tried := func(w *sim.Workload) map[string]int {
		p, err := simbridge.Problem(w, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Best(context.Background(), w, p, Options{Metric: lowerbound.MeanTurnaround, Sim: opt, Evaluations: -1})
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, sc := range r.Tried {
			n[sc.By]++
		}
		return n
	}
	withDeadlines := tried(w)
	if withDeadlines["offline-edf"] != 1 || withDeadlines["offline-arrival"] != 1 {
		t.Errorf("with deadlines: tried %v, want edf and arrival once each", withDeadlines)
	}
	for j := range w.Jobs {
		w.Jobs[j].Deadline = sim.NoDeadline
	}
	without := tried(w)
	if without["offline-edf"] != 0 || without["offline-arrival"] != 1 {
		t.Errorf("without deadlines: tried %v, want arrival once and no edf", without)
	}
	if len(without) != len(withDeadlines)-1 {
		t.Errorf("without deadlines %d constructions, with %d: only edf should go", len(without), len(withDeadlines))
	}
}
