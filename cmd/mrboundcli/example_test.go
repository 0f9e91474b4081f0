package mrboundcli_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/mrbound/mrbound/cmd/mrboundcli"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
)

// lifo serves the job that arrived last first: a policy of one's own.
type lifo struct{ arrived []int }

func (p *lifo) Name() string                           { return "lifo" }
func (p *lifo) Init(*sim.Sim) error                    { p.arrived = nil; return nil }
func (p *lifo) JobArrival(_ *sim.Sim, j int)           { p.arrived = append(p.arrived, j) }
func (p *lifo) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}
func (p *lifo) Timer(*sim.Sim, int64)                  {}

func (p *lifo) Offer(s *sim.Sim, x int, free sim.Free) {
	for i := len(p.arrived) - 1; i >= 0 && free.Map > 0; i-- {
		for t, _, ok := s.PickMap(p.arrived[i], x); ok && free.Map > 0; t, _, ok = s.PickMap(p.arrived[i], x) {
			if s.Launch(t, x) != nil {
				break
			}
			free.Map--
		}
	}
	for i := len(p.arrived) - 1; i >= 0 && free.Reduce > 0; i-- {
		for t, ok := s.PickReduce(p.arrived[i]); ok && free.Reduce > 0; t, ok = s.PickReduce(p.arrived[i]) {
			if s.Launch(t, x) != nil {
				break
			}
			free.Reduce--
		}
	}
}

// A Go program that is mrbound plus a policy of its own: register it, then
// run the command. Its main would be
//
//	func main() {
//		policy.Register("lifo", func(policy.Params) sim.Policy { return &lifo{} })
//		os.Exit(mrboundcli.Main())
//	}
//
// Here Run takes the arguments instead of os.Args.
func Example() {
	policy.Register("lifo", func(policy.Params) sim.Policy { return &lifo{} })

	var out bytes.Buffer
	code := mrboundcli.Run([]string{"mrbound", "simulate", "--policy", "lifo", "--heartbeat", "0",
		"../../examples/mrcp-stream.json"}, &out, os.Stderr)
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "policy" || f[0] == "completed" || f[0] == "makespan" || f[0] == "verdict") {
			fmt.Println(line)
		}
	}
	fmt.Println("exit code", code)
	// Output:
	// policy      lifo
	// completed   6 of 6 jobs
	// makespan    170 s
	// verdict     verified (independent trace checker)
	// exit code 0
}
