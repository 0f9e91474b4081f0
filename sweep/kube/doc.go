// Package kube runs a sweep as a Kubernetes Indexed Job: one completion
// index per item to run, each pod running `mrbound sweep run` with the index
// in JOB_COMPLETION_INDEX.
//
// # The Job
//
// Job builds a batch/v1 Job (completionMode Indexed; completions = the items
// to run; parallelism as asked; one retry per index with
// backoffLimitPerIndex, Kubernetes ≥ 1.29) whose pod mounts the
// PersistentVolumeClaim holding the sweep directory, asks for one CPU and the
// sweep's per-item memory, and is stopped after the per-item time limit
// (activeDeadlineSeconds). When only some items remain, the container gets
// `--items LIST` and completion index k runs the k-th of them. WriteJSON
// writes it as JSON, which kubectl apply -f reads like YAML.
package kube
