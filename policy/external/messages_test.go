package external

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
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
	enc     *Policy
}

func (c *columnCheck) Init(s *sim.Sim) error {
	classOf, classes := estimateClasses(s.Cluster())
	c.classes = classes
	c.enc = &Policy{classOf: classOf, classes: classes}
	return c.Policy.Init(s)
}

func (c *columnCheck) JobArrival(s *sim.Sim, j int) {
	c.jobs++
	m := newJob(s, j, c.classes)
	// the bytes sent are json.Marshal's of the reference struct
	want, err := json.Marshal(arrivalEvent{Type: "arrival", Job: m})
	if err != nil {
		c.t.Fatal(err)
	}
	got, err := c.enc.appendArrival([]byte("x"), s, j)
	if err != nil || string(got) != "x"+string(want) {
		c.t.Errorf("job %d: appendArrival wrote (%v)\n%s\nwant json.Marshal's\n%s", j, err, got[1:], want)
	}
	v := s.Job(j)
	check := func(kind string, ts tasks, first sim.TaskID, n int, isMap bool) {
		if ts.Count != n {
			c.t.Errorf("job %d %s: count %d, want %d", j, kind, ts.Count, n)
		}
		cols := len(c.classes)
		if s.Options().Estimates == sim.EstimateNone {
			cols = 0 // no est at all
		}
		if n > 0 && len(ts.Est) != cols {
			c.t.Errorf("job %d %s: %d estimate columns, want %d", j, kind, len(ts.Est), cols)
			return
		}
		for i := range n {
			id := first + sim.TaskID(i)
			for cl, x := range c.classes[:cols] {
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
// and with RAM demands; and the hand-written encoder writes exactly
// json.Marshal's bytes of them, with estimates and without, for names that
// need escapes and for fractional demands.
func TestArrivalColumns(t *testing.T) {
	for _, c := range []struct {
		spec RandomSpec
		est  sim.EstimateMode
	}{{RandomSpec{Hetero: true}, sim.EstimateExact}, {RandomSpec{RAM: true}, sim.EstimateExact},
		{RandomSpec{Hetero: true, RAM: true}, sim.EstimateNone}} {
		spec := c.spec
		w := simtest.Random(21, spec)
		w.Jobs[0].Name, w.Jobs[0].Category = "a \"quoted\" & é\n", "cat<egory"
		w.Jobs[2].Name = "back\\slash"
		for k := range w.Jobs[1].Maps {
			m := &w.Jobs[1].Maps[k]
			m.SetDemand(m.RAM()/3, m.Disk()) // fractions of every length
		}
		opt := sim.DefaultOptions()
		opt.Estimates = c.est
		c := &columnCheck{Policy: fifo.New(), t: t}
		if _, err := sim.Run(w, c, opt); err != nil {
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

// RandomSpec is simtest's, named shorter for the tables here.
type RandomSpec = simtest.RandomSpec

// TestAppendFloat: demands are written as json.Marshal writes a float64,
// across both notations and their boundaries.
func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -2, 0.5, 1.0 / 3, 123456.789, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 5e-324,
		1e20, 1e21, 1.5e21, -3e25, math.MaxFloat64, 4096, 2.5e-10} {
		want, _ := json.Marshal(f)
		got, err := appendFloat(nil, f)
		if err != nil || string(got) != string(want) {
			t.Errorf("appendFloat(%v) = %s, %v; want %s", f, got, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1)} {
		if _, err := appendFloat(nil, f); err == nil || !strings.Contains(err.Error(), "not a JSON number") {
			t.Errorf("appendFloat(%v): error %v, want one", f, err)
		}
	}
}
