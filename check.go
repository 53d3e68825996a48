package elem

import (
	"fmt"
	"unsafe"

	"github.com/simdkit/elem/internal/alias"
)

// sliceSpan describes s for package alias.
func sliceSpan[T any](s []T) alias.Span {
	var zero T
	return alias.Span{Start: uintptr(unsafe.Pointer(unsafe.SliceData(s))), Elem: int(unsafe.Sizeof(zero)),
		Size: []int{len(s)}, Stride: []int{1}}
}

// overlapsPartly reports whether dst and x share memory without being the
// same slice (same start, same length), which is the one overlap allowed.
func overlapsPartly[T any](dst, x []T) bool { return alias.Conflict(sliceSpan(dst), sliceSpan(x)) }

// fits reports, cheaply enough to inline, that x has dst's length and is
// either dst itself or disjoint from it: the contract of the slice calls,
// checked on their fast path. Anything else takes the path that panics with
// a message.
func fits[T any](dst, x []T) bool {
	var zero T
	return len(x) == len(dst) && alias.SameOrDisjoint(uintptr(unsafe.Pointer(unsafe.SliceData(dst))),
		uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(len(dst))*unsafe.Sizeof(zero))
}

// checkVV panics, naming the problem, unless a and b have dst's length and
// each is dst itself or disjoint from it: the contract of the vv calls.
func checkVV[T Number](op Op, dst, a, b []T) {
	if m := misuseVV(op, dst, a, b); m != "" {
		panic(m)
	}
}

// checkV is checkVV for the calls with one slice operand and a scalar.
func checkV[T Number](op Op, dst, a []T) {
	if m := misuseV(op, dst, a); m != "" {
		panic(m)
	}
}

// misuseVV says what breaks the contract of checkVV, or "". The slice calls
// run panic(misuseVV(...)) only when fits has found a problem: a panic in
// the call itself, which the compiler knows does not return, keeps their
// fast path free of the spills a call that may return needs.
func misuseVV[T any](op Op, dst, a, b []T) string {
	switch {
	case len(a) != len(dst) || len(b) != len(dst):
		return lengthsDiffer(op, len(dst), len(a), len(b))
	case overlapsPartly(dst, a) || overlapsPartly(dst, b):
		return partOverlap(op)
	}
	return ""
}

// misuseV is misuseVV for the calls with one slice operand and a scalar.
func misuseV[T any](op Op, dst, a []T) string {
	switch {
	case len(a) != len(dst):
		return lengthsDiffer(op, len(dst), len(a), -1)
	case overlapsPartly(dst, a):
		return partOverlap(op)
	}
	return ""
}

func lengthsDiffer(op Op, dst, a, b int) string {
	if b < 0 {
		return fmt.Sprintf("elem: %s: slice lengths differ: len(dst) = %d, len(a) = %d", op, dst, a)
	}
	return fmt.Sprintf("elem: %s: slice lengths differ: len(dst) = %d, len(a) = %d, len(b) = %d", op, dst, a, b)
}

func partOverlap(op Op) string {
	return fmt.Sprintf("elem: %s: dst partly overlaps an input; it may only be exactly a or b", op)
}
