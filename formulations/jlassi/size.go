package jlassi

import (
	"fmt"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// modelSize is an upper estimate of the time-indexed model's columns and
// nonzeros at horizon T, from the counts alone: per interval, a w column
// per task, machine and slot class, a y per block and machine, a u per
// block and machine pair, a z per shuffle pair (a reduce and a map of its
// job) and machine pair; each column sits in at most nnzPerColumn rows.
func modelSize(in *jlassiscenario.Instance, T int, classes [][2][][]int) (cols, nnz float64) {
	var w float64
	for i := range in.Tasks {
		for j := range in.Machines {
			w += float64(len(classes[j][kindIndex(in.Tasks[i].Kind)]))
		}
	}
	m := float64(len(in.Machines))
	b := float64(len(in.Blocks))
	pairs := 0.0
	for _, job := range in.Jobs {
		pairs += float64(len(job.Maps)) * float64(len(job.Reduces))
	}
	cols = float64(T) * (w + b*m + b*m*m + pairs*m*m + 1)
	return cols, cols * nnzPerColumn
}

// nnzPerColumn bounds the rows a column of the model sits in (assignment,
// slot capacity, interval length, precedence, locality, RAM, disk, link
// capacity and the objective): scenario 5's published model has 21 on
// average (its interval-length rows hold every w of the interval).
const nnzPerColumn = 24

// checkSize refuses a model at horizon T that would not fit the memory
// budget, before any variable is made.
func checkSize(in *jlassiscenario.Instance, T int, classes [][2][][]int) error {
	cols, nnz := modelSize(in, T, classes)
	return sizelimit.CheckBytes(fmt.Sprintf("horizon T = %d", T), cols*sizelimit.ModelColumn+nnz*sizelimit.ModelNonzero,
		fmt.Sprintf("a time-indexed model of about %.3g columns and %.3g nonzeros", cols, nnz))
}
