package solvertest

import (
	"math"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Case is one conformance model with its known answer.
type Case struct {
	// Name is the subtest name, e.g. "lp/infeasible".
	Name string
	// Model is the model to solve; it is also Model.Name.
	Model *model.Model
	// Status lists the acceptable statuses; the first is the exact answer.
	// A second one is only ever InfeasibleOrUnbounded, which the suite
	// accepts instead of Infeasible or Unbounded when the backend opts out
	// of exact statuses (Caps.InfeasibleOrUnbounded).
	Status []solve.Status
	// Optimum is the known optimal objective (with the offset) when Status[0]
	// is Optimal.
	Optimum float64
	// Solution is one optimal point when Status[0] is Optimal.
	Solution []float64
}

var inf = math.Inf(1)

// mustBuild builds b; the suite's own models are known to be valid.
func mustBuild(b *model.Builder) *model.Model {
	m, err := b.Build()
	if err != nil {
		panic("solvertest: " + err.Error())
	}
	return m
}

// expr builds Σ coefs[i]·vars[i].
func expr(vars []model.Var, coefs ...float64) model.Expr {
	e := model.NewExpr(len(vars))
	for i, v := range vars {
		e.Add(v, coefs[i])
	}
	return e
}

func optimal(name string, m *model.Model, opt float64, x ...float64) Case {
	return Case{Name: name, Model: m, Status: []solve.Status{solve.Optimal}, Optimum: opt, Solution: x}
}

// mipCase is a MIP with the known answers of the MIP and of its LP relaxation.
type mipCase struct {
	ip, lp Case
}

// Cases returns every conformance case, LPs first, then MIPs, then the LP
// relaxations of the MIPs (named "lp/relaxation_<mip>"). Each call builds
// fresh models.
func Cases() []Case {
	cs := []Case{
		lpFeasible(), lpInfeasible(), lpUnbounded(), lpDegenerate(), lpFreeVariables(),
		lpRangedRows(), lpEqualityOnly(), lpEmptyObjective(), lpMaximizeOffset(),
	}
	mips := []mipCase{
		mipKnapsack(), mipAssignment(), mipSetCover(), mipGeneralIntegers(), mipInfeasible(),
		mipUnbounded(), mipInfeasibleUnboundedRelaxation(),
	}
	for _, mc := range mips {
		cs = append(cs, mc.ip)
	}
	for _, mc := range mips {
		cs = append(cs, mc.lp)
	}
	return cs
}

// relax returns the case for the LP relaxation of m.
func relax(name string, m *model.Model, c Case) Case {
	r := m.Relaxation()
	r.Name = m.Name + "_relaxation"
	c.Name = "lp/relaxation_" + name
	c.Model = r
	return c
}

// lpFeasible is the Wyndor Glass LP (Hillier & Lieberman):
//
//	minimise  −3x − 5y
//	s.t.      x ≤ 4,  2y ≤ 12,  3x + 2y ≤ 18,  x, y ≥ 0
//
// Optimum −36 at (2, 6).
func lpFeasible() Case {
	b := model.NewBuilder("lp_feasible")
	x := b.Continuous("x", 0, inf)
	y := b.Continuous("y", 0, inf)
	v := []model.Var{x, y}
	b.LessEq("plant1", expr(v, 1, 0), 4)
	b.LessEq("plant2", expr(v, 0, 2), 12)
	b.LessEq("plant3", expr(v, 3, 2), 18)
	b.Minimize(expr(v, -3, -5))
	return optimal("lp/feasible", mustBuild(b), -36, 2, 6)
}

// lpInfeasible has contradictory rows:
//
//	minimise  x + y
//	s.t.      x + y ≤ 1,  x + y ≥ 2,  x, y ≥ 0
//
// Infeasible.
func lpInfeasible() Case {
	b := model.NewBuilder("lp_infeasible")
	v := []model.Var{b.Continuous("x", 0, inf), b.Continuous("y", 0, inf)}
	b.LessEq("atmost", expr(v, 1, 1), 1)
	b.GreaterEq("atleast", expr(v, 1, 1), 2)
	b.Minimize(expr(v, 1, 1))
	return Case{Name: "lp/infeasible", Model: mustBuild(b),
		Status: []solve.Status{solve.Infeasible, solve.InfeasibleOrUnbounded}}
}

// lpUnbounded has a ray along (1, 1):
//
//	minimise  −x − y
//	s.t.      x − y ≤ 1,  x, y ≥ 0
//
// Unbounded.
func lpUnbounded() Case {
	b := model.NewBuilder("lp_unbounded")
	v := []model.Var{b.Continuous("x", 0, inf), b.Continuous("y", 0, inf)}
	b.LessEq("diff", expr(v, 1, -1), 1)
	b.Minimize(expr(v, -1, -1))
	return Case{Name: "lp/unbounded", Model: mustBuild(b),
		Status: []solve.Status{solve.Unbounded, solve.InfeasibleOrUnbounded}}
}

// lpDegenerate has four constraints active at its optimal vertex in two
// dimensions (a primal degenerate optimum):
//
//	minimise  −x − y
//	s.t.      x ≤ 1,  y ≤ 1,  x + y ≤ 2,  x + 2y ≤ 3,  x, y ≥ 0
//
// Optimum −2 at (1, 1).
func lpDegenerate() Case {
	b := model.NewBuilder("lp_degenerate")
	v := []model.Var{b.Continuous("x", 0, inf), b.Continuous("y", 0, inf)}
	b.LessEq("xcap", expr(v, 1, 0), 1)
	b.LessEq("ycap", expr(v, 0, 1), 1)
	b.LessEq("sum", expr(v, 1, 1), 2)
	b.LessEq("weighted", expr(v, 1, 2), 3)
	b.Minimize(expr(v, -1, -1))
	return optimal("lp/degenerate", mustBuild(b), -2, 1, 1)
}

// lpFreeVariables has free columns, one negative at the optimum:
//
//	minimise  x + 2y
//	s.t.      x + y ≥ 2,  x − y ≤ 4,  x, y free
//
// Optimum 1 at (3, −1) (duals 1.5 and −0.5).
func lpFreeVariables() Case {
	b := model.NewBuilder("lp_free_variables")
	v := []model.Var{b.Continuous("x", -inf, inf), b.Continuous("y", -inf, inf)}
	b.GreaterEq("sum", expr(v, 1, 1), 2)
	b.LessEq("diff", expr(v, 1, -1), 4)
	b.Minimize(expr(v, 1, 2))
	return optimal("lp/free_variables", mustBuild(b), 1, 3, -1)
}

// lpRangedRows has two ranged rows, one active at its upper side and one at
// its lower side:
//
//	minimise  −x − 2y
//	s.t.      1 ≤ x + y ≤ 3,  −1 ≤ x − y ≤ 1,  0 ≤ x, y ≤ 5
//
// Optimum −5 at (1, 2).
func lpRangedRows() Case {
	b := model.NewBuilder("lp_ranged_rows")
	v := []model.Var{b.Continuous("x", 0, 5), b.Continuous("y", 0, 5)}
	b.AddConstr("sum", expr(v, 1, 1), 1, 3)
	b.AddConstr("diff", expr(v, 1, -1), -1, 1)
	b.Minimize(expr(v, -1, -2))
	return optimal("lp/ranged_rows", mustBuild(b), -5, 1, 2)
}

// lpEqualityOnly has only equality rows:
//
//	minimise  x + 2y + 3z
//	s.t.      x + y + z = 6,  x − y = 1,  x, y, z ≥ 0
//
// Optimum 8.5 at (3.5, 2.5, 0).
func lpEqualityOnly() Case {
	b := model.NewBuilder("lp_equality_only")
	v := []model.Var{b.Continuous("x", 0, inf), b.Continuous("y", 0, inf), b.Continuous("z", 0, inf)}
	b.Equal("total", expr(v, 1, 1, 1), 6)
	b.Equal("link", expr(v, 1, -1, 0), 1)
	b.Minimize(expr(v, 1, 2, 3))
	return optimal("lp/equality_only", mustBuild(b), 8.5, 3.5, 2.5, 0)
}

// lpEmptyObjective is a feasibility problem:
//
//	minimise  0
//	s.t.      x + y ≥ 1,  x ≤ 0.5,  x, y ≥ 0
//
// Optimum 0, e.g. at (0.5, 0.5).
func lpEmptyObjective() Case {
	b := model.NewBuilder("lp_empty_objective")
	v := []model.Var{b.Continuous("x", 0, inf), b.Continuous("y", 0, inf)}
	b.GreaterEq("cover", expr(v, 1, 1), 1)
	b.LessEq("xcap", expr(v, 1, 0), 0.5)
	return optimal("lp/empty_objective", mustBuild(b), 0, 0.5, 0.5)
}

// lpMaximizeOffset maximises, with an objective constant:
//
//	maximise  3x + 2y + 10
//	s.t.      x + y ≤ 4,  x + 3y ≤ 6,  x ≤ 3,  x, y ≥ 0
//
// Optimum 21 at (3, 1).
func lpMaximizeOffset() Case {
	b := model.NewBuilder("lp_maximize_offset")
	v := []model.Var{b.Continuous("x", 0, inf), b.Continuous("y", 0, inf)}
	b.LessEq("sum", expr(v, 1, 1), 4)
	b.LessEq("weighted", expr(v, 1, 3), 6)
	b.LessEq("xcap", expr(v, 1, 0), 3)
	e := expr(v, 3, 2)
	e.AddConst(10)
	b.Maximize(e)
	return optimal("lp/maximize_offset", mustBuild(b), 21, 3, 1)
}

// mipKnapsack is a 0/1 knapsack:
//
//	maximise  16a + 19b + 23c + 28d
//	s.t.      2a + 3b + 4c + 5d ≤ 7,  a, b, c, d ∈ {0, 1}
//
// IP optimum 44 at (1, 0, 0, 1); LP optimum 46.5 at (1, 1, 0.5, 0).
func mipKnapsack() mipCase {
	b := model.NewBuilder("mip_knapsack")
	v := []model.Var{b.Binary("a"), b.Binary("b"), b.Binary("c"), b.Binary("d")}
	b.LessEq("capacity", expr(v, 2, 3, 4, 5), 7)
	b.Maximize(expr(v, 16, 19, 23, 28))
	m := mustBuild(b)
	return mipCase{optimal("mip/knapsack", m, 44, 1, 0, 0, 1),
		relax("knapsack", m, optimal("", nil, 46.5, 1, 1, 0.5, 0))}
}

// assignCost is the cost matrix of mipAssignment.
var assignCost = [3][3]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}

// mipAssignment assigns three workers to three jobs:
//
//	minimise  Σ c[i][j]·x[i][j],  c = [[4 1 3] [2 0 5] [3 2 2]]
//	s.t.      Σ_j x[i][j] = 1 (each i),  Σ_i x[i][j] = 1 (each j),  x binary
//
// IP optimum 5 with 0→1, 1→0, 2→2; the LP relaxation is integral (5).
func mipAssignment() mipCase {
	b := model.NewBuilder("mip_assignment")
	type key struct{ I, J int }
	x := model.NewFamily[key](b, "x")
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			x.Add(key{i, j}, 0, 1, assignCost[i][j], model.Binary)
		}
	}
	worker := model.NewRowFamily[int](b, "worker")
	job := model.NewRowFamily[int](b, "job")
	for i := 0; i < 3; i++ {
		ew, ej := model.NewExpr(3), model.NewExpr(3)
		for j := 0; j < 3; j++ {
			vw, _ := x.Get(key{i, j})
			vj, _ := x.Get(key{j, i})
			ew.Add(vw, 1)
			ej.Add(vj, 1)
		}
		worker.Equal(i, ew, 1)
		job.Equal(i, ej, 1)
	}
	m := mustBuild(b)
	sol := []float64{0, 1, 0, 1, 0, 0, 0, 0, 1} // row-major x[i][j]
	return mipCase{optimal("mip/assignment", m, 5, sol...),
		relax("assignment", m, optimal("", nil, 5, sol...))}
}

// mipSetCover covers {1, 2, 3} with sets {1,2}, {2,3}, {1,3} (cost 1 each)
// and {1,2,3} (cost 2.5):
//
//	minimise  s12 + s23 + s13 + 2.5·s123
//	s.t.      s12 + s13 + s123 ≥ 1,  s12 + s23 + s123 ≥ 1,
//	          s23 + s13 + s123 ≥ 1,  s binary
//
// IP optimum 2 (any two pairs); LP optimum 1.5 (each pair ½).
func mipSetCover() mipCase {
	b := model.NewBuilder("mip_set_cover")
	v := []model.Var{b.Binary("s12"), b.Binary("s23"), b.Binary("s13"), b.Binary("s123")}
	b.GreaterEq("e1", expr(v, 1, 0, 1, 1), 1)
	b.GreaterEq("e2", expr(v, 1, 1, 0, 1), 1)
	b.GreaterEq("e3", expr(v, 0, 1, 1, 1), 1)
	b.Minimize(expr(v, 1, 1, 1, 2.5))
	m := mustBuild(b)
	return mipCase{optimal("mip/set_cover", m, 2, 1, 1, 0, 0),
		relax("set_cover", m, optimal("", nil, 1.5, 0.5, 0.5, 0.5, 0))}
}

// mipGeneralIntegers has general integers with negative bounds:
//
//	minimise  2x + 3y
//	s.t.      x + y ≥ −3.5,  x − y ≤ 1.5,  x ∈ [−5, 5], y ∈ [−4, 3] integer
//
// IP optimum −8 at (−1, −2); LP optimum −9.5 at (−1, −2.5).
func mipGeneralIntegers() mipCase {
	b := model.NewBuilder("mip_general_integers")
	v := []model.Var{b.Integer("x", -5, 5), b.Integer("y", -4, 3)}
	b.GreaterEq("sum", expr(v, 1, 1), -3.5)
	b.LessEq("diff", expr(v, 1, -1), 1.5)
	b.Minimize(expr(v, 2, 3))
	m := mustBuild(b)
	return mipCase{optimal("mip/general_integers", m, -8, -1, -2),
		relax("general_integers", m, optimal("", nil, -9.5, -1, -2.5))}
}

// mipInfeasible has a feasible LP relaxation but no integer point (the row's
// left side is even):
//
//	minimise  x + y
//	s.t.      2x + 2y = 3,  x, y ∈ [0, 5] integer
//
// IP infeasible; LP optimum 1.5 at (1.5, 0).
func mipInfeasible() mipCase {
	b := model.NewBuilder("mip_infeasible")
	v := []model.Var{b.Integer("x", 0, 5), b.Integer("y", 0, 5)}
	b.Equal("parity", expr(v, 2, 2), 3)
	b.Minimize(expr(v, 1, 1))
	m := mustBuild(b)
	return mipCase{
		Case{Name: "mip/infeasible", Model: m, Status: []solve.Status{solve.Infeasible, solve.InfeasibleOrUnbounded}},
		relax("infeasible", m, optimal("", nil, 1.5, 1.5, 0)),
	}
}

// mipUnbounded is a MIP whose LP relaxation is unbounded and which is itself
// unbounded (integer points (2k, k) for every k ≥ 0):
//
//	maximise  x
//	s.t.      x − 2y = 0,  x, y ≥ 0 integer
//
// IP and LP unbounded.
func mipUnbounded() mipCase {
	b := model.NewBuilder("mip_unbounded")
	v := []model.Var{b.Integer("x", 0, inf), b.Integer("y", 0, inf)}
	b.Equal("double", expr(v, 1, -2), 0)
	b.Maximize(expr(v, 1, 0))
	m := mustBuild(b)
	st := []solve.Status{solve.Unbounded, solve.InfeasibleOrUnbounded}
	return mipCase{Case{Name: "mip/unbounded", Model: m, Status: st},
		relax("unbounded", m, Case{Status: st})}
}

// mipInfeasibleUnboundedRelaxation is a MIP whose LP relaxation is unbounded
// but which has no integer point at all:
//
//	minimise  −x
//	s.t.      2y − 2z = 1,  x ≥ 0,  y, z ∈ [−10, 10] integer
//
// IP infeasible; LP unbounded.
func mipInfeasibleUnboundedRelaxation() mipCase {
	b := model.NewBuilder("mip_infeasible_unbounded_relaxation")
	v := []model.Var{b.Continuous("x", 0, inf), b.Integer("y", -10, 10), b.Integer("z", -10, 10)}
	b.Equal("odd", expr(v, 0, 2, -2), 1)
	b.Minimize(expr(v, -1, 0, 0))
	m := mustBuild(b)
	return mipCase{
		Case{Name: "mip/infeasible_unbounded_relaxation", Model: m,
			Status: []solve.Status{solve.Infeasible, solve.InfeasibleOrUnbounded}},
		relax("infeasible_unbounded_relaxation", m, Case{
			Status: []solve.Status{solve.Unbounded, solve.InfeasibleOrUnbounded}}),
	}
}
