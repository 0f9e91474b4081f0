package tumm

import (
	"bytes"
	"testing"

	"github.com/mrbound/mrbound/internal/golden"
	"github.com/mrbound/mrbound/model/lpformat"
)

// TestGoldenLP compares a two-node program, in CPLEX LP text, with
// testdata/*.lp.golden (go test -update rewrites them).
func TestGoldenLP(t *testing.T) {
	nodes := []Node{{Name: "n1", Slots: 2, MapTime: 1, ReduceTime: 3}, {Name: "n2", Slots: 1, MapTime: 2, ReduceTime: 2}}
	for name, p := range map[string]HetProblem{
		"two-nodes-published-align":   {Nodes: nodes, MapTasks: 5, ReduceTasks: 2, Objective: Published, Align: true},
		"two-nodes-stage-perspective": {Nodes: nodes, MapTasks: 5, ReduceTasks: 2, Objective: Stage, Perspective: true},
	} {
		m, _, err := BuildHet(p)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := lpformat.Write(&buf, m); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name+".lp.golden", buf.Bytes())
	}
}
