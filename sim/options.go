package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// EstimateMode selects what Sim.Estimate reveals (policies.md §1.4). The zero
// value is unknown.
type EstimateMode uint8

// Estimate modes.
const (
	EstimateUnknown EstimateMode = iota
	EstimateExact                // the true base duration on the node (no noise, no penalty)
	EstimateGiven                // TaskSpec.Estimate (MRCP's dry-run estimates)
	EstimateMean                 // the job's mean of the kind
	EstimateNoisy                // exact · (1+E), E ~ U[−I, +I] per task (COSHH §6.3)
	EstimateNone                 // nothing: policies learn online (TuMM, HFSP)
)

var estimateNames = [...]string{"unknown", "exact", "given", "mean", "noisy", "none"}

func (m EstimateMode) String() string {
	if int(m) < len(estimateNames) {
		return estimateNames[m]
	}
	return "unknown"
}

// ParseEstimateMode reads a mode by name.
func ParseEstimateMode(s string) (EstimateMode, bool) {
	for i, n := range estimateNames {
		if i > 0 && n == s {
			return EstimateMode(i), true
		}
	}
	return EstimateUnknown, false
}

// Options are the run parameters. Start from DefaultOptions.
type Options struct {
	// Heartbeat H: > 0 is hadoop1 mode (node x offers at x·H/|nodes| + kH),
	// 0 is ideal mode (offers right after every state change) (§1.6).
	Heartbeat Time
	// OOB: in hadoop1 mode a task end triggers an immediate heartbeat.
	OOB bool
	// SlowStart f: a reduce may launch once ceil(f·nMaps) maps completed.
	SlowStart float64
	// Overlap ω ∈ [0,1]: the part of a reduce's work that may overlap the map
	// phase; 0 (the default) idles the reduce until the last map ends.
	Overlap float64
	// Seed fixes every random stream (placement, noise, estimate, policy).
	Seed uint64
	// Estimates and EstimateError (I, for EstimateNoisy).
	Estimates     EstimateMode
	EstimateError float64
	// Noise: each launch's duration is multiplied by U[1−Noise, 1+Noise].
	Noise float64
	// Contention γ per kind: duration × (1 + γ·(c−1)), c = same-kind tasks
	// running on the node including this one (TuMM §4.3).
	MapContention, ReduceContention float64
	// Horizon stops the run at this time (0 = run until no event is left).
	Horizon Time
	// StuckAfter is the stuck rule's quiet time: the run ends with status
	// Stuck once no job is still to arrive, no running task has a known end
	// (only reduces waiting for maps that do not run), and nothing changed
	// (no launch, resume, task end, kill or suspend) for this long, at least
	// two heartbeats: then only the policy's timers and offers are left, and
	// it let them pass. 0 is DefaultStuckAfter; negative turns the rule off.
	StuckAfter Time
	// LiteralHeartbeats disables parking (see the package doc): every node
	// with a free slot heartbeats every H. Same results, more events.
	LiteralHeartbeats bool
	// Progress, when set, is called every ProgressEvery events with the
	// number of completed tasks and the total.
	Progress      func(done, total int)
	ProgressEvery int
	// Stop, when set, is called every StopEvery events; once it returns
	// true the run ends with status Interrupted, its trace and outcomes
	// as far as they went. The engine imports nothing of ours: the caller
	// wraps its context (func() bool { return ctx.Err() != nil }).
	Stop func() bool
	// Sink, when set, receives the trace as the run makes it, and the
	// result holds none (Result.Trace nil): a day's checker and trace writer
	// then need no copy of it (TraceSink). Decisions and figures are the
	// same either way.
	Sink TraceSink `json:"-"`
}

// StopEvery is how many loop steps pass between two calls of Options.Stop: a
// step costs well under a microsecond, so a stop is seen within a few
// milliseconds, and the call (a context's Err) costs a few nanoseconds.
const StopEvery = 4096

// DefaultStuckAfter is the default stuck window: an hour of simulated time
// with nothing but timers and offers, far beyond any policy's own waits
// (Fair's locality delay is at most 15 s).
const DefaultStuckAfter Time = 3600 * 1000

// DefaultOptions are the paper-reproducing defaults: hadoop1 heartbeats of
// 3 s, slow-start 0.05, exact estimates.
func DefaultOptions() Options {
	return Options{Heartbeat: 3000, SlowStart: 0.05, Estimates: EstimateExact, ProgressEvery: 1 << 16}
}

// Stream names the random streams; each is seeded from (Seed, name) so that
// changing one purpose never shifts another (common random numbers, §1.1).
func newStream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// NewStream returns the seeded stream (seed, name); workload generators use it.
func NewStream(seed uint64, name string) *rand.Rand { return newStream(seed, name) }
