package hugepage

import "unsafe"

// MinBytes is the size from which an array is worth backing by huge pages:
// below a few MB the page faults cost nothing measurable.
const MinBytes = 8 << 20

// Prefer asks for huge pages for the whole capacity of s when it spans
// MinBytes or more. Call it right after make, before the array is written:
// pages already touched keep their 4-KB backing.
func Prefer[T any](s []T) {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < MinBytes {
		return
	}
	advise(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])), n)
}
