package simplex

import (
	"context"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// engine is a placeholder until the real engine lands.
type engine struct {
	n, m                  int
	opts                  Options
	status                solve.Status
	totalIters, lastIters int64
	head                  []int
}

func newEngine(m *model.Model, opts Options) *engine {
	return &engine{n: m.NumCols(), m: m.NumRows(), opts: opts}
}
func (e *engine) solve(ctx context.Context) solve.Status      { return solve.NumericalTrouble }
func (e *engine) objective() float64                          { return 0 }
func (e *engine) colValues() []float64                        { return nil }
func (e *engine) rowValues() []float64                        { return nil }
func (e *engine) duals() []float64                            { return nil }
func (e *engine) reducedCosts() []float64                     { return nil }
func (e *engine) rayCopy() []float64                          { return nil }
func (e *engine) basis() Basis                                { return Basis{} }
func (e *engine) setBasis(b Basis) error                      { return nil }
func (e *engine) colBounds(j int) (float64, float64)          { return 0, 0 }
func (e *engine) setColBounds(j int, lo, up float64) error    { return nil }
func (e *engine) addRows(rows []Row) error                    { return nil }
func (e *engine) removeRows(idx []int) error                  { return nil }
func (e *engine) posOf(k int) int                             { return -1 }
func (e *engine) varValue(k int) float64                      { return 0 }
func (e *engine) varStatus(k int) solve.BasisStatus           { return 0 }
func (e *engine) varBounds(k int) (float64, float64)          { return 0, 0 }
func (e *engine) tableauRow(pos int, row []float64) []float64 { return row }
func (e *engine) clone() *engine                              { c := *e; return &c }
