package jlassi

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	inst "github.com/mrbound/mrbound/instances/jlassi"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	_ "github.com/mrbound/mrbound/solve/native/mip"
)

func TestSmoke(t *testing.T) {
	env := os.Getenv("JL_SMOKE")
	if env == "" {
		t.Skip()
	}
	f := strings.Split(env, ",") // scenario,seed,solver,form
	sc, _ := strconv.Atoi(f[0])
	seed, _ := strconv.Atoi(f[1])
	form, _ := ParseForm(f[3])
	s, _ := inst.Generate(sc, int64(seed))
	in, _ := inst.Compile("x", s)
	rep, err := Run(context.Background(), in, RunOptions{Form: form, Solve: solve.Options{Solver: f[2], TimeLimit: 120 * time.Second}, LPBound: true})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(rep.Result.Status, rep.Result.Objective, rep.Result.Bound, rep.LPBound, rep.Result.Wall, rep.Result.Nodes, rep.Stats.Rows, rep.Stats.Cols, rep.Verdict)
}
