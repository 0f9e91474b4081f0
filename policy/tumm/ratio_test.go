package tumm

import (
	"slices"
	"testing"

	"github.com/mrbound/mrbound/sim"
)

// Hand-computed cases of eqs 4–5 on S = 16, k = 4 (bounds [4, 12]).
func TestBasicTarget(t *testing.T) {
	cases := []struct {
		wm, wr float64
		want   int
	}{
		{30, 10, 12},   // ρ = 0.75 → 12
		{10, 30, 4},    // 0.25 → 4
		{1, 2, 5},      // 5.33 → 5
		{1, 1, 8},      // exactly 8
		{0.7, 0.3, 11}, // 11.2 → 11
		{1, 99, 4},     // 0.16 → 0, raised to the lower bound k
		{99, 1, 12},    // 15.84 → 15, lowered to S − k
		{3, 13, 4},     // exactly 3 → 3, raised to 4
		{5, 11, 5},     // exactly 5 (5/16·16 in floats)
		{0, 0, 7},      // no work: the old target
		{0, 5, 4},      // reduces only
	}
	for _, c := range cases {
		if got := BasicTarget(c.wm, c.wr, 16, 4, 12, 7); got != c.want {
			t.Errorf("BasicTarget(%v, %v) = %d, want %d", c.wm, c.wr, got, c.want)
		}
	}
}

// Eq 6 with α = 1.2, S = 16: Δ = 19.2·(ρ_new − ρ_prev), truncated (A-T2) or
// floored.
func TestFeedbackTarget(t *testing.T) {
	cases := []struct {
		sm           int
		rhoNew, prev float64
		trunc, floor int
	}{
		{8, 0.6, 0.5, 9, 9},            // Δ = 1.92
		{8, 0.45, 0.5, 8, 7},           // Δ = −0.96: trunc 0, floor −1 (the bias A-T2 removes)
		{8, 0.3, 0.5, 5, 4},            // Δ = −3.84
		{8, 0.5, 0.5, 8, 8},            // no change
		{11, 0.7, 0.5, 12, 12},         // +3 capped at S − k
		{5, 0.1, 0.5, 4, 4},            // −7 raised to k
		{8, 0.5 + 1.0/19.2, 0.5, 9, 9}, // Δ = 1 exactly (within ratioTol)
	}
	for _, c := range cases {
		if got := FeedbackTarget(c.sm, c.rhoNew, c.prev, DefaultAlpha, 16, 4, 12, RoundTrunc); got != c.trunc {
			t.Errorf("trunc: FeedbackTarget(%d, %v, %v) = %d, want %d", c.sm, c.rhoNew, c.prev, got, c.trunc)
		}
		if got := FeedbackTarget(c.sm, c.rhoNew, c.prev, DefaultAlpha, 16, 4, 12, RoundFloor); got != c.floor {
			t.Errorf("floor: FeedbackTarget(%d, %v, %v) = %d, want %d", c.sm, c.rhoNew, c.prev, got, c.floor)
		}
	}
}

// Algorithm 3 lines 1–6 on 4 nodes of 4 slots.
func TestNodeTargets(t *testing.T) {
	cases := []struct {
		sm, sr, rtm, rtr int
		smx, srx         int
	}{
		{8, 8, 0, 0, 2, 2},   // even: no top-up
		{10, 6, 8, 6, 3, 1},  // 2 + 1 < 4; map deficit 2 > reduce deficit 0
		{10, 6, 10, 4, 2, 2}, // map deficit 0 < reduce deficit 2
		{10, 6, 9, 5, 2, 2},  // tie 1 = 1 goes to reduces
		{12, 4, 0, 0, 3, 1},
		{4, 12, 0, 0, 1, 3},
	}
	for _, c := range cases {
		smx, srx := NodeTargets(c.sm, c.sr, 4, 4, c.rtm, c.rtr)
		if smx != c.smx || srx != c.srx {
			t.Errorf("NodeTargets(%d, %d, rt %d/%d) = %d/%d, want %d/%d", c.sm, c.sr, c.rtm, c.rtr, smx, srx, c.smx, c.srx)
		}
		if smx+srx != 4 {
			t.Errorf("NodeTargets(%d, %d) = %d + %d, not the node's 4 slots", c.sm, c.sr, smx, srx)
		}
	}
	if k := ChooseKind(3, 1, 2, 0); k != sim.Reduce { // deficits 1 vs 1: reduce
		t.Errorf("ChooseKind tie = %v", k)
	}
	if k := ChooseKind(3, 1, 1, 0); k != sim.Map {
		t.Errorf("ChooseKind(3,1,1,0) = %v", k)
	}
}

// Algorithm 4 lines 1–7 (A-T7's reading).
func TestHNodeTargets(t *testing.T) {
	cases := []struct {
		Si               int
		tmi, tri, tm, tr float64
		nm, nr           int
		sm, sr           int
		ok               bool
	}{
		{4, 10, 20, 10, 20, 10, 5, 2, 2, true}, // equal workloads: half each
		{3, 10, 20, 10, 20, 10, 5, 2, 1, true}, // 1.5/1.5 → 1/1; ratios equal → leftover to maps
		{3, 15, 20, 10, 20, 10, 5, 1, 2, true}, // maps slow here (1.5 > 1) → leftover to reduces
		{3, 5, 20, 10, 20, 20, 5, 2, 1, true},  // 100 vs 100 → 1/1, maps fast here → leftover to maps
		{4, 10, 20, 10, 20, 7, 0, 4, 0, true},  // reduce phase empty: all maps
		{4, 10, 20, 10, 20, 0, 3, 0, 4, true},
		{4, 10, 20, 10, 20, 0, 0, 0, 0, false}, // D = 0
		{6, 1, 1, 1, 1, 1, 2, 2, 4, true},      // 2/4 exactly
	}
	for _, c := range cases {
		sm, sr, ok := HNodeTargets(c.Si, c.tmi, c.tri, c.tm, c.tr, c.nm, c.nr)
		if sm != c.sm || sr != c.sr || ok != c.ok {
			t.Errorf("HNodeTargets(%+v) = %d, %d, %v", c, sm, sr, ok)
		}
		if ok && sm+sr != c.Si {
			t.Errorf("HNodeTargets(%+v): %d + %d ≠ %d", c, sm, sr, c.Si)
		}
	}
}

func TestSpreadWithin(t *testing.T) {
	nodes := func(slots ...int) []sim.Node {
		var ns []sim.Node
		for _, n := range slots {
			ns = append(ns, sim.Node{TotalSlots: n})
		}
		return ns
	}
	// §4.4: s_m = 5 on two 6-slot nodes → 3 and 2 map slots (the paper's
	// 2:3 in the other node order).
	for _, c := range []struct {
		total int
		slots []int
		want  []int
	}{
		{5, []int{6, 6}, []int{3, 2}},
		{10, []int{4, 4, 4, 4}, []int{3, 3, 2, 2}},
		// A node without slots takes none; a full node passes its share on.
		{3, []int{0, 1, 3}, []int{0, 1, 2}},
		{4, []int{1, 1, 3}, []int{1, 1, 2}},
		// More than the cluster holds: every slot, no more.
		{9, []int{1, 2}, []int{1, 2}},
	} {
		if got := SpreadWithin(c.total, nodes(c.slots...)); !slices.Equal(got, c.want) {
			t.Errorf("SpreadWithin(%d, %v) = %v, want %v", c.total, c.slots, got, c.want)
		}
	}
}

// TestFeedbackReference: shares drifting by 0.02 per task end (Δ = 0.384
// slots each on S = 16) move s_m after three ends when the drift is
// measured from the share s_m was set for, and never when it is measured
// from the previous end (the literal reading, whose truncation loses it).
func TestFeedbackReference(t *testing.T) {
	for _, c := range []struct {
		ref  Reference
		want []int
	}{
		{ReferenceLastSet, []int{8, 8, 9, 9, 9, 10}},
		{ReferenceLastUpdate, []int{8, 8, 8, 8, 8, 8}},
	} {
		p := NewTuMM(TuMMOptions{Reference: c.ref})
		p.S, p.k, p.sm, p.rhoPrev = 16, 4, 8, 0.5
		for i, want := range c.want {
			p.feedback(0.5 + 0.02*float64(i+1))
			if p.sm != want {
				t.Errorf("%v: after end %d s_m = %d, want %d", c.ref, i+1, p.sm, want)
			}
		}
	}
}
