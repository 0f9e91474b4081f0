package tumm

import (
	"os"
	"testing"

	"github.com/mrbound/mrbound/instances/tummscenario"
)

// FuzzParseAndStatic: any input either fails to parse with an error or runs
// Algorithm 1 and builds the per-node program; nothing panics.
func FuzzParseAndStatic(f *testing.F) {
	for _, p := range []string{"../../examples/tumm-static.json", "../../examples/tumm-heterogeneous.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := tummscenario.Parse("", data)
		if err != nil {
			return
		}
		if st := s.Static; st != nil && st.Slots <= 64 && len(st.Jobs) <= 64 {
			r, err := StaticConfig(st.Jobs, st.Slots)
			if err == nil {
				Simulate(st.Jobs[:min(len(st.Jobs), 4)], r.MapSlots, r.ReduceSlots)
			}
		}
		if h := s.Heterogeneous; h != nil && len(h.Nodes) <= 4 && h.MapTasks <= 1000 && h.ReduceTasks <= 1000 {
			small := true
			for _, n := range h.Nodes {
				small = small && n.Slots <= 16 && n.MapTime >= 1e-3 && n.ReduceTime >= 1e-3 && n.MapTime <= 1e3 && n.ReduceTime <= 1e3
			}
			if small {
				p := HetProblem{Nodes: h.Nodes, MapTasks: h.MapTasks, ReduceTasks: h.ReduceTasks, Objective: Published, Align: h.AlignOn()}
				if _, _, err := BuildHet(p); err != nil {
					t.Fatalf("valid problem does not build: %v", err)
				}
			}
		}
	})
}
