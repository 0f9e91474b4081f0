package sim

import "unsafe"

// hugeMinBytes is the size from which a per-task array is worth backing by
// huge pages: below a few MB the page faults cost nothing measurable, and a
// 2-MB page of a small array would mostly back other objects.
const hugeMinBytes = 8 << 20

// preferHuge asks the kernel to back the whole capacity of a per-task array
// with transparent huge pages (Linux, THP in "madvise" mode). A day's run
// writes each of these arrays once, page after page, and on a virtual
// machine the first touch of a 4-KB page costs about as much as the work
// done with it (issue 30: two fifths of the first-touch time of 6.4 M task
// records went, in a 257-MB micro-benchmark, with 2-MB pages). It changes
// no value and no decision; where the advice is not supported it is a no-op.
func preferHuge[T any](s []T) {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < hugeMinBytes {
		return
	}
	adviseHuge(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])), n)
}
