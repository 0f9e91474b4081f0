package coshhscenario

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/mrbound/mrbound/internal/sizelimit"
)

// ReferenceMHz is the slot rate at which Table 4's task-seconds are taken to
// have been measured: a 500 MHz slot (the fast resources of Table 3) runs one
// task-second of work in one second. A job's execution time on a resource is
// (map + reduce task-seconds) · (ReferenceMHz / rate) / slots.
const ReferenceMHz = 500

// GenOptions are the parameters of Generate.
type GenOptions struct {
	// Trace is "facebook" or "yahoo".
	Trace string
	// Jobs is the number of jobs; 0 means 100, as the paper submits.
	Jobs int
	// Seed makes the stream reproducible.
	Seed int64
	// Cluster is "table3" (default), "table10" or "table11"; Resources the
	// number of resources (0: as published; any count for table10).
	Cluster   string
	Resources int
	// MaxError is I of §6.3: estimates are L·(1+E), E ~ U[−I, I]; 0 gives
	// exact estimates. Must lie in [0, 1).
	MaxError float64
	// MeanInterarrival is the mean of the exponential time between arrivals
	// in seconds; 0 means DefaultInterarrival.
	MeanInterarrival float64
	// Rho, when > 0, sets the arrival rate from the offered load instead
	// (A-C14): λ = ρ·C/E[work], C = Σ slots·rate/ReferenceMHz.
	Rho float64
	// Homogeneous gives every user min share 0 and priority 1 (§6.1).
	Homogeneous bool
	// Tasks writes the simulator fields: task counts per job (A-C13), the
	// map/reduce split of each resource's slots (A-C10), storage (A-C7),
	// blocks, replicas, network, users' arrival rates and the per-job
	// estimate factor 1+E.
	Tasks bool
	// IgnoreStorage (with Tasks) leaves storage unlimited: A-C7's "ignore".
	IgnoreStorage bool
}

// DefaultInterarrival is the default mean time between job arrivals, in
// seconds. The paper does not state its arrival rates; this is our choice.
const DefaultInterarrival = 60

// DefaultJobs is the stream length the paper uses.
const DefaultJobs = 100

// Generate draws a job stream from a trace: each job's category is drawn with
// the trace's category proportions (Table 4's job counts), its user is the
// user of that category (Table 5), arrivals form a Poisson process, execution
// times follow ReferenceMHz and estimates the error model of §6.3.
func Generate(o GenOptions) (*Scenario, error) {
	cats, err := Trace(o.Trace)
	if err != nil {
		return nil, err
	}
	users, err := Users(o.Trace)
	if err != nil {
		return nil, err
	}
	if o.Cluster == "" {
		o.Cluster = "table3"
	}
	// Each job carries an execution time per resource; each resource is a
	// simulated node.
	if err := sizelimit.Check("--resources", float64(o.Resources), sizelimit.SimNode, "resources"); err != nil {
		return nil, err
	}
	if err := sizelimit.CheckBytes("--jobs", float64(o.Jobs)*(sizelimit.ScenarioTask+16*float64(max(o.Resources, 1))),
		fmt.Sprintf("%d jobs on %d resources", o.Jobs, o.Resources)); err != nil {
		return nil, err
	}
	res, err := Cluster(o.Cluster, o.Resources)
	if err != nil {
		return nil, err
	}
	if o.Tasks {
		readTable10Typo(res)
	}
	switch {
	case o.Jobs < 0:
		return nil, fmt.Errorf("coshh: negative job count %d", o.Jobs)
	case o.Jobs == 0:
		o.Jobs = DefaultJobs
	}
	if o.MaxError < 0 || o.MaxError >= 1 || math.IsNaN(o.MaxError) {
		return nil, fmt.Errorf("coshh: maximum estimation error %v is outside [0, 1)", o.MaxError)
	}
	if o.MeanInterarrival < 0 || math.IsNaN(o.MeanInterarrival) || math.IsInf(o.MeanInterarrival, 0) {
		return nil, fmt.Errorf("coshh: mean interarrival %v is not a non-negative number", o.MeanInterarrival)
	}
	if o.MeanInterarrival == 0 {
		o.MeanInterarrival = DefaultInterarrival
	}
	total := 0
	for _, c := range cats {
		total += c.Jobs
	}
	if o.Rho < 0 || math.IsNaN(o.Rho) || math.IsInf(o.Rho, 0) {
		return nil, fmt.Errorf("coshh: offered load %v is not a non-negative number", o.Rho)
	}
	if o.Rho > 0 {
		o.MeanInterarrival = MeanWork(cats) / (o.Rho * SlotCapacity(res))
	}
	if o.Homogeneous {
		for i := range users {
			users[i].MinShare, users[i].Priority = 0, 1
		}
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x636f736868))
	s := &Scenario{
		Kind: Kind, SchemaVersion: SchemaVersion, Seed: o.Seed,
		Name: fmt.Sprintf("%s-%d-seed%d", o.Trace, o.Jobs, o.Seed),
		Source: fmt.Sprintf("mrbound generate coshh --trace %s --jobs %d --seed %d --cluster %s --resources %d --error %g --interarrival %g",
			o.Trace, o.Jobs, o.Seed, o.Cluster, len(res), o.MaxError, o.MeanInterarrival),
		Resources: res,
		Users:     users,
	}
	if o.Rho > 0 || o.Homogeneous || o.Tasks {
		s.Source += fmt.Sprintf(" --rho %g", o.Rho)
		if o.Homogeneous {
			s.Source += " --homogeneous"
		}
		if o.Tasks {
			s.Source += " --tasks"
			if o.IgnoreStorage {
				s.Source += " --ignore-storage"
			}
			if err := simFields(s, o, cats, total); err != nil {
				return nil, err
			}
		}
	}
	t := 0.0
	for i := 0; i < o.Jobs; i++ {
		if i > 0 {
			t += rng.ExpFloat64() * o.MeanInterarrival
		}
		k := pick(rng, cats, total)
		job := Job{
			ID:       "J" + strconv.Itoa(i+1),
			User:     users[k%len(users)].Name,
			Category: cats[k].Name,
			Arrival:  round6(t),
			ExecTime: make([]float64, len(res)),
			EstTime:  make([]float64, len(res)),
		}
		work := cats[k].MapTime + cats[k].ReduceTime
		for r, rs := range res {
			slots, rate := float64(max(rs.Slots, 1)), rs.ExecRateMHz
			if rate <= 0 {
				rate = ReferenceMHz
			}
			L := work * (ReferenceMHz / rate) / slots
			job.ExecTime[r] = round6(L)
			e := (2*rng.Float64() - 1) * o.MaxError
			job.EstTime[r] = round6(L * (1 + e))
		}
		if o.Tasks {
			taskModel(&job, cats[k])
			job.EstFactor = round6(1 + (2*rng.Float64()-1)*o.MaxError)
		}
		s.Jobs = append(s.Jobs, job)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("coshh: generated an invalid scenario: %w", err)
	}
	return s, nil
}

// pick draws a category index with probability proportional to its job count.
func pick(rng *rand.Rand, cats []Category, total int) int {
	x := rng.IntN(total)
	for k, c := range cats {
		if x < c.Jobs {
			return k
		}
		x -= c.Jobs
	}
	return len(cats) - 1
}

// round6 keeps six significant decimals so that files stay readable.
func round6(x float64) float64 {
	if x == 0 {
		return 0
	}
	p := math.Pow(10, 6-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// table10TypoMHz is Table 10's printed "500GHz" (types 2, 3, 5): Table 3 gives
// the same resource types 500 MHz, so the simulator reads it as 500 MHz
// (A-C12); the capacity-LP tables keep the printed value.
const table10TypoMHz = 500_000

// readTable10Typo applies A-C12 to a simulator stream's resources.
func readTable10Typo(res []Resource) {
	for i := range res {
		if res[i].ExecRateMHz == table10TypoMHz {
			res[i].ExecRateMHz = ReferenceMHz
		}
	}
}
