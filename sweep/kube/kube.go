package kube

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sweep"
)

// Options describe the Job.
type Options struct {
	// Name is the Job's name (a DNS-1123 label); "" means
	// "mrbound-<sweep kind>".
	Name string
	// Image is the container image holding mrbound; required.
	Image string
	// Command is the mrbound binary in the image; "" means "mrbound".
	Command string
	// Claim is the PersistentVolumeClaim holding the sweep directory (its
	// sweep.json, results/ and logs/ at the claim's root, or at SubPath).
	Claim   string
	SubPath string
	// MountPath is where the claim is mounted; "" means "/sweep".
	MountPath string
	// Indices are the items to run (sorted, distinct).
	Indices []int
	// Parallelism caps the pods running at once; 0 means one per item.
	Parallelism int
	// Time and MemoryMB override the manifest's limits when positive.
	Time     time.Duration
	MemoryMB int
}

// Job is the subset of batch/v1 Job that mrbound writes.
type Job struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   Metadata `json:"metadata"`
	Spec       JobSpec  `json:"spec"`
}

// Metadata names an object.
type Metadata struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// JobSpec is batch/v1 JobSpec.
type JobSpec struct {
	CompletionMode       string      `json:"completionMode"`
	Completions          int         `json:"completions"`
	Parallelism          int         `json:"parallelism"`
	BackoffLimitPerIndex int         `json:"backoffLimitPerIndex"`
	Template             PodTemplate `json:"template"`
}

// PodTemplate is core/v1 PodTemplateSpec.
type PodTemplate struct {
	Metadata Metadata `json:"metadata"`
	Spec     PodSpec  `json:"spec"`
}

// PodSpec is core/v1 PodSpec.
type PodSpec struct {
	RestartPolicy         string      `json:"restartPolicy"`
	ActiveDeadlineSeconds int64       `json:"activeDeadlineSeconds,omitempty"`
	Containers            []Container `json:"containers"`
	Volumes               []Volume    `json:"volumes"`
}

// Container is core/v1 Container.
type Container struct {
	Name         string        `json:"name"`
	Image        string        `json:"image"`
	Command      []string      `json:"command"`
	Args         []string      `json:"args"`
	Resources    Resources     `json:"resources"`
	VolumeMounts []VolumeMount `json:"volumeMounts"`
}

// Resources are requests and limits ("cpu", "memory").
type Resources struct {
	Requests map[string]string `json:"requests"`
	Limits   map[string]string `json:"limits,omitempty"`
}

// VolumeMount mounts a volume.
type VolumeMount struct {
	Name      string `json:"name"`
	MountPath string `json:"mountPath"`
	SubPath   string `json:"subPath,omitempty"`
}

// Volume is a PersistentVolumeClaim volume.
type Volume struct {
	Name                  string   `json:"name"`
	PersistentVolumeClaim ClaimRef `json:"persistentVolumeClaim"`
}

// ClaimRef names a claim.
type ClaimRef struct {
	ClaimName string `json:"claimName"`
}

// labelValue is a Kubernetes label value.
var labelValue = regexp.MustCompile(`^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$`)

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// NewJob builds the Indexed Job running opts.Indices of m.
func NewJob(m *sweep.Manifest, opts Options) (*Job, error) {
	switch {
	case len(opts.Indices) == 0:
		return nil, fmt.Errorf("kube: no items to run")
	case opts.Image == "":
		return nil, badinput.Errorf("kube: an image holding mrbound is required (--image)")
	case opts.Claim == "":
		return nil, badinput.Errorf("kube: a PersistentVolumeClaim holding the sweep directory is required (--claim)")
	}
	// The Job is written as JSON, whose quoting keeps every value a single
	// string; still, a line break or control character in an image, claim
	// or path is never meant, and a label value has its own syntax.
	for _, c := range []struct{ field, value string }{
		{"kube: --image", opts.Image}, {"kube: --claim", opts.Claim}, {"kube: --subpath", opts.SubPath},
		{"kube: --mount", opts.MountPath}, {"kube: --command", opts.Command}, {"kube: the manifest's title", m.Title},
	} {
		if err := sweep.CheckText(c.field, c.value); err != nil {
			return nil, err
		}
	}
	if !labelValue.MatchString(m.Sweep) {
		return nil, badinput.Errorf("kube: the sweep kind %q is not a label value (letters, digits, '-', '_', '.', at most 63)", m.Sweep)
	}
	name := opts.Name
	if name == "" {
		name = "mrbound-" + m.Sweep
	}
	if !dnsLabel.MatchString(name) {
		return nil, badinput.Errorf("kube: job name %q is not a DNS-1123 label (lower-case letters, digits, '-', at most 63)", name)
	}
	mount := opts.MountPath
	if mount == "" {
		mount = "/sweep"
	}
	command := opts.Command
	if command == "" {
		command = "mrbound"
	}
	args := []string{"sweep", "run", path.Join(mount, sweep.ManifestName)}
	if len(opts.Indices) != len(m.Items) {
		args = append(args, "--items", sweep.FormatIndices(opts.Indices))
	}
	par := opts.Parallelism
	if par <= 0 || par > len(opts.Indices) {
		par = len(opts.Indices)
	}
	res := Resources{Requests: map[string]string{"cpu": "1"}}
	mem := m.Limits.MemoryMB
	if opts.MemoryMB > 0 {
		mem = opts.MemoryMB
	}
	if mem > 0 {
		q := fmt.Sprintf("%dMi", mem)
		res.Requests["memory"] = q
		res.Limits = map[string]string{"memory": q}
	}
	limit := time.Duration(m.Limits.Time)
	if opts.Time > 0 {
		limit = opts.Time
	}
	labels := map[string]string{"app.kubernetes.io/name": "mrbound", "mrbound/sweep": m.Sweep}
	return &Job{
		APIVersion: "batch/v1",
		Kind:       "Job",
		Metadata:   Metadata{Name: name, Labels: labels},
		Spec: JobSpec{
			CompletionMode:       "Indexed",
			Completions:          len(opts.Indices),
			Parallelism:          par,
			BackoffLimitPerIndex: 1,
			Template: PodTemplate{
				Metadata: Metadata{Labels: labels},
				Spec: PodSpec{
					RestartPolicy:         "Never",
					ActiveDeadlineSeconds: int64((limit + time.Second - 1) / time.Second),
					Containers: []Container{{
						Name: "item", Image: opts.Image, Command: []string{command}, Args: args, Resources: res,
						VolumeMounts: []VolumeMount{{Name: "sweep", MountPath: mount, SubPath: opts.SubPath}},
					}},
					Volumes: []Volume{{Name: "sweep", PersistentVolumeClaim: ClaimRef{ClaimName: opts.Claim}}},
				},
			},
		},
	}, nil
}

// WriteJSON writes the job, indented, for kubectl apply -f.
func (j *Job) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
