package elem

import "github.com/simdkit/elem/internal/kernel"

// The op-valued calls of the families beyond the binary ops (Apply,
// ApplyScalar and ScalarApply are in elem.go): they check as the named calls
// do and run the same kernels; short slices (see smallN) run the generic
// row loop of the op, one call with no dispatch.

// ApplyUnary sets dst[i] = op(a[i]). It panics if op is not defined on T
// (see UnaryDefinedOn: on the integer types, Neg and Abs).
func ApplyUnary[T Number](op UnaryOp, dst, a []T) {
	if !UnaryDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	if !fits(dst, a) {
		mustFit(op.String(), in("dst", dst), in("a", a))
	}
	if shortUnaryOp[T](op, len(dst)) {
		kernel.UnaryRowV(kernel.UnaryOp(op), dst, a)
		return
	}
	stream := kernel.StreamFlat[T](len(dst), 2)
	kernel.Unary(kernel.V, kernel.UnaryOp(op), 1, len(dst), dst, 0, a, 0, stream)
	kernel.FenceAfter(stream)
}

// Compare sets dst[i] = a[i] op b[i], with Go's comparison operators.
func Compare[T Number](op CompareOp, dst []bool, a, b []T) {
	if !CompareDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	if !fitsAny(dst, a) || !fitsAny(dst, b) {
		mustFit(op.String(), in("dst", dst), in("a", a), in("b", b))
	}
	if shortCompareOp[T](op, len(dst)) {
		kernel.CompareRowVV(kernel.CompareOp(op), dst, a, b)
		return
	}
	kernel.Compare(kernel.VV, kernel.CompareOp(op), 1, len(dst), dst, 0, a, 0, b, 0, false)
}

// CompareScalar sets dst[i] = a[i] op s, with Go's comparison operators.
func CompareScalar[T Number](op CompareOp, dst []bool, a []T, s T) {
	if !CompareDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	if !fitsAny(dst, a) {
		mustFit(op.String(), in("dst", dst), in("a", a))
	}
	if shortCompareOp[T](op, len(dst)) {
		kernel.CompareRowVS(kernel.CompareOp(op), dst, a, s)
		return
	}
	kernel.Compare(kernel.VS, kernel.CompareOp(op), 1, len(dst), dst, 0, a, 0, []T{s}, 0, false)
}

// ApplyTernary sets dst[i] = op(a[i], b[i], c[i]): OpFMA is a[i]*b[i] +
// c[i] with one rounding, OpClamp is min(max(a[i], b[i]), c[i]). It panics
// if op is not defined on T (see TernaryDefinedOn: on the integer types,
// Clamp).
func ApplyTernary[T Number](op TernaryOp, dst, a, b, c []T) {
	if !TernaryDefinedOn[T](op) {
		panic(notDefinedOn(op, isFloat[T]()))
	}
	if !fits(dst, a) || !fits(dst, b) || !fits(dst, c) {
		mustFit(op.String(), in("dst", dst), in("a", a), in("b", b), in("c", c))
	}
	if shortTernaryOp[T](op, len(dst)) {
		kernel.TernaryRowVVV(kernel.TernaryOp(op), dst, a, b, c)
		return
	}
	stream := kernel.StreamFlat[T](len(dst), 4)
	kernel.Ternary(kernel.VVV, kernel.TernaryOp(op), 1, len(dst), dst, 0, a, 0, b, 0, c, 0, stream)
	kernel.FenceAfter(stream)
}

// ApplyBitwise sets dst[i] = a[i] op b[i] for a bitwise op.
func ApplyBitwise[T Integer](op BitOp, dst, a, b []T) {
	if !op.Valid() {
		panic("elem: invalid " + op.String())
	}
	if !fits(dst, a) || !fits(dst, b) {
		mustFit(op.String(), in("dst", dst), in("a", a), in("b", b))
	}
	if shortBitOp[T](op, len(dst)) {
		kernel.BitwiseRowVV(kernel.BitOp(op), dst, a, b)
		return
	}
	stream := kernel.StreamFlat[T](len(dst), 3)
	kernel.Bitwise(kernel.VV, kernel.BitOp(op), 1, len(dst), dst, 0, a, 0, b, 0, stream)
	kernel.FenceAfter(stream)
}

// ApplyShift sets dst[i] = a[i] op s: Go's << or >> (arithmetic for signed
// types, logical for unsigned; a count at or beyond the width gives 0, or
// -1 for a negative signed value shifted right).
func ApplyShift[T Integer](op ShiftOp, dst, a []T, s uint) {
	if !op.Valid() {
		panic("elem: invalid " + op.String())
	}
	if !fits(dst, a) {
		mustFit(op.String(), in("dst", dst), in("a", a))
	}
	if shortShiftOp[T](op, len(dst)) {
		kernel.ShiftRowVS(kernel.ShiftOp(op), dst, a, s)
		return
	}
	stream := kernel.StreamFlat[T](len(dst), 2)
	kernel.Shift(kernel.VS, kernel.ShiftOp(op), 1, len(dst), dst, 0, a, 0, []uint{s}, 0, stream)
	kernel.FenceAfter(stream)
}

// notDefinedOn is the panic message of an op-valued call whose op is
// invalid, or not defined on the float (or integer) types.
//
//go:noinline
func notDefinedOn[O interface {
	Valid() bool
	String() string
}](op O, float bool) string {
	switch {
	case !op.Valid():
		return "elem: invalid " + op.String()
	case float:
		return "elem: " + op.String() + " is not defined on float types"
	}
	return "elem: " + op.String() + " is not defined on integer types"
}
