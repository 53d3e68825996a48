// Package bigbuf allocates the large buffers (of any element type) that elem's
// kernels stream through: every slice starts on a 64-byte (cache line)
// boundary, and on Linux a buffer of Threshold bytes or more is an anonymous
// private mapping of its own, aligned to 2 MiB and advised for transparent
// huge pages (madvise MADV_HUGEPAGE), so that a DRAM-sized buffer costs a few
// TLB entries and page faults instead of thousands.
//
// # Lifetime
//
// Mapped memory is not Go heap memory: the garbage collector neither sees nor
// frees it. Every buffer from Make or TryMake must therefore be given back to
// Free exactly once, after its last use, as exactly the slice Make returned.
// A buffer is known by its first element, length and capacity together: a
// copy of the slice will do, but for a mapped buffer any reslice of it
// (s[1:], s[:0], s[len(s):], s[:k:k]) makes Free panic and release nothing.
// Free of a buffer from the Go heap (small buffers, and every buffer on other
// systems) does nothing, so code that pairs each Make with a Free is correct
// everywhere.
//
// Free gives a mapped buffer's memory back to the system at once but keeps
// its address range reserved, inaccessible, while the buffer is one of the
// last 64 freed (and they hold at most 1 TiB of address space; on 32-bit
// systems, whose address space the Go heap needs, nothing is kept). No new
// mapping can take the range meanwhile, so a second Free of the buffer, or of
// any slice of it, panics with "already freed", and any use of it faults with
// a fatal "unexpected fault address" error that recover cannot stop. The
// reservations go back to the system when newer ones push them out, or all
// at once when the system refuses a mapping for Make or TryMake (they count
// against a ulimit -v).
//
// Once its range is given back, anything may be mapped there again. A use of
// the buffer may then silently read and write someone else's memory, as a use
// after free does in C, and a second Free does nothing if no buffer of Make's
// holds the address, panics if one does but the slice is not exactly that
// buffer's, and unmaps that newer buffer if it has the very same first
// element, length and capacity: by its header alone a stale slice cannot be
// told from the live one.
//
// A buffer that is never freed stays mapped until the process exits. There
// is deliberately no finalizer or runtime.AddCleanup: the collector can only
// watch a Go object, never the slices into the mapping, so a cleanup could
// unmap memory that is still in use. When in doubt, use make: Make only pays
// for buffers that are big and long-lived.
//
// Appending past the capacity (which is the length) moves the data to the Go
// heap; Free still needs the slice Make returned.
package bigbuf

import (
	"fmt"
	"math"
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
// or more is mapped memory with huge pages advised; if the system refuses the
// mapping, Make takes the buffer from the Go heap instead, so a request the
// machine cannot hold fails as it does with make, usually with a fatal
// "runtime: out of memory" error that recover cannot stop (TryMake reports it
// instead). See the package documentation for the lifetime rules, which
// require a call to Free. Make panics if n is negative or n elements do not
// fit in the address space.
func Make[T elem.Number](n int) []T {
	s, err := alloc[T]("Make", n, true)
	if err != nil {
		panic(err.Error())
	}
	return s
}

// TryMake is Make that reports failure as an error instead of a panic or a
// fatal error: a negative n, n elements that do not fit in the address space,
// or, on Linux, the system's refusal of the mapping for a buffer of Threshold
// bytes or more (the error wraps the errno, such as ENOMEM); it never falls
// back to the Go heap for such a buffer. Smaller buffers, and every buffer on
// other systems, come from the Go heap, which cannot report a refusal: there
// a request the machine cannot hold still fails as it does with make.
func TryMake[T elem.Number](n int) ([]T, error) { return alloc[T]("TryMake", n, false) }

// alloc is Make (heapIfRefused) or TryMake, named caller in errors.
func alloc[T elem.Number](caller string, n int, heapIfRefused bool) ([]T, error) {
	size := int(unsafe.Sizeof(T(0)))
	switch {
	case n < 0:
		return nil, fmt.Errorf("bigbuf: %s: length %d is negative", caller, n)
	case n > (math.MaxInt-Align)/size:
		return nil, fmt.Errorf("bigbuf: %s: %d elements of %d bytes do not fit in the address space", caller, n, size)
	case n == 0:
		return []T{}, nil
	}
	if n*size >= Threshold {
		p, err := mapHuge(n * size)
		switch {
		case p != nil:
			return unsafe.Slice((*T)(p), n), nil
		case err != nil && !heapIfRefused:
			return nil, fmt.Errorf("bigbuf: %s: mapping %d elements of %d bytes: %w", caller, n, size, err)
		}
	}
	buf := make([]T, n+Align/size-1)
	skip := (Align - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))%Align) % Align / size
	return buf[skip : skip+n : skip+n], nil
}

// Free gives a buffer from Make or TryMake back: it releases mapped memory
// and does nothing for memory from the Go heap or a nil slice. s must be
// exactly the slice Make returned: first element, length and capacity. Free
// panics, releasing nothing, if s is any other slice of a mapped buffer (a
// reslice), or a slice of a freed buffer whose range is still reserved. After
// Free neither s nor any slice of the same buffer may be used, nor freed
// again; the package documentation says what happens if one is.
func Free[T elem.Number](s []T) {
	release(unsafe.Pointer(unsafe.SliceData(s)), len(s), cap(s), int(unsafe.Sizeof(T(0))))
}
