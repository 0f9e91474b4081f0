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

// countSize is an upper estimate of R_K's columns and nonzeros (buildCount),
// from the counts alone. With pl_i the placements of task i in one interval
// (machines that run it × their slot classes), w = Σ pl_i, L the length
// levels and J the jobs: per interval w placements, L level binaries and two
// per job (q, s); a placement sits in at most 6 + L + max pl rows (assign,
// nonempty, RAM, disk, slot, order, a level row per level, a buy row per
// other placement of its task). Precedence rows sum a task's placements over
// every earlier interval, K²·w in all (the cumulative form: K² per shuffle
// pair); each shuffle reservation (pairs × machines² per interval) sums its
// map's and reduce's placements over the intervals before and after it,
// K·2·max pl, in R_K with the network. These last two are quadratic in K,
// which is why R_K is estimated apart from the full model.
func countSize(in *jlassiscenario.Instance, classes [][2][][]int, levels int, o countOptions) (cols, nnz float64) {
	K := float64(o.K)
	var w, maxPl float64
	pl := make([]float64, len(in.Tasks))
	for i := range in.Tasks {
		for j := range in.Machines {
			if in.Tasks[i].P[j] != nil {
				pl[i] += float64(len(classes[j][kindIndex(in.Tasks[i].Kind)]))
			}
		}
		w += pl[i]
		maxPl = max(maxPl, pl[i])
	}
	L, J, m := float64(levels), float64(len(in.Jobs)), float64(len(in.Machines))
	cols = K * (w + L + 2*J + 1)
	nnz = K*w*(6+L+maxPl) + K*K*w + K*L*(4+J)
	if o.CumulativePrecedence {
		for _, job := range in.Jobs {
			for _, k := range job.Reduces {
				for _, l := range job.Maps {
					nnz += K * K * (pl[k] + pl[l])
				}
			}
		}
	}
	if o.Network {
		z := K * float64(len(in.Shuffles)) * m * m
		cols += z
		nnz += z*(2*K*maxPl+2+float64(len(in.Links))) + K*float64(len(in.Links))
	}
	return cols, nnz
}

// checkCountSize refuses R_K when it would not fit the memory budget, before
// any variable is made.
func checkCountSize(in *jlassiscenario.Instance, classes [][2][][]int, levels int, o countOptions) error {
	cols, nnz := countSize(in, classes, levels, o)
	return sizelimit.CheckBytes(fmt.Sprintf("interval count K = %d", o.K), cols*sizelimit.ModelColumn+nnz*sizelimit.ModelNonzero,
		fmt.Sprintf("the interval-count relaxation R_K of about %.3g columns and %.3g nonzeros", cols, nnz))
}
