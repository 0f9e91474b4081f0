// Command mrbound-sjf is the whole mrbound command with the SJF policy of
// package sjf added as --policy sjf: the Go route of docs/own-policy.md,
// without a fork.
package main
