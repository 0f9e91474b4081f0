package external

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

// columnCheck is the built-in FIFO that, at each arrival, checks the job
// message protocol 2 sends against the engine's view.
type columnCheck struct {
	*fifo.Policy
	t       *testing.T
	classes []int
	jobs    int
	demands bool // some task had a RAM demand (the RAM workload must exercise the column)
}

func (c *columnCheck) Init(s *sim.Sim) error {
	_, c.classes = estimateClasses(s.Cluster())
	return c.Policy.Init(s)
}

func (c *columnCheck) JobArrival(s *sim.Sim, j int) {
	c.jobs++
	m := newJob(s, j, c.classes)
	v := s.Job(j)
	check := func(kind string, ts tasks, first sim.TaskID, n int, isMap bool) {
		if ts.Count != n {
			c.t.Errorf("job %d %s: count %d, want %d", j, kind, ts.Count, n)
		}
		if n > 0 && len(ts.Est) != len(c.classes) {
			c.t.Errorf("job %d %s: %d estimate columns for %d classes", j, kind, len(ts.Est), len(c.classes))
			return
		}
		for i := range n {
			id := first + sim.TaskID(i)
			for cl, x := range c.classes {
				if want, _ := s.Estimate(id, x); ts.Est[cl][i] != want {
					c.t.Errorf("job %d %s %d class %d: est %d, want %d", j, kind, i, cl, ts.Est[cl][i], want)
				}
			}
			ram, disk := s.Demand(id)
			c.demands = c.demands || ram != 0
			// a column is absent only when no task of the kind has a demand
			if ts.RAM == nil && ram != 0 || ts.RAM != nil && ts.RAM[i] != ram || ts.Disk == nil && disk != 0 || ts.Disk != nil && ts.Disk[i] != disk {
				c.t.Errorf("job %d %s %d: demand column (%v, %v), want (%v, %v)", j, kind, i, ts.RAM, ts.Disk, ram, disk)
			}
			if !isMap {
				continue
			}
			// map i's replicas are the nodes of the rows that list it
			var got []int32
			for _, row := range ts.Local {
				if slices.Contains(row[1:], int32(i)) {
					got = append(got, row[0])
				}
			}
			want := slices.Clone(s.Replicas(id))
			slices.Sort(want)
			if !slices.Equal(got, want) {
				c.t.Errorf("job %d map %d: local gives replicas %v, want %v", j, i, got, want)
			}
		}
		if !isMap && ts.Local != nil {
			c.t.Errorf("job %d: reduces carry a local index", j)
		}
		for r, row := range ts.Local {
			if r > 0 && ts.Local[r-1][0] >= row[0] || len(row) < 2 || !slices.IsSorted(row[1:]) {
				c.t.Errorf("job %d: local rows not in node order with ascending indexes: %v", j, ts.Local)
			}
		}
	}
	check("maps", m.Maps, v.FirstMap, v.NumMaps, true)
	check("reduces", m.Reduces, v.FirstRed, v.NumReduces, false)
	c.Policy.JobArrival(s, j)
}

// TestArrivalColumns: the by-column tasks of an arrival (protocol 2) hold
// each task's estimate per node class, its demands and, inverted in
// `local`, exactly its block replicas, on workloads with two node classes
// and with RAM demands.
func TestArrivalColumns(t *testing.T) {
	for _, spec := range []simtest.RandomSpec{{Hetero: true}, {RAM: true}} {
		w := simtest.Random(21, spec)
		c := &columnCheck{Policy: fifo.New(), t: t}
		if _, err := sim.Run(w, c, sim.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		if spec.RAM && !c.demands {
			t.Errorf("the RAM workload has no RAM demand: the column is not tested")
		}
		if c.jobs != len(w.Jobs) {
			t.Errorf("%d arrivals checked, want %d", c.jobs, len(w.Jobs))
		}
	}
}

// TestViews runs testdata/views.py, the FIFO with checks of the Python
// client's task views (made on demand from flat arrays) at every arrival
// and task end: the run completes, so every check held, and the trace is
// still the built-in FIFO's, with estimates and without, on two node
// classes with RAM limits.
func TestViews(t *testing.T) {
	needPython(t)
	w := simtest.Random(22, simtest.RandomSpec{Hetero: true, RAM: true})
	for _, est := range []sim.EstimateMode{sim.EstimateExact, sim.EstimateNone} {
		opt := sim.DefaultOptions()
		opt.Estimates = est
		want := traceOf(t, w, fifo.New(), opt)
		got := traceOf(t, w, newExternal(t, python+filepath.Join("testdata", "views.py"), 0), opt)
		if !bytes.Equal(got, want) {
			t.Errorf("estimates %v: the checked FIFO's trace differs from the built-in FIFO's at byte %d", est, firstDiff(got, want))
		}
	}
}
