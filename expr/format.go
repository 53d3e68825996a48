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
// binary ops infix in parentheses, the others as function calls.
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

func (n *node[T]) format(sb *strings.Builder) {
	if n == nil {
		sb.WriteString("<nil>")
		return
	}
	switch n.kind {
	case kindInput, kindScalar:
		sb.WriteString(n.name)
		return
	case kindConst:
		sb.WriteString(formatConst(n.val))
		return
	case kindCompare:
		n.args[0].format(sb)
		sb.WriteString(compareInfix[n.op])
		n.args[1].format(sb)
		return
	case kindBinary:
		if op := kernel.Op(n.op); op < kernel.OpMin {
			sb.WriteByte('(')
			n.args[0].format(sb)
			sb.WriteString(infix[op])
			n.args[1].format(sb)
			sb.WriteByte(')')
			return
		}
	}
	sb.WriteString(n.funcName())
	sb.WriteByte('(')
	for i, a := range n.args[:n.nargs] {
		if i > 0 {
			sb.WriteString(", ")
		}
		a.format(sb)
	}
	sb.WriteByte(')')
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
// decimal that rounds to it in T, "-0", "inf", "-inf"; a NaN prints as
// "nan", which Parse reads as the NaN of T's arithmetic (0/0), whatever
// its payload.
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
	case f != f:
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// isFloat reports whether T is a floating-point type, as elem.DefinedOn
// tells them apart.
func isFloat[T elem.Number]() bool {
	var one, two T = 1, 2
	return one/two != 0
}
