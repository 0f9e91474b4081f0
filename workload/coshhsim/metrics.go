package coshhsim

import (
	"math"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// UserMetrics are COSHH's user-level metrics of one run (§4, A-C17): each
// time-dependent one as its mean over the job-completion instants (the
// paper's evaluator runs at completions), its time average over the run and
// its value at the last completion.
type UserMetrics struct {
	Dissatisfaction, Fairness Triple
}

// Triple is a time-dependent metric read three ways (A-C17).
type Triple struct {
	AtCompletions float64 `json:"at_completions"`
	TimeAverage   float64 `json:"time_average"`
	Last          float64 `json:"last"`
}

// Metrics computes the user metrics of res on w from the trace alone:
// AS(U,t) counts U's segments with Launch ≤ t < End; Demand(U,t) the tasks of
// U's arrived jobs not launched by t (the state after all events at t).
//
//	UserDissatisfaction(U,t) = (m_U − AS)/m_U · w_U   if Demand > 0, AS < m_U, m_U > 0; else 0
//	Fairness(t) = Σ_w Σ_{U: w_U = w} |Δ(U,t) − mean_{w_U = w} Δ|,  Δ = AS − m_U
func Metrics(w *sim.Workload, res *sim.Result) UserMetrics {
	nu := max(1, len(w.Users))
	type ev struct {
		at     sim.Time
		user   int
		demand int // change of Demand
		as     int // change of AS
	}
	user := func(j int32) int {
		u := w.Jobs[j].User
		if u < 0 || u >= nu {
			return 0
		}
		return u
	}
	var evs []ev
	for j, o := range res.Jobs {
		if o.Arrived {
			evs = append(evs, ev{at: o.Arrival, user: user(int32(j)), demand: len(w.Jobs[j].Maps) + len(w.Jobs[j].Reduces)})
		}
	}
	for _, a := range res.Trace {
		u := user(a.Job)
		if !a.Resumed {
			evs = append(evs, ev{at: a.Launch, user: u, demand: -1, as: 1})
		} else {
			evs = append(evs, ev{at: a.Launch, user: u, as: 1})
		}
		if a.End >= 0 {
			evs = append(evs, ev{at: a.End, user: u, as: -1})
			if a.Outcome == sim.Killed {
				evs = append(evs, ev{at: a.End, user: u, demand: 1})
			}
		}
	}
	var done []sim.Time
	for _, o := range res.Jobs {
		if o.Done {
			done = append(done, o.Completion)
		}
	}
	slices.Sort(done)
	slices.SortStableFunc(evs, func(a, b ev) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	m := make([]float64, nu)
	wt := make([]float64, nu)
	for u := range m {
		wt[u] = 1
		if u < len(w.Users) {
			m[u] = float64(w.Users[u].MinShare)
			if w.Users[u].Weight > 0 {
				wt[u] = w.Users[u].Weight
			}
		}
	}
	demand := make([]int, nu)
	as := make([]int, nu)
	value := func() (dis, fair float64) {
		sum := map[float64]float64{}
		cnt := map[float64]int{}
		for u := range m {
			if m[u] > 0 && demand[u] > 0 && float64(as[u]) < m[u] {
				dis += (m[u] - float64(as[u])) / m[u] * wt[u]
			}
			sum[wt[u]] += float64(as[u]) - m[u]
			cnt[wt[u]]++
		}
		for u := range m {
			fair += math.Abs(float64(as[u]) - m[u] - sum[wt[u]]/float64(cnt[wt[u]]))
		}
		return dis, fair
	}
	var out UserMetrics
	if len(done) == 0 || len(evs) == 0 {
		return out
	}
	start, last := evs[0].at, done[len(done)-1]
	var intD, intF float64
	prev := start
	dCur, fCur := 0.0, 0.0
	k := 0 // next completion instant
	var sumD, sumF float64
	for i := 0; i < len(evs); {
		t := evs[i].at
		if t > last {
			break
		}
		intD += dCur * float64(t-prev)
		intF += fCur * float64(t-prev)
		for ; i < len(evs) && evs[i].at == t; i++ {
			demand[evs[i].user] += evs[i].demand
			as[evs[i].user] += evs[i].as
		}
		dCur, fCur = value()
		prev = t
		for k < len(done) && done[k] == t {
			sumD += dCur
			sumF += fCur
			k++
		}
	}
	intD += dCur * float64(last-prev)
	intF += fCur * float64(last-prev)
	out.Dissatisfaction.AtCompletions = sumD / float64(len(done))
	out.Fairness.AtCompletions = sumF / float64(len(done))
	if span := float64(last - start); span > 0 {
		out.Dissatisfaction.TimeAverage = intD / span
		out.Fairness.TimeAverage = intF / span
	}
	out.Dissatisfaction.Last, out.Fairness.Last = dCur, fCur
	return out
}
