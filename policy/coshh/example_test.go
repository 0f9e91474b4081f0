package coshh_test

import (
	"fmt"

	capacity "github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/sim"
	_ "github.com/mrbound/mrbound/solve/native"
)

// The paper's worked example drives a two-node simulation: R1 only serves
// class C2.
func Example() {
	ex := capacity.Problem{Name: "primary", Classes: []string{"C1", "C2"}, Resources: []string{"R1", "R2"},
		Alpha: []float64{2.45, 2.45}, Mu: [][]float64{{9, 5}, {2, 1}}}
	p := coshh.New()
	p.Stated = &coshh.Stated{Primary: ex, Secondary: ex}
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{Name: "R1", MapSlots: 1}, {Name: "R2", MapSlots: 1}}},
		Users:   []sim.User{{Name: "U1", MinShare: 1}, {Name: "U2", MinShare: 1}},
		Jobs: []sim.Job{
			{User: 0, Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 4000}, {Work: 4000}}},
			{User: 1, Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 4000}, {Work: 4000}}},
		},
	}
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	res, err := sim.Run(w, p, opt)
	if err != nil {
		panic(err)
	}
	fmt.Printf("λ = %.4f, SC_R1 = %v, SC_R2 = %v\n", p.Stats.Lambda[0], p.Suggested(0, 0), p.Suggested(0, 1))
	for _, a := range res.Trace {
		fmt.Printf("U%d's map %d on %s at %v s\n", w.Jobs[a.Job].User+1, a.Index, w.Cluster.Nodes[a.Node].Name, a.Launch.Seconds())
	}
	// Output:
	// λ = 1.0204, SC_R1 = [1], SC_R2 = [0 1]
	// U2's map 0 on R1 at 0 s
	// U1's map 0 on R2 at 0 s
	// U2's map 1 on R1 at 4 s
	// U1's map 1 on R2 at 4 s
}
