package check_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
)

func run(t *testing.T, w *sim.Workload, opt sim.Options) *sim.Result {
	t.Helper()
	return runPolicy(t, w, fifo.New(), opt)
}

// runPolicy runs p on w and checks that both forms of the checker accept
// the run: Verify on the kept trace, and a Stream fed by the engine as the
// run goes (Options.Sink).
func runPolicy(t *testing.T, w *sim.Workload, p sim.Policy, opt sim.Options) *sim.Result {
	t.Helper()
	res, err := sim.Run(w, p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatalf("the untouched run fails: %v", err)
	}
	if err := streamed(t, w, p, opt, res); err != nil {
		t.Fatalf("the untouched run fails the streaming checker: %v", err)
	}
	return res
}

// streamed runs p on w again with a Stream (and a recorder) as the sink,
// checks that the engine handed over the kept run's trace, and returns the
// Stream's verdict.
func streamed(t *testing.T, w *sim.Workload, p sim.Policy, opt sim.Options, kept *sim.Result) error {
	t.Helper()
	st := check.NewStream(w, opt)
	rec := &simtest.Recorder{}
	opt.Sink = sim.Tee(rec, st)
	res, err := sim.Run(w, p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Trace, kept.Trace) || len(rec.Problems) > 0 {
		t.Fatalf("the streamed run differs from the kept one (problems %v)", rec.Problems)
	}
	return st.Finish(res)
}

// verify is the shared table's checker: it runs both forms, Verify and
// VerifyStream, asserts that they return the same error (the same
// violations, word for word, in the same order), and returns it.
func verify(t *testing.T, w *sim.Workload, r *sim.Result) error {
	t.Helper()
	err := check.Verify(w, r)
	serr := check.VerifyStream(w, r)
	if (err == nil) != (serr == nil) || (err != nil && err.Error() != serr.Error()) {
		t.Errorf("the two forms disagree:\nVerify:       %v\nVerifyStream: %v", err, serr)
	}
	return err
}

func clone(r *sim.Result) *sim.Result {
	c := *r
	c.Trace = slices.Clone(r.Trace)
	c.Jobs = slices.Clone(r.Jobs)
	c.Replicas = slices.Clone(r.Replicas)
	return &c
}

// TestCheckerCatchesTampering: every kind of corruption of a valid run is
// reported, with a message naming it.
func TestCheckerCatchesTampering(t *testing.T) {
	w := simtest.Random(3, simtest.RandomSpec{})
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	base := run(t, w, opt)
	find := func(r *sim.Result, ok func(a sim.Attempt) bool) int {
		for i, a := range r.Trace {
			if ok(a) {
				return i
			}
		}
		t.Fatal("no segment to tamper with")
		return -1
	}
	cases := []struct {
		name, want string
		tamper     func(r *sim.Result)
	}{
		{"longer duration", "work", func(r *sim.Result) { r.Trace[0].Duration += 5 }},
		{"wrong duration", "the workload gives", func(r *sim.Result) {
			i := find(r, func(a sim.Attempt) bool { return a.Kind == sim.Map })
			r.Trace[i].Duration += 7
			r.Trace[i].End += 7
		}},
		{"flipped locality", "flagged local", func(r *sim.Result) {
			i := find(r, func(a sim.Attempt) bool { return a.Kind == sim.Map })
			r.Trace[i].Local = !r.Trace[i].Local
		}},
		{"early launch", "before its job's arrival", func(r *sim.Result) {
			i := find(r, func(a sim.Attempt) bool { return a.Launch > 0 && a.Job > 0 })
			r.Trace[i].Launch = 0
		}},
		{"slot overflow", "map slots", func(r *sim.Result) {
			// move every map onto node 0
			for i := range r.Trace {
				if r.Trace[i].Kind == sim.Map {
					r.Trace[i].Node = 0
				}
			}
		}},
		{"reduce before maps", "before its job's last map", func(r *sim.Result) {
			i := find(r, func(a sim.Attempt) bool {
				return a.Kind == sim.Reduce && a.Start > a.Launch
			})
			r.Trace[i].Start = r.Trace[i].Launch
			r.Trace[i].Duration = r.Trace[i].End - r.Trace[i].Start
		}},
		{"missing segment", "done", func(r *sim.Result) { r.Trace = r.Trace[1:] }},
		{"twice", "overlaps", func(r *sim.Result) { r.Trace = append(r.Trace, r.Trace[0]) }},
		{"metric", "mean_turnaround", func(r *sim.Result) { r.Metrics.MeanTurnaround *= 0.99 }},
		{"late count", "metric counts", func(r *sim.Result) { r.Metrics.LateJobs++ }},
		{"completion", "reported completion", func(r *sim.Result) { r.Jobs[2].Completion-- }},
		{"duplicate replica", "two replicas", func(r *sim.Result) { r.Replicas[1] = r.Replicas[0] }},
		{"replica on small node", "cannot store", func(r *sim.Result) { r.Replicas[0] = 5 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := clone(base)
			c.tamper(r)
			err := verify(t, w, r)
			if !errors.Is(err, check.ErrViolation) {
				t.Fatalf("not caught (err %v)", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("caught, but the message lacks %q:\n%v", c.want, err)
			}
		})
	}
}

// TestCheckerSlowStart: a reduce launched before ceil(f·nMaps) maps
// completed is reported even though its work comes after the maps.
func TestCheckerSlowStart(t *testing.T) {
	w := simtest.Tiny()
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	res := run(t, w, opt)
	r := clone(res)
	for i := range r.Trace {
		if r.Trace[i].Kind == sim.Reduce {
			r.Trace[i].Launch = 5000 // before the first map ends at 10 s
		}
	}
	if err := verify(t, w, r); err == nil || !strings.Contains(err.Error(), "slow-start") {
		t.Fatalf("early reduce launch not caught: %v", err)
	}
}

// TestCheckerKillSuspend: kill and suspend segments verify, and a resume on
// another node is caught.
func TestCheckerKillSuspend(t *testing.T) {
	for _, h := range []sim.Time{0, 3000} {
		testKillSuspend(t, h)
	}
}

func testKillSuspend(t *testing.T, h sim.Time) {
	w := simtest.Random(5, simtest.RandomSpec{})
	opt := sim.DefaultOptions()
	opt.Heartbeat = h
	if h > 0 {
		lit := opt
		lit.LiteralHeartbeats = true
		a, _ := sim.Run(w, &preempter{}, opt)
		b, _ := sim.Run(w, &preempter{}, lit)
		if !slices.Equal(a.Trace, b.Trace) {
			t.Errorf("kills and suspends: literal heartbeats give another trace")
		}
	}
	res := runPolicy(t, w, &preempter{}, opt)
	if res.Metrics.Killed == 0 || res.Metrics.Suspended == 0 {
		t.Fatalf("the preempter killed %d and suspended %d tasks; the test needs both", res.Metrics.Killed, res.Metrics.Suspended)
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) {
		t.Fatalf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(w.Jobs))
	}
	r := clone(res)
	for i := range r.Trace {
		if r.Trace[i].Resumed && r.Trace[i].Outcome == sim.Completed {
			r.Trace[i].Node = (r.Trace[i].Node + 1) % 5
			break
		}
	}
	if err := verify(t, w, r); err == nil || !strings.Contains(err.Error(), "resume there") {
		t.Fatalf("resume on another node not caught: %v", err)
	}
}

// preempter runs FIFO, and at every third arrival kills the newest running
// map and suspends the newest running reduce, resuming suspended tasks first
// at later offers.
type preempter struct {
	fifo.Policy
	n         int
	suspended []sim.TaskID
}

func (p *preempter) Init(s *sim.Sim) error {
	p.Policy = *fifo.New()
	return p.Policy.Init(s)
}

func (p *preempter) JobArrival(s *sim.Sim, j int) {
	p.Policy.JobArrival(s, j)
	p.n++
	if p.n%3 != 0 {
		return
	}
	var lastMap, lastRed sim.TaskID = -1, -1
	for _, t := range s.Running() {
		switch v := s.Task(t); {
		case v.Kind == sim.Map && (lastMap < 0 || v.Launch >= s.Task(lastMap).Launch):
			lastMap = t
		case v.Kind == sim.Reduce && (lastRed < 0 || v.Launch >= s.Task(lastRed).Launch):
			lastRed = t
		}
	}
	if lastMap >= 0 {
		_ = s.Kill(lastMap)
	}
	if lastRed >= 0 && s.Suspend(lastRed) == nil {
		p.suspended = append(p.suspended, lastRed)
	}
}

func (p *preempter) Offer(s *sim.Sim, x int, free sim.Free) {
	k := 0
	for _, t := range p.suspended {
		if s.Task(t).Node == x && s.Free(x).Reduce > 0 && s.Resume(t) == nil {
			continue
		}
		p.suspended[k] = t
		k++
	}
	p.suspended = p.suspended[:k]
	p.Policy.Offer(s, x, s.Free(x))
}

// TestCheckerReduceStoppedInOverlap: with overlap ω > 0 up to ω·d of a
// reduce's work may lie before its job's last map end, and that holds for an
// attempt killed or suspended after the map phase as well as for a completed
// one (policies.md §1.4). On simtest.Tiny with ω = 0.5, job a's reduce (d = 5 s)
// launches at 10 s, the last map ends at 20 s, so the reduce works over
// [17.5 s, 22.5 s); it is stopped at 21 s. The checker must accept the run, and
// must still reject a stopped attempt with more than ω·d (2.5 s) of work before
// 20 s.
func TestCheckerReduceStoppedInOverlap(t *testing.T) {
	const lastMap, stopAt = 20000, 21000
	for _, o := range []sim.Outcome{sim.Killed, sim.Suspended} {
		t.Run(o.String(), func(t *testing.T) {
			w := simtest.Tiny()
			opt := sim.DefaultOptions()
			opt.Heartbeat = 0
			opt.Overlap = 0.5
			res := runPolicy(t, w, &stopper{how: o, at: stopAt}, opt)
			i := slices.IndexFunc(res.Trace, func(a sim.Attempt) bool { return a.Kind == sim.Reduce && a.Outcome == o })
			if i < 0 {
				t.Fatalf("no %s reduce in the trace %+v", o, res.Trace)
			}
			// the case under test: a stopped attempt whose work began in the
			// map phase, within ω·d
			if a := res.Trace[i]; a.Start != 17500 || a.End != stopAt || a.Duration != 5000 {
				t.Fatalf("%s reduce works over [%d, %d) ms with duration %d, want [17500, %d) and 5000", o, a.Start, a.End, a.Duration, stopAt)
			}
			if res.Metrics.CompletedJobs != len(w.Jobs) {
				t.Fatalf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(w.Jobs))
			}
			// 3 s of the attempt before the last map end: over ω·d
			r := clone(res)
			r.Trace[i].Start = lastMap - 3000
			if o == sim.Suspended {
				// keep the attempt's work at its duration
				k := slices.IndexFunc(r.Trace, func(a sim.Attempt) bool { return a.Kind == sim.Reduce && a.Resumed })
				r.Trace[k].Start += 500
			}
			if err := verify(t, w, r); err == nil || !strings.Contains(err.Error(), "before its job's last map") {
				t.Fatalf("reduce work beyond the overlap not caught: %v", err)
			}
		})
	}
}

// stopper runs FIFO and at time at kills or suspends the running reduce; a
// suspended one resumes 1 s later.
type stopper struct {
	fifo.Policy
	how     sim.Outcome
	at      sim.Time
	stopped sim.TaskID
}

func (p *stopper) Init(s *sim.Sim) error {
	p.Policy = *fifo.New()
	if err := s.SetTimer(p.at, 0); err != nil {
		return err
	}
	return p.Policy.Init(s)
}

func (p *stopper) Timer(s *sim.Sim, tag int64) {
	if tag == 1 {
		_ = s.Resume(p.stopped)
		return
	}
	for _, t := range s.Running() {
		if s.Task(t).Kind != sim.Reduce {
			continue
		}
		p.stopped = t
		if p.how == sim.Killed {
			_ = s.Kill(t)
			return
		}
		if s.Suspend(t) == nil {
			_ = s.SetTimer(p.at+1000, 1)
		}
		return
	}
}

// TestCheckerZeroReduceInShuffle: a zero-length reduce launched before its
// job's map phase ends holds its slot until then, so it counts in the
// contention of a reduce launched beside it (found by compare's cross-check,
// seed 1264: the simulator treated it as leaving at once and gave 1309 ms
// where the checker recomputed 1309·(1+γ)).
func TestCheckerZeroReduceInShuffle(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 2, ReduceSlots: 2}}},
		Jobs: []sim.Job{{Deadline: sim.NoDeadline, Parent: -1,
			Maps:    []sim.TaskSpec{{Work: 0}, {Work: 2000}},
			Reduces: []sim.TaskSpec{{Work: 0}, {Work: 1000}}}},
	}
	opt := sim.DefaultOptions()
	opt.Heartbeat, opt.ReduceContention = 0, 0.5
	res := run(t, w, opt)
	for _, a := range res.Trace {
		if a.Kind == sim.Reduce && a.Index == 1 && a.Duration != 1500 {
			t.Errorf("reduce 1 launched beside the waiting zero-length reduce: duration %d ms, want 1500", a.Duration)
		}
	}
}

// TestCheckerRAMLimitPerNode: a node's RAM limit is checked on that node
// and only there. A run under binding limits (4 units on every node) is
// accepted; with node 0's limit lowered to 1 after the run and the other
// nodes' removed, both forms report node 0 going over, word for word the
// same, and no other node (the streaming checker sums demands only on a
// node with a limit).
func TestCheckerRAMLimitPerNode(t *testing.T) {
	w := simtest.Random(5, simtest.RandomSpec{RAM: true})
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	res := run(t, w, opt)
	// the lowered limit must bind: some record on node 0 asks more than 1
	over := false
	for _, a := range res.Trace {
		job := &w.Jobs[a.Job]
		spec := job.Maps
		if a.Kind == sim.Reduce {
			spec = job.Reduces
		}
		over = over || (a.Node == 0 && spec[a.Index].RAM() > 1)
	}
	if !over {
		t.Fatal("no record on node 0 asks more than 1 unit of RAM: the case tests nothing")
	}
	lowered := *w
	lowered.Cluster.Nodes = slices.Clone(w.Cluster.Nodes)
	for x := range lowered.Cluster.Nodes {
		lowered.Cluster.Nodes[x].RAM = 0
	}
	lowered.Cluster.Nodes[0].RAM = 1
	err := verify(t, &lowered, res)
	if !errors.Is(err, check.ErrViolation) {
		t.Fatalf("node 0 over its lowered RAM limit not caught (err %v)", err)
	}
	for _, line := range strings.Split(err.Error(), "\n")[1:] {
		if !strings.HasPrefix(line, "node 0 at ") || !strings.Contains(line, ": RAM ") || !strings.Contains(line, " over 1 ") {
			t.Errorf("unexpected violation: %s", line)
		}
	}
}
