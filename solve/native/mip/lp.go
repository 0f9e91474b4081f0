package mip

import (
	"context"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// LP is what the search needs of an LP solver; *simplex.Solver provides it
// through nativeLP. Tests may substitute another implementation through
// newLP.
type LP interface {
	Solve(ctx context.Context) solve.Status
	Objective() float64
	X() []float64
	ReducedCosts() []float64
	// Ray is the Farkas certificate over the rows after Infeasible; Duals
	// the row duals (d = c − Aᵀy) after Optimal.
	Ray() []float64
	Duals() []float64
	Iterations() int64
	Basis() simplex.Basis
	SetBasis(b simplex.Basis) error
	SetColBounds(j int, lo, up float64) error
	AddRows(rows []simplex.Row) error
	RemoveRows(indices []int) error
	NumRows() int
	BasicVar(pos int) int
	VarValue(k int) float64
	VarStatus(k int) solve.BasisStatus
	TableauRow(pos int, row []float64) []float64
	SetOptions(opts simplex.Options)
	Clone() LP
}

type nativeLP struct{ *simplex.Solver }

func (n nativeLP) Clone() LP { return nativeLP{n.Solver.Clone()} }

// newLP builds the LP relaxation solver; a variable so that tests can
// substitute an oracle.
var newLP = func(m *model.Model, opts simplex.Options) (LP, error) {
	s, err := simplex.New(m, opts)
	if err != nil {
		return nil, err
	}
	return nativeLP{s}, nil
}
