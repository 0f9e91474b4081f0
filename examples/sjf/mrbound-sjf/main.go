package main

import (
	"os"

	"github.com/mrbound/mrbound/cmd/mrboundcli"
	"github.com/mrbound/mrbound/examples/sjf"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
)

func main() {
	policy.Register("sjf", func(policy.Params) sim.Policy { return sjf.New() })
	os.Exit(mrboundcli.Main())
}
