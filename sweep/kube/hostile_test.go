package kube

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// TestHostileValues: a line break or control character in any string option
// is refused naming the option; quotes, $(…) and backticks are carried
// verbatim as single JSON strings (the Job reads back with the exact value
// and the command stays one argv element, never a shell line).
func TestHostileValues(t *testing.T) {
	for _, v := range []string{"x\ntouch PWNED", "x\r", "x\x00y", "a\u2028b"} {
		for field, o := range map[string]Options{
			"--image":   {Image: v, Claim: "c"},
			"--claim":   {Image: "i", Claim: v},
			"--subpath": {Image: "i", Claim: "c", SubPath: v},
			"--mount":   {Image: "i", Claim: "c", MountPath: v},
			"--command": {Image: "i", Claim: "c", Command: v},
		} {
			o.Indices = []int{0}
			if _, err := NewJob(manifest(1), o); !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), field) {
				t.Errorf("%s %q: %v, want bad input naming %s", field, v, err, field)
			}
		}
	}
	m := manifest(1)
	m.Sweep = "x\"}, \"evil\": {\"a"
	if _, err := NewJob(m, Options{Image: "i", Claim: "c", Indices: []int{0}, Name: "n"}); !errors.Is(err, badinput.Err) {
		t.Errorf("a sweep kind that is no label value: %v", err)
	}
	v := `$(touch PWNED) "q" 'q' ` + "`touch PWNED`"
	job, err := NewJob(manifest(2), Options{Image: v, Claim: v, Command: v, Indices: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	job.WriteJSON(&b)
	var back Job
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("the Job does not read back: %v\n%s", err, b.String())
	}
	c := back.Spec.Template.Spec.Containers[0]
	if c.Image != v || len(c.Command) != 1 || c.Command[0] != v || back.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != v {
		t.Errorf("values changed on the way: %+v", c)
	}
}
