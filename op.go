package elem

import "strconv"

// Float is the element type of every kernel: float32, float64, or a type
// defined on one of them.
type Float interface {
	~float32 | ~float64
}

// Op is an elementwise binary operation, for code that picks the operation at
// run time (Apply, ApplyScalar, ScalarApply, Apply2D, the broadcast package).
type Op uint8

// The operations. Min and Max are Go's builtin min and max.
const (
	OpAdd Op = iota // a + b
	OpSub           // a - b
	OpMul           // a * b
	OpDiv           // a / b
	OpMin           // min(a, b)
	OpMax           // max(a, b)
	numOps
)

var opNames = [numOps]string{"add", "sub", "mul", "div", "min", "max"}

// String returns the lower-case name of op ("add"), or Op(N) for an invalid op.
func (op Op) String() string {
	if op < numOps {
		return opNames[op]
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

// Valid reports whether op is one of the defined operations.
func (op Op) Valid() bool { return op < numOps }

// Ops returns every operation in order.
func Ops() []Op { return []Op{OpAdd, OpSub, OpMul, OpDiv, OpMin, OpMax} }

// Scalar returns x op y with exactly the bits every kernel gives for one
// element, NaN payloads included: it runs the generic kernel on one element,
// because a plain x + y on values in registers may be compiled with the
// operands swapped, and then carries y's payload when both are NaN.
func Scalar[T Float](op Op, x, y T) T {
	if !op.Valid() {
		panic(badOp(op))
	}
	d, xs, ys := [1]T{}, [1]T{x}, [1]T{y}
	vvRow(op, d[:], xs[:], ys[:])
	return d[0]
}

func badOp(op Op) string { return "elem: invalid " + op.String() }
