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

// Scalar returns x op y: the exact value every kernel computes per element.
func Scalar[T Float](op Op, x, y T) T {
	switch op {
	case OpAdd:
		return x + y
	case OpSub:
		return x - y
	case OpMul:
		return x * y
	case OpDiv:
		return x / y
	case OpMin:
		return min(x, y)
	case OpMax:
		return max(x, y)
	}
	panic(badOp(op))
}

func badOp(op Op) string { return "elem: invalid " + op.String() }
