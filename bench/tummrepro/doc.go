// Package tummrepro reproduces TuMM's experiments (Yao et al. §6,
// policies.md §3.2 and §5) in the simulator: the five simple homogeneous
// batches under the static splits 1:3, 2:2, 3:1, Algorithm 1's and TuMM;
// the mixed batch in Johnson's, reverse and random order; and the TPC-H-like
// chains on Heter1 and Heter2 under FIFO with Table 3's split and H_TuMM.
//
// # Runs
//
// Every run is verified by the independent checker (sim/check) and its
// makespan compared with the batch lower bound
//
//	LB = max(Σ_i W_i / S, max_i CP_i)
//
// (W_i job i's work on the fastest node group, CP_i its critical path:
// one map plus one reduce on the fastest group, and for a chain the sum over
// its sub-queries), which no valid schedule can beat; a run below it is a
// defect and fails Run.
//
// # Output
//
// Report.WriteMarkdown writes the tables beside the published numbers and
// WriteSVG the figures (gonum/plot): go test -v ./bench/tummrepro -run
// TestReproduce -args -write $PWD/docs prints the tables and rewrites
// docs/figures/tumm-*.svg; the test alone checks every run. DecisionTimes
// measures the wall time per decision on a SWIM trace (-args -decisions).
package tummrepro
