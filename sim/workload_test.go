package sim

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestTaskSpecExtras: the setters of the rarely used fields behave as the
// struct fields they replace: a copy keeps its own values when the original
// is changed, clearing every extra gives back the zero TaskSpec (so that
// reflect.DeepEqual compares tasks by value), and the getters read what was
// set.
func TestTaskSpecExtras(t *testing.T) {
	var a TaskSpec
	a.Work = 5
	a.SetByGroup([]Time{1, 2})
	a.SetReplicas([]int{3})
	a.SetDemand(1.5, 2.5)
	a.SetEstimate(9)
	b := a // a copy shares the extras until one of them is set
	b.SetDemand(7, 8)
	b.SetReplicas(nil)
	b.SetEstimate(4)
	if a.Estimate() != 9 || a.RAM() != 1.5 || a.Disk() != 2.5 || !reflect.DeepEqual(a.Replicas(), []int{3}) || !reflect.DeepEqual(a.ByGroup(), []Time{1, 2}) {
		t.Errorf("the original changed with its copy: %v %v %v %v", a.ByGroup(), a.Replicas(), a.RAM(), a.Disk())
	}
	if b.Estimate() != 4 || b.RAM() != 7 || b.Disk() != 8 || b.Replicas() != nil || !reflect.DeepEqual(b.ByGroup(), []Time{1, 2}) {
		t.Errorf("the copy: %v %v %v %v", b.ByGroup(), b.Replicas(), b.RAM(), b.Disk())
	}
	b.SetByGroup([]Time{}) // empty clears, as len(ByGroup) == 0 did
	b.SetDemand(0, 0)
	if b.x == nil {
		t.Errorf("the extras were dropped with the estimate still set")
	}
	b.SetEstimate(0)
	if b != (TaskSpec{Work: 5}) {
		t.Errorf("with every extra cleared: %+v, want the plain TaskSpec", b)
	}
	c := TaskSpec{Work: 5}
	c.SetDemand(0, 0)
	c.SetReplicas(nil)
	if !reflect.DeepEqual(b, c) {
		t.Errorf("%+v and %+v differ", b, c)
	}
}

// TestValidateTaskExtras: Validate checks the extras as it checked the
// fields, with the same messages and JSON paths.
func TestValidateTaskExtras(t *testing.T) {
	base := func() *Workload {
		return &Workload{
			Cluster: Cluster{Nodes: []Node{{MapSlots: 1, ReduceSlots: 1, Group: 1}, {MapSlots: 1, ReduceSlots: 1}}},
			Jobs: []Job{{Parent: -1, Deadline: NoDeadline,
				Maps: []TaskSpec{{Work: 1}, {Work: 1}}, Reduces: []TaskSpec{{Work: 1}}}},
		}
	}
	for _, c := range []struct {
		name, want string
		edit       func(j *Job)
	}{
		{"negative estimate", "jobs[0].maps[0]: negative duration or demand", func(j *Job) { j.Maps[0].SetEstimate(-1) }},
		{"nan ram", "jobs[0].maps[1]: negative duration or demand", func(j *Job) { j.Maps[1].SetDemand(math.NaN(), 0) }},
		{"negative disk", "jobs[0].reduces[0]: negative duration or demand", func(j *Job) { j.Reduces[0].SetDemand(0, -1) }},
		{"short by_group", "jobs[0].maps[0].by_group: duration count 1, want one per node group (2)", func(j *Job) { j.Maps[0].SetByGroup([]Time{1}) }},
		{"negative by_group", "jobs[0].maps[0].by_group[1]: negative duration", func(j *Job) { j.Maps[0].SetByGroup([]Time{1, -1}) }},
		{"replica out of range", "jobs[0].maps[1].replicas[1]: node 2 is not a distinct node", func(j *Job) { j.Maps[1].SetReplicas([]int{0, 2}) }},
		{"replica twice", "jobs[0].maps[1].replicas[1]: node 0 is not a distinct node", func(j *Job) { j.Maps[1].SetReplicas([]int{0, 0}) }},
		{"reduce replicas", "jobs[0].reduces[0].replicas: a reduce reads no block", func(j *Job) { j.Reduces[0].SetReplicas([]int{1}) }},
	} {
		w := base()
		if err := w.Validate(); err != nil {
			t.Fatalf("the base workload: %v", err)
		}
		c.edit(&w.Jobs[0])
		err := w.Validate()
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s: %v, want …%s", c.name, err, c.want)
		}
	}
	w := base()
	w.Jobs[0].Maps[0].SetByGroup([]Time{3, 4})
	w.Jobs[0].Maps[0].SetReplicas([]int{1, 0})
	w.Jobs[0].Reduces[0].SetDemand(1, 2)
	if err := w.Validate(); err != nil {
		t.Errorf("valid extras: %v", err)
	}
}
