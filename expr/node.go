package expr

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// kind is what a node computes.
type kind uint8

const (
	kindInput   kind = iota // an array input
	kindScalar              // a scalar input, bound at run time
	kindConst               // a constant
	kindBinary              // one of elem's six binary ops
	kindUnary               // one of elem's unary ops
	kindTernary             // FMA or Clamp
	kindCompare             // a comparison, feeding a Where
	kindSelect              // Where
	kindConvert             // Convert: a value of another element type, converted
)

// node is one vertex of an expression: a leaf (input, scalar, constant) or
// an op over up to three argument nodes. An op node holds its kernel entry
// as a function value, resolved when the node is made: the executor, generic
// over every element type, calls the float-only kernels through them, and
// no step pays an op's switch.
type node[T elem.Number] struct {
	kind  kind
	op    uint8 // a kernel.Op, UnaryOp, TernaryOp or CompareOp
	args  [3]*node[T]
	nargs int
	name  string    // input and scalar
	shape []int     // input
	val   T         // constant
	from  source[T] // a conversion's argument, of another element type

	binary  func(k kernel.Kind, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int, stream bool)
	unary   func(k kernel.Kind, m, n int, dst []T, ldd int, a []T, lda int, stream bool)
	ternary func(k kernel.Kind, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int, c []T, ldc int, stream bool)
	compare func(k kernel.Kind, m, n int, dst []bool, ldd int, a []T, lda int, b []T, ldb int, stream bool)
	pick    func(k kernel.Kind, m, n int, dst []T, ldd int, cond []bool, ldcond int, a []T, lda int, b []T, ldb int, stream bool)
	// kernel resolves the op's assembly kernel for a call (see
	// kernel.Kernel3), as the node's entry would run it, or gives none.
	kernel func(k kernel.Kind, m, n int, stream bool) resolvedKernel
}

// resolvedKernel is an op's kernel resolved for a call: the field of its
// family's arity, or none.
type resolvedKernel struct {
	k2 kernel.Kernel2
	k3 kernel.Kernel3
	k4 kernel.Kernel4
}

// defined reports whether an op node has its op's entry: the builders leave
// it out for an op that elem does not define (on T), which Compile reports.
func (n *node[T]) defined() bool {
	return n.binary != nil || n.unary != nil || n.ternary != nil || n.compare != nil || n.pick != nil || n.from != nil
}

// Node is an expression whose value is an array of T: an input, a scalar, a
// constant or an operation on other nodes. Nodes are immutable values; one
// node may feed several operations, and is then computed once.
//
// The functions that build nodes never fail: what is wrong with an
// expression (an op that elem does not define on T, an empty Node argument,
// a bad shape, two uses of a name that disagree) is an error of Compile,
// wrapping ErrOp, ErrInput or ErrShape and naming what was wrong.
type Node[T elem.Number] struct{ n *node[T] }

// Cond is a comparison: an array of booleans that only Where consumes, as
// elem's comparisons feed elem.Select.
type Cond[T elem.Number] struct{ n *node[T] }

// Input is an array input of the given shape (outermost dimension first; no
// sizes for a rank-0 array of one element). The shapes of all the inputs of
// an expression broadcast against each other under the NumPy rule to the
// output's shape. Every use of one name must give the same shape.
func Input[T elem.Number](name string, shape ...int) Node[T] {
	return Node[T]{&node[T]{kind: kindInput, name: name, shape: append([]int{}, shape...)}}
}

// Scalar is a scalar input, one value bound at every run (see Value).
func Scalar[T elem.Number](name string) Node[T] {
	return Node[T]{&node[T]{kind: kindScalar, name: name}}
}

// Const is the constant v.
func Const[T elem.Number](v T) Node[T] { return Node[T]{&node[T]{kind: kindConst, val: v}} }

func binary[T elem.Number](op elem.Op, a, b Node[T]) Node[T] {
	n := &node[T]{kind: kindBinary, op: uint8(op), args: [3]*node[T]{a.n, b.n}, nargs: 2}
	if op.Valid() && elem.DefinedOn[T](op) {
		n.binary = kernel.BinaryEntry[T](kernel.Op(op))
		n.kernel = func(k kernel.Kind, m, n int, stream bool) resolvedKernel {
			return resolvedKernel{k3: kernel.BinaryKernel[T](kernel.Op(op), k, m, n, stream)}
		}
	}
	return Node[T]{n}
}

// Add is a + b, as elem.Add.
func Add[T elem.Number](a, b Node[T]) Node[T] { return binary(elem.OpAdd, a, b) }

// Sub is a - b, as elem.Sub.
func Sub[T elem.Number](a, b Node[T]) Node[T] { return binary(elem.OpSub, a, b) }

// Mul is a * b, as elem.Mul.
func Mul[T elem.Number](a, b Node[T]) Node[T] { return binary(elem.OpMul, a, b) }

// Div is a / b, as elem.Div (floats only, as there).
func Div[T elem.Float](a, b Node[T]) Node[T] { return binary(elem.OpDiv, a, b) }

// Min is min(a, b), as elem.Min: Go's builtin min.
func Min[T elem.Number](a, b Node[T]) Node[T] { return binary(elem.OpMin, a, b) }

// Max is max(a, b), as elem.Max: Go's builtin max.
func Max[T elem.Number](a, b Node[T]) Node[T] { return binary(elem.OpMax, a, b) }

// Hypot is sqrt(a^2 + b^2) without overflow, as elem.Hypot.
func Hypot[T elem.Float](a, b Node[T]) Node[T] { return binary(elem.OpHypot, a, b) }

// Atan2 is the angle of the point (x, y), as elem.Atan2.
func Atan2[T elem.Float](y, x Node[T]) Node[T] { return binary(elem.OpAtan2, y, x) }

// Pow is a^b, as elem.Pow (math.Pow's special cases).
func Pow[T elem.Float](a, b Node[T]) Node[T] { return binary(elem.OpPow, a, b) }

// Apply is a op b for an op chosen at run time, as elem.Apply. Compile
// fails, with an error wrapping ErrOp, on an op that elem does not define
// on T (an invalid op, or OpDiv on integers).
func Apply[T elem.Number](op elem.Op, a, b Node[T]) Node[T] { return binary(op, a, b) }

// Unary is op(a) for one of elem's unary ops, as elem.ApplyUnary. Compile
// fails, with an error wrapping ErrOp, on an invalid op or one that elem
// does not define on T (the integer types have Neg and Abs).
func Unary[T elem.Number](op elem.UnaryOp, a Node[T]) Node[T] {
	n := &node[T]{kind: kindUnary, op: uint8(op), args: [3]*node[T]{a.n}, nargs: 1}
	if elem.UnaryDefinedOn[T](op) {
		n.unary = kernel.UnaryEntry[T](kernel.UnaryOp(op))
		n.kernel = func(k kernel.Kind, m, n int, stream bool) resolvedKernel {
			return resolvedKernel{k2: kernel.UnaryKernel[T](kernel.UnaryOp(op), k, m, n, stream)}
		}
	}
	return Node[T]{n}
}

// Neg is -a, as elem.Neg (integers wrap around).
func Neg[T elem.Number](a Node[T]) Node[T] { return Unary(elem.OpNeg, a) }

// Abs is |a|, as elem.Abs (integers wrap around: the most negative value
// stays).
func Abs[T elem.Number](a Node[T]) Node[T] { return Unary(elem.OpAbs, a) }

// Sqrt is the square root of a, as elem.Sqrt.
func Sqrt[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpSqrt, a) }

// Floor is a rounded down, as elem.Floor.
func Floor[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpFloor, a) }

// Ceil is a rounded up, as elem.Ceil.
func Ceil[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpCeil, a) }

// Trunc is a rounded toward zero, as elem.Trunc.
func Trunc[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpTrunc, a) }

// RoundToEven is a rounded half to even, as elem.RoundToEven.
func RoundToEven[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpRoundToEven, a) }

// Round is a rounded half away from zero, as elem.Round.
func Round[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpRound, a) }

// Exp is e^a, as elem.Exp (within 1 ulp, the same bits as the named call).
func Exp[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpExp, a) }

// Exp2 is 2^a, as elem.Exp2.
func Exp2[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpExp2, a) }

// Expm1 is e^a - 1, as elem.Expm1.
func Expm1[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpExpm1, a) }

// Log is the natural logarithm, as elem.Log.
func Log[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpLog, a) }

// Log2 is the base-2 logarithm, as elem.Log2.
func Log2[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpLog2, a) }

// Log10 is the base-10 logarithm, as elem.Log10.
func Log10[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpLog10, a) }

// Log1p is log(1 + a), as elem.Log1p.
func Log1p[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpLog1p, a) }

// Sigmoid is 1/(1 + e^-a), as elem.Sigmoid.
func Sigmoid[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpSigmoid, a) }

// Tanh is the hyperbolic tangent, as elem.Tanh.
func Tanh[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpTanh, a) }

// Erf is the error function, as elem.Erf.
func Erf[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpErf, a) }

// Sin is the sine, as elem.Sin (exact reduction at any size).
func Sin[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpSin, a) }

// Cos is the cosine, as elem.Cos.
func Cos[T elem.Float](a Node[T]) Node[T] { return Unary(elem.OpCos, a) }

func ternary[T elem.Number](op elem.TernaryOp, a, b, c Node[T]) Node[T] {
	return Node[T]{&node[T]{kind: kindTernary, op: uint8(op), args: [3]*node[T]{a.n, b.n, c.n}, nargs: 3,
		ternary: kernel.TernaryEntry[T](kernel.TernaryOp(op)),
		kernel: func(k kernel.Kind, m, n int, stream bool) resolvedKernel {
			return resolvedKernel{k4: kernel.TernaryKernel[T](kernel.TernaryOp(op), k, m, n, stream)}
		}}}
}

// FMA is a*b + c with one rounding, as elem.FMA; a*b + c written with Mul
// and Add rounds twice, and stays so: expr never contracts.
func FMA[T elem.Float](a, b, c Node[T]) Node[T] { return ternary(elem.OpFMA, a, b, c) }

// Clamp is a limited to [lo, hi], as elem.Clamp.
func Clamp[T elem.Number](a, lo, hi Node[T]) Node[T] { return ternary(elem.OpClamp, a, lo, hi) }

// Compare is a op b, as elem.Compare. Compile fails, with an error
// wrapping ErrOp, on an invalid op.
func Compare[T elem.Number](op elem.CompareOp, a, b Node[T]) Cond[T] {
	n := &node[T]{kind: kindCompare, op: uint8(op), args: [3]*node[T]{a.n, b.n}, nargs: 2}
	if op.Valid() {
		n.compare = kernel.CompareEntry[T](kernel.CompareOp(op))
		n.kernel = func(k kernel.Kind, m, n int, stream bool) resolvedKernel {
			return resolvedKernel{k3: kernel.CompareKernel[T](kernel.CompareOp(op), k, m, n, stream)}
		}
	}
	return Cond[T]{n}
}

// Eq is a == b.
func Eq[T elem.Number](a, b Node[T]) Cond[T] { return Compare(elem.OpEq, a, b) }

// Ne is a != b.
func Ne[T elem.Number](a, b Node[T]) Cond[T] { return Compare(elem.OpNe, a, b) }

// Lt is a < b.
func Lt[T elem.Number](a, b Node[T]) Cond[T] { return Compare(elem.OpLt, a, b) }

// Le is a <= b.
func Le[T elem.Number](a, b Node[T]) Cond[T] { return Compare(elem.OpLe, a, b) }

// Gt is a > b.
func Gt[T elem.Number](a, b Node[T]) Cond[T] { return Compare(elem.OpGt, a, b) }

// Ge is a >= b.
func Ge[T elem.Number](a, b Node[T]) Cond[T] { return Compare(elem.OpGe, a, b) }

// Where is a where c holds and b elsewhere, as elem.Select.
func Where[T elem.Number](c Cond[T], a, b Node[T]) Node[T] {
	return Node[T]{&node[T]{kind: kindSelect, args: [3]*node[T]{c.n, a.n, b.n}, nargs: 3,
		pick: kernel.SelectionEntry[T](kernel.OpSelect),
		kernel: func(k kernel.Kind, m, n int, stream bool) resolvedKernel {
			return resolvedKernel{k4: kernel.SelectionKernel[T](kernel.OpSelect, k, m, n, stream)}
		}}}
}
