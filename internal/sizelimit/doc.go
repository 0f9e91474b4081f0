// Package sizelimit refuses, before anything is allocated, an input whose
// implied size would not fit the memory budget.
//
// # Why
//
// A few bytes of input can imply billions of objects: a SWIM line's byte
// count becomes map tasks, --nodes becomes per-node state, a long horizon
// becomes the columns of a time-indexed model, --items 0-2000000000 becomes
// sweep items. Allocating first and failing later kills the process with an
// out-of-memory error instead of the one-line bad-input message mrbound
// promises. Each reader, generator and builder therefore estimates what its
// input implies (count × bytes per unit, the per-unit figures below, each
// measured) and calls Check before it allocates.
//
// # The budget
//
// DefaultBudget (the machine's memory) unless the MRBOUND_MAX_MEMORY environment variable or the
// CLI's global --max-memory flag (which calls SetBudget) says otherwise; both
// read sizes such as 64GiB, 500MB or 1e9 (bytes). The budget is a guard
// against inputs that cannot be meant, not an accounting of the heap: an
// estimate is within a small factor of what the run takes.
package sizelimit
