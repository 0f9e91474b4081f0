package tumm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/internal/enum"
	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Node is one machine of a heterogeneous cluster (see instances/tummscenario).
type Node = tummscenario.Node

// Objective selects the ILP's objective.
type Objective int8

const (
	ObjectiveUnknown Objective = iota
	// Published is eq 8: minimise max_i v_m^i·t̄_m^i, the map phase's finish.
	Published
	// Stage minimises the later of the map and the reduce finish,
	// max_i max(v_m^i·t̄_m^i, v_r^i·t̄_r^i).
	Stage
)

var objectiveNames = enum.Names[Objective]{"unknown", "published", "stage"}

func (o Objective) String() string { return objectiveNames.String(o) }

// MarshalText encodes the objective by name.
func (o Objective) MarshalText() ([]byte, error) { return objectiveNames.Text(o) }

// UnmarshalText decodes an objective name.
func (o *Objective) UnmarshalText(b []byte) error {
	v, err := ParseObjective(string(b))
	if err != nil {
		return err
	}
	*o = v
	return nil
}

// ParseObjective reads "published", "stage" or "" (Published).
func ParseObjective(s string) (Objective, error) {
	switch s {
	case "", "published":
		return Published, nil
	case "stage":
		return Stage, nil
	}
	return ObjectiveUnknown, fmt.Errorf("tumm: unknown objective %q (published or stage)", s)
}

// HetProblem is the per-node slot problem of H_TuMM (§5.1).
type HetProblem struct {
	Nodes       []Node
	MapTasks    int // n'_m
	ReduceTasks int // n'_r
	Objective   Objective
	// Align adds eqs 12–17.
	Align bool
	// Perspective adds the disaggregated finish times θ (see BuildHet):
	// the LP bound rises to the fluid bound, but with HiGHS the search took
	// longer on our instances (docs/tumm.md), so it is off by default.
	Perspective bool
}

// HetVars locates the columns of a built model.
type HetVars struct {
	T      int
	VM, VR []int   // v_m^i, v_r^i
	Z      [][]int // Z[i][k]: node i has k map slots
}

type nk struct{ N, K int }

// waveBounds returns upper bounds V on v_m^i and v_r^i that keep an optimal
// solution, as tight as cheaply possible since they are the big-M of the
// linearisation. A few simple splits are tried (every node with min(k, S^i)
// map slots, k = 0..max S^i; alternate nodes all-map / all-reduce); the best
// gives F_s = max(map, reduce finish) and F_m = its map finish (PhaseFinish).
// Rounding every node's waves up to ⌈F/t̄⌉ aligns a split's finishes with
// objective ≤ F + t_max, so an optimum has:
//
//	stage, no align:      v^i·t̄^i ≤ F_s
//	stage, align:         v^i·t̄^i ≤ F_s + t_max
//	published, no align:  v_m^i·t̄_m^i ≤ F_m, v_r^i ≤ n'_r
//	published, align:     v_m^i·t̄_m^i ≤ F_s + t_max, v_r^i·t̄_r^i ≤ F_s + 2·t_max
//
// (without alignment no optimum needs more than n' waves on a node either).
// When no simple split is feasible, v ≤ n' (no align) or the loose horizon
// (n'_m + 1)·max t̄_m + (n'_r + 1)·max t̄_r + 2·t_max (align) is used.
//
// stop is ticked once per split tried (each costs a PhaseFinish per phase);
// once it reports a stop the bounds are left unfinished, which the caller
// discards.
func (p HetProblem) waveBounds(stop *stopper.Stopper) (vm, vr, fm, fr []float64) {
	tmax := 0.0
	maxS := 0
	tm := make([]float64, len(p.Nodes))
	tr := make([]float64, len(p.Nodes))
	for i, n := range p.Nodes {
		tm[i], tr[i] = n.MapTime, n.ReduceTime
		tmax = math.Max(tmax, math.Max(n.MapTime, n.ReduceTime))
		maxS = max(maxS, n.Slots)
	}
	Fs, Fm := math.Inf(1), math.Inf(1)
	try := func(ms []int) {
		rs := make([]int, len(ms))
		for i, n := range p.Nodes {
			rs[i] = n.Slots - ms[i]
		}
		fm, fr := PhaseFinish(p.MapTasks, ms, tm), PhaseFinish(p.ReduceTasks, rs, tr)
		Fs = math.Min(Fs, math.Max(fm, fr))
		if !math.IsInf(fr, 1) {
			Fm = math.Min(Fm, fm)
		}
	}
	for k := 0; k <= maxS; k++ {
		if stop.Tick() {
			return
		}
		ms := make([]int, len(p.Nodes))
		for i, n := range p.Nodes {
			ms[i] = min(k, n.Slots)
		}
		try(ms)
	}
	for parity := 0; parity < 2; parity++ {
		ms := make([]int, len(p.Nodes))
		for i, n := range p.Nodes {
			if i%2 == parity {
				ms[i] = n.Slots
			}
		}
		try(ms)
	}
	nm, nr := float64(p.MapTasks), float64(p.ReduceTasks)
	if math.IsInf(Fs, 1) {
		tmm, trm := 0.0, 0.0
		for i := range p.Nodes {
			tmm, trm = math.Max(tmm, tm[i]), math.Max(trm, tr[i])
		}
		Fs = (nm+1)*tmm + (nr+1)*trm + 2*tmax
		Fm = Fs
	}
	for i := range p.Nodes {
		var bm, br float64 // bounds on the finish times v·t̄
		switch {
		case p.Objective == Stage && !p.Align:
			bm, br = Fs, Fs
		case p.Objective == Stage:
			bm, br = Fs+tmax, Fs+tmax
		case !p.Align:
			bm, br = Fm, math.Inf(1)
		default:
			bm, br = Fs+tmax, Fs+2*tmax
		}
		Vm, Vr := math.Floor(bm/tm[i]*(1+1e-12)), math.Floor(br/tr[i]*(1+1e-12))
		if !p.Align {
			Vm, Vr = math.Min(Vm, nm), math.Min(Vr, nr)
		}
		vm, vr = append(vm, Vm), append(vr, Vr)
		fm, fr = append(fm, bm), append(fr, br)
	}
	return vm, vr, fm, fr
}

// Validate checks the problem.
func (p HetProblem) Validate() error {
	if len(p.Nodes) == 0 {
		return fmt.Errorf("tumm: no nodes")
	}
	if p.MapTasks < 0 || p.ReduceTasks < 0 {
		return fmt.Errorf("tumm: negative task count (%d map, %d reduce)", p.MapTasks, p.ReduceTasks)
	}
	if p.Objective != Published && p.Objective != Stage {
		return fmt.Errorf("tumm: objective %v", p.Objective)
	}
	for _, n := range p.Nodes {
		if n.Slots < 1 || !(n.MapTime > 0) || !(n.ReduceTime > 0) || math.IsInf(n.MapTime+n.ReduceTime, 0) {
			return fmt.Errorf("tumm: node %s: needs ≥ 1 slot and positive finite task times", n.Name)
		}
	}
	return nil
}

// BuildHet emits the integer program of eqs 8–17, linearised exactly:
//
//	minimise    T
//	subject to  T ≥ v_m^i·t̄_m^i                               ∀i   (8)
//	            [Stage: T ≥ v_r^i·t̄_r^i                        ∀i]
//	            Σ_k z[i,k] = 1,  s_m^i = Σ_k k·z[i,k],
//	            s_r^i = S^i − s_m^i                             ∀i   (9)
//	            Σ_i Σ_k k·y[i,k] ≥ n'_m                              (10)
//	            Σ_i Σ_k (S^i − k)·u[i,k] ≥ n'_r                      (11)
//	            Σ_k y[i,k] = v_m^i,  Σ_k u[i,k] = v_r^i         ∀i
//	            0 ≤ y[i,k] ≤ V_m^i·z[i,k], 0 ≤ u[i,k] ≤ V_r^i·z[i,k]
//	            |v_m^i·t̄_m^i − v_m^j·t̄_m^j| ≤ max(t̄_m^i, t̄_m^j)  ∀i<j  (12–13)
//	            |v_r^i·t̄_r^i − v_r^j·t̄_r^j| ≤ max(t̄_r^i, t̄_r^j)  ∀i<j  (14–15)
//	            |v_m^i·t̄_m^i − v_r^j·t̄_r^j| ≤ max(t̄_m^i, t̄_r^j)  ∀i,j  (16–17)
//	            z binary, v_m^i ∈ [0, V_m^i], v_r^i ∈ [0, V_r^i] integer
//
// y[i,k] = v_m^i·z[i,k] and u[i,k] = v_r^i·z[i,k] replace the products
// v·s of eqs 10–11 (z one-hot, so the replacement is exact). Rows 12–17 are
// added only with Align. The wave bounds V come from waveBounds.
//
// With Perspective, the big-M rows on y and u are replaced by disaggregated
// finish times θ[i,k] (θr[i,k] for reduces under the published objective):
//
//	Σ_k θ[i,k] = T,  0 ≤ θ[i,k] ≤ F_m^i·z[i,k],  t̄_m^i·y[i,k] ≤ θ[i,k]
//	stage:             t̄_r^i·u[i,k] ≤ θ[i,k]
//	published, align:  Σ_k θr[i,k] = T + t_max, θr ≤ F_r^i·z, t̄_r^i·u ≤ θr
//
// valid because only the chosen k carries θ = T; the LP bound then equals
// the fluid bound (Algorithm 1's continuous split).
func BuildHet(p HetProblem) (*model.Model, HetVars, error) {
	return buildHet(p, nil)
}

// buildHet is BuildHet ticking stop once per node, slot count and node pair:
// a cluster of many nodes with many slots each takes long to emit. Once stop
// reports a stop it returns stopper.ErrStopped and no model.
func buildHet(p HetProblem, stop *stopper.Stopper) (*model.Model, HetVars, error) {
	if err := p.Validate(); err != nil {
		return nil, HetVars{}, err
	}
	b := model.NewBuilder("tumm-het")
	VM, VR, FM, FR := p.waveBounds(stop)
	if stop.Stopped() {
		return nil, HetVars{}, stopper.ErrStopped
	}
	T := b.Continuous("T", 0, math.Inf(1))
	v := HetVars{T: T.Index()}
	vm := model.NewFamily[int](b, "vm")
	vr := model.NewFamily[int](b, "vr")
	z := model.NewFamily[nk](b, "z")
	y := model.NewFamily[nk](b, "y")
	u := model.NewFamily[nk](b, "u")
	maps := model.NewExpr(0)
	reds := model.NewExpr(0)
	obj := model.NewRowFamily[int](b, "mapfin")
	objR := model.NewRowFamily[int](b, "redfin")
	one := model.NewRowFamily[int](b, "onehot")
	lm := model.NewRowFamily[int](b, "linkm")
	lr := model.NewRowFamily[int](b, "linkr")
	th := model.NewFamily[nk](b, "theta")
	thr := model.NewFamily[nk](b, "thetar")
	ym := model.NewRowFamily[nk](b, "ybound")
	ur := model.NewRowFamily[nk](b, "ubound")
	thb := model.NewRowFamily[nk](b, "thetabound")
	thrb := model.NewRowFamily[nk](b, "thetarbound")
	ths := model.NewRowFamily[int](b, "thetasum")
	thrs := model.NewRowFamily[int](b, "thetarsum")
	tmax := 0.0
	for _, n := range p.Nodes {
		tmax = math.Max(tmax, math.Max(n.MapTime, n.ReduceTime))
	}
	// Reduce waves are tied to T (stage), to T + t_max (published, aligned)
	// or only to their big-M bound (published, not aligned).
	redTheta := p.Perspective && (p.Objective == Stage || p.Align)
	for i, n := range p.Nodes {
		Vm, Vr := VM[i], VR[i]
		a := vm.Add(i+1, 0, Vm, 0, model.Integer)
		c := vr.Add(i+1, 0, Vr, 0, model.Integer)
		v.VM, v.VR = append(v.VM, a.Index()), append(v.VR, c.Index())
		obj.GreaterEq(i+1, lin(T, 1, a, -n.MapTime), 0)
		if p.Objective == Stage {
			objR.GreaterEq(i+1, lin(T, 1, c, -n.ReduceTime), 0)
		}
		oh := model.NewExpr(n.Slots + 1)
		sy, su := model.NewExpr(n.Slots+1), model.NewExpr(n.Slots+1)
		st, str := model.NewExpr(n.Slots+2), model.NewExpr(n.Slots+2)
		zs := make([]int, n.Slots+1)
		for k := 0; k <= n.Slots; k++ {
			if stop.Tick() {
				return nil, HetVars{}, stopper.ErrStopped
			}
			zk := z.Add(nk{i + 1, k}, 0, 1, 0, model.Binary)
			yk := y.Add(nk{i + 1, k}, 0, Vm, 0, model.Continuous)
			uk := u.Add(nk{i + 1, k}, 0, Vr, 0, model.Continuous)
			zs[k] = zk.Index()
			oh.Add(zk, 1)
			sy.Add(yk, 1)
			su.Add(uk, 1)
			if k > 0 {
				maps.Add(yk, float64(k))
			}
			if n.Slots-k > 0 {
				reds.Add(uk, float64(n.Slots-k))
			}
			key := nk{i + 1, k}
			if !p.Perspective {
				ym.LessEq(key, lin(yk, 1, zk, -Vm), 0)
				ur.LessEq(key, lin(uk, 1, zk, -Vr), 0)
				continue
			}
			tk := th.Add(key, 0, FM[i], 0, model.Continuous)
			st.Add(tk, 1)
			thb.LessEq(key, lin(tk, 1, zk, -FM[i]), 0)
			ym.LessEq(key, lin(yk, n.MapTime, tk, -1), 0)
			switch {
			case p.Objective == Stage:
				ur.LessEq(key, lin(uk, n.ReduceTime, tk, -1), 0)
			case redTheta:
				rk := thr.Add(key, 0, FR[i], 0, model.Continuous)
				str.Add(rk, 1)
				thrb.LessEq(key, lin(rk, 1, zk, -FR[i]), 0)
				ur.LessEq(key, lin(uk, n.ReduceTime, rk, -1), 0)
			default:
				ur.LessEq(key, lin(uk, 1, zk, -Vr), 0)
			}
		}
		v.Z = append(v.Z, zs)
		if p.Perspective {
			st.Add(T, -1)
			ths.Equal(i+1, st, 0)
		}
		if redTheta && p.Objective != Stage {
			str.Add(T, -1)
			thrs.Equal(i+1, str, tmax)
		}
		one.Equal(i+1, oh, 1)
		lm.Equal(i+1, *sy.Add(a, -1), 0)
		lr.Equal(i+1, *su.Add(c, -1), 0)
	}
	b.GreaterEq("maptasks", maps, float64(p.MapTasks))
	b.GreaterEq("reducetasks", reds, float64(p.ReduceTasks))
	if p.Align {
		type pair struct{ I, J int }
		am := model.NewRowFamily[pair](b, "alignm")
		ar := model.NewRowFamily[pair](b, "alignr")
		amr := model.NewRowFamily[pair](b, "alignmr")
		for i, ni := range p.Nodes {
			mi, _ := vm.Get(i + 1)
			ri, _ := vr.Get(i + 1)
			for j, nj := range p.Nodes {
				if stop.Tick() {
					return nil, HetVars{}, stopper.ErrStopped
				}
				mj, _ := vm.Get(j + 1)
				rj, _ := vr.Get(j + 1)
				if i < j {
					tau := math.Max(ni.MapTime, nj.MapTime)
					am.Add(pair{i + 1, j + 1}, lin(mi, ni.MapTime, mj, -nj.MapTime), -tau, tau)
					tau = math.Max(ni.ReduceTime, nj.ReduceTime)
					ar.Add(pair{i + 1, j + 1}, lin(ri, ni.ReduceTime, rj, -nj.ReduceTime), -tau, tau)
				}
				tau := math.Max(ni.MapTime, nj.ReduceTime)
				amr.Add(pair{i + 1, j + 1}, lin(mi, ni.MapTime, rj, -nj.ReduceTime), -tau, tau)
			}
		}
	}
	b.Minimize(model.Sum(T))
	m, err := b.Build()
	return m, v, err
}

// HetResult is the decoded answer of the per-node program.
type HetResult struct {
	Problem HetProblem
	Status  solve.Status
	Solve   solve.Result
	// MapSlots[i], ReduceSlots[i]: s_m^i and s_r^i; MapWaves, ReduceWaves: v.
	MapSlots, ReduceSlots   []int
	MapWaves, ReduceWaves   []int
	Objective               float64
	MapFinish, ReduceFinish float64
	// Makespan is the predicted finish of the stage, max(MapFinish,
	// ReduceFinish), recomputed from the slots alone (see Recompute).
	Makespan float64
	Check    HetCheck
}

// SolveHet builds, solves, decodes and checks the per-node program.
//
// The build honours ctx and opts.TimeLimit: when either stops it, the
// result has status interrupted or time_limit, no solution and no bound.
func SolveHet(ctx context.Context, p HetProblem, opts solve.Options) (*HetResult, error) {
	start := time.Now()
	stop := stopper.New(ctx, start, opts.TimeLimit)
	m, v, err := buildHet(p, stop)
	if errors.Is(err, stopper.ErrStopped) {
		obj, bound := solve.NoSolution(model.Minimize)
		solver := opts.Solver
		if solver == "" {
			solver = solve.DefaultSolver
		}
		res := solve.Result{Status: stop.Status(), Objective: obj, Bound: bound, Solver: solver,
			Wall: time.Since(start), Message: fmt.Sprintf("the per-node program's build was stopped (%v)", stop.Status())}
		return &HetResult{Problem: p, Status: res.Status, Solve: res}, nil
	}
	if err != nil {
		return nil, err
	}
	if opts.TimeLimit > 0 {
		// The build's time counts against the limit.
		if opts.TimeLimit -= time.Since(start); opts.TimeLimit <= 0 {
			opts.TimeLimit = time.Nanosecond
		}
	}
	res, err := solve.Solve(ctx, m, opts)
	if err != nil {
		return nil, err
	}
	r := &HetResult{Problem: p, Status: res.Status, Solve: res}
	if !res.HasSolution {
		return r, nil
	}
	x := res.X
	for i, n := range p.Nodes {
		k := 0
		for kk, col := range v.Z[i] {
			if x[col] > x[v.Z[i][k]] {
				k = kk
			}
		}
		r.MapSlots = append(r.MapSlots, k)
		r.ReduceSlots = append(r.ReduceSlots, n.Slots-k)
		r.MapWaves = append(r.MapWaves, int(math.Round(x[v.VM[i]])))
		r.ReduceWaves = append(r.ReduceWaves, int(math.Round(x[v.VR[i]])))
	}
	r.Objective = res.Objective
	r.MapFinish, r.ReduceFinish = Recompute(p, r.MapSlots, r.ReduceSlots)
	r.Makespan = math.Max(r.MapFinish, r.ReduceFinish)
	r.Check = CheckHet(p, r)
	return r, nil
}

// PhaseFinish is the earliest time by which n tasks are done when node i runs
// slots[i] slots back to back with tasks of time times[i]: the smallest T with
// Σ_i slots[i]·⌊T/times[i]⌋ ≥ n. 0 for n = 0; +Inf when no slot exists.
func PhaseFinish(n int, slots []int, times []float64) float64 {
	if n <= 0 {
		return 0
	}
	best := math.Inf(1)
	for i, s := range slots {
		if s <= 0 {
			continue
		}
		// The answer is a multiple of some node's task time; try node i's.
		for w := 1; ; w++ {
			T := float64(w) * times[i]
			if T >= best {
				break
			}
			done := 0
			for j, sj := range slots {
				if sj > 0 {
					done += sj * int(math.Floor(T/times[j]*(1+1e-12)))
				}
			}
			if done >= n {
				best = T
				break
			}
		}
	}
	return best
}

// Recompute returns the map and reduce phases' finish times achieved by the
// given slots (PhaseFinish of each phase).
func Recompute(p HetProblem, mapSlots, reduceSlots []int) (mapFin, redFin float64) {
	tm := make([]float64, len(p.Nodes))
	tr := make([]float64, len(p.Nodes))
	for i, n := range p.Nodes {
		tm[i], tr[i] = n.MapTime, n.ReduceTime
	}
	return PhaseFinish(p.MapTasks, mapSlots, tm), PhaseFinish(p.ReduceTasks, reduceSlots, tr)
}

// HetCheck is the independent check of a decoded answer: the objective it
// recomputed and its verdict.
type HetCheck struct {
	// Objective recomputed from the waves (eq 8, or the stage objective).
	Objective float64 `json:"objective"`
	formulations.Verdict
}

// HetCheckTol is the absolute-and-relative tolerance on recomputed times.
const HetCheckTol = 1e-6

// CheckHet re-verifies a decoded answer against the instance: slot counts
// per node, the task coverage of eqs 10–11 with integer waves, the alignment
// rows when on, the recomputed objective against the solver's, and that the
// slots alone achieve finishes no later than the waves claim.
func CheckHet(p HetProblem, r *HetResult) HetCheck {
	c := HetCheck{Verdict: formulations.Verified()}
	fail := func(format string, a ...any) {
		if c.Verified {
			c.Verified, c.Problem = false, fmt.Sprintf(format, a...)
		}
	}
	mapCov, redCov := 0, 0
	fm, fr := 0.0, 0.0
	for i, n := range p.Nodes {
		sm, sr := r.MapSlots[i], r.ReduceSlots[i]
		if sm < 0 || sr < 0 || sm+sr != n.Slots {
			fail("node %s: %d + %d slots, has %d", n.Name, sm, sr, n.Slots)
		}
		if r.MapWaves[i] < 0 || r.ReduceWaves[i] < 0 {
			fail("node %s: negative waves", n.Name)
		}
		mapCov += sm * r.MapWaves[i]
		redCov += sr * r.ReduceWaves[i]
		fm = math.Max(fm, float64(r.MapWaves[i])*n.MapTime)
		fr = math.Max(fr, float64(r.ReduceWaves[i])*n.ReduceTime)
	}
	if mapCov < p.MapTasks {
		fail("map waves × slots cover %d of %d tasks", mapCov, p.MapTasks)
	}
	if redCov < p.ReduceTasks {
		fail("reduce waves × slots cover %d of %d tasks", redCov, p.ReduceTasks)
	}
	c.Objective = fm
	if p.Objective == Stage {
		c.Objective = math.Max(fm, fr)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= HetCheckTol*math.Max(1, math.Abs(b)) }
	if !near(c.Objective, r.Objective) {
		fail("objective recomputed %g, solver %g", c.Objective, r.Objective)
	}
	if p.Align {
		for i, ni := range p.Nodes {
			for j, nj := range p.Nodes {
				Fmi := float64(r.MapWaves[i]) * ni.MapTime
				Fmj := float64(r.MapWaves[j]) * nj.MapTime
				Fri := float64(r.ReduceWaves[i]) * ni.ReduceTime
				Frj := float64(r.ReduceWaves[j]) * nj.ReduceTime
				if math.Abs(Fmi-Fmj) > math.Max(ni.MapTime, nj.MapTime)*(1+HetCheckTol) ||
					math.Abs(Fri-Frj) > math.Max(ni.ReduceTime, nj.ReduceTime)*(1+HetCheckTol) ||
					math.Abs(Fmi-Frj) > math.Max(ni.MapTime, nj.ReduceTime)*(1+HetCheckTol) {
					fail("nodes %s, %s: finishes not aligned", ni.Name, nj.Name)
				}
			}
		}
	}
	if r.MapFinish > fm*(1+HetCheckTol)+HetCheckTol || r.ReduceFinish > fr*(1+HetCheckTol)+HetCheckTol {
		fail("slots achieve finishes %g/%g, later than the waves' %g/%g", r.MapFinish, r.ReduceFinish, fm, fr)
	}
	return c
}

// lin is a·x + b·y.
func lin(x model.Var, a float64, y model.Var, b float64) model.Expr {
	return model.Expr{Terms: []model.Term{{Var: x, Coef: a}, {Var: y, Coef: b}}}
}
