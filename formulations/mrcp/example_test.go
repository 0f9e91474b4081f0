package mrcp_test

import (
	"fmt"
	"os"

	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// A three-job stream on one resource with one map and one reduce slot: the
// time-indexed model's size (the two identical maps of the first job share
// integer start counts), its horizon and the bounds on the maximum
// turnaround.
func Example() {
	in, err := mrcpscenario.Parse("three.json", []byte(`{"kind": "mrcp", "schema_version": 1,
	  "resources": [{"map_slots": 1, "reduce_slots": 1}],
	  "jobs": [
	    {"release": 0, "deadline": 6, "maps": [{"duration": 2}, {"duration": 2}], "reduces": [{"duration": 1}]},
	    {"release": 1, "deadline": 4, "maps": [{"duration": 1}], "reduces": [{"duration": 1}]},
	    {"release": 2, "deadline": 9, "maps": [{"duration": 3}], "reduces": [{"duration": 2}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	bt, err := mrcp.Build(in, mrcp.Options{Formulation: mrcp.TimeIndexed})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("horizon %d, turnaround in [%d, %d], heuristic: %d late, max turnaround %d\n",
		bt.Horizon, bt.Zmin, bt.Zmax, bt.Heuristic.LateJobs, bt.Heuristic.MaxTurnaround)
	bt.Model.Stats().Write(os.Stdout)
	// Output:
	// horizon 14, turnaround in [7, 14], heuristic: 1 late, max turnaround 9
	// rows         117 (1 equality, 116 inequality, 0 ranged, 0 free)
	// columns      67 (6 continuous, 11 integer, 50 binary)
	// nonzeros     326
	// matrix       [1e+00, 1e+01]
	// objective    [1e+00, 2e+00]
	// bounds       [1e+00, 1e+01]
	// rhs          [1e+00, 1e+01]
}
