package lowerbound

import (
	"fmt"
	"math"
)

// LagrangeJob is what the interval Lagrangian's minimiser, at a
// certificate's multipliers, charges one job: a diagnostic of where the
// bound's value comes from, not a bound by itself.
type LagrangeJob struct {
	// MeanBusy[k] is the mean start of the intervals that hold the job's
	// work of kind k (map, reduce) in the minimiser, Σ τ_t·y_t / W (ms); NaN
	// when the job has no work of that kind.
	MeanBusy [2]float64
	// Alpha and Beta are the certificate's weights of the job's map-side and
	// reduce-side completion rows (1 − Alpha − Beta weighs C_j ≥ a_j + CP_j).
	Alpha, Beta float64
	// Turnaround is the job's share of the value before capacity prices:
	// α·(M_map + h_map) + β·(M_red + h_red) + (1 − α − β)·(a_j + CP_j) − a_j
	// (docs/bounds.md §4b), what the relaxation takes the job's turnaround
	// to be.
	Turnaround float64
	// Priced is Σ_t λ_t·y_t over the job's pieces: what its work pays for
	// capacity at the certificate's prices. The bound's value is
	// Σ_j (Turnaround + Priced) minus the priced capacity, Σ_t λ_t·cap_t.
	Priced float64
	// StartTerm says that the certificate charges the job its start-time
	// term (docs/bounds.md §4c) instead of the α/β combination: then
	// Priced is what that term's minimiser pays, Turnaround the rest of the
	// term (C_j − a_j at the minimiser, as the term counts it) and MeanBusy
	// the usage-weighted mean start of its intervals; Alpha and Beta are
	// still the certificate's, unused by the value.
	StartTerm bool
}

// LagrangePrimal recomputes the interval Lagrangian's minimiser at the
// multipliers of cert, which IntervalLagrangian returned for p with the same
// options o (the grid must be the same), and returns each job's part of
// it, in p's job order, and the priced capacity Σ λ_t·cap_t. It lets a
// caller see which jobs the bound charges little (for example, against a
// schedule's turnarounds): the priorities of list scheduling by α-points
// (Hall, Schulz, Shmoys and Wein) come from the same numbers.
func LagrangePrimal(p *Problem, o LagrangeOptions, cert *LagrangeCertificate) ([]LagrangeJob, float64, error) {
	if cert == nil {
		return nil, 0, fmt.Errorf("lowerbound: no Lagrangian certificate")
	}
	if err := p.Validate(); err != nil {
		return nil, 0, err
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return nil, 0, nil
	}
	lm := pr.newLagModel(o)
	if len(lm.bp) != len(cert.Breakpoints) || lm.v != cert.Weighting || len(cert.Lambda) != lm.nrow ||
		len(cert.Alpha) != len(pr.jobs) || len(cert.Beta) != len(pr.jobs) {
		return nil, 0, fmt.Errorf("lowerbound: the certificate is not of this problem and grid (%d breakpoints, want %d)", len(cert.Breakpoints), len(lm.bp))
	}
	for t, b := range lm.bp {
		if b != cert.Breakpoints[t] {
			return nil, 0, fmt.Errorf("lowerbound: the certificate's breakpoint %d is %g, the grid's %g", t, cert.Breakpoints[t], b)
		}
	}
	capPriced := 0.0
	for r := range lm.nrow {
		for t, l := range cert.Lambda[r] {
			capPriced += l * lm.rate[r] * (lm.bp[t+1] - lm.bp[t])
		}
	}
	out := make([]LagrangeJob, len(pr.jobs))
	for j := range out {
		out[j] = LagrangeJob{MeanBusy: [2]float64{math.NaN(), math.NaN()}, Alpha: cert.Alpha[j], Beta: cert.Beta[j]}
		out[j].Turnaround = (1 - cert.Alpha[j] - cert.Beta[j]) * lm.k[j]
	}
	var buf []lagItem
	for k := range 2 {
		for i := range lm.pieces[k] {
			pc := &lm.pieces[k][i]
			jo := &out[pc.job]
			th := jo.Alpha
			if k == kRed {
				th = jo.Beta
			}
			// The mean busy time is read at the weight the certificate
			// gives the piece, or at the smallest positive one when that is
			// 0 (then the piece adds nothing to the value, as in the
			// subgradient's usage).
			look := th
			if look == 0 {
				look = 1.0 / thetaSteps
			}
			val, mean, _, b := lm.pieceMin(pc, look, cert.Lambda[pc.row], buf, nil)
			buf = b
			jo.MeanBusy[k] = mean
			if th == 0 {
				continue
			}
			jo.Turnaround += th * (mean + pc.h)
			jo.Priced += val - th*mean
		}
	}
	for j := range out {
		out[j].Turnaround -= pr.jobs[j].a
	}
	if cert.Starts != nil {
		if len(cert.Starts) != len(pr.jobs) {
			return nil, 0, fmt.Errorf("lowerbound: the certificate marks %d start-time terms, for %d jobs", len(cert.Starts), len(pr.jobs))
		}
		lm.startParts(cert, out)
	}
	return out, capPriced, nil
}

// startParts replaces the parts of the jobs that cert charges their
// start-time terms (§4c) with those terms, evaluated as the Lagrangian does
// at the certificate's prices.
func (lm *lagModel) startParts(cert *LagrangeCertificate, out []LagrangeJob) {
	nInt := len(lm.bp) - 1
	subs := lm.newStartSubs()
	lamM := cert.Lambda[0]
	cumR := make([]float64, nInt+1)
	useM, useR := make([]float64, nInt), make([]float64, nInt)
	var sc startScratch
	cumRow := -1 // the reduce row cumR holds (every job's, in practice)
	for j, on := range cert.Starts {
		if !on {
			continue
		}
		sb := &subs[j]
		lamR := cert.Lambda[sb.row]
		if sb.row != cumRow {
			for t := range nInt {
				cumR[t+1] = cumR[t] + lamR[t]*(lm.bp[t+1]-lm.bp[t])
			}
			cumRow = sb.row
		}
		sv, arg := lm.startMin(sb, lamM, lamR, cumR, &sc)
		clear(useM)
		clear(useR)
		lm.startUse(sb, arg, lamM, lamR, useM, useR, &sc)
		jo := &out[j]
		jo.StartTerm = true
		jo.Priced = 0
		for k, use := range [2][]float64{useM, useR} {
			lam := lamM
			if k == kRed {
				lam = lamR
			}
			w, at := 0.0, 0.0
			for t, u := range use {
				jo.Priced += lam[t] * u
				w += u
				at += u * lm.bp[t]
			}
			if w > 0 {
				jo.MeanBusy[k] = at / w
			}
		}
		jo.Turnaround = sv - jo.Priced
	}
}
