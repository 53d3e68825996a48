// Package bufplace allocates benchmark buffers at fixed places relative to
// page boundaries, so that timings do not depend on where the allocator put
// them: an output 4 KiB-aliased with an input made one L1-sized kernel swing
// fivefold from run to run on the machine elem was tuned on.
package bufplace

import "unsafe"

const page = 4096

// Offsets are the byte offsets from a page boundary at which Three places
// its first, second and third buffer.
var Offsets = [3]int{0, 1024, 3072}

// Three returns three n-element slices that share no page, each starting
// Offsets[i] bytes after a page boundary.
func Three[T any](n int) [3][]T {
	size := n * int(unsafe.Sizeof(*new(T)))
	stride := (size + Offsets[2] + 2*page - 1) / page * page
	buf := make([]byte, 3*stride+page)
	base := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))%page) % page
	var out [3][]T
	for i := range out {
		start := base + i*stride + Offsets[i]
		out[i] = unsafe.Slice((*T)(unsafe.Pointer(&buf[start])), n)
	}
	return out
}
