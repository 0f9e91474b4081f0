package jlassi

import (
	"context"
	"os"
	"testing"
	"time"

	inst "github.com/mrbound/mrbound/instances/jlassi"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	_ "github.com/mrbound/mrbound/solve/native/mip"
)

func TestSmoke(t *testing.T) {
	if os.Getenv("JL_SMOKE") == "" {
		t.Skip()
	}
	for _, f := range []string{"migration", "bandwidth", "ram"} {
		in, err := inst.Load("testdata/" + f + ".json")
		if err != nil {
			t.Fatal(err)
		}
		for _, sv := range []string{"highs", "native"} {
		rep, err := Run(context.Background(), in, RunOptions{Solve: solve.Options{Solver: sv, TimeLimit: 60 * time.Second}, LPBound: true})
		if err != nil {
			t.Fatal(err)
		}
		rep.WriteText(os.Stdout)
		}
	}
}
