package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/internal/atomicfile"
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/sim/report"
)

// coshhRecord is a coshhRow as one JSON line of the run store.
type coshhRecord struct {
	Key        string              `json:"key"`
	Trace      string              `json:"trace"`
	Users      string              `json:"users"`
	Policy     string              `json:"policy"`
	Seed       int64               `json:"seed"`
	ErrI       float64             `json:"err_i"`
	NJobs      int                 `json:"n_jobs"`    // jobs submitted (0: 100)
	Resources  int                 `json:"resources"` // cluster size (0: Table 3)
	Turnaround float64             `json:"turnaround_s"`
	User       report.UserReadings `json:"user"`
	Locality   float64             `json:"locality"`
	Overhead   time.Duration       `json:"overhead_ns"`
	Offers     [3]int64            `json:"offers"`   // count, sum ns, max ns
	Arrivals   [3]int64            `json:"arrivals"` // count, sum ns, max ns
	Stats      coshh.Stats         `json:"stats"`
	Completed  int                 `json:"completed"`
	Jobs       int                 `json:"jobs"`
	Tasks      int                 `json:"tasks"`
	Wall       time.Duration       `json:"wall_ns"`
}

// runKey names a run by everything that changes its result.
func runKey(c coshhRun) string {
	return fmt.Sprintf("%s|homog=%v|storage-ignored=%v|%s|seed=%d|I=%g|jobs=%d|%s:%d|gap=%g|rho=%g",
		c.trace, c.homog, c.ignoreStorage, c.policy, c.seed, c.errI, c.jobs, c.cluster, c.resources, c.interarrival, c.rho)
}

func toRecord(c coshhRun, r coshhRow) coshhRecord {
	return coshhRecord{Key: runKey(c), Trace: r.trace, Users: r.users, Policy: r.policy, Seed: r.seed, ErrI: r.errI,
		NJobs: c.jobs, Resources: c.resources, Turnaround: r.turnaround, User: r.user, Locality: r.locality, Overhead: r.overhead,
		Offers:   [3]int64{int64(r.offers.n), int64(r.offers.sum), int64(r.offers.max)},
		Arrivals: [3]int64{int64(r.arrivals.n), int64(r.arrivals.sum), int64(r.arrivals.max)},
		Stats:    r.stats, Completed: r.completed, Jobs: r.jobs, Tasks: r.tasks, Wall: r.wall}
}

func (rec coshhRecord) row() coshhRow {
	st := func(a [3]int64) stat { return stat{n: int(a[0]), sum: time.Duration(a[1]), max: time.Duration(a[2])} }
	return coshhRow{trace: rec.Trace, users: rec.Users, policy: rec.Policy, seed: rec.Seed, errI: rec.ErrI,
		turnaround: rec.Turnaround, user: rec.User, locality: rec.Locality, overhead: rec.Overhead,
		offers: st(rec.Offers), arrivals: st(rec.Arrivals), stats: rec.Stats, completed: rec.Completed, jobs: rec.Jobs,
		tasks: rec.Tasks, wall: rec.Wall, nJobs: rec.NJobs, resources: rec.Resources}
}

// runStore is the append-only file of finished runs: a killed command loses
// at most the run it was in (a torn last line is ignored on reading, and the
// next append starts on a fresh line).
type runStore struct {
	path string
	recs map[string]coshhRecord
	// torn: the file does not end in a newline (a kill cut its last line);
	// the next append starts a new line instead of gluing onto it.
	torn bool
}

func openRunStore(path string) (*runStore, error) {
	s := &runStore{path: path, recs: map[string]coshhRecord{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil {
			s.torn = last[0] != '\n'
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r coshhRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			continue // a line cut by a kill: that run is simply run again
		}
		s.recs[r.Key] = r
	}
	return s, sc.Err()
}

func (s *runStore) has(c coshhRun) bool { _, ok := s.recs[runKey(c)]; return ok }

func (s *runStore) get(c coshhRun) (coshhRow, bool) {
	r, ok := s.recs[runKey(c)]
	return r.row(), ok
}

// add appends one run as a whole line and syncs it.
func (s *runStore) add(c coshhRun, r coshhRow) error {
	rec := toRecord(c, r)
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if s.torn {
		b = append([]byte{'\n'}, b...)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	s.recs[rec.Key] = rec
	s.torn = false
	return f.Close()
}

// writeCOSHHPart writes coshh-PART.md (atomically) and the part's plots from
// rows.
func writeCOSHHPart(out, part string, rows []coshhRow, nSeeds int) error {
	var md string
	var plotErr error
	switch part {
	case "main":
		md = coshhMarkdown(rows, nil, coshhPolicies, nSeeds)
		if len(rows) > 0 {
			plotErr = coshhPlots(out, rows, nil, coshhPolicies)
		}
	case "storage":
		md = coshhMarkdown(rows, nil, coshhPolicies, nSeeds)
	case "error":
		md = coshhMarkdown(nil, rows, coshhPolicies, nSeeds)
		if len(rows) > 0 {
			plotErr = errorPlot(out, rows)
		}
	case "jobs", "resources":
		md = scaleMarkdown(part, rows)
		if len(rows) > 0 {
			plotErr = scalePlot(out, part, rows)
		}
	}
	if plotErr != nil {
		return plotErr
	}
	path := filepath.Join(out, "coshh-"+part+".md")
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, md)
		return err
	})
}

// scaleX is a row's x in a scaling part: jobs submitted or resources.
func scaleX(part string, r coshhRow) int {
	if part == "jobs" {
		return r.nJobs
	}
	return r.resources
}

// spread is "mean [min–max]" of xs, rounded to whole units.
func spread(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f [%.0f–%.0f]", mean(xs), slices.Min(xs), slices.Max(xs))
}

// scaleMarkdown is the table of a scaling part: per trace and x, each
// policy's mean completion time with its seed range, and the overheads.
func scaleMarkdown(part string, rows []coshhRow) string {
	var b strings.Builder
	xs, what := scaleJobs, "jobs submitted (Table 3, ρ = 0.9)"
	if part == "resources" {
		xs, what = scaleResources, "Table 10 resources (2 slots each; arrival rate of Table 3 at ρ = 0.9; 100 jobs)"
	}
	pols := coshhPolicies[:3]
	for _, trace := range []string{"facebook", "yahoo"} {
		seeds := map[int64]bool{}
		for _, r := range rows {
			if r.trace == trace {
				seeds[r.seed] = true
			}
		}
		if len(seeds) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n**%s, heterogeneous users, by %s** (mean completion time in s, [min–max] over %d seeds; overhead = wall s in the policy per run, mean)\n\n", trace, what, len(seeds))
		b.WriteString("| x |")
		for _, p := range pols {
			fmt.Fprintf(&b, " %s |", p)
		}
		b.WriteString(" COSHH vs FIFO | COSHH vs Fair |")
		for _, p := range pols {
			fmt.Fprintf(&b, " %s overhead |", p)
		}
		b.WriteString("\n|---|")
		b.WriteString(strings.Repeat("---|", 2*len(pols)+2))
		b.WriteString("\n")
		for _, x := range xs {
			fmt.Fprintf(&b, "| %d |", x)
			means := map[string]float64{}
			var ovh []string
			for _, p := range pols {
				var ts []float64
				o, unfinished := 0.0, 0
				for _, r := range rows {
					if r.trace == trace && r.policy == p && scaleX(part, r) == x {
						ts = append(ts, r.turnaround)
						o += r.overhead.Seconds()
						unfinished += r.jobs - r.completed
					}
				}
				cell := spread(ts)
				if unfinished > 0 {
					cell += fmt.Sprintf(" (%d jobs unfinished)", unfinished)
				}
				fmt.Fprintf(&b, " %s |", cell)
				if len(ts) > 0 {
					means[p] = mean(ts)
					ovh = append(ovh, fmt.Sprintf("%.3f", o/float64(len(ts))))
				} else {
					ovh = append(ovh, "–")
				}
			}
			rel := func(a, c string) string {
				if means[a] == 0 || means[c] == 0 {
					return "–"
				}
				return strings.Replace(fmt.Sprintf("%+.1f%%", 100*(means[a]/means[c]-1)), "-", "−", 1)
			}
			fmt.Fprintf(&b, " %s | %s | %s |\n", rel("coshh", "fifo"), rel("coshh", "fair"), strings.Join(ovh, " | "))
		}
	}
	return b.String()
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	return m / float64(len(xs))
}

// TestRunStoreResumes: a stored run reads back equal, a line torn by a kill
// is skipped (that run counts as missing), and a later append is kept.
func TestRunStoreResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	s, err := openRunStore(path)
	if err != nil {
		t.Fatal(err)
	}
	a := coshhRun{trace: "yahoo", seed: 2, policy: "coshh", jobs: 30}
	b := coshhRun{trace: "yahoo", seed: 3, policy: "coshh", jobs: 30}
	row := coshhRow{trace: "yahoo", users: "heterogeneous", policy: "coshh", seed: 2, turnaround: 1234.5, completed: 30, jobs: 30,
		offers: stat{n: 3, sum: 30, max: 20}, nJobs: 30}
	if err := s.add(a, row); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"key":"yahoo|homog=false`) // b's line, cut by a kill
	f.Close()
	s, err = openRunStore(path)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.get(a)
	if !ok || got.turnaround != 1234.5 || got.offers != row.offers || got.nJobs != 30 || got.completed != 30 {
		t.Errorf("read back %+v, %v; want %+v", got, ok, row)
	}
	if s.has(b) {
		t.Error("the torn line counts as a stored run")
	}
	if err := s.add(b, row); err != nil {
		t.Fatal(err)
	}
	if s, err = openRunStore(path); err != nil {
		t.Fatal(err)
	}
	if !s.has(a) || !s.has(b) {
		t.Errorf("after resuming: has a %v, has b %v; want both (the append must not glue onto the torn line)", s.has(a), s.has(b))
	}
}

// envSeeds is MRBOUND_COSHH_SEEDS (the seeds 1..n of a COSHH experiment), or
// def when it is unset.
func envSeeds(t *testing.T, def int) int {
	s := os.Getenv("MRBOUND_COSHH_SEEDS")
	if s == "" {
		return def
	}
	n := 0
	if _, err := fmt.Sscan(s, &n); err != nil || n < 1 {
		t.Fatalf("MRBOUND_COSHH_SEEDS=%q: want a count ≥ 1", s)
	}
	return n
}
