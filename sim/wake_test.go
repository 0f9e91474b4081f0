package sim

import (
	"math/rand/v2"
	"testing"
)

// TestFirstParkedMatchesScan: the round from the phase at now finds the
// same node and instant as working out every parked node's next grid
// instant, on seeded random clusters (more nodes than milliseconds in a
// period too, so that phases repeat), times, parked sets and last
// heartbeats, among them heartbeats that ran at now.
func TestFirstParkedMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 30))
	for c := range 20000 {
		N := 1 + rng.IntN(40)
		H := []Time{1, 3, 7, 40, 3000}[rng.IntN(5)]
		s := &Sim{opt: Options{Heartbeat: H}, nodes: make([]nodeRT, N)}
		s.now = Time(rng.IntN(int(5 * H)))
		parked := 0
		for x := range s.nodes {
			n := &s.nodes[x]
			n.phase = Time(int64(x) * int64(H) / int64(N))
			n.parked = rng.IntN(3) > 0
			if n.parked {
				parked++
			}
			switch rng.IntN(3) {
			case 0:
				n.lastHB = -1
			case 1: // a grid instant at or before now
				if s.now >= n.phase {
					n.lastHB = n.phase + (s.now-n.phase)/H*H
				} else {
					n.lastHB = -1
				}
			default: // a heartbeat at now, on its grid or out of band
				n.lastHB = s.now
			}
		}
		if parked == 0 {
			continue
		}
		gx, gat := s.firstParked()
		wx, wat := s.firstParkedScan()
		if gx != wx || gat != wat {
			t.Fatalf("case %d: N %d, H %d, now %d: firstParked %d at %d, the scan %d at %d", c, N, H, s.now, gx, gat, wx, wat)
		}
	}
}
