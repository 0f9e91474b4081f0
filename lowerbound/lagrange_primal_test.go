package lowerbound

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestLagrangePrimalAddsUp: on seeded tiny instances and every grid of the
// property test, the jobs' parts of the minimiser at the certificate's
// multipliers add up to the certified value (Σ_j (turnaround + priced) −
// priced capacity is the Lagrangian value, which the certificate lowers
// only by its rounding slack); each job's mean busy times lie after its
// releases (a_j for maps, a_j + head for reduces), its turnaround is at
// least 0, and the weights are the certificate's. A certificate of another
// grid is refused.
func TestLagrangePrimalAddsUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 41))
	for i := range 120 {
		p := randomProblem(rng, 7)
		o := lagrangeGrids[i%len(lagrangeGrids)]
		res, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		jobs, capPriced, err := LagrangePrimal(p, o, res.Certificate)
		if err != nil {
			t.Fatal(err)
		}
		pr := newPrep(p)
		sum, mag := -capPriced, capPriced
		for j, jo := range jobs {
			sum += jo.Turnaround + jo.Priced
			mag += math.Abs(jo.Turnaround) + math.Abs(jo.Priced) + pr.jobs[j].a
			if jo.Alpha != res.Certificate.Alpha[j] || jo.Beta != res.Certificate.Beta[j] {
				t.Errorf("instance %d, job %d: weights %g, %g, the certificate's %g, %g", i, j, jo.Alpha, jo.Beta, res.Certificate.Alpha[j], res.Certificate.Beta[j])
			}
			if jo.Turnaround < -1e-6 {
				t.Errorf("instance %d, job %d: turnaround %g < 0", i, j, jo.Turnaround)
			}
			ji := &pr.jobs[j]
			for k, release := range [2]float64{ji.a, ji.a + ji.head} {
				if mb := jo.MeanBusy[k]; !math.IsNaN(mb) && mb < release-1e-6 {
					t.Errorf("instance %d, job %d, kind %d: mean busy time %g before the release %g", i, j, k, mb, release)
				}
				if math.IsNaN(jo.MeanBusy[k]) != (ji.work[len(pr.weights)-1][k] <= 0) {
					t.Errorf("instance %d, job %d, kind %d: mean busy time %g for work %g", i, j, k, jo.MeanBusy[k], ji.work[len(pr.weights)-1][k])
				}
			}
		}
		if tol := 1e-6 + 1e-8*mag; sum < res.Value-tol || sum > res.Value+lagrangeSlack(mag)+tol {
			t.Errorf("instance %d (%+v): the parts add up to %.9g, the certified value is %.9g", i, o, sum, res.Value)
		}
		if i == 0 {
			other := o
			other.Intervals++
			if _, _, err := LagrangePrimal(p, other, res.Certificate); err == nil {
				t.Errorf("a certificate of %d intervals was accepted for %d", o.Intervals, other.Intervals)
			}
		}
	}
}
