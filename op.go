package elem

import "github.com/simdkit/elem/internal/kernel"

// Float is the element type of the floating-point calls: float32, float64,
// or a type defined on one of them.
type Float interface {
	~float32 | ~float64
}

// Integer is the element type of the integer calls: the signed and unsigned
// integers of 8 to 64 bits, and types defined on them (int and uint are
// not among them: their width depends on the platform).
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Number is the element type of the calls defined on both (Add, Sub, Mul,
// Min, Max and their forms).
type Number interface {
	Float | Integer
}

// Scalar returns x op y with exactly the bits every kernel gives for one
// element, NaN payloads included: it runs the generic kernel on one element,
// because a plain x + y on values in registers may be compiled with the
// operands swapped, and then carries y's payload when both are NaN.
func Scalar[T Number](op Op, x, y T) T {
	mustDefined[T](op)
	d, xs, ys := [1]T{}, [1]T{x}, [1]T{y}
	kernel.RowVV(kernel.Op(op), d[:], xs[:], ys[:])
	return d[0]
}

func badOp(op Op) string { return "elem: invalid " + op.String() }
