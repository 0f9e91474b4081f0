package report

import (
	"math"
	"sort"

	"github.com/mrbound/mrbound/sim"
)

// UserMetrics are COSHH's fairness metrics (policies.md §4), averaged over
// the job-completion instants (A-C17's default): at each instant t,
//
//	Dissatisfaction(t) = Σ_U (m_U − AS(U,t))/m_U · w_U   over users with demand, AS < m_U, m_U > 0
//	Fairness(t)        = Σ_w Σ_{U: w_U = w} |Δ(U,t) − avg_w Δ|,  Δ(U,t) = AS(U,t) − m_U
//
// AS(U,t) counts the slots running U's tasks after the events of t, and the
// demand the user's arrived tasks not launched yet.
type UserMetrics struct {
	Dissatisfaction float64 `json:"dissatisfaction"`
	Fairness        float64 `json:"fairness"`
}

// Users computes UserMetrics; ok is false when the workload has no users
// or no job completed.
func (r *Report) Users() (m UserMetrics, ok bool) {
	w, res := r.Workload, r.Result
	if len(w.Users) == 0 {
		return m, false
	}
	type ev struct {
		at            sim.Time
		user          int
		slots, demand int
		completion    bool
	}
	var evs []ev
	for j, o := range res.Jobs {
		if !o.Arrived {
			continue
		}
		job := &w.Jobs[j]
		evs = append(evs, ev{at: o.Arrival, user: job.User, demand: len(job.Maps) + len(job.Reduces)})
		if o.Done {
			evs = append(evs, ev{at: o.Completion, user: job.User, completion: true})
		}
	}
	for _, a := range res.Trace {
		u := w.Jobs[a.Job].User
		if !a.Resumed {
			evs = append(evs, ev{at: a.Launch, user: u, demand: -1})
		}
		if a.Outcome == sim.Killed {
			evs = append(evs, ev{at: a.End, user: u, demand: 1})
		}
		if a.End > a.Launch {
			evs = append(evs, ev{at: a.Launch, user: u, slots: 1}, ev{at: a.End, user: u, slots: -1})
		}
	}
	// at one instant, apply every change before looking (completions last)
	sort.SliceStable(evs, func(a, b int) bool {
		if evs[a].at != evs[b].at {
			return evs[a].at < evs[b].at
		}
		return !evs[a].completion && evs[b].completion
	})
	as := make([]int, len(w.Users))
	demand := make([]int, len(w.Users))
	n := 0
	for i, e := range evs {
		if !e.completion {
			as[e.user] += e.slots
			demand[e.user] += e.demand
			continue
		}
		if i > 0 && evs[i-1].completion && evs[i-1].at == e.at {
			continue // one sample per instant
		}
		d, f := instant(w.Users, as, demand)
		m.Dissatisfaction += d
		m.Fairness += f
		n++
	}
	if n == 0 {
		return m, false
	}
	m.Dissatisfaction /= float64(n)
	m.Fairness /= float64(n)
	return m, true
}

func instant(users []sim.User, as, demand []int) (dissat, fair float64) {
	sum := map[float64]float64{}
	cnt := map[float64]int{}
	for u, usr := range users {
		wgt := usr.Weight
		if wgt == 0 {
			wgt = 1
		}
		m := float64(usr.MinShare)
		if demand[u] > 0 && float64(as[u]) < m && m > 0 {
			dissat += (m - float64(as[u])) / m * wgt
		}
		sum[wgt] += float64(as[u]) - m
		cnt[wgt]++
	}
	for u, usr := range users {
		wgt := usr.Weight
		if wgt == 0 {
			wgt = 1
		}
		fair += math.Abs(float64(as[u]) - float64(usr.MinShare) - sum[wgt]/float64(cnt[wgt]))
	}
	return dissat, fair
}
