package mrtry

import (
	"testing"

	fm "github.com/mrbound/mrbound/formulations/mrcp"
	inst "github.com/mrbound/mrbound/instances/mrcp"
)

func TestZlb(t *testing.T) {
	in, err := inst.Load("/tmp/s4.json")
	if err != nil {
		t.Fatal(err)
	}
	bt, _ := fm.Build(in, fm.Options{})
	t.Logf("Zmin %d Zmax %d", bt.Zmin, bt.Zmax)
	for j, job := range in.Jobs {
		t.Logf("job %d rel %d dl %d maps %d x %d red %d", j, job.Release, job.Deadline, len(job.Maps), job.Maps[0].Duration, job.Reduces[0].Duration)
	}
	for _, a := range bt.Heuristic.Tasks {
		_ = a
	}
}
