// Package mrboundcli is the whole mrbound command as a library, so that a Go
// program can be mrbound with policies of its own without forking it.
//
// # Embedding
//
// cmd/mrbound is `os.Exit(mrboundcli.Main())`. A program that registers its
// policies first (policy.Register, in main or in a package's init) and then
// calls Main accepts them wherever a policy name is accepted (simulate,
// compare --policies, the sweeps); see Example and docs/own-policy.md.
//
// # Layout
//
// Each command is a package-level constructor (simulateCommand,
// compareCommand, …) whose action turns flags into an options struct and
// calls a library function; the golden CLI cases live beside the command in
// cmd/mrbound/testdata (TestCLI, -update).
package mrboundcli
