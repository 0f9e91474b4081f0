package coshh

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	capacity "github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
)

// Tunables of the classification (A-C5 and the feature floor).
const (
	// FitRadius: a job fits a class within FitRadius × the class radius.
	FitRadius = 1.1
	// FitSingleton: a job fits a one-job class within FitSingleton × ‖centroid‖.
	FitSingleton = 0.1
	// fitTol absorbs float round-off in the fit test (normalised units).
	fitTol = 1e-9
	// minRate floors an execution rate (jobs/s) before its log, so that a
	// resource that cannot run a job (no slot of a kind) stays finite.
	minRate = 1e-12
	// minSpan (s) floors the elapsed time of the empirical arrival rates.
	minSpan = 1.0
)

// Policy is COSHH. Set the options before the run; read Stats after it.
type Policy struct {
	// Fallback fills slots that no suggested class can use in stage-2 order
	// (A-C9); off is the paper's algorithm.
	Fallback bool
	// AllSuggested suggests every class on every resource instead of the
	// LPs' sets: Algorithm 2's two stages (min shares, then fairness) without
	// the heterogeneity the LPs bring. A diagnostic that isolates what the LPs
	// add; the classifications still run, the LPs are not solved.
	AllSuggested bool
	// Solve selects the LP backend and its limits.
	Solve solve.Options
	// UserRates, when set, are the users' arrival rates (jobs/s) the
	// classifier uses (A-C4's oracle); otherwise it counts arrivals.
	UserRates []float64
	// Stated, when set, gives the classes directly instead of k-means.
	Stated *Stated
	// ResolveEvery, when > 0, re-solves both LPs with the classes' current
	// arrival rates at this period (§2.5's resolveEvery option); otherwise
	// only a job that fits no class does.
	ResolveEvery sim.Time

	Stats Stats

	s       *sim.Sim
	users   []userState
	nodeTyp []int // node → column of the LPs
	types   []nodeType
	jobs    []jobState
	seen    []int // classified jobs in arrival order
	first   sim.Time
	cls     [2]classing // primary, secondary
	// queues per user of the jobs with maps / reduces not all launched
	mapQ, redQ [][]int
	ties       []int
}

// Stated gives the classifications directly: a job of user u is in class u
// of each (no class when u is beyond its classes). Problem columns are the
// nodes in order.
type Stated struct {
	Primary, Secondary capacity.Problem
}

// Stats are the policy's own counters.
type Stats struct {
	// Classifications counts k-means runs (the first arrival's included).
	Classifications int `json:"classifications"`
	// LPSolves counts capacity LPs solved (each lexicographic: two stages).
	LPSolves int `json:"lp_solves"`
	// LPFailures counts LPs that ended in no optimal allocation; every
	// resource then serves every class of that classification.
	LPFailures int           `json:"lp_failures"`
	LPWall     time.Duration `json:"lp_wall_ns"`
	LPMaxWall  time.Duration `json:"lp_max_wall_ns"`
	// Lambda is the last optimal λ of each classification (0 = none).
	Lambda [2]float64 `json:"lambda"`
	// FallbackLaunches counts tasks launched by the fallback stage.
	FallbackLaunches int `json:"fallback_launches"`
	// Resolves counts the periodic re-solves (ResolveEvery), each of up to
	// two LPs, also counted in LPSolves.
	Resolves int `json:"resolves"`
	// LastError is the last failed LP call (an error, not a status).
	LastError string `json:"last_error,omitempty"`
}

type userState struct {
	minShare int
	weight   float64
	cur      int // slots running the user's tasks
	arrivals int
}

type nodeType struct {
	rep        int // a node of the type
	count      int
	mapSlots   int
	redSlots   int
	group      int
	speed      float64
	totalSlots int
}

type jobState struct {
	feat  []float64
	rates []float64 // mean_execRate on each node type
	class [2]int    // -1 = none
}

// classing is one classification: its jobs, normalisation, classes and the
// suggested sets of its LP.
type classing struct {
	lo, hi    []float64
	centroids [][]float64
	radius    []float64
	members   [][]int
	// sc[t][i]: class i is suggested on node type t.
	sc [][]bool
}

// New returns COSHH without fallback, solving with the default backend.
func New() *Policy { return &Policy{} }

// Name is "coshh", "coshh-fallback" or, with AllSuggested, "coshh-nolp".
func (p *Policy) Name() string {
	if p.AllSuggested {
		return "coshh-nolp"
	}
	if p.Fallback {
		return "coshh-fallback"
	}
	return "coshh"
}

// Init sets up users and node types.
func (p *Policy) Init(s *sim.Sim) error {
	p.s = s
	p.Stats = Stats{}
	if _, err := solve.Lookup(p.Solve.Solver); err != nil {
		return fmt.Errorf("coshh: %w", err)
	}
	us := s.Users()
	p.users = make([]userState, max(1, len(us)))
	for i := range p.users {
		p.users[i].weight = 1
		if i < len(us) {
			p.users[i].minShare = us[i].MinShare
			if us[i].Weight > 0 {
				p.users[i].weight = us[i].Weight
			}
		}
	}
	if p.UserRates != nil && len(p.UserRates) != len(p.users) {
		return fmt.Errorf("coshh: %d user rates for %d users", len(p.UserRates), len(p.users))
	}
	p.mapQ = make([][]int, len(p.users))
	p.redQ = make([][]int, len(p.users))
	p.jobs = make([]jobState, s.NumJobs())
	for j := range p.jobs {
		p.jobs[j].class = [2]int{-1, -1}
	}
	p.seen = p.seen[:0]
	p.cls = [2]classing{}
	c := s.Cluster()
	p.nodeTyp = make([]int, len(c.Nodes))
	p.types = p.types[:0]
	for x, n := range c.Nodes {
		t := nodeType{rep: x, count: 1, mapSlots: n.MapSlots, redSlots: n.ReduceSlots, group: n.Group, speed: n.Speed, totalSlots: n.TotalSlots}
		if c.Fungible {
			t.mapSlots, t.redSlots = n.TotalSlots, n.TotalSlots
		}
		k := -1
		if p.Stated == nil {
			k = slices.IndexFunc(p.types, func(o nodeType) bool {
				return o.mapSlots == t.mapSlots && o.redSlots == t.redSlots && o.group == t.group && o.speed == t.speed && o.totalSlots == t.totalSlots
			})
		}
		if k < 0 {
			k = len(p.types)
			p.types = append(p.types, t)
		} else {
			p.types[k].count++
		}
		p.nodeTyp[x] = k
	}
	if p.ResolveEvery < 0 {
		return fmt.Errorf("coshh: negative re-solve period %d ms", p.ResolveEvery)
	}
	if p.ResolveEvery > 0 {
		if err := s.SetTimer(p.ResolveEvery, 0); err != nil {
			return err
		}
	}
	if p.Stated != nil {
		for k, pr := range []capacity.Problem{p.Stated.Primary, p.Stated.Secondary} {
			if len(pr.Classes) == 0 {
				continue
			}
			if len(pr.Resources) != len(c.Nodes) {
				return fmt.Errorf("coshh: stated %s classes have %d resources for %d nodes", pr.Name, len(pr.Resources), len(c.Nodes))
			}
			p.solveLP(k, pr)
		}
	}
	return nil
}

func (p *Policy) user(j int) int {
	u := p.s.Job(j).User
	if u < 0 || u >= len(p.users) {
		return 0
	}
	return u
}

// PlaceBlocks classifies job j (it arrives now) and places its replicas on
// the nodes that serve its classes (§3.2).
func (p *Policy) PlaceBlocks(s *sim.Sim, j int) {
	p.classify(j)
	v := s.Job(j)
	c := s.Cluster()
	rep := c.Replicas
	if rep == 0 {
		rep = 3
	}
	var cand, other []int
	for x, n := range c.Nodes {
		if c.BlockBytes > 0 && n.StorageBytes > 0 && n.StorageBytes < c.BlockBytes {
			continue
		}
		if p.serves(x, j) {
			cand = append(cand, x)
		} else {
			other = append(other, x)
		}
	}
	rep = min(rep, len(cand)+len(other))
	if rep == 0 || len(cand) == 0 {
		return // the engine's default placement
	}
	rng := s.Rand()
	nodes := make([]int, rep)
	for i := 0; i < v.NumMaps; i++ {
		nc := min(rep, len(cand))
		for k := 0; k < nc; k++ {
			m := k + rng.IntN(len(cand)-k)
			cand[k], cand[m] = cand[m], cand[k]
			nodes[k] = cand[k]
		}
		for k := nc; k < rep; k++ {
			m := (k - nc) + rng.IntN(len(other)-(k-nc))
			other[k-nc], other[m] = other[m], other[k-nc]
			nodes[k] = other[k-nc]
		}
		_ = s.SetReplicas(v.FirstMap+sim.TaskID(i), nodes...)
	}
}

// serves reports whether node x's SC ∪ SC' holds one of job j's classes.
func (p *Policy) serves(x, j int) bool {
	t := p.nodeTyp[x]
	for k := range p.cls {
		if c := p.jobs[j].class[k]; c >= 0 && p.suggested(k, t, c) {
			return true
		}
	}
	return false
}

func (p *Policy) suggested(k, t, class int) bool {
	sc := p.cls[k].sc
	return t < len(sc) && class < len(sc[t]) && sc[t][class]
}

// JobArrival queues job j (classifying it when PlaceBlocks did not).
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	p.classify(j)
	v := s.Job(j)
	u := p.user(j)
	if v.NumMaps > 0 {
		p.mapQ[u] = append(p.mapQ[u], j)
	}
	if v.NumReduces > 0 {
		p.redQ[u] = append(p.redQ[u], j)
	}
}

// TaskEnd frees the user's slot; a user falling below its min share may make
// stage 1 launch on an idle node, so the engine is woken.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) {
	u := &p.users[p.user(s.Task(t).Job)]
	u.cur--
	if u.minShare > 0 && u.cur < u.minShare {
		s.Wake()
	}
}

// Timer re-solves both LPs with the classes' current rates (ResolveEvery);
// the engine wakes every node after a timer.
func (p *Policy) Timer(s *sim.Sim, _ int64) {
	if p.Stated == nil {
		for k := range p.cls {
			if len(p.cls[k].members) > 0 {
				p.Stats.Resolves++
				p.solveLP(k, p.problem(k))
			}
		}
	}
	if len(p.seen) == s.NumJobs() && len(s.Running()) == 0 {
		return // nothing can change any more: no more timers (a strict run may idle for ever)
	}
	_ = s.SetTimer(s.Now()+p.ResolveEvery, 0)
}

// Offer routes node x's free map slots, then its free reduce slots.
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	if free.Fungible {
		n := p.route(x, sim.Map, free.Map)
		p.route(x, sim.Reduce, n)
		return
	}
	p.route(x, sim.Map, free.Map)
	p.route(x, sim.Reduce, free.Reduce)
}

// route is Algorithm 2 for n slots of kind k on node x; it returns the slots
// left.
func (p *Policy) route(x int, k sim.Kind, n int) int {
	t := p.nodeTyp[x]
	for n > 0 && p.pick(x, k, func(u int, us *userState, j int) (float64, bool) {
		c := p.jobs[j].class[0]
		if us.minShare-us.cur <= 0 || c < 0 || !p.suggested(0, t, c) {
			return 0, false
		}
		return float64(us.minShare-us.cur) * us.weight, true
	}) {
		n--
	}
	for n > 0 && p.pick(x, k, func(u int, us *userState, j int) (float64, bool) {
		c := p.jobs[j].class[1]
		if c < 0 || !p.suggested(1, t, c) {
			return 0, false
		}
		return -float64(us.cur) / us.weight, true
	}) {
		n--
	}
	for n > 0 && p.Fallback && p.pick(x, k, func(u int, us *userState, j int) (float64, bool) {
		return -float64(us.cur) / us.weight, true
	}) {
		p.Stats.FallbackLaunches++
		n--
	}
	return n
}

// pick launches one task of kind k on x for the user with the largest score
// among users with an eligible job (score's ok), the user's earliest such
// job; ties between users go to the seeded stream. It reports a launch.
func (p *Policy) pick(x int, k sim.Kind, score func(u int, us *userState, j int) (float64, bool)) bool {
	s := p.s
	best := math.Inf(-1)
	p.ties = p.ties[:0]
	var jobOf [64]int
	jobs := jobOf[:0]
	for u := range p.users {
		j := p.firstJob(u, x, k, score)
		if j < 0 {
			continue
		}
		v, _ := score(u, &p.users[u], j)
		switch {
		case v > best:
			best = v
			p.ties = append(p.ties[:0], u)
			jobs = append(jobs[:0], j)
		case v == best:
			p.ties = append(p.ties, u)
			jobs = append(jobs, j)
		}
	}
	if len(p.ties) == 0 {
		return false
	}
	i := 0
	if len(p.ties) > 1 {
		i = s.Rand().IntN(len(p.ties))
	}
	u, j := p.ties[i], jobs[i]
	id, ok := p.task(j, x, k)
	if !ok || s.Launch(id, x) != nil {
		return false
	}
	p.users[u].cur++
	return true
}

// firstJob is user u's earliest queued job with a launchable task of kind k
// on x that score accepts, or -1. Jobs with nothing left to launch leave the
// queue.
func (p *Policy) firstJob(u, x int, k sim.Kind, score func(int, *userState, int) (float64, bool)) int {
	s := p.s
	q := &p.mapQ[u]
	if k == sim.Reduce {
		q = &p.redQ[u]
	}
	// keep compacts the queue in place: jobs with nothing left to launch go.
	keep := 0
	found := -1
	for i, j := range *q {
		if found >= 0 {
			(*q)[keep] = j
			keep++
			continue
		}
		v := s.Job(j)
		if k == sim.Map && v.MapsPending == 0 || k == sim.Reduce && v.RedsPending == 0 {
			continue
		}
		(*q)[keep] = (*q)[i]
		keep++
		if !s.HasWork(j, k) {
			continue
		}
		if _, ok := score(u, &p.users[u], j); !ok {
			continue
		}
		if id, ok := p.task(j, x, k); !ok || !s.Fits(id, x) {
			continue
		}
		found = j
	}
	*q = (*q)[:keep]
	return found
}

func (p *Policy) task(j, x int, k sim.Kind) (sim.TaskID, bool) {
	if k == sim.Map {
		t, _, ok := p.s.PickMap(j, x)
		return t, ok
	}
	return p.s.PickReduce(j)
}

// classify gives arriving job j its classes (once).
func (p *Policy) classify(j int) {
	js := &p.jobs[j]
	if js.feat != nil || js.class[1] >= 0 {
		return
	}
	s := p.s
	u := p.user(j)
	if len(p.seen) == 0 {
		p.first = s.Now()
	}
	p.users[u].arrivals++
	p.seen = append(p.seen, j)
	if p.Stated != nil {
		js.feat = []float64{}
		for k, pr := range []capacity.Problem{p.Stated.Primary, p.Stated.Secondary} {
			if u < len(pr.Classes) {
				js.class[k] = u
			}
		}
		return
	}
	js.feat = p.features(j)
	fits := true
	for k := range p.cls {
		if k == 0 && p.users[u].minShare == 0 {
			continue
		}
		c := p.cls[k].fit(js.feat)
		if c < 0 {
			fits = false
			break
		}
		js.class[k] = c
	}
	if !fits || len(p.cls[1].centroids) == 0 {
		p.reclassify()
		return
	}
	for k := range p.cls {
		if c := js.class[k]; c >= 0 {
			p.cls[k].members[c] = append(p.cls[k].members[c], j)
		}
	}
}

// features is job j's raw feature vector (see the package doc).
func (p *Policy) features(j int) []float64 {
	s := p.s
	v := s.Job(j)
	u := p.user(j)
	f := make([]float64, 0, len(p.types)+2)
	f = append(f, p.users[u].weight)
	js := &p.jobs[j]
	js.rates = make([]float64, len(p.types))
	for ti, t := range p.types {
		js.rates[ti] = p.rate(v, t)
		f = append(f, math.Log(math.Max(js.rates[ti], minRate)))
	}
	return append(f, p.userRate(u))
}

// rate is mean_execRate(J, R) = 1/mean_execTime (A-C3), in jobs/s.
func (p *Policy) rate(v sim.JobView, t nodeType) float64 {
	var sec float64
	add := func(first sim.TaskID, n, slots int) {
		if n == 0 {
			return
		}
		if slots == 0 {
			sec = math.Inf(1)
			return
		}
		var sum sim.Time
		for i := 0; i < n; i++ {
			e, ok := p.s.Estimate(first+sim.TaskID(i), t.rep)
			if !ok {
				e = 1000 // no estimates: every task looks the same (1 s)
			}
			sum += e
		}
		sec += sum.Seconds() / float64(slots)
	}
	add(v.FirstMap, v.NumMaps, t.mapSlots)
	add(v.FirstRed, v.NumReduces, t.redSlots)
	return 1 / math.Max(sec, 1e-3)
}

// userRate is user u's arrival rate (jobs/s): the oracle's, or counted.
func (p *Policy) userRate(u int) float64 {
	if p.UserRates != nil {
		return p.UserRates[u]
	}
	return float64(p.users[u].arrivals) / math.Max((p.s.Now()-p.first).Seconds(), minSpan)
}

// fit returns the nearest class whose fit test f passes, or -1.
func (c *classing) fit(f []float64) int {
	if len(c.centroids) == 0 {
		return -1
	}
	z := c.normalise(f)
	best, bd := -1, math.Inf(1)
	for i, ctr := range c.centroids {
		d := dist(z, ctr)
		lim := FitRadius * c.radius[i]
		if len(c.members[i]) == 1 {
			lim = FitSingleton * norm(ctr)
		}
		if d <= lim+fitTol && d < bd {
			best, bd = i, d
		}
	}
	return best
}

// normalise maps f into the min-max box of the classified jobs. A coordinate
// on which they all agree maps to 0, and any other value to +Inf: a job that
// differs where the classes had no spread fits none of them.
func (c *classing) normalise(f []float64) []float64 {
	z := make([]float64, len(f))
	for d, x := range f {
		switch w := c.hi[d] - c.lo[d]; {
		case w > 0:
			z[d] = (x - c.lo[d]) / w
		case x != c.lo[d]:
			z[d] = math.Inf(1)
		}
	}
	return z
}

// reclassify re-clusters every job seen so far in both classifications and
// re-solves both LPs.
func (p *Policy) reclassify() {
	p.Stats.Classifications++
	nPrim := 0
	for _, u := range p.users {
		if u.minShare > 0 {
			nPrim++
		}
	}
	for k := range p.cls {
		var jobs []int
		for _, j := range p.seen {
			if k == 1 || p.users[p.user(j)].minShare > 0 {
				jobs = append(jobs, j)
			}
			p.jobs[j].class[k] = -1
		}
		kk := len(p.users)
		if k == 0 {
			kk = nPrim
		}
		p.cls[k] = classing{}
		if len(jobs) == 0 || kk == 0 {
			continue
		}
		p.cluster(k, jobs, kk)
	}
}

// cluster runs k-means over jobs for classification k, then its LP.
func (p *Policy) cluster(k int, jobs []int, kk int) {
	c := &p.cls[k]
	dim := len(p.jobs[jobs[0]].feat)
	c.lo, c.hi = make([]float64, dim), make([]float64, dim)
	for d := 0; d < dim; d++ {
		c.lo[d], c.hi[d] = math.Inf(1), math.Inf(-1)
		for _, j := range jobs {
			c.lo[d] = math.Min(c.lo[d], p.jobs[j].feat[d])
			c.hi[d] = math.Max(c.hi[d], p.jobs[j].feat[d])
		}
	}
	pts := make([][]float64, len(jobs))
	for n, j := range jobs {
		pts[n] = c.normalise(p.jobs[j].feat)
	}
	seed := int64(p.s.Options().Seed) + int64(p.Stats.Classifications)*2 + int64(k)
	labels := capacity.KMeans(pts, kk, seed)
	nc := slices.Max(labels) + 1
	c.members = make([][]int, nc)
	c.centroids = make([][]float64, nc)
	c.radius = make([]float64, nc)
	for n, l := range labels {
		c.members[l] = append(c.members[l], jobs[n])
		if c.centroids[l] == nil {
			c.centroids[l] = make([]float64, dim)
		}
		for d, x := range pts[n] {
			c.centroids[l][d] += x
		}
		p.jobs[jobs[n]].class[k] = l
	}
	for i := range c.centroids {
		for d := range c.centroids[i] {
			c.centroids[i][d] /= float64(len(c.members[i]))
		}
	}
	for n, l := range labels {
		c.radius[l] = math.Max(c.radius[l], dist(pts[n], c.centroids[l]))
	}
	p.solveLP(k, p.problem(k))
}

// problem is classification k's capacity LP from its members now: α_i sums
// the member users' current rates (each user once), μ[i,t] is the members'
// mean rate on one node of type t times the type's node count.
func (p *Policy) problem(k int) capacity.Problem {
	c := &p.cls[k]
	pr := capacity.Problem{Name: [2]string{"primary", "secondary"}[k]}
	for _, t := range p.types {
		pr.Resources = append(pr.Resources, "T"+strconv.Itoa(t.rep))
	}
	for i, m := range c.members {
		pr.Classes = append(pr.Classes, [2]string{"C", "C'"}[k]+strconv.Itoa(i+1))
		users := map[int]bool{}
		alpha := 0.0
		mu := make([]float64, len(p.types))
		for _, j := range m {
			if u := p.user(j); !users[u] {
				users[u] = true
				alpha += p.userRate(u)
			}
			for ti, r := range p.jobs[j].rates {
				mu[ti] += r
			}
		}
		for ti, t := range p.types {
			mu[ti] = mu[ti] / float64(len(m)) * float64(t.count)
		}
		pr.Alpha = append(pr.Alpha, alpha)
		pr.Mu = append(pr.Mu, mu)
	}
	return pr
}

// solveLP solves classification k's capacity LP and sets its suggested sets;
// without an optimal allocation every column serves every class.
func (p *Policy) solveLP(k int, pr capacity.Problem) {
	if p.AllSuggested {
		p.cls[k].sc = allSuggested(len(pr.Resources), len(pr.Classes))
		return
	}
	t0 := time.Now()
	a, err := capacity.Solve(context.Background(), pr, p.Solve)
	d := time.Since(t0)
	p.Stats.LPSolves++
	p.Stats.LPWall += d
	p.Stats.LPMaxWall = max(p.Stats.LPMaxWall, d)
	if err != nil {
		p.Stats.LastError = err.Error()
	}
	if err != nil || a.Status != solve.Optimal || a.Delta == nil {
		p.Stats.LPFailures++
		p.Stats.Lambda[k] = 0
		p.cls[k].sc = allSuggested(len(pr.Resources), len(pr.Classes))
		return
	}
	sc := make([][]bool, len(pr.Resources))
	for t := range sc {
		sc[t] = make([]bool, len(pr.Classes))
	}
	p.Stats.Lambda[k] = a.Lambda
	for t, set := range a.Suggested {
		for _, i := range set {
			sc[t][i] = true
		}
	}
	p.cls[k].sc = sc
}

// allSuggested is a suggested-set matrix with every class on every column.
func allSuggested(cols, classes int) [][]bool {
	sc := make([][]bool, cols)
	for t := range sc {
		sc[t] = make([]bool, classes)
		for i := range sc[t] {
			sc[t][i] = true
		}
	}
	return sc
}

// Suggested lists, for classification k (0 primary, 1 secondary) and node x,
// the classes suggested on x (for tests and reports).
func (p *Policy) Suggested(k, x int) []int {
	var out []int
	sc := p.cls[k].sc
	t := p.nodeTyp[x]
	if t < len(sc) {
		for i, ok := range sc[t] {
			if ok {
				out = append(out, i)
			}
		}
	}
	return out
}

// Class is job j's class in classification k (-1 = none).
func (p *Policy) Class(k, j int) int { return p.jobs[j].class[k] }

func dist(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

func norm(a []float64) float64 {
	s := 0.0
	for _, x := range a {
		s += x * x
	}
	return math.Sqrt(s)
}
