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
func Three[T any](n int) [3][]T { return Sized[T]([3]int{n, n, n}) }

// Sized is Three with a length per buffer.
func Sized[T any](lengths [3]int) [3][]T {
	size := int(unsafe.Sizeof(*new(T)))
	var starts [3]int
	total := 0
	for i, n := range lengths {
		starts[i] = total + Offsets[i]
		total += (n*size + Offsets[i] + page - 1) / page * page
	}
	buf := make([]byte, total+page)
	base := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))%page) % page
	var out [3][]T
	for i := range out {
		out[i] = unsafe.Slice((*T)(unsafe.Pointer(&buf[base+starts[i]])), lengths[i])
	}
	return out
}

// Operands returns byte buffers of the given lengths for the operands of a
// call, the output last, sharing no page: the inputs start 0, 1024 and 2048
// bytes after a page boundary, the output 3072 bytes after one, so that no
// input is 4 KiB-aliased with the output. It takes up to four lengths.
func Operands(lengths ...int) [][]byte {
	offsets := []int{0, 1024, 2048}[:len(lengths)-1]
	offsets = append(offsets, 3072)
	total, starts := 0, make([]int, len(lengths))
	for i, n := range lengths {
		starts[i] = total + offsets[i]
		total += (n + offsets[i] + page - 1) / page * page
	}
	buf := make([]byte, total+page)
	base := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))%page) % page
	out := make([][]byte, len(lengths))
	for i, n := range lengths {
		out[i] = buf[base+starts[i] : base+starts[i]+n : base+starts[i]+n]
	}
	return out
}

// As views b as a slice of T.
func As[T any](b []byte) []T {
	size := int(unsafe.Sizeof(*new(T)))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

// ThreeFrom is Three with each buffer taken from its own allocation by
// alloc, for comparing allocators: alloc(k) must return at least k elements,
// and the caller releases the three allocations, which ThreeFrom returns
// beside the placed buffers.
func ThreeFrom[T any](n int, alloc func(int) []T) (placed, allocs [3][]T) {
	size := int(unsafe.Sizeof(*new(T)))
	extra := (page + Offsets[2] + size - 1) / size
	for i := range placed {
		allocs[i] = alloc(n + extra)
		skip := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(allocs[i]))))%page) % page
		placed[i] = unsafe.Slice((*T)(unsafe.Pointer(&allocs[i][(skip+Offsets[i])/size])), n)
	}
	return placed, allocs
}
