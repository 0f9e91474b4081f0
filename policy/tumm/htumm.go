package tumm

import "github.com/mrbound/mrbound/sim"

// HTuMMOptions are H_TuMM's parameters; the zero value is the paper's.
type HTuMMOptions struct {
	// Bounds keeps sⁱ_m, sⁱ_r ∈ [1, Sⁱ−1] (the paper states no bounds).
	Bounds bool
}

// HTuMM is the heterogeneous per-node slot configuration (TuMM §5.2,
// Algorithm 4) on a fungible cluster with FIFO job order.
type HTuMM struct {
	core
	opt HTuMMOptions
	// stats[j] are job j's finished-task sums, cluster-wide and per node,
	// while j runs (A-T6: means over the running jobs' tasks).
	stats []*jobStats
	// all* are over every finished task (A-T6's fallback).
	allSum [2]float64
	allCnt [2]int
	// sm, sr are each node's last targets (kept when D = 0).
	sm, sr []int
	// NoWork counts offers at which D = 0 (the targets were kept).
	NoWork int
}

type jobStats struct {
	sum     [2]float64
	cnt     [2]int
	nodeSum [][2]float64
	nodeCnt [][2]int
}

// NewHTuMM returns H_TuMM with options o.
func NewHTuMM(o HTuMMOptions) *HTuMM { return &HTuMM{opt: o} }

// Name is "htumm".
func (p *HTuMM) Name() string { return "htumm" }

// Init sizes the state; the cluster must be fungible.
func (p *HTuMM) Init(s *sim.Sim) error {
	if err := p.core.init(s, p.Name()); err != nil {
		return err
	}
	nodes := s.Cluster().Nodes
	p.stats = make([]*jobStats, s.NumJobs())
	p.allSum, p.allCnt = [2]float64{}, [2]int{}
	p.sm, p.sr = make([]int, len(nodes)), make([]int, len(nodes))
	for i, n := range nodes {
		p.sm[i] = (n.TotalSlots + 1) / 2
		p.sr[i] = n.TotalSlots - p.sm[i]
	}
	p.NoWork = 0
	return nil
}

// JobArrival queues j.
func (p *HTuMM) JobArrival(_ *sim.Sim, j int) { p.arrive(j) }

// Timer is unused.
func (p *HTuMM) Timer(*sim.Sim, int64) {}

// TaskEnd is H_TuMM's collector: cluster-wide and per-node means.
func (p *HTuMM) TaskEnd(s *sim.Sim, t sim.TaskID, observed sim.Time) {
	x := int(p.nodeOf[t])
	v := p.ended(t)
	k := 0
	if v.Kind == sim.Reduce {
		k = 1
	}
	d := observed.Seconds()
	p.allSum[k] += d
	p.allCnt[k]++
	st := p.stats[v.Job]
	if st == nil {
		n := len(s.Cluster().Nodes)
		st = &jobStats{nodeSum: make([][2]float64, n), nodeCnt: make([][2]int, n)}
		p.stats[v.Job] = st
	}
	st.sum[k] += d
	st.cnt[k]++
	st.nodeSum[x][k] += d
	st.nodeCnt[x][k]++
	if s.Job(v.Job).Done {
		p.stats[v.Job] = nil
	}
	p.recheck(true) // every input of Algorithm 4 may have changed
}

// inputs gathers Algorithm 4's inputs for node x: the cluster means t̄_m,
// t̄_r and the node's t̄ⁱ_m, t̄ⁱ_r (A-T6), and the unassigned maps of running
// jobs in the map phase and reduces of running jobs in the reduce phase.
func (p *HTuMM) inputs(x int) (tm, tr, tmi, tri float64, nm, nr int) {
	var sum, nodeSum [2]float64
	var cnt, nodeCnt [2]int
	for j, v := range p.runningJobs {
		if v.MapPhaseDone {
			nr += v.RedsPending
		} else {
			nm += v.MapsPending
		}
		if st := p.stats[j]; st != nil {
			for k := range 2 {
				sum[k] += st.sum[k]
				cnt[k] += st.cnt[k]
				nodeSum[k] += st.nodeSum[x][k]
				nodeCnt[k] += st.nodeCnt[x][k]
			}
		}
	}
	var cl, nd [2]float64
	for k := range 2 {
		switch {
		case cnt[k] > 0:
			cl[k] = sum[k] / float64(cnt[k])
		case p.allCnt[k] > 0:
			cl[k] = p.allSum[k] / float64(p.allCnt[k])
		default:
			cl[k] = 1
		}
		nd[k] = cl[k]
		if nodeCnt[k] > 0 {
			nd[k] = nodeSum[k] / float64(nodeCnt[k])
		}
	}
	return cl[0], cl[1], nd[0], nd[1], nm, nr
}

// Offer is Algorithm 4, once per free slot. When D = 0 the node keeps its
// targets and either kind with work may take the slot (no running job has
// unassigned work in its phase, so there is nothing for a target to
// protect, and the next queued job must be able to start).
func (p *HTuMM) Offer(s *sim.Sim, x int, free sim.Free) {
	p.prune()
	Si := s.Cluster().Nodes[x].TotalSlots
	for n := free.Map; n > 0; n-- {
		tm, tr, tmi, tri, nm, nr := p.inputs(x)
		sm, sr, ok := HNodeTargets(Si, tmi, tri, tm, tr, nm, nr)
		if ok {
			if p.opt.Bounds && Si >= 2 {
				sm = clamp(sm, 1, Si-1)
				sr = Si - sm
			}
			p.sm[x], p.sr[x] = sm, sr
		} else {
			p.NoWork++
		}
		kind := ChooseKind(p.sm[x], p.sr[x], p.runMap[x], p.runRed[x])
		_, launched := p.launchKind(kind, x)
		if !launched {
			if other, deficit := p.other(kind, p.sm[x], p.sr[x], x); deficit > 0 || !ok {
				_, launched = p.launchKind(other, x)
			}
		}
		if !launched {
			p.decline()
			return
		}
		p.recheck(true)
	}
}
