package tummscenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// TestSizeRefusals: task and slot counts of 10^15 to 10^18, a few bytes in
// the file, are refused at Parse with the JSON path and the budget (the
// heterogeneous phase finish would have walked 10^18 waves, the per-node
// program allocated 10^15 slots); the examples still parse.
func TestSizeRefusals(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	for _, c := range []struct{ json, want string }{
		{`{"kind":"tumm","schema_version":1,"heterogeneous":{"map_tasks":1000000000000000000,"reduce_tasks":1,"nodes":[{"name":"a","slots":2,"map_time":1,"reduce_time":1}]}}`,
			"s.json: $.heterogeneous.map_tasks, reduce_tasks: 1e+18 tasks"},
		{`{"kind":"tumm","schema_version":1,"heterogeneous":{"map_tasks":10,"reduce_tasks":1,"nodes":[{"name":"a","slots":1000000000000000,"map_time":1,"reduce_time":1}]}}`,
			"s.json: $.heterogeneous.nodes: "},
		{`{"kind":"tumm","schema_version":1,"static":{"slots":4,"jobs":[{"name":"a","map_tasks":9000000000000000000,"reduce_tasks":9000000000000000000,"map_time":1,"reduce_time":1}]}}`,
			"s.json: $.static.jobs: 1.8e+19 tasks"},
		{`{"kind":"tumm","schema_version":1,"static":{"slots":1000000000000000,"jobs":[{"name":"a","map_tasks":1,"reduce_tasks":1,"map_time":1,"reduce_time":1}]}}`,
			"s.json: $.static.slots: 1e+15 slots"},
	} {
		_, err := Parse("s.json", []byte(c.json))
		if err == nil || !errors.Is(err, badinput.Err) || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v, want a refusal starting %q", err, c.want)
		}
	}
	if _, err := Generate(GenOptions{Jobs: 1 << 40}); err == nil || !strings.HasPrefix(err.Error(), "--jobs: ") {
		t.Errorf("generate --jobs 2^40: %v", err)
	}
	// Large but allowed: 10^6 heterogeneous tasks on 10^3 slots.
	ok := `{"kind":"tumm","schema_version":1,"heterogeneous":{"map_tasks":1000000,"reduce_tasks":1000,"nodes":[{"name":"a","slots":1000,"map_time":1,"reduce_time":1}]}}`
	if _, err := Parse("s.json", []byte(ok)); err != nil {
		t.Errorf("10^6 tasks on 10^3 slots: %v", err)
	}
}
