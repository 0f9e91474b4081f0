package coshhscenario

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

//go:embed data/*.json
var dataFS embed.FS

// Category is one job category of Table 4. MapTime and ReduceTime are in
// task-seconds; sizes are the published text ("8.8GB").
type Category struct {
	Name       string  `json:"name"`
	Duration   float64 `json:"duration"`
	Jobs       int     `json:"jobs"`
	Input      string  `json:"input"`
	Shuffle    string  `json:"shuffle"`
	Output     string  `json:"output"`
	MapTime    float64 `json:"map_time"`
	ReduceTime float64 `json:"reduce_time"`
}

var (
	tables struct {
		traces   map[string][]Category
		users    map[string][]User
		clusters map[string][]Resource
	}
)

func init() {
	var t struct {
		Traces map[string][]Category `json:"traces"`
	}
	var u struct {
		Users map[string][]User `json:"users"`
	}
	var c struct {
		Clusters map[string][]Resource `json:"clusters"`
	}
	mustLoad("data/traces.json", &t)
	mustLoad("data/users.json", &u)
	mustLoad("data/clusters.json", &c)
	tables.traces, tables.users, tables.clusters = t.Traces, u.Users, c.Clusters
}

// mustLoad decodes an embedded table; a failure is a build defect.
func mustLoad(name string, v any) {
	b, err := dataFS.ReadFile(name)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		panic("coshh: embedded " + name + ": " + err.Error())
	}
}

// Traces lists the trace names ("facebook", "yahoo").
func Traces() []string { return keys(tables.traces) }

// Clusters lists the cluster names ("table10", "table11", "table3").
func Clusters() []string { return keys(tables.clusters) }

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Trace returns a copy of the categories of Table 4 for a trace.
func Trace(name string) ([]Category, error) {
	c, ok := tables.traces[name]
	if !ok {
		return nil, fmt.Errorf("coshh: unknown trace %q (one of %s)", name, strings.Join(Traces(), ", "))
	}
	return append([]Category(nil), c...), nil
}

// Users returns a copy of the users of Table 5 for a trace; user k submits
// the jobs of category k.
func Users(trace string) ([]User, error) {
	u, ok := tables.users[trace]
	if !ok {
		return nil, fmt.Errorf("coshh: unknown trace %q (one of %s)", trace, strings.Join(Traces(), ", "))
	}
	return append([]User(nil), u...), nil
}

// Cluster returns n resources of a published cluster. For table3 and table11
// n = 0 means the table as published (6 and 4 resources). For table10, whose
// rows are resource types, resource k (from 0) has type k mod 6, as §6.2.2
// adds "a new resource from one of the resource types in turn"; n = 0 means 6.
func Cluster(name string, n int) ([]Resource, error) {
	rows, ok := tables.clusters[name]
	if !ok {
		return nil, fmt.Errorf("coshh: unknown cluster %q (one of %s)", name, strings.Join(Clusters(), ", "))
	}
	if n < 0 {
		return nil, fmt.Errorf("coshh: negative resource count %d", n)
	}
	if n == 0 {
		return append([]Resource(nil), rows...), nil
	}
	if name != "table10" && n != len(rows) {
		return nil, fmt.Errorf("coshh: cluster %s has %d resources; only table10 can be resized", name, len(rows))
	}
	out := make([]Resource, n)
	for k := range out {
		out[k] = rows[k%len(rows)]
		out[k].Name = "R" + strconv.Itoa(k+1)
	}
	return out, nil
}

// ParseSize reads a published size such as "8.8GB", "21KB" or "0" as bytes,
// with binary multiples (1KB = 1024 bytes).
func ParseSize(s string) (float64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for i, u := range []string{"KB", "MB", "GB", "TB", "PB"} {
		if strings.HasSuffix(t, u) {
			t = strings.TrimSpace(strings.TrimSuffix(t, u))
			for k := 0; k <= i; k++ {
				mult *= 1024
			}
			break
		}
	}
	t = strings.TrimSuffix(t, "B")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("coshh: size %q is not a non-negative size", s)
	}
	return v * mult, nil
}
