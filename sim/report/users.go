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

// Reading is a time-dependent user metric read the three ways of A-C17.
type Reading struct {
	// AtCompletions is the mean over the job-completion instants (one sample
	// per instant; the paper's evaluator runs at completions).
	AtCompletions float64 `json:"at_completions"`
	// TimeAverage is (1/T)∫ over [first arrival, last completion].
	TimeAverage float64 `json:"time_average"`
	// Last is the value at the last completion.
	Last float64 `json:"last"`
}

// UserReadings are both user metrics, each read three ways (A-C17).
type UserReadings struct {
	Dissatisfaction Reading `json:"dissatisfaction"`
	Fairness        Reading `json:"fairness"`
}

// Users computes UserMetrics (the completion-instant readings); ok is false
// when the workload has no users or no job completed.
func (r *Report) Users() (m UserMetrics, ok bool) {
	rd, ok := r.UserReadings()
	return UserMetrics{Dissatisfaction: rd.Dissatisfaction.AtCompletions, Fairness: rd.Fairness.AtCompletions}, ok
}

// UserReadings computes both user metrics three ways; ok is false when the
// workload has no users or no job completed.
func (r *Report) UserReadings() (m UserReadings, ok bool) {
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
	last := sim.Time(-1)
	for _, e := range evs {
		if e.completion {
			last = max(last, e.at)
		}
	}
	if last < 0 {
		return m, false
	}
	as := make([]int, len(w.Users))
	demand := make([]int, len(w.Users))
	start, prev := evs[0].at, evs[0].at
	var d, f, intD, intF float64 // current values and their integrals
	n := 0
	for i := 0; i < len(evs) && evs[i].at <= last; {
		t := evs[i].at
		intD += d * float64(t-prev)
		intF += f * float64(t-prev)
		prev = t
		sample := false
		for ; i < len(evs) && evs[i].at == t; i++ {
			as[evs[i].user] += evs[i].slots
			demand[evs[i].user] += evs[i].demand
			sample = sample || evs[i].completion
		}
		d, f = instant(w.Users, as, demand)
		if sample {
			m.Dissatisfaction.AtCompletions += d
			m.Fairness.AtCompletions += f
			n++
		}
	}
	m.Dissatisfaction.AtCompletions /= float64(n)
	m.Fairness.AtCompletions /= float64(n)
	m.Dissatisfaction.Last, m.Fairness.Last = d, f
	if span := float64(last - start); span > 0 {
		m.Dissatisfaction.TimeAverage = intD / span
		m.Fairness.TimeAverage = intF / span
	}
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
