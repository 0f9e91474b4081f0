// Package comparesweep registers the "compare" sweep kind (package sweep):
// the sweep form of mrbound compare as independent items, one per instance
// (λ, seed) of a generated family, run locally, on Slurm or on Kubernetes
// and collected into the same table and plot as a single-machine run.
//
// # Items
//
// Params hold the family, job count, metric, policies and comparison
// options; each item's spec is {lambda, seed}; its result is the instance's
// records (one per policy) as CSV rows of compare.SweepRecords. Collect
// writes the records table to the output path, the plot beside it
// (path + ".svg") and the mean ratios to stdout.
package comparesweep
