package tumm

import (
	"math"

	"github.com/mrbound/mrbound/sim"
)

// ratioTol absorbs float rounding when a workload share times a slot count
// is an integer (e.g. ρ·S = 8 computed as 7.999999999): floors and
// truncations are taken of x + ratioTol·sign(x).
const ratioTol = 1e-9

// Rounding is how eq 6's correction becomes an integer (A-T2). The zero
// value is unknown.
type Rounding uint8

// Roundings.
const (
	RoundingUnknown Rounding = iota
	RoundTrunc               // toward 0 (the default, A-T2)
	RoundFloor               // the paper's ⌊·⌋, which turns every small negative change into −1
)

func (r Rounding) String() string {
	switch r {
	case RoundTrunc:
		return "trunc"
	case RoundFloor:
		return "floor"
	}
	return "unknown"
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// BasicTarget is eqs 4–5 with the bounds of §4.1:
//
//	s_m = clamp(⌊w'_m/(w'_m+w'_r) · S⌋, lo, hi),   s_r = S − s_m
//
// (lo = k, hi = S − k). With no remaining work it returns old.
func BasicTarget(wm, wr float64, S, lo, hi, old int) int {
	if !(wm+wr > 0) {
		return old
	}
	return clamp(int(math.Floor(wm/(wm+wr)*float64(S)+ratioTol)), lo, hi)
}

// FeedbackTarget is eqs 6–7:
//
//	s_m = clamp(s_m + round(α·(ρ_new − ρ_prev)·S), lo, hi)
//
// with round truncation toward 0 (A-T2) or floor.
func FeedbackTarget(sm int, rhoNew, rhoPrev, alpha float64, S, lo, hi int, r Rounding) int {
	d := alpha * (rhoNew - rhoPrev) * float64(S)
	var step float64
	if r == RoundFloor {
		step = math.Floor(d + ratioTol)
	} else {
		step = math.Trunc(d + math.Copysign(ratioTol, d))
	}
	return clamp(sm+int(step), lo, hi)
}

// NodeTargets is Algorithm 3 lines 1–6: node x's share of the cluster
// targets (sm, sr) over k nodes, topped up to the node's perNode slots on
// the side with the larger cluster-wide deficit (rtm, rtr: running maps and
// reduces in the cluster).
func NodeTargets(sm, sr, k, perNode, rtm, rtr int) (smx, srx int) {
	smx, srx = sm/k, sr/k
	if smx+srx < perNode {
		if sm-rtm > sr-rtr {
			smx++
		} else {
			srx++
		}
	}
	return smx, srx
}

// ChooseKind is Algorithm 3 lines 7–10 and Algorithm 4 lines 8–11: a map if
// the node's map deficit is larger, else a reduce.
func ChooseKind(smx, srx, rtmx, rtrx int) sim.Kind {
	if smx-rtmx > srx-rtrx {
		return sim.Map
	}
	return sim.Reduce
}

// HNodeTargets is Algorithm 4 lines 1–7 as read in A-T7: node i with Si
// slots, per-node mean task times tmi, tri, cluster means tm, tr and the
// remaining (unassigned) task counts nm, nr:
//
//	D = t̄ⁱ_m·n'_m + t̄ⁱ_r·n'_r
//	sⁱ_m = ⌊Sⁱ·t̄ⁱ_m·n'_m/D⌋,  sⁱ_r = ⌊Sⁱ·t̄ⁱ_r·n'_r/D⌋
//	a leftover slot goes to reduces if t̄ⁱ_m/t̄_m > t̄ⁱ_r/t̄_r (maps relatively
//	slow here), else to maps.
//
// ok is false when D = 0 (no remaining work: targets unchanged).
func HNodeTargets(Si int, tmi, tri, tm, tr float64, nm, nr int) (sm, sr int, ok bool) {
	wm, wr := tmi*float64(nm), tri*float64(nr)
	D := wm + wr
	if !(D > 0) {
		return 0, 0, false
	}
	sm = int(math.Floor(float64(Si)*wm/D + ratioTol))
	sr = int(math.Floor(float64(Si)*wr/D + ratioTol))
	if sm+sr > Si { // both shares within ratioTol of an integer
		sr = Si - sm
	}
	if sm+sr < Si {
		if tmi/tm > tri/tr {
			sr = Si - sm
		} else {
			sm = Si - sr
		}
	}
	return sm, sr, true
}
