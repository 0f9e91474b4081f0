package coshhscenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/internal/strictjson"
)

// Kind is the value of "kind" in a COSHH scenario file.
const Kind = "coshh"

// SchemaVersion is the only schema version this package reads and writes.
const SchemaVersion = 1

// Scenario is a COSHH scenario: resources, and either job classes stated
// directly or users with a job stream to classify.
type Scenario struct {
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schema_version"`
	// Name is free text.
	Name string `json:"name,omitempty"`
	// Seed seeds the k-means classification of Jobs.
	Seed int64 `json:"seed,omitempty"`
	// Source says where the scenario came from (generator parameters).
	Source string `json:"source,omitempty"`
	// Resources: at least one, distinct names.
	Resources []Resource `json:"resources"`
	// Classes, when set, are the primary classification stated directly; Jobs
	// and Users must then be empty.
	Classes []Class `json:"classes,omitempty"`
	// SecondaryClasses, optional with Classes, are the secondary
	// classification stated directly.
	SecondaryClasses []Class `json:"secondary_classes,omitempty"`
	// Users and Jobs: a job stream to classify. Every job names a user.
	Users []User `json:"users,omitempty"`
	Jobs  []Job  `json:"jobs,omitempty"`
	// BlockBytes, Replicas and NetworkMbps describe the data layout for the
	// simulator (§3.3: 128 MB blocks, 3 replicas, 100 Mbps); optional.
	BlockBytes  int64   `json:"block_bytes,omitempty"`
	Replicas    int     `json:"replicas,omitempty"`
	NetworkMbps float64 `json:"network_mbps,omitempty"`
}

// Resource is one machine of the cluster (Tables 3, 10, 11).
type Resource struct {
	Name string `json:"name"`
	// Slots is the number of task slots (0 when not stated).
	Slots int `json:"slots,omitempty"`
	// ExecRateMHz is the execution rate of one slot (0 when not stated).
	ExecRateMHz float64 `json:"exec_rate_mhz,omitempty"`
	// MemCapacity and RetrieveRate are carried as published text; the rate
	// model does not use them.
	MemCapacity  string `json:"mem_capacity,omitempty"`
	RetrieveRate string `json:"retrieve_rate,omitempty"`
	// MapSlots and ReduceSlots split Slots for the simulator (A-C10);
	// StorageBytes is the capacity that decides whether the resource can hold
	// a block (A-C7; 0 = unlimited). Optional.
	MapSlots     int   `json:"map_slots,omitempty"`
	ReduceSlots  int   `json:"reduce_slots,omitempty"`
	StorageBytes int64 `json:"storage_bytes,omitempty"`
}

// Class is a job class: its arrival rate α and its execution rate μ on each
// resource (jobs per second, one entry per resource).
type Class struct {
	Name     string    `json:"name"`
	Priority float64   `json:"priority,omitempty"`
	Alpha    float64   `json:"alpha"`
	Mu       []float64 `json:"mu"`
}

// User submits jobs; MinShare is in slots, Priority is the weight.
type User struct {
	Name     string  `json:"name"`
	MinShare float64 `json:"min_share"`
	Priority float64 `json:"priority"`
	// ArrivalRate is the generator's arrival rate of the user's jobs (jobs/s),
	// the oracle rate of A-C4; optional.
	ArrivalRate float64 `json:"arrival_rate,omitempty"`
}

// Job is one job of a stream. ExecTime is the true mean execution time L on
// each resource (seconds); EstTime the estimate L̂ the scheduler sees (equal
// to ExecTime when omitted).
type Job struct {
	ID       string    `json:"id"`
	User     string    `json:"user"`
	Category string    `json:"category,omitempty"`
	Arrival  float64   `json:"arrival"`
	ExecTime []float64 `json:"exec_time"`
	EstTime  []float64 `json:"est_time,omitempty"`
	// Maps and Reduces are the job's task counts for the simulator, each task
	// MapSeconds or ReduceSeconds of work at ReferenceMHz (A-C13); EstFactor
	// is the estimate's factor 1+E of §6.3 (0 = exact). Optional.
	Maps          int     `json:"maps,omitempty"`
	MapSeconds    float64 `json:"map_seconds,omitempty"`
	Reduces       int     `json:"reduces,omitempty"`
	ReduceSeconds float64 `json:"reduce_seconds,omitempty"`
	EstFactor     float64 `json:"est_factor,omitempty"`
}

// HasTasks reports whether the jobs carry task counts (a simulator stream).
func (s *Scenario) HasTasks() bool {
	for _, j := range s.Jobs {
		if j.Maps+j.Reduces > 0 {
			return true
		}
	}
	return false
}

// Estimate is the estimated execution time of j on resource r.
func (j Job) Estimate(r int) float64 {
	if len(j.EstTime) > 0 {
		return j.EstTime[r]
	}
	return j.ExecTime[r]
}

// ErrEmptyStream is returned for a scenario with neither classes nor jobs.
var ErrEmptyStream = errors.New("coshh: empty job stream")

// Parse decodes and validates a scenario; file names it in errors. Errors
// name the JSON path of the problem, or the line and column of a syntax
// error, and wrap badinput.Err.
func Parse(file string, data []byte) (*Scenario, error) {
	if err := strictjson.Check(file, data); err != nil {
		return nil, err
	}
	s, err := parse(data)
	return s, badinput.InFile(file, err)
}

func parse(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		return nil, jsonError(data, err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// jsonError turns a decoding error into one line naming the place.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset)
		return perr(fmt.Sprintf("line %d, column %d", line, col), "%v", syn)
	case errors.As(err, &typ):
		return perr("$."+strictjson.TypePath(data, typ), "expected %v, found %s", typ.Type, typ.Value)
	}
	return perr("", "%v", err)
}

func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	pre := data[:off]
	line = bytes.Count(pre, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(pre, '\n')
	return line, col
}

func perr(path, format string, a ...any) error {
	return &badinput.PathError{Kind: Kind, Path: path, Problem: fmt.Sprintf(format, a...)}
}

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// Validate checks the scenario and returns the first problem, naming its
// JSON path.
func (s *Scenario) Validate() error {
	if s.Kind != Kind {
		return perr("$.kind", "must be %q, found %q", Kind, s.Kind)
	}
	if s.SchemaVersion != SchemaVersion {
		return perr("$.schema_version", "must be %d, found %d", SchemaVersion, s.SchemaVersion)
	}
	if len(s.Resources) == 0 {
		return perr("$.resources", "no resources")
	}
	seen := map[string]bool{}
	for j, r := range s.Resources {
		p := fmt.Sprintf("$.resources[%d]", j)
		if err := checkName(p+".name", r.Name, seen); err != nil {
			return err
		}
		if r.Slots < 0 {
			return perr(p+".slots", "negative slot count %d", r.Slots)
		}
		if r.ExecRateMHz < 0 || bad(r.ExecRateMHz) {
			return perr(p+".exec_rate_mhz", "execution rate %v is not a non-negative number", r.ExecRateMHz)
		}
		if r.MapSlots < 0 || r.ReduceSlots < 0 || r.StorageBytes < 0 {
			return perr(p, "negative map_slots, reduce_slots or storage_bytes")
		}
		if r.MapSlots+r.ReduceSlots > 0 && r.Slots > 0 && r.MapSlots+r.ReduceSlots != r.Slots {
			return perr(p+".map_slots", "map_slots %d + reduce_slots %d differ from slots %d", r.MapSlots, r.ReduceSlots, r.Slots)
		}
	}
	if s.BlockBytes < 0 || s.Replicas < 0 || s.NetworkMbps < 0 || bad(s.NetworkMbps) {
		return perr("$", "negative block_bytes, replicas or network_mbps")
	}
	M := len(s.Resources)
	hasClasses := len(s.Classes) > 0 || len(s.SecondaryClasses) > 0
	hasJobs := len(s.Jobs) > 0 || len(s.Users) > 0
	switch {
	case hasClasses && hasJobs:
		return perr("$", "give either classes or users and jobs, not both")
	case !hasClasses && !hasJobs:
		return badinput.Errorf("%w: $: neither classes nor jobs", ErrEmptyStream)
	case hasClasses:
		if len(s.Classes) == 0 {
			return perr("$.classes", "secondary_classes given without classes")
		}
		if err := checkClasses("$.classes", s.Classes, M); err != nil {
			return err
		}
		return checkClasses("$.secondary_classes", s.SecondaryClasses, M)
	}
	users := map[string]bool{}
	for u, us := range s.Users {
		p := fmt.Sprintf("$.users[%d]", u)
		if err := checkName(p+".name", us.Name, users); err != nil {
			return err
		}
		if us.MinShare < 0 || bad(us.MinShare) {
			return perr(p+".min_share", "min share %v is not a non-negative number", us.MinShare)
		}
		if us.Priority <= 0 || bad(us.Priority) {
			return perr(p+".priority", "priority %v is not a positive number", us.Priority)
		}
		if us.ArrivalRate < 0 || bad(us.ArrivalRate) {
			return perr(p+".arrival_rate", "arrival rate %v is not a non-negative number", us.ArrivalRate)
		}
	}
	if len(s.Users) == 0 {
		return perr("$.users", "jobs given without users")
	}
	if len(s.Jobs) == 0 {
		return badinput.Errorf("%w: $.jobs: no jobs", ErrEmptyStream)
	}
	ids := map[string]bool{}
	for i, job := range s.Jobs {
		p := fmt.Sprintf("$.jobs[%d]", i)
		if err := checkName(p+".id", job.ID, ids); err != nil {
			return err
		}
		if !users[job.User] {
			return perr(p+".user", "unknown user %q", job.User)
		}
		if job.Arrival < 0 || bad(job.Arrival) {
			return perr(p+".arrival", "arrival %v is not a non-negative number", job.Arrival)
		}
		if err := checkTimes(p+".exec_time", job.ExecTime, M, true); err != nil {
			return err
		}
		if len(job.EstTime) > 0 {
			if err := checkTimes(p+".est_time", job.EstTime, M, true); err != nil {
				return err
			}
		}
		for _, f := range []struct {
			name string
			v    float64
		}{{"maps", float64(job.Maps)}, {"map_seconds", job.MapSeconds}, {"reduces", float64(job.Reduces)},
			{"reduce_seconds", job.ReduceSeconds}, {"est_factor", job.EstFactor}} {
			if f.v < 0 || bad(f.v) {
				return perr(p+"."+f.name, "%v is not a non-negative number", f.v)
			}
		}
	}
	return nil
}

func checkName(path, name string, seen map[string]bool) error {
	switch {
	case name == "":
		return perr(path, "empty")
	case strings.ContainsAny(name, " \t\r\n"):
		return perr(path, "%q contains white space", name)
	case seen[name]:
		return perr(path, "duplicate %q", name)
	}
	seen[name] = true
	return nil
}

func checkClasses(path string, cs []Class, m int) error {
	seen := map[string]bool{}
	for i, c := range cs {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := checkName(p+".name", c.Name, seen); err != nil {
			return err
		}
		if c.Alpha < 0 || bad(c.Alpha) {
			return perr(p+".alpha", "arrival rate %v is not a non-negative number", c.Alpha)
		}
		if len(c.Mu) != m {
			return perr(p+".mu", "has %s, want one per resource (%d)", plural.Count(len(c.Mu), "rate"), m)
		}
		for j, x := range c.Mu {
			if x < 0 || bad(x) {
				return perr(fmt.Sprintf("%s.mu[%d]", p, j), "execution rate %v is not a non-negative number", x)
			}
		}
	}
	return nil
}

func checkTimes(path string, ts []float64, m int, positive bool) error {
	if len(ts) != m {
		return perr(path, "has %s, want one per resource (%d)", plural.Count(len(ts), "time"), m)
	}
	for j, x := range ts {
		if bad(x) || x < 0 || (positive && x == 0) {
			return perr(fmt.Sprintf("%s[%d]", path, j), "execution time %v is not a positive number", x)
		}
	}
	return nil
}

// Marshal encodes s as indented JSON with a trailing newline.
func (s *Scenario) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
