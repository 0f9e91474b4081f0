package tumm_test

import (
	"testing"

	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

// fungibleOnly: every policy of the package chooses slot kinds (or caps
// them per node) and refuses a fixed cluster in Init.
var fungibleOnly = simtest.Caps{NoFixed: "chooses each slot's kind: needs a fungible cluster"}

func TestConformance(t *testing.T) {
	for _, name := range tumm.Names {
		t.Run(name, func(t *testing.T) {
			simtest.Run(t, func() sim.Policy {
				p, err := tumm.ByName(name)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}, fungibleOnly)
		})
	}
}

func TestConformanceVariants(t *testing.T) {
	variants := map[string]func() sim.Policy{
		"tumm-basic":   func() sim.Policy { return tumm.NewTuMM(tumm.TuMMOptions{Rule: tumm.RuleBasic}) },
		"tumm-floor":   func() sim.Policy { return tumm.NewTuMM(tumm.TuMMOptions{Rounding: tumm.RoundFloor}) },
		"tumm-known":   func() sim.Policy { return tumm.NewTuMM(tumm.TuMMOptions{Known: true}) },
		"htumm-bounds": func() sim.Policy { return tumm.NewHTuMM(tumm.HTuMMOptions{Bounds: true}) },
	}
	for name, f := range variants {
		t.Run(name, func(t *testing.T) { simtest.Run(t, f, fungibleOnly) })
	}
}

// TestRefusesFixedCluster: on fixed slots the split is the cluster's, so
// every policy of the package says so instead of silently running FIFO.
func TestRefusesFixedCluster(t *testing.T) {
	for _, name := range tumm.Names {
		p, _ := tumm.ByName(name)
		if _, err := sim.Run(simtest.Tiny(), p, sim.DefaultOptions()); err == nil {
			t.Errorf("%s ran on a fixed cluster", name)
		}
	}
}

func TestByNameErrors(t *testing.T) {
	for _, bad := range []string{"tum", "static:", "static:1", "static:a:b", "static:0:0", "static:-1:3"} {
		if _, err := tumm.ByName(bad); err == nil {
			t.Errorf("ByName(%q) accepted", bad)
		}
	}
	p, err := tumm.ByName("static:5:7")
	if err != nil || p.Name() != "static:5:7" {
		t.Errorf("ByName(static:5:7) = %v, %v", p, err)
	}
}

// fungibleCases are all of the suite's cases with the cluster made fungible
// (each node's slots pooled), so that heterogeneous nodes, RAM limits,
// chains, noise, contention, slow-start 1, overlap, out-of-band heartbeats
// and missing estimates are exercised too (the suite itself has only two
// fungible cases).
func fungibleCases() []simtest.Case {
	var out []simtest.Case
	for _, c := range simtest.Cases() {
		if c.Workload.Cluster.Fungible {
			continue
		}
		w := *c.Workload
		w.Cluster.Nodes = append([]sim.Node(nil), w.Cluster.Nodes...)
		w.Cluster.Fungible = true
		for i := range w.Cluster.Nodes {
			n := &w.Cluster.Nodes[i]
			n.TotalSlots = n.MapSlots + n.ReduceSlots
		}
		out = append(out, simtest.Case{Name: c.Name + "+fungible", Workload: &w, Options: c.Options})
	}
	return out
}

func TestConformanceFungibleVariants(t *testing.T) {
	policies := append([]string(nil), tumm.Names...)
	policies = append(policies, "static:5:7")
	for _, name := range policies {
		for _, c := range fungibleCases() {
			t.Run(name+"/"+c.Name, func(t *testing.T) {
				simtest.CheckCase(simtestT{t}, c, func() sim.Policy { p, _ := tumm.ByName(name); return p }, fungibleOnly)
			})
		}
	}
}

// simtestT adapts *testing.T to simtest.T.
type simtestT struct{ *testing.T }

func (t simtestT) Run(name string, f func(simtest.T)) bool {
	return t.T.Run(name, func(t *testing.T) { f(simtestT{t}) })
}

// TestStaticNodesNeedsASplit: a fungible cluster without a configured split
// (map and reduce slots) is refused, not left to starve.
func TestStaticNodesNeedsASplit(t *testing.T) {
	w := &sim.Workload{Cluster: sim.Cluster{Fungible: true, Nodes: []sim.Node{{TotalSlots: 2}}},
		Jobs: []sim.Job{{Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 1000}}}}}
	if _, err := sim.Run(w, tumm.NewStaticNodes(), sim.DefaultOptions()); err == nil {
		t.Error("static:nodes ran without a configured split")
	}
}
