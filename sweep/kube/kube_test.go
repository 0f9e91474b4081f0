package kube

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sweep"
)

func manifest(n int) *sweep.Manifest {
	m := &sweep.Manifest{Sweep: "jlassi-table", Params: json.RawMessage(`{}`),
		Limits: sweep.Limits{Time: sweep.Duration(100 * time.Second), MemoryMB: 2048}, Path: "/home/u/s/sweep.json"}
	for i := 0; i < n; i++ {
		m.Items = append(m.Items, sweep.Item{ID: strings.Repeat("i", i+1), Spec: json.RawMessage(`{}`)})
	}
	return m
}

// TestJob writes the Indexed Job, parses the JSON back as a generic document
// and checks the fields Kubernetes reads.
func TestJob(t *testing.T) {
	m := manifest(10)
	job, err := NewJob(m, Options{Image: "registry.example/mrbound:1", Claim: "sweeps", SubPath: "table6", Indices: []int{2, 3, 4, 8}, Parallelism: 3})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := job.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	get := func(path string) any {
		var v any = doc
		for _, k := range strings.Split(path, ".") {
			switch x := v.(type) {
			case map[string]any:
				v = x[k]
			case []any:
				v = x[0]
				if k != "0" {
					t.Fatalf("%s: want index 0", path)
				}
			default:
				t.Fatalf("%s: no %s", path, k)
			}
		}
		return v
	}
	for path, want := range map[string]any{
		"apiVersion":                                                   "batch/v1",
		"kind":                                                         "Job",
		"metadata.name":                                                "mrbound-jlassi-table",
		"spec.completionMode":                                          "Indexed",
		"spec.completions":                                             4.0,
		"spec.parallelism":                                             3.0,
		"spec.backoffLimitPerIndex":                                    1.0,
		"spec.template.spec.restartPolicy":                             "Never",
		"spec.template.spec.activeDeadlineSeconds":                     100.0,
		"spec.template.spec.containers.0.image":                        "registry.example/mrbound:1",
		"spec.template.spec.containers.0.command":                      []any{"mrbound"},
		"spec.template.spec.containers.0.args":                         []any{"sweep", "run", "/sweep/sweep.json", "--items", "2-4,8"},
		"spec.template.spec.containers.0.resources.requests":           map[string]any{"cpu": "1", "memory": "2048Mi"},
		"spec.template.spec.containers.0.resources.limits":             map[string]any{"memory": "2048Mi"},
		"spec.template.spec.containers.0.volumeMounts.0.mountPath":     "/sweep",
		"spec.template.spec.containers.0.volumeMounts.0.subPath":       "table6",
		"spec.template.spec.volumes.0.persistentVolumeClaim.claimName": "sweeps",
	} {
		if got := get(path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", path, got, want)
		}
	}
	// All items: no --items, one pod per item, overrides win.
	job, err = NewJob(m, Options{Image: "i", Claim: "c", MountPath: "/data", Command: "/usr/local/bin/mrbound",
		Indices: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Time: time.Hour, MemoryMB: 512})
	if err != nil {
		t.Fatal(err)
	}
	c := job.Spec.Template.Spec.Containers[0]
	if !reflect.DeepEqual(c.Args, []string{"sweep", "run", "/data/sweep.json"}) || c.Command[0] != "/usr/local/bin/mrbound" ||
		job.Spec.Parallelism != 10 || job.Spec.Template.Spec.ActiveDeadlineSeconds != 3600 || c.Resources.Limits["memory"] != "512Mi" {
		t.Errorf("job %+v, container %+v", job.Spec, c)
	}
}

func TestJobBad(t *testing.T) {
	m := manifest(2)
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Claim: "c", Indices: []int{0}}, "image"},
		{Options{Image: "i", Indices: []int{0}}, "PersistentVolumeClaim"},
		{Options{Image: "i", Claim: "c", Indices: []int{0}, Name: "Bad_Name"}, "DNS-1123"},
	} {
		if _, err := NewJob(m, c.o); !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want bad input about %s", c.o, err, c.want)
		}
	}
}
