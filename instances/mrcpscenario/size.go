package mrcpscenario

import (
	"fmt"

	"github.com/mrbound/mrbound/internal/sizelimit"
)

// CheckSlots refuses resources whose slots, summed, would not fit the
// memory budget: the heuristic, the deadline search, the decoder and the
// checker each keep one entry per slot (sizelimit.ScenarioSlot). field names
// the input that set them (a flag or a JSON path).
func CheckSlots(field string, res []Resource) error {
	total := 0.0
	for _, r := range res {
		total += float64(r.MapSlots) + float64(r.ReduceSlots)
	}
	return sizelimit.Check(field, total, sizelimit.ScenarioSlot, "slots")
}

// checkGenerate refuses generator options whose stream would not fit the
// memory budget, before anything is drawn: the jobs (--jobs, or --duration
// times --lambda, the expected count, doubled for the Poisson spread) with
// their tasks, and the slots of the resources.
func checkGenerate(o GenOptions) error {
	field, jobs := "--jobs", float64(o.Jobs)
	if o.Duration > 0 {
		field, jobs = "--duration, --lambda", 2*o.Duration*o.Lambda+10
	}
	perJob := float64(Shapes[Large].Maps + 1) // the largest shape's tasks
	if err := sizelimit.CheckBytes(field, jobs*perJob*sizelimit.ScenarioTask, fmt.Sprintf("%s jobs", countString(jobs))); err != nil {
		return err
	}
	if err := sizelimit.Check("--resources", float64(o.Resources), sizelimit.ScenarioSlot, "resources"); err != nil {
		return err
	}
	slots := float64(o.Resources) * (float64(o.MapSlots) + float64(o.ReduceSlots))
	return sizelimit.Check("--map-slots, --reduce-slots", slots, sizelimit.ScenarioSlot, "slots")
}

func countString(n float64) string {
	if n < 1e15 {
		return fmt.Sprintf("%.0f", n)
	}
	return fmt.Sprintf("%.3g", n)
}
