package mip

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/presolve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// reduceStart maps a MIP start on the original model m to a feasible point of
// the reduced model r, or returns nil with the reason it cannot. The start is
// first checked on m (integer columns rounded, feasTol). Its kept columns are
// taken as they are when that point satisfies r; otherwise (a presolve
// reduction — a dual fixing, a tightened bound — excluded the start) the
// integer columns are fixed at their start values, clamped into r's bounds,
// and the LP over the continuous columns of r decides: its optimum is the
// repaired start.
func reduceStart(ctx context.Context, m, r *model.Model, post *presolve.Postsolve, start []float64, deadline time.Time) ([]float64, string) {
	x := append([]float64(nil), start...)
	if ok, why := check(m, x); !ok {
		return nil, "infeasible on the model: " + why
	}
	xr := post.Reduce(x)
	if ok, _ := check(r, xr); ok {
		return xr, ""
	}
	// Repair: fix the integers, solve the LP over the continuous columns.
	f := r.Clone()
	cont := 0
	for j, t := range f.ColType {
		if !t.IsInteger() {
			cont++
			continue
		}
		v := math.Min(math.Max(math.Round(xr[j]), f.ColLower[j]), f.ColUpper[j])
		f.ColLower[j], f.ColUpper[j] = v, v
		xr[j] = v
	}
	if cont > 0 {
		lp, err := simplex.New(f, simplex.Options{Deadline: deadline})
		if err != nil {
			return nil, "repair LP: " + err.Error()
		}
		if st := lp.Solve(ctx); st != solve.Optimal {
			return nil, fmt.Sprintf("repair LP over the continuous columns: %v", st)
		}
		xr = lp.X()
	}
	if ok, why := check(r, xr); !ok {
		return nil, "repaired point infeasible on the presolved model: " + why
	}
	return xr, ""
}
