//go:build !linux

package bigbuf

import "unsafe"

// mapHuge maps nothing outside Linux: every buffer comes from the Go heap.
func mapHuge(int) unsafe.Pointer { return nil }

// unmap has nothing to release outside Linux.
func unmap(unsafe.Pointer) {}
