package fair

import (
	"testing"

	"github.com/mrbound/mrbound/sim"
)

// BenchmarkBacklog: 3 000 jobs arriving about every 300 ms on 3 nodes (a
// backlog of thousands; overloaded in TestSameAsResort), hadoop1 mode, for
// the incremental scheduler and the re-sorting reference.
func BenchmarkBacklog(b *testing.B) {
	w := overloaded(1, 3000, false, false)
	for _, c := range []struct {
		name string
		pol  func() sim.Policy
	}{
		{"incremental", func() sim.Policy { return New() }},
		{"resort", func() sim.Policy { return &resort{} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var offers int64
			for b.Loop() {
				res, err := sim.Run(w, c.pol(), sim.DefaultOptions())
				if err != nil || res.Status != sim.Finished {
					b.Fatalf("%v, %v", err, res.Status)
				}
				offers = res.Offers
			}
			b.ReportMetric(float64(offers), "offers/run")
		})
	}
}
