package coshhsim

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/simclock"
)

// Workload converts sc; file names it in errors, which wrap badinput.Err.
func Workload(file string, sc *coshhscenario.Scenario) (*sim.Workload, error) {
	if !sc.HasTasks() {
		return nil, &badinput.PathError{File: file, Path: "jobs", Problem: "no task counts (generate with --tasks)"}
	}
	w := &sim.Workload{Name: sc.Name}
	w.Cluster.BlockBytes = sc.BlockBytes
	w.Cluster.Replicas = sc.Replicas
	if sc.NetworkMbps > 0 && sc.BlockBytes > 0 {
		w.Cluster.NonLocalPenalty = sim.FromSeconds(float64(sc.BlockBytes) * 8 / (sc.NetworkMbps * 1e6))
	}
	for i, r := range sc.Resources {
		if r.MapSlots+r.ReduceSlots == 0 {
			return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("resources[%d].map_slots", i), Problem: "the simulator needs map_slots and reduce_slots"}
		}
		speed := 1.0
		if r.ExecRateMHz > 0 {
			speed = r.ExecRateMHz / coshhscenario.ReferenceMHz
		}
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{Name: r.Name, MapSlots: r.MapSlots, ReduceSlots: r.ReduceSlots,
			Speed: speed, StorageBytes: r.StorageBytes})
	}
	user := map[string]int{}
	for i, u := range sc.Users {
		user[u.Name] = i
		w.Users = append(w.Users, sim.User{Name: u.Name, MinShare: int(math.Round(u.MinShare)), Weight: u.Priority})
	}
	clk := simclock.Clock{File: file}
	for j, job := range sc.Jobs {
		if job.Maps+job.Reduces == 0 {
			return nil, &badinput.PathError{File: file, Path: fmt.Sprintf("jobs[%d]", j), Problem: "no tasks"}
		}
		p := fmt.Sprintf("jobs[%d]", j)
		sj := sim.Job{Name: job.ID, User: user[job.User], Category: job.Category, Arrival: clk.At(p+".arrival", job.Arrival),
			Deadline: sim.NoDeadline, Parent: -1}
		// The estimates are checked here and computed by tasks as before.
		clk.At(p+".est_factor", job.MapSeconds*job.EstFactor)
		clk.At(p+".est_factor", job.ReduceSeconds*job.EstFactor)
		sj.Maps = tasks(job.Maps, clk.At(p+".map_seconds", job.MapSeconds), job.EstFactor)
		sj.Reduces = tasks(job.Reduces, clk.At(p+".reduce_seconds", job.ReduceSeconds), job.EstFactor)
		w.Jobs = append(w.Jobs, sj)
	}
	if err := clk.Err(); err != nil {
		return nil, err
	}
	if err := w.Validate(); err != nil {
		return nil, badinput.Errorf("%s: %w", file, err)
	}
	return w, nil
}

// tasks are n tasks of work, estimated at est times the work (none when
// est is 0).
func tasks(n int, work sim.Time, est float64) []sim.TaskSpec {
	if n == 0 {
		return nil
	}
	spec := sim.TaskSpec{Work: work}
	if est > 0 {
		spec.SetEstimate(max(1, sim.Time(math.Round(float64(work)*est))))
	}
	out := make([]sim.TaskSpec, n)
	for i := range out {
		out[i] = spec
	}
	return out
}

// UserRates are the users' arrival rates (jobs/s), nil when one is missing.
func UserRates(sc *coshhscenario.Scenario) []float64 {
	out := make([]float64, len(sc.Users))
	for i, u := range sc.Users {
		if u.ArrivalRate <= 0 {
			return nil
		}
		out[i] = u.ArrivalRate
	}
	return out
}
