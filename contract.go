package elem

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/simdkit/elem/internal/alias"
)

// The contract of the slice calls whose operands are not all of one element
// type (a []bool mask beside []T data), or that have more than two inputs:
// every input has dst's length and either is dst itself (same memory) or
// shares none of it. Slices of different element types cannot be the same
// slice, so any overlap between them is an error.

// fitsAny reports, cheaply enough to inline, that x has dst's length and is
// either dst itself or disjoint from it.
func fitsAny[D, S any](dst []D, x []S) bool {
	var d D
	var s S
	return len(x) == len(dst) && alias.SameOrDisjointRuns(
		uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(len(dst))*unsafe.Sizeof(d),
		uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(len(x))*unsafe.Sizeof(s))
}

// input is one operand of a call, for the checks and their messages.
type input struct {
	name string
	n    int
	span alias.Span
}

func in[S any](name string, s []S) input {
	var zero S
	return input{name, len(s), alias.Span{Start: uintptr(unsafe.Pointer(unsafe.SliceData(s))), Elem: int(unsafe.Sizeof(zero)),
		Size: []int{len(s)}, Stride: []int{1}}}
}

// mustFit panics, naming the call and the problem, unless every input fits
// dst (see fitsAny). The calls run it only when fitsAny has found a problem.
func mustFit(call string, dst input, ins ...input) {
	for _, x := range ins {
		if x.n != dst.n {
			lens := []string{fmt.Sprintf("len(dst) = %d", dst.n)}
			for _, y := range ins {
				lens = append(lens, fmt.Sprintf("len(%s) = %d", y.name, y.n))
			}
			panic(fmt.Sprintf("elem: %s: slice lengths differ: %s", call, strings.Join(lens, ", ")))
		}
	}
	for _, x := range ins {
		if alias.Conflict(dst.span, x.span) {
			panic(fmt.Sprintf("elem: %s: dst partly overlaps %s; it may only be exactly an input of its own type", call, x.name))
		}
	}
}
