package coshh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"

	"github.com/mrbound/mrbound/instances/coshhscenario"
)

// Classification tunables.
const (
	// MaxKMeansIter bounds the Lloyd iterations; they stop earlier when no
	// job changes class.
	MaxKMeansIter = 100
	// MinSpan is the stream span (seconds) used when every job arrives at
	// the same instant, so that arrival rates stay finite.
	MinSpan = 1.0
)

// Classes is one classification of a job stream.
type Classes struct {
	// Members[i] lists the indices of the jobs of class i, ascending.
	// Classes are ordered by their first job.
	Members [][]int
	// Problem is the capacity LP of these classes.
	Problem Problem
}

// Classify derives the primary classification (jobs of users with
// min_share > 0, k = number of such users) and the secondary one (all jobs,
// k = number of users) of a job-stream scenario. A classification with no
// job has no classes (Problem has no classes). k is lowered to the number of
// distinct feature vectors when there are fewer.
func Classify(s *coshhscenario.Scenario) (primary, secondary Classes, err error) {
	if len(s.Jobs) == 0 {
		return Classes{}, Classes{}, fmt.Errorf("%w: no jobs to classify", coshhscenario.ErrEmptyStream)
	}
	users := map[string]coshhscenario.User{}
	perUser := map[string]int{}
	kPrimary := 0
	for _, u := range s.Users {
		users[u.Name] = u
		if u.MinShare > 0 {
			kPrimary++
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, j := range s.Jobs {
		perUser[j.User]++
		lo, hi = math.Min(lo, j.Arrival), math.Max(hi, j.Arrival)
	}
	span := hi - lo
	if span <= 0 {
		span = MinSpan
	}
	M := len(s.Resources)
	// Raw features: priority, log rate on each resource, user arrival rate.
	feat := make([][]float64, len(s.Jobs))
	for n, j := range s.Jobs {
		f := make([]float64, 0, M+2)
		f = append(f, users[j.User].Priority)
		for r := 0; r < M; r++ {
			f = append(f, -math.Log(j.Estimate(r)))
		}
		f = append(f, float64(perUser[j.User])/span)
		feat[n] = f
	}
	var prim []int
	all := make([]int, len(s.Jobs))
	for n, j := range s.Jobs {
		all[n] = n
		if users[j.User].MinShare > 0 {
			prim = append(prim, n)
		}
	}
	names := make([]string, M)
	for r, res := range s.Resources {
		names[r] = res.Name
	}
	primary = classesOf("primary", "C", s, prim, feat, kPrimary, span, names, s.Seed)
	secondary = classesOf("secondary", "C'", s, all, feat, len(s.Users), span, names, s.Seed)
	return primary, secondary, nil
}

func classesOf(name, prefix string, s *coshhscenario.Scenario, jobs []int, feat [][]float64, k int, span float64, res []string, seed int64) Classes {
	c := Classes{Problem: Problem{Name: name, Resources: res}}
	if len(jobs) == 0 || k <= 0 {
		return c
	}
	pts := make([][]float64, len(jobs))
	for n, j := range jobs {
		pts[n] = feat[j]
	}
	labels := KMeans(standardise(pts), k, seed)
	groups := map[int][]int{}
	for n, l := range labels {
		groups[l] = append(groups[l], jobs[n])
	}
	for _, g := range groups {
		c.Members = append(c.Members, g)
	}
	sort.Slice(c.Members, func(a, b int) bool { return c.Members[a][0] < c.Members[b][0] })
	M := len(res)
	for i, g := range c.Members {
		mean := make([]float64, M)
		for _, j := range g {
			for r := 0; r < M; r++ {
				mean[r] += s.Jobs[j].Estimate(r)
			}
		}
		mu := make([]float64, M)
		for r := range mu {
			mu[r] = float64(len(g)) / mean[r]
		}
		c.Problem.Classes = append(c.Problem.Classes, prefix+strconv.Itoa(i+1))
		c.Problem.Alpha = append(c.Problem.Alpha, float64(len(g))/span)
		c.Problem.Mu = append(c.Problem.Mu, mu)
	}
	return c
}

// standardise returns the points with every coordinate shifted to mean 0 and
// scaled to standard deviation 1; constant coordinates become 0.
func standardise(pts [][]float64) [][]float64 {
	n, d := len(pts), len(pts[0])
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, d)
	}
	for c := 0; c < d; c++ {
		var mean, sq float64
		for _, p := range pts {
			mean += p[c]
		}
		mean /= float64(n)
		for _, p := range pts {
			sq += (p[c] - mean) * (p[c] - mean)
		}
		sd := math.Sqrt(sq / float64(n))
		for i, p := range pts {
			if sd > 1e-12*math.Max(1, math.Abs(mean)) {
				out[i][c] = (p[c] - mean) / sd
			}
		}
	}
	return out
}

// KMeans clusters pts into at most k groups and returns each point's label in
// [0, k'). Seeding is k-means++ from a PCG seeded by seed; Lloyd iterations
// follow until no label changes or MaxKMeansIter. k is lowered to the number
// of distinct points. Equal distances go to the lower-numbered centre, so the
// result is a function of (pts, k, seed).
func KMeans(pts [][]float64, k int, seed int64) []int {
	n := len(pts)
	labels := make([]int, n)
	if n == 0 || k <= 1 {
		return labels
	}
	if d := distinct(pts); k > d {
		k = d
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b6d65616e73))
	centres := [][]float64{clone(pts[rng.IntN(n)])}
	dist := make([]float64, n)
	for len(centres) < k {
		total := 0.0
		for i, p := range pts {
			dist[i] = math.Inf(1)
			for _, c := range centres {
				dist[i] = math.Min(dist[i], sqdist(p, c))
			}
			total += dist[i]
		}
		x := rng.Float64() * total
		pickI := -1
		for i, d := range dist {
			if d > 0 {
				pickI = i
				if x < d {
					break
				}
				x -= d
			}
		}
		centres = append(centres, clone(pts[pickI]))
	}
	for i := range labels {
		labels[i] = -1
	}
	for it := 0; it < MaxKMeansIter; it++ {
		changed := false
		for i, p := range pts {
			best, bd := 0, math.Inf(1)
			for c, ctr := range centres {
				if d := sqdist(p, ctr); d < bd {
					best, bd = c, d
				}
			}
			if labels[i] != best {
				labels[i], changed = best, true
			}
		}
		if !changed {
			break
		}
		counts := make([]int, k)
		for c := range centres {
			clear(centres[c])
		}
		for i, p := range pts {
			counts[labels[i]]++
			for d, x := range p {
				centres[labels[i]][d] += x
			}
		}
		for c := range centres {
			if counts[c] > 0 {
				for d := range centres[c] {
					centres[c][d] /= float64(counts[c])
				}
			}
		}
		for c := range centres {
			if counts[c] == 0 {
				// An emptied centre restarts at the point farthest from its
				// own centre (lowest index on ties).
				far, fd := 0, -1.0
				for i, p := range pts {
					if d := sqdist(p, centres[labels[i]]); d > fd {
						far, fd = i, d
					}
				}
				copy(centres[c], pts[far])
			}
		}
	}
	// Renumber labels in order of first appearance, dropping empty ones.
	re := map[int]int{}
	for i, l := range labels {
		if _, ok := re[l]; !ok {
			re[l] = len(re)
		}
		labels[i] = re[l]
	}
	return labels
}

func distinct(pts [][]float64) int {
	seen := map[string]bool{}
	for _, p := range pts {
		seen[fmt.Sprint(p)] = true
	}
	return len(seen)
}

func clone(p []float64) []float64 { return append([]float64(nil), p...) }

func sqdist(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}
