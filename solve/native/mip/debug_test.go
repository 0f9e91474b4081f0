package mip

import (
	"context"
	"math/rand"
	"os"
	"testing"

	"github.com/mrbound/mrbound/model/lpformat"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/presolve"
)

func TestDebugGeneral(t *testing.T) {
	if os.Getenv("DEBUG_SEED") == "" {
		t.Skip()
	}
	var seed int64
	for _, c := range os.Getenv("DEBUG_SEED") {
		seed = seed*10 + int64(c-'0')
	}
	m := genGeneral(rand.New(rand.NewSource(int64(1000*len("general")) + seed)))
	lpformat.Write(os.Stderr, m)
	hs, _ := solve.Lookup("highs")
	w, _ := hs.Solve(context.Background(), m, solve.Options{RelGap: 1e-9})
	t.Logf("highs %v %v x=%v", w.Status, w.Objective, w.X)
	g, _ := Solve(context.Background(), m, solve.Options{RelGap: 1e-9, Log: os.Stderr})
	t.Logf("native %v %v x=%v", g.Status, g.Objective, g.X)
	pre := presolve.Run(m)
	t.Logf("presolve %v", pre.Stats)
	lpformat.Write(os.Stderr, pre.Model)
	w2, _ := hs.Solve(context.Background(), pre.Model, solve.Options{RelGap: 1e-9})
	t.Logf("highs on reduced %v %v", w2.Status, w2.Objective)
}
