// Package bigbuf allocates the large float32 and float64 buffers that elem's
// kernels stream through: every slice starts on a 64-byte (cache line)
// boundary, and on Linux a buffer of Threshold bytes or more is an anonymous
// private mapping of its own, aligned to 2 MiB and advised for transparent
// huge pages (madvise MADV_HUGEPAGE), so that a DRAM-sized buffer costs a few
// TLB entries and page faults instead of thousands.
//
// # Lifetime
//
// Mapped memory is not Go heap memory: the garbage collector neither sees nor
// frees it. Every slice from Make must therefore be given back to Free exactly
// once, after its last use, with the same first element Make returned (its
// length and capacity do not matter). Free of a buffer Make took from the Go
// heap (small buffers, and every buffer on other systems) does nothing, so
// code that pairs each Make with a Free is correct everywhere.
//
// Using a buffer after Free is a use after free, as in C: any slice that
// still points into it (a reslice, a copy of the slice header, one held by
// another goroutine) faults with a fatal "unexpected fault address" error
// that recover cannot stop, or, once the address range has been mapped again,
// silently reads and writes someone else's memory. Freeing twice may unmap a
// newer buffer that got the same address. A buffer that is never freed stays
// mapped until the process exits. There is deliberately no finalizer or
// runtime.AddCleanup: the collector can only watch a Go object, never the
// slices into the mapping, so a cleanup could unmap memory that is still in
// use. When in doubt, use make: Make only pays for buffers that are big and
// long-lived.
//
// Appending past the capacity (which is the length) moves the data to the Go
// heap; Free still needs the slice Make returned.
package bigbuf

import (
	"unsafe"

	"github.com/simdkit/elem"
)

// Threshold is the size in bytes from which Make maps memory and advises huge
// pages (on Linux); smaller buffers come from the Go heap.
const Threshold = 2 << 20

// Align is the byte alignment of the first element of every slice from Make.
const Align = 64

// Make returns a zeroed slice of n elements (length and capacity n) whose
// first element is Align-byte aligned. On Linux a buffer of Threshold bytes
// or more is mapped memory with huge pages advised (if the mapping fails it
// comes from the Go heap instead); see the package documentation for the
// lifetime rules, which require a call to Free. It panics if n is negative or
// n elements do not fit in the address space.
func Make[T elem.Float](n int) []T {
	size := int(unsafe.Sizeof(T(0)))
	switch {
	case n < 0:
		panic("bigbuf: Make: negative length")
	case n > (int(^uint(0)>>1)-Align)/size:
		panic("bigbuf: Make: length too large")
	case n == 0:
		return []T{}
	}
	if n*size >= Threshold {
		if p := mapHuge(n * size); p != nil {
			return unsafe.Slice((*T)(p), n)
		}
	}
	buf := make([]T, n+Align/size-1)
	skip := (Align - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))%Align) % Align / size
	return buf[skip : skip+n : skip+n]
}

// Free releases a buffer from Make: it unmaps mapped memory and does nothing
// for memory from the Go heap or a nil slice. s must start at the first
// element Make returned (any length and capacity, even 0, will do); Free
// panics, releasing nothing, if s starts elsewhere inside a mapped buffer.
// After Free neither s nor any slice of the same buffer may be used; see the
// package documentation.
func Free[T elem.Float](s []T) { unmap(unsafe.Pointer(unsafe.SliceData(s))) }
