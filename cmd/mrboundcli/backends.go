package mrboundcli

// The solver backends mrbound ships; each registers itself with package solve.
import (
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
)

// The sweep kinds mrbound ships; each registers itself with package sweep.
import (
	_ "github.com/mrbound/mrbound/compare/comparesweep"
	_ "github.com/mrbound/mrbound/sweep/jlassitable"
)
