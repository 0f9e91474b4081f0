package jlassi

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/stopper"
)

// heuristicTol is the slack the heuristic keeps on RAM, disk and bandwidth
// sums; it is below the checker's capacityTol, so whatever the heuristic
// accepts the checker accepts too.
const heuristicTol = 1e-9

// heuristicSeed seeds the shuffled task orders the heuristic tries; fixed, so
// that the heuristic is deterministic.
const heuristicSeed = 0x6a6c61737369

// heuristicShuffles is how many seeded random map orders the heuristic tries
// on top of the deterministic ones.
const heuristicShuffles = 10

// heuristicBandwidthWeights are the weights (seconds per MB/s booked for one
// interval on one link) of bandwidth in the placement score that the
// heuristic tries: none (RealTime first, bandwidth breaks ties), some, and
// enough to put locality first.
var heuristicBandwidthWeights = []float64{0, 1, 100}

// Heuristic builds a feasible schedule of the instance over T intervals by
// list scheduling, or returns nil when none of its attempts finds one (which
// proves nothing: the MILP may still have a solution).
//
// An attempt places all maps, then all reduces, one task at a time, where it
// scores least:
//
//	score(i, j, s, t) = max(0, p_{i,j,s} − L_t) + w · booked bandwidth
//
// (ties: less bandwidth, earlier t, shorter p) over slots s free in interval
// t, with room for the task's RAM and disk on machine j. A map runs no later
// than a cap interval; on a machine that is not a home of one of its blocks it
// needs the block there: the heuristic plans a migration from a home in the
// earliest (or, in some attempts, the latest) interval before t with bandwidth
// on every link of the path and disk on the target from its arrival on. A
// reduce runs strictly after every map of its job, and books the shuffle
// bandwidth b_{l,l'} to every remote map of its job on the path's links from
// the map's interval to its own. Maps are tried in several orders (longest
// first, job by job, seeded shuffles), with the weights
// heuristicBandwidthWeights, both migration timings and every cap below the
// last interval an uncapped attempt uses; reduces go longest first. The best
// RealTime wins; every schedule returned has passed Check. (Run under TST and
// TRC keeps the least objective and adds attempts for locality: heuristicBy.)
func Heuristic(in *jlassiscenario.Instance, T int) *Schedule {
	return heuristicBy(in, T, func(s *Schedule) float64 { return s.RealTime }, false, nil)
}

// heuristicBy is Heuristic keeping the attempt with the least score (a
// schedule's objective; RealTime for Heuristic). local repeats the
// locality-first attempts (the largest bandwidth weight) with the reduces in
// the order their maps allow them, and with the jobs one after the other
// (runSerial): with every map at home the shuffle pairs are what can fill
// the links, and these book them over fewer, less shared intervals (TST and
// TRC, which price migrations, ask for it).
//
// stop (nil: never) ends the attempts once a checked schedule is in hand:
// an attempt costs time quadratic in T (its shuffle loads), hundreds of them
// at scenario 5's T = 160 take 20 s, so under a time limit the run keeps
// the first schedule found rather than the best of all.
func heuristicBy(in *jlassiscenario.Instance, T int, score func(*Schedule) float64, local bool, stop *stopper.Stopper) *Schedule {
	if T <= 0 || len(in.Tasks) == 0 {
		return nil
	}
	var maps, reds []int
	for i := range in.Tasks {
		if in.Tasks[i].Kind == jlassiscenario.Map {
			maps = append(maps, i)
		} else {
			reds = append(reds, i)
		}
	}
	minP := make([]float64, len(in.Tasks))
	for i := range in.Tasks {
		minP[i] = math.Inf(1)
		for _, ps := range in.Tasks[i].P {
			for _, p := range ps {
				minP[i] = math.Min(minP[i], p)
			}
		}
	}
	lpt := func(xs []int) []int {
		out := append([]int(nil), xs...)
		sort.SliceStable(out, func(a, b int) bool { return minP[out[a]] > minP[out[b]] })
		return out
	}
	orders := [][]int{lpt(maps), append([]int(nil), maps...)}
	rng := rand.New(rand.NewPCG(heuristicSeed, uint64(len(in.Tasks))))
	for k := 0; k < heuristicShuffles; k++ {
		o := append([]int(nil), maps...)
		rng.Shuffle(len(o), func(a, b int) { o[a], o[b] = o[b], o[a] })
		orders = append(orders, o)
	}
	redOrder := lpt(reds)
	lastCap := T - 1
	if len(reds) > 0 {
		lastCap = T - 2
	}
	var best *Schedule
	bestScore := math.Inf(1)
	type variant struct {
		bwWeight           float64
		migLate            bool
		readyFirst, serial bool
	}
	var variants []variant
	for _, w := range heuristicBandwidthWeights {
		variants = append(variants, variant{w, false, false, false}, variant{w, true, false, false})
	}
	if local {
		w := heuristicBandwidthWeights[len(heuristicBandwidthWeights)-1]
		variants = append(variants, variant{w, false, true, false}, variant{w, true, true, false},
			variant{w, false, false, true})
	}
	for _, o := range orders {
		for _, v := range variants {
			// Uncapped first: a cap at or above the last interval the maps
			// then use changes nothing, so only the caps below it are tried.
			top := lastCap
			for capT := lastCap; capT >= 0; capT-- {
				if capT > top {
					continue
				}
				if best != nil && stop.Poll() {
					return best
				}
				pl := newPlanner(in, T, v.bwWeight, v.migLate)
				pl.readyFirst, pl.serial = v.readyFirst, v.serial
				s := pl.run(o, redOrder, capT)
				if s == nil {
					continue
				}
				if capT == lastCap {
					top = -1
					for _, pl := range s.Tasks {
						if pl.Kind == jlassiscenario.Map {
							top = max(top, pl.Interval)
						}
					}
					top-- // caps below the last map interval
				}
				sc := score(s)
				if best != nil && (sc > bestScore || sc == bestScore && s.RealTime >= best.RealTime) {
					continue
				}
				if v := Check(in, s, RealTime, math.NaN()); !v.OK {
					continue // a bug in the planner; never hand out an unchecked schedule
				}
				best, bestScore = s, sc
			}
		}
	}
	return best
}

// planner is the state of one list-scheduling attempt.
type planner struct {
	in *jlassiscenario.Instance
	T  int
	// bwWeight is the seconds of RealTime one MB/s·interval of booked
	// bandwidth is worth in the placement score; migLate plans migrations in
	// the latest interval that fits rather than the earliest.
	bwWeight float64
	migLate  bool
	// readyFirst places the reduces in the order their maps allow them
	// (the job whose maps end first first; longest first within), not
	// longest first overall: a reduce then books its shuffle pairs over
	// fewer intervals.
	readyFirst bool
	// serial places the jobs one after the other (runSerial).
	serial bool

	busy   map[[4]int]bool // (machine, kind, slot, interval) taken
	ram    [][]float64     // [machine][interval]
	disk   [][]float64     // [machine][interval]
	link   [][]float64     // [link][interval]
	length []float64       // L_t so far
	arrive map[[2]int]int  // (block, machine) → first interval present after migration
	mach   []int           // task → machine (-1 unplaced)
	intv   []int           // task → interval
	slot   []int           // task → slot
	migs   []Migration
}

func newPlanner(in *jlassiscenario.Instance, T int, bwWeight float64, migLate bool) *planner {
	grid := func(n int) [][]float64 {
		g := make([][]float64, n)
		for k := range g {
			g[k] = make([]float64, T)
		}
		return g
	}
	p := &planner{in: in, T: T, bwWeight: bwWeight, migLate: migLate, busy: map[[4]int]bool{}, ram: grid(len(in.Machines)), disk: grid(len(in.Machines)),
		link: grid(len(in.Links)), length: make([]float64, T), arrive: map[[2]int]int{},
		mach: make([]int, len(in.Tasks)), intv: make([]int, len(in.Tasks)), slot: make([]int, len(in.Tasks))}
	for i := range p.mach {
		p.mach[i] = -1
	}
	return p
}

// run places the maps in order (no later than interval capT), then the
// reduces, and returns the schedule, or nil when a task finds no place.
func (p *planner) run(maps, reds []int, capT int) *Schedule {
	if p.serial {
		return p.runSerial(maps, reds, capT)
	}
	for _, i := range maps {
		if !p.place(i, 0, capT) {
			return nil
		}
	}
	if p.readyFirst {
		reds = append([]int(nil), reds...)
		sort.SliceStable(reds, func(a, b int) bool { return p.ready(reds[a]) < p.ready(reds[b]) })
	}
	for _, k := range reds {
		if !p.place(k, p.ready(k), p.T-1) {
			return nil
		}
	}
	return p.schedule()
}

// ready is the first interval reduce k may run in: after every map of its
// job placed so far (1 at the earliest).
func (p *planner) ready(k int) int {
	first := 1
	for _, l := range p.in.Jobs[p.in.Tasks[k].Job].Maps {
		first = max(first, p.intv[l]+1)
	}
	return first
}

// runSerial places the jobs one after the other, in the order their first
// map has in maps: a job's maps no earlier than the interval after the
// previous job's last map (and no later than capT), then its reduces (in
// reds' order) as soon as its maps allow. Shuffles of different jobs then
// share few intervals, which is what lets every map run at home when the
// links would otherwise fill.
func (p *planner) runSerial(maps, reds []int, capT int) *Schedule {
	var jobs []int
	seen := map[int]bool{}
	for _, i := range append(append([]int(nil), maps...), reds...) {
		if J := p.in.Tasks[i].Job; !seen[J] {
			seen[J] = true
			jobs = append(jobs, J)
		}
	}
	floor := 0
	for _, J := range jobs {
		last := -1
		for _, i := range maps {
			if p.in.Tasks[i].Job != J {
				continue
			}
			if !p.place(i, floor, capT) {
				return nil
			}
			last = max(last, p.intv[i])
		}
		for _, k := range reds {
			if p.in.Tasks[k].Job == J && !p.place(k, p.ready(k), p.T-1) {
				return nil
			}
		}
		if last >= 0 {
			floor = last + 1
		}
	}
	return p.schedule()
}

// schedule is the attempt's schedule, retimed; nil when it does not retime.
func (p *planner) schedule() *Schedule {
	s := &Schedule{Instance: p.in.Name, Horizon: p.T, Migrations: p.migs}
	for i := range p.in.Tasks {
		t := &p.in.Tasks[i]
		s.Tasks = append(s.Tasks, Placement{Task: t.ID, Job: p.in.Jobs[t.Job].ID, Kind: t.Kind,
			Machine: p.in.Machines[p.mach[i]].ID, Slot: p.slot[i], Interval: p.intv[i]})
	}
	s.Reservations = Reservations(p.in, s.Tasks)
	if err := s.Retime(p.in); err != nil {
		return nil
	}
	return s
}

// option is a candidate placement with what it needs.
type option struct {
	j, s, t int
	p, cost float64
	// bw is the bandwidth the placement books, summed over links and
	// intervals (migrations for a map, shuffles for a reduce).
	bw  float64
	mig []Migration // migrations to plan first (maps)
}

// score is what the attempt minimises: the RealTime added plus the booked
// bandwidth at the attempt's weight.
func (a option) score(w float64) float64 { return a.cost + w*a.bw }

func (a option) better(b option, w float64) bool {
	if sa, sb := a.score(w), b.score(w); sa != sb {
		return sa < sb
	}
	if a.bw != b.bw {
		return a.bw < b.bw
	}
	if a.t != b.t {
		return a.t < b.t
	}
	return a.p < b.p
}

// place puts task i in the cheapest feasible slot of an interval in
// [from, to], with its migrations (maps) or shuffle bookings (reduces).
func (p *planner) place(i, from, to int) bool {
	in := p.in
	task := &in.Tasks[i]
	var best *option
	for t := from; t <= to && t < p.T; t++ {
		if task.Kind == jlassiscenario.Reduce && t == 0 {
			continue
		}
		for j := range in.Machines {
			ps := task.P[j]
			if ps == nil {
				continue
			}
			mc := &in.Machines[j]
			if p.ram[j][t]+task.RAM > mc.RAM+heuristicTol || p.disk[j][t]+task.Disk > mc.Disk+heuristicTol {
				continue
			}
			// The fastest free slot of this machine in t.
			s := -1
			for x := range ps {
				if !p.busy[[4]int{j, int(task.Kind), x, t}] && (s < 0 || ps[x] < ps[s]) {
					s = x
				}
			}
			if s < 0 {
				continue
			}
			o := option{j: j, s: s, t: t, p: ps[s], cost: math.Max(0, ps[s]-p.length[t])}
			if best != nil && o.cost > best.score(p.bwWeight) {
				continue // booking bandwidth can only make it worse
			}
			ok := true
			if task.Kind == jlassiscenario.Map {
				o.mig, ok = p.migrationsFor(i, j, t, task.Disk)
				for _, mg := range o.mig {
					o.bw += p.in.Bwd * float64(len(p.in.Path(p.machineIndex(mg.From), j)))
				}
			} else {
				o.bw, ok = p.shuffleFits(i, j, t)
			}
			if ok && (best == nil || o.better(*best, p.bwWeight)) {
				oo := o
				best = &oo
			}
		}
	}
	if best == nil {
		return false
	}
	for _, mg := range best.mig {
		p.migrate(mg)
	}
	j, t := best.j, best.t
	p.busy[[4]int{j, int(task.Kind), best.s, t}] = true
	p.ram[j][t] += task.RAM
	p.disk[j][t] += task.Disk
	p.length[t] = math.Max(p.length[t], best.p)
	p.mach[i], p.intv[i], p.slot[i] = j, t, best.s
	if task.Kind == jlassiscenario.Reduce {
		p.bookShuffle(i, j, t)
	}
	return true
}

// present reports whether block b is on machine j in interval t.
func (p *planner) present(b, j, t int) bool {
	if p.in.Blocks[b].IsHome(j) {
		return true
	}
	a, ok := p.arrive[[2]int{b, j}]
	return ok && a <= t
}

// migrationsFor returns the migrations map i needs to run on j in t (none
// when its blocks are there), each from a home of the block in the earliest
// interval before t where the path has bandwidth and j has disk for the block
// from its arrival on, besides taskDisk in t; ok is false when some block
// cannot arrive in time.
func (p *planner) migrationsFor(i, j, t int, taskDisk float64) (migs []Migration, ok bool) {
	in := p.in
	extraDisk := make([]float64, p.T)
	extraDisk[t] += taskDisk
	extraLink := map[[2]int]float64{}
	for _, b := range in.Tasks[i].Blocks {
		if p.present(b, j, t) {
			continue
		}
		if _, planned := p.arrive[[2]int{b, j}]; planned {
			return nil, false // arrives too late; one migration per block and machine
		}
		size := in.Blocks[b].Size
		found := false
		for x := 0; x < t && !found; x++ {
			t0 := x
			if p.migLate {
				t0 = t - 1 - x
			}
			diskOK := true
			for t2 := t0 + 1; t2 < p.T; t2++ {
				if p.disk[j][t2]+extraDisk[t2]+size > in.Machines[j].Disk+heuristicTol {
					diskOK = false
					break
				}
			}
			if !diskOK {
				continue
			}
			for _, h := range in.Blocks[b].Homes {
				linkOK := true
				for _, e := range in.Path(h, j) {
					if p.link[e][t0]+extraLink[[2]int{e, t0}]+in.Bwd > in.Links[e].Capacity+heuristicTol {
						linkOK = false
						break
					}
				}
				if !linkOK {
					continue
				}
				for _, e := range in.Path(h, j) {
					extraLink[[2]int{e, t0}] += in.Bwd
				}
				for t2 := t0 + 1; t2 < p.T; t2++ {
					extraDisk[t2] += size
				}
				migs = append(migs, Migration{Block: in.Blocks[b].ID, From: in.Machines[h].ID,
					To: in.Machines[j].ID, Interval: t0})
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return migs, true
}

// migrate records a planned migration.
func (p *planner) migrate(mg Migration) {
	in := p.in
	b, from, to := p.blockIndex(mg.Block), p.machineIndex(mg.From), p.machineIndex(mg.To)
	for _, e := range in.Path(from, to) {
		p.link[e][mg.Interval] += in.Bwd
	}
	for t := mg.Interval + 1; t < p.T; t++ {
		p.disk[to][t] += in.Blocks[b].Size
	}
	p.arrive[[2]int{b, to}] = mg.Interval + 1
	p.migs = append(p.migs, mg)
}

func (p *planner) blockIndex(id string) int {
	for b := range p.in.Blocks {
		if p.in.Blocks[b].ID == id {
			return b
		}
	}
	return -1
}

func (p *planner) machineIndex(id string) int {
	for j := range p.in.Machines {
		if p.in.Machines[j].ID == id {
			return j
		}
	}
	return -1
}

// shuffleLoads calls f for every link and interval reduce k on jr in tr books
// with the bandwidth it books.
func (p *planner) shuffleLoads(k, jr, tr int, f func(e, t int, bw float64)) {
	in := p.in
	for _, sh := range in.Shuffles {
		if sh.Reduce != k {
			continue
		}
		jm := p.mach[sh.Map]
		if jm == jr {
			continue
		}
		for t := p.intv[sh.Map]; t <= tr; t++ {
			for _, e := range in.Path(jr, jm) {
				f(e, t, sh.Bandwidth)
			}
		}
	}
}

// shuffleFits reports whether reduce k on jr in tr can book its shuffles,
// and the bandwidth it would book, summed over links and intervals.
func (p *planner) shuffleFits(k, jr, tr int) (float64, bool) {
	extra := map[[2]int]float64{}
	total := 0.0
	p.shuffleLoads(k, jr, tr, func(e, t int, bw float64) { extra[[2]int{e, t}] += bw; total += bw })
	for et, bw := range extra {
		if p.link[et[0]][et[1]]+bw > p.in.Links[et[0]].Capacity+heuristicTol {
			return total, false
		}
	}
	return total, true
}

func (p *planner) bookShuffle(k, jr, tr int) {
	p.shuffleLoads(k, jr, tr, func(e, t int, bw float64) { p.link[e][t] += bw })
}
