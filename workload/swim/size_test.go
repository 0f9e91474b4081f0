package swim

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// TestSizeRefusals: traces and clusters that imply more memory than the
// budget are refused before anything is allocated, with one line naming the
// place (the flag, or the file:line of the line implying 10^9 maps); each
// would have asked for tens to hundreds of GB before.
func TestSizeRefusals(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	line := "job0\t0\t0\t67108864000000000\t0\t0\n" // 10^9 maps of 64 MB
	small := "jobS\t0\t0\t1000\t0\t0\n"
	for _, c := range []struct {
		name, trace string
		model       func(*Model)
		cluster     func(*ClusterSpec)
		prefix      string
	}{
		{"maps of one line", line, nil, nil, "t.tsv:1: 1e+09 tasks (67108864000000000 bytes at --block-mb 64) need about 283 GiB"},
		{"reduces of one line", "job0\t0\t0\t0\t1152921504606846976\t0\n", nil, nil, "t.tsv:1: "},
		{"maps of the second line", small + line, nil, nil, "t.tsv:2: "},
		{"tiny blocks", small + "job1\t1\t0\t1000000000000000\t0\t0\n", func(m *Model) { m.BlockBytes = 1 }, nil, "t.tsv:2: 1e+15 tasks"},
		{"many lines together", manyLines(20, "\t0\t0\t671088640000000\t0\t0\n"), nil, nil, "t.tsv: 200000000 tasks on 600 nodes"},
		{"nodes", small, nil, func(c *ClusterSpec) { c.Nodes = 1e12 }, "--nodes: 1000000000000 nodes"},
		{"map slots", small, nil, func(c *ClusterSpec) { c.MapSlots = 1 << 40 }, "--map-slots, --reduce-slots: "},
		{"reduce slots", small, nil, func(c *ClusterSpec) { c.ReduceSlots = 1 << 62 }, "--map-slots, --reduce-slots: "},
	} {
		recs, err := Read(strings.NewReader(c.trace), "t.tsv")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, cl := DefaultModel(), DefaultCluster()
		if c.model != nil {
			c.model(&m)
		}
		if c.cluster != nil {
			c.cluster(&cl)
		}
		w, err := m.Workload(recs, cl, "t.tsv")
		if err == nil {
			t.Errorf("%s: accepted (%d tasks)", c.name, w.NumTasks())
			continue
		}
		msg := err.Error()
		if !errors.Is(err, badinput.Err) || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(msg, c.prefix) ||
			!strings.Contains(msg, "more than the memory budget of 8 GiB") || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want one bad-input line starting %q and naming the budget", c.name, msg, c.prefix)
		}
	}
}

// TestSizeAllowsLarge: a line of 2·10^5 maps on 10^5 nodes, large but well
// within the budget, is built.
func TestSizeAllowsLarge(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	recs, err := Read(strings.NewReader("job0\t0\t0\t13421772800000\t0\t0\n"), "t.tsv")
	if err != nil {
		t.Fatal(err)
	}
	cl := DefaultCluster()
	cl.Nodes = 100000
	w, err := DefaultModel().Workload(recs, cl, "t.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if w.NumTasks() != 200000 || len(w.Cluster.Nodes) != 100000 {
		t.Errorf("%d tasks on %d nodes, want 200000 on 100000", w.NumTasks(), len(w.Cluster.Nodes))
	}
}

// manyLines is n SWIM lines job0, job1, … with the same fields after the id
// (repeated ids are refused before any size is estimated).
func manyLines(n int, rest string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "job%d%s", i, rest)
	}
	return b.String()
}
