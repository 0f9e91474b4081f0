package bnb

import (
	"context"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// BenchmarkMRCPSums searches the total turnaround of the 20-job MRCP mixed
// stream of seed 6 (λ 0.02, issue 26) whole, with no incumbent, in 30,000
// depth-first and 300,000 best-first nodes: the per-node cost of the
// search compare runs on these streams (its bound, children, memo and the
// best-first phase's rebuilding of nodes).
//
//	taskset -c 0 go test -run '^$' -bench MRCPSums -cpu 1 ./lowerbound/bnb
func BenchmarkMRCPSums(b *testing.B) {
	p := mrcpGenerated(b, 20, 6)
	for b.Loop() {
		res, err := Solve(context.Background(), p, lowerbound.TotalTurnaround, Options{NodeLimit: 30_000, BoundNodes: 300_000, whole: true})
		if err != nil || res == nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Nodes), "nodes")
	}
}
