package elem

import "github.com/simdkit/elem/internal/kernel"

// smallN is the length up to which the slice calls run the Go loop inline:
// below it a call into assembly costs more than it saves. The named calls
// (Add, AddScalar, ScalarSub, ...) and the op-valued ones (Apply,
// ApplyScalar) are in ops_generated.go.
const smallN = 8

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
