package tumm

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrbound/mrbound/model/lpformat"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

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
		path := filepath.Join("testdata", name+".lp.golden")
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs:\n%s\nwant:\n%s", path, buf.String(), want)
		}
	}
}
