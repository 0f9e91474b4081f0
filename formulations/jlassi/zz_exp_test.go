package jlassi

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

func TestZZSeeds(t *testing.T) {
	if os.Getenv("JV") == "" {
		t.Skip()
	}
	for _, seed := range []int64{6, 8} {
		in := generated(t, 4, seed)
		h := Heuristic(in, 15)
		for r := uint64(1); r <= 4; r++ {
			a := newAnnealer(in, 15)
			a.rng = rand.New(rand.NewPCG(r, 7))
			a.fromSchedule(h)
			v := a.run(0, func() bool { return false })
			_, K := a.placements()
			fmt.Printf("seed %d rng %d: %g K=%d waves %g %g\n", seed, r, v, K, waveBound(in, 8), waveBound(in, 9))
		}
	}
}
