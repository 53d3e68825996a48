//go:build !linux

package bigbuf

import "unsafe"

// mapHuge maps nothing outside Linux: the nil pointer without an error sends
// every buffer to the Go heap.
func mapHuge(int) (unsafe.Pointer, error) { return nil, nil }

// release has nothing to release outside Linux.
func release(unsafe.Pointer, int, int, int) {}
