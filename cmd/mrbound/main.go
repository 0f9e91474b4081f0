// Command mrbound computes reference lower bounds and offline optimal schedules
// for MapReduce/Hadoop clusters. See the README and docs/ for usage; the
// command itself is package cmd/mrboundcli.
package main

import (
	"os"

	"github.com/mrbound/mrbound/cmd/mrboundcli"
)

func main() { os.Exit(mrboundcli.Main()) }
