package sweep

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// FormatIndices writes sorted, distinct indices compactly: "0-3,5,7-9".
func FormatIndices(idx []int) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(idx[i]))
		if j > i {
			fmt.Fprintf(&b, "-%d", idx[j])
		}
		i = j + 1
	}
	return b.String()
}

// ParseIndices reads what FormatIndices writes (ranges and single indices,
// comma-separated, each non-negative).
func ParseIndices(s string) ([]int, error) {
	if err := checkIndexCount(s); err != nil {
		return nil, err
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, badinput.Errorf("%q: want indices such as 0-3,5,7-9", s)
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

// IndexEnv lists the environment variables that carry an item's index, in
// the order they are looked at: Slurm job arrays, Kubernetes Indexed Jobs.
var IndexEnv = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// EnvIndex returns the index given by the first of IndexEnv that is set.
// ok is false when none is.
func EnvIndex() (index int, name string, ok bool, err error) {
	for _, name := range IndexEnv {
		v, set := os.LookupEnv(name)
		if !set || v == "" {
			continue
		}
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 {
			return 0, name, true, badinput.Errorf("$%s: %q is not an item index", name, v)
		}
		return i, name, true, nil
	}
	return 0, "", false, nil
}

// checkIndexCount refuses a list whose ranges, summed, name more items than
// the memory budget allows (0-2000000000 is a few bytes that would expand to
// 16 GB of indices, and every index is an item to plan, run and collect:
// sizelimit.SweepItem each). Malformed parts are left to ParseIndices.
func checkIndexCount(s string) error {
	n := 0.0
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if isRange && err1 == nil && err2 == nil && b >= a {
			n += float64(b) - float64(a) + 1
		} else {
			n++
		}
	}
	return sizelimit.Check(fmt.Sprintf("items %q", s), n, sizelimit.SweepItem, "items")
}
