package tumm_test

import (
	"fmt"

	"github.com/mrbound/mrbound/formulations/tumm"
)

// Algorithm 1 on a three-job FIFO batch with S = 4 slots.
func ExampleStaticConfig() {
	jobs := []tumm.Job{
		{Name: "a", MapTasks: 4, ReduceTasks: 2, MapTime: 3, ReduceTime: 6},
		{Name: "b", MapTasks: 6, ReduceTasks: 1, MapTime: 2, ReduceTime: 4},
		{Name: "c", MapTasks: 2, ReduceTasks: 3, MapTime: 5, ReduceTime: 2},
	}
	r, _ := tumm.StaticConfig(jobs, 4)
	fmt.Printf("s_m = %d, s_r = %d, makespan %.2f\n", r.MapSlots, r.ReduceSlots, r.Makespan)
	for sm, ms := range r.Makespans {
		fmt.Printf("s_m = %d: %.2f\n", sm+1, ms)
	}
	// Output:
	// s_m = 2, s_r = 2, makespan 20.00
	// s_m = 1: 36.00
	// s_m = 2: 20.00
	// s_m = 3: 26.00
	// s_m = 4: +Inf
}
