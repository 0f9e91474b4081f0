//go:build !linux

package sim

import "unsafe"

// adviseHuge is a no-op where transparent huge pages cannot be asked for.
func adviseHuge(p unsafe.Pointer, n uintptr) {}
