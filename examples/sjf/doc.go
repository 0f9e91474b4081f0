// Package sjf is shortest job first as a Go policy outside mrbound's own
// policies: the example of docs/own-policy.md's Go route, and the reference
// the Python example clients/python/examples/sjf.py must match decision for
// decision (policy/external's TestPythonSJF).
//
// # Rule
//
// Every free slot goes to the arrived job with the least estimated work
// left — the sum of its pending tasks' estimates on node 0's class — ties
// by arrival and then id; the order is fixed once per offer. Within the
// job, a map local to the node if it has one (sim.PickMap), else its next
// reduce. Without estimates (--estimates none) every task counts 1, so the
// job with the fewest pending tasks goes first.
package sjf
