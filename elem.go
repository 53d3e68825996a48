package elem

import (
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
)

// The named calls (Add, Neg, Lt, Select, ...) run the op's scalar loop
// inline up to these lengths (see ops_generated.go): a call into a kernel
// costs 10 to 25 ns however short the slices (the wrapper, the entry's
// switch, the assembly call), the loop a nanosecond an element or less.
// Measured on an Intel Xeon (model 207, AVX-512): the kernel overtakes the
// loop between 8 and 16 elements of float32 Neg, Add, Lt or Select; at 4 to
// 8 of float32 and 4 of float64 Div and Sqrt (their scalar forms wait on
// the divider); and at 2 to 3 of the float32 FMA, whose correctly rounded
// scalar form takes about 5 ns.
const (
	smallN            = 8
	smallComputeBytes = 32
	smallNFMA32       = 2
)

// smallOf is the number of elements of T in bytes bytes.
func smallOf[T any](bytes int) int {
	var zero T
	return bytes / int(unsafe.Sizeof(zero))
}

// ScalarApply sets dst[i] = s op a[i]. s stays the first operand: s + a[i]
// and a[i] + s differ when both are NaN, and so can min and max on some CPUs.
func ScalarApply[T Number](op Op, dst []T, s T, a []T) {
	mustDefined[T](op)
	if !fits(dst, a) {
		panic(misuseV(op, dst, a))
	}
	if n := len(dst); n > smallN {
		stream := kernel.StreamFlat[T](n, 2)
		kernel.Binary(kernel.SV, kernel.Op(op), 1, n, dst, 0, []T{s}, 0, a, 0, stream)
		kernel.FenceAfter(stream)
		return
	}
	kernel.RowSV(kernel.Op(op), dst, &s, a)
}

// mustDefined panics, naming op and T's kind, unless op is one of the
// defined operations and defined on T: division and the bitwise operations
// are defined on one kind of types only. Apply and ApplyScalar check
// DefinedOn, which inlines, and panic with notDefined themselves.
func mustDefined[T Number](op Op) {
	if !DefinedOn[T](op) {
		panic(notDefined(op, isFloat[T]()))
	}
}

// notDefined is the message of mustDefined's panic.
//
//go:noinline
func notDefined(op Op, float bool) string {
	switch {
	case !op.Valid():
		return badOp(op)
	case float:
		return "elem: " + op.String() + " is not defined on float types"
	case op == OpDiv:
		return "elem: div is not defined on integer types (Go panics on a zero divisor; divide in a float type)"
	}
	return "elem: " + op.String() + " is not defined on integer types"
}

// isFloat reports whether T is a float type: 1/2 is not 0. It is a
// constant for each instantiation.
func isFloat[T Number]() bool {
	var one, two T = 1, 2
	return one/two != 0
}

// isFloat32 reports whether T is float32-based; a constant for each
// instantiation.
func isFloat32[T Number]() bool { return isFloat[T]() && unsafe.Sizeof(T(0)) == 4 }
