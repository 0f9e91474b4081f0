// Package sweep runs many independent solves or simulations — the items of a
// long table or comparison — one per process or core, on this machine or on
// a cluster's own scheduler, and merges their results into the table a
// single-machine run produces.
//
// # The contract
//
// A manifest (sweep.json: "kind": "sweep", "schema_version": 1) names the
// sweep kind, its parameters, its per-item limits and the list of items.
// Item i is run by RunItem (`mrbound sweep run MANIFEST --index i`, or with
// the index taken from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX), which
// writes results/i.json atomically (temp file + rename); an item whose result
// exists is not run again, so re-running a finished item does nothing and a
// killed sweep loses only the items that were running. A failed item writes
// results/i.failed.json with its message instead; it is retried by the next
// run. Every attempt appends to logs/i.log. Collect merges the results, in
// item order, through the kind's Collect and lists the failed and missing
// items with their logs.
//
// # Kinds
//
// A Kind (registered with Register by the package that defines the work,
// e.g. sweep/jlassitable) turns one item's spec into a result (Run) and all
// the results into the table, CSV and plot (Collect). Package sweep knows
// nothing of formulations or policies.
//
// # Engines
//
// RunLocal is the local worker pool (one item per core by default). Slurm
// job arrays (package sweep/slurm) and Kubernetes Indexed Jobs (package
// sweep/kube) run the same `mrbound sweep run` per item, so every engine
// leaves the same files behind.
package sweep
