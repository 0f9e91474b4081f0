package simplex

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// glpkSolve solves m with glpsol (GLPK's simplex, an independent oracle)
// and returns its status and objective; ok is false when glpsol is absent
// or its answer cannot be read.
func glpkSolve(t *testing.T, m *model.Model) (st solve.Status, obj float64, ok bool) {
	t.Helper()
	bin, err := exec.LookPath("glpsol")
	if err != nil {
		return 0, 0, false
	}
	// Minimise −c for a maximisation: no reliance on OBJSENSE support.
	mm := m.Clone()
	sign := 1.0
	if mm.Sense == model.Maximize {
		sign = -1
		mm.Sense = model.Minimize
		for j := range mm.Obj {
			mm.Obj[j] = -mm.Obj[j]
		}
		mm.ObjOffset = -mm.ObjOffset
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "m.mps"), filepath.Join(dir, "m.sol")
	var buf bytes.Buffer
	if err := mps.Write(&buf, mm); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(bin, "--freemps", "--nopresol", in, "-w", out).CombinedOutput(); err != nil {
		t.Logf("glpsol: %v\n%s", err, msg)
		return 0, 0, false
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return 0, 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "c" && f[1] == "Status:":
			switch f[2] {
			case "OPTIMAL":
				st = solve.Optimal
			case "INFEASIBLE":
				st = solve.Infeasible
			case "UNBOUNDED":
				st = solve.Unbounded
			}
		case len(f) >= 7 && f[0] == "s" && f[1] == "bas":
			v, err := strconv.ParseFloat(f[6], 64)
			if err != nil {
				return 0, 0, false
			}
			obj = sign * v
			if f[4] == "n" {
				st = solve.Infeasible
			}
		}
	}
	if st == 0 {
		t.Logf("glpsol solution:\n%s", data)
	}
	return st, obj, st != 0
}

// The random LPs of TestRandomLPsAgainstHiGHS, against GLPK.
func TestRandomLPsAgainstGLPK(t *testing.T) {
	if _, err := exec.LookPath("glpsol"); err != nil {
		t.Skip("glpsol not installed")
	}
	rng := rand.New(rand.NewSource(20261122))
	cases := propertyCases() / 2
	checked := 0
	for c := 0; c < cases; c++ {
		m := randomLP(rng, []int{0, 0, 1, 2, 2, 3}[c%6], 1+4*btoi(c%10 == 9))
		t.Run(fmt.Sprintf("case%d", c), func(t *testing.T) {
			want, obj, ok := glpkSolve(t, m)
			if !ok {
				t.Skip("glpsol gave no readable answer")
			}
			lp, _ := New(m, Options{Seed: int64(c)})
			st := lp.Solve(context.Background())
			if st != want {
				t.Fatalf("status %v, GLPK %v", st, want)
			}
			if st == solve.Optimal && math.Abs(lp.Objective()-obj) > 1e-6*(1+math.Abs(obj)) {
				t.Fatalf("objective %.12g, GLPK %.12g", lp.Objective(), obj)
			}
			checked++
		})
	}
	if checked < cases*9/10 {
		t.Fatalf("only %d of %d cases compared with GLPK", checked, cases)
	}
}
