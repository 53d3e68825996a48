package expr

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// String writes n in the syntax Parse reads, every operation explicit:
// binary ops infix in parentheses, the others as function calls, and a
// conversion as a call of its type's name, float32(x), which Parse does
// not read. It walks
// the expression on a stack of its own, so that any depth the builder can
// make prints (a node that feeds several others is written at each use).
func (n Node[T]) String() string {
	var sb strings.Builder
	n.n.format(&sb)
	return sb.String()
}

// String writes c as Node.String does.
func (c Cond[T]) String() string {
	var sb strings.Builder
	c.n.format(&sb)
	return sb.String()
}

// infix are the operators of the binary ops that have one, by kernel.Op.
var infix = [...]string{kernel.OpAdd: " + ", kernel.OpSub: " - ", kernel.OpMul: " * ", kernel.OpDiv: " / "}

// compareInfix are the comparison operators, by kernel.CompareOp.
var compareInfix = [...]string{" == ", " != ", " < ", " <= ", " > ", " >= "}

// format writes the expression n to sb, in pre-order on an explicit stack
// of the op nodes whose arguments are being written.
func (n *node[T]) format(sb *strings.Builder) {
	type frame struct {
		n    *node[T]
		next int // the argument to write next
	}
	if n.formatLeaf(sb) {
		return
	}
	var short [16]frame // the stack of most expressions, without an allocation
	stack := append(short[:0], frame{n: n})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		open, sep, end := f.n.punctuation()
		switch {
		case f.next == f.n.nargs:
			sb.WriteString(end)
			stack = stack[:len(stack)-1]
			continue
		case f.next == 0:
			sb.WriteString(open)
		default:
			sb.WriteString(sep)
		}
		a := f.n.args[f.next]
		f.next++
		if !a.formatLeaf(sb) {
			stack = append(stack, frame{n: a})
		}
	}
}

// formatLeaf writes n if it is a leaf (or nil), and reports whether it was.
func (n *node[T]) formatLeaf(sb *strings.Builder) bool {
	switch {
	case n == nil:
		sb.WriteString("<nil>")
	case n.kind == kindInput || n.kind == kindScalar:
		sb.WriteString(n.name)
	case n.kind == kindConst:
		sb.WriteString(formatConst(n.val))
	case n.kind == kindConvert:
		n.from.format(sb)
	default:
		return false
	}
	return true
}

// punctuation is what op node n writes before its first argument, between
// two and after the last: a comparison and the binary ops with an operator
// are infix, the others calls.
func (n *node[T]) punctuation() (open, sep, end string) {
	switch {
	case n.kind == kindCompare && int(n.op) < len(compareInfix):
		return "", compareInfix[n.op], ""
	case n.kind == kindBinary && int(n.op) < len(infix):
		return "(", infix[n.op], ")"
	}
	return n.funcName() + "(", ", ", ")"
}

// funcName is the name Parse knows n's function by.
func (n *node[T]) funcName() string {
	switch n.kind {
	case kindBinary:
		return kernel.Op(n.op).String()
	case kindUnary:
		return elem.UnaryOp(n.op).String()
	case kindTernary:
		return elem.TernaryOp(n.op).String()
	}
	return "where"
}

// formatConst writes v so that Parse gives back its bits: the shortest
// decimal that rounds to it in T, "-0", "inf", "-inf"; a NaN as "nan" or
// "-nan", with its significand, "nan(0x1)", unless that is the quiet bit
// alone.
func formatConst[T elem.Number](v T) string {
	if !isFloat[T]() {
		if var0 := T(0); var0-1 > 0 {
			return strconv.FormatUint(uint64(v), 10)
		}
		return strconv.FormatInt(int64(v), 10)
	}
	f, bits := float64(v), 64
	if unsafe.Sizeof(v) == 4 {
		bits = 32
	}
	switch {
	case v != v:
		l, b := layoutOf[T](), toBits(v)
		s := "nan"
		if b&l.sign != 0 {
			s = "-nan"
		}
		if frac := b & l.frac; frac != l.quiet() {
			s += "(0x" + strconv.FormatUint(frac, 16) + ")"
		}
		return s
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// layout is where the fields of a float type's bits are.
type layout struct{ sign, exp, frac uint64 }

// quiet is the quiet bit of a NaN: the top bit of the significand.
func (l layout) quiet() uint64 { return (l.frac + 1) >> 1 }

// layoutOf returns the layout of float type T.
func layoutOf[T elem.Number]() layout {
	if unsafe.Sizeof(T(0)) == 4 {
		return layout{sign: 1 << 31, exp: 0xff << 23, frac: 1<<23 - 1}
	}
	return layout{sign: 1 << 63, exp: 0x7ff << 52, frac: 1<<52 - 1}
}

// toBits returns the bits of float v, without a conversion that would
// quiet a signalling NaN.
func toBits[T elem.Number](v T) uint64 {
	if unsafe.Sizeof(v) == 4 {
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(float64(v))
}

// fromBits is the float of T with bits b.
func fromBits[T elem.Float](b uint64) T {
	if unsafe.Sizeof(T(0)) == 4 {
		return T(math.Float32frombits(uint32(b)))
	}
	return T(math.Float64frombits(b))
}

// negate is -v: v with its sign bit flipped, NaNs included.
func negate[T elem.Float](v T) T { return fromBits[T](toBits(v) ^ layoutOf[T]().sign) }

// isFloat reports whether T is a floating-point type, as elem.DefinedOn
// tells them apart.
func isFloat[T elem.Number]() bool {
	var one, two T = 1, 2
	return one/two != 0
}
