package broadcast

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// The view calls beyond ApplyView: a copy, a fill, the unary and ternary
// ops, comparisons, Select and conversions on strided views. Each is
// planned and run as ApplyView is (see there): its inputs broadcast to
// dst's shape under the NUMPY rule (a rank-0 view is a scalar for every
// element of dst), every view is validated, dst must address each element
// once and may share memory with an input only by being exactly that view
// of the same element type, views have at most 16 dims, every problem is an
// error wrapping the package's sentinels (ErrView, ErrIncompatible,
// ErrOverlap, ErrOp, ErrRank) with the shapes and strides named, and on
// error nothing has been written. The loop nest is simplified as ApplyView's;
// blocks contiguous in every operand run as kernel calls on the data, the
// others through L1-sized tiles, a transposed layout with the transposition
// kernel.

// CopyView copies src into dst elementwise: dst[i] = src[i] for every index
// i of dst, src broadcast to dst's shape (a rank-0 src fills dst, a row
// repeats along dst's rows). Elements are copied bit for bit, as integers
// of their size: -0 stays -0 and a NaN keeps its payload. It takes every
// element type of a View, bool and complex included. A transposition (dst
// contiguous across src's rows: HWC to CHW images, NCHW to NHWC tensors, a
// matrix transposed) moves a register square at a time where the
// implementation in use has a kernel for the element size, and splits
// pixels of 2 to 4 channels a register of pixels at a time.
func CopyView[T Element](dst, src View[T]) error {
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameSrc, src)}
	return copyViews(ops[:])
}

// FillView sets every element of dst to v, bit for bit (CopyView from a
// rank-0 view of v).
func FillView[T Element](dst View[T], v T) error {
	value := [1]T{v}
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameSrc, View[T]{Data: value[:]})}
	return copyViews(ops[:])
}

// copyViews runs a copy of ops[1] into ops[0]: moves of blocks, each from
// the input's layout to dst's.
func copyViews(ops []viewOperand) error {
	var w blockWalk
	if err := w.plan(moveKernel, ops...); err != nil {
		return err
	}
	for w.next(ops) {
		move(w.size[0], ops[0].data, w.arg[0], ops[1].data, w.arg[1], w.rows, w.cols, w.stream)
	}
	return nil
}

// ApplyUnaryView computes dst = op(a) elementwise (elem.ApplyUnary's bits),
// a broadcast to dst's shape. It is defined where elem.ApplyUnary is (every
// op on the floats; Neg and Abs on the integers too, with Go's
// two's-complement wrap-around, see elem.UnaryDefinedOn); an op not defined
// on T is an error wrapping [ErrOp]. dst may be exactly a (in place).
func ApplyUnaryView[T elem.Number](op elem.UnaryOp, dst, a View[T]) error {
	if !elem.UnaryDefinedOn[T](op) {
		return opNotDefined(op, T(0))
	}
	var w blockWalk
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameA, a)}
	if err := w.plan(unaryKernel, ops[:]...); err != nil {
		return err
	}
	for w.next(ops[:]) {
		d, ldd := blockOf[T](&w, ops[:], 0)
		x, lda := blockOf[T](&w, ops[:], 1)
		kernel.Unary(kernel.V, kernel.UnaryOp(op), w.rows, w.cols, d, ldd, x, lda, w.stream)
	}
	return nil
}

// ApplyTernaryView computes dst = op(a, b, c) elementwise (elem.ApplyTernary's
// bits: OpFMA is a*b + c rounded once, OpClamp is min(max(a, b), c)), the
// inputs broadcast to dst's shape. It is defined where elem.ApplyTernary is
// (every op on the floats, Clamp on the integers too, see
// elem.TernaryDefinedOn); an op not defined on T is an error wrapping
// [ErrOp]. dst may be exactly an input.
func ApplyTernaryView[T elem.Number](op elem.TernaryOp, dst, a, b, c View[T]) error {
	if !elem.TernaryDefinedOn[T](op) {
		return opNotDefined(op, T(0))
	}
	var w blockWalk
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameA, a), operandOf(nameB, b), operandOf(nameC, c)}
	if err := w.plan(ternaryKernel, ops[:]...); err != nil {
		return err
	}
	for w.next(ops[:]) {
		d, ldd := blockOf[T](&w, ops[:], 0)
		x, lda := blockOf[T](&w, ops[:], 1)
		y, ldb := blockOf[T](&w, ops[:], 2)
		z, ldc := blockOf[T](&w, ops[:], 3)
		kernel.Ternary(w.kind(), kernel.TernaryOp(op), w.rows, w.cols, d, ldd, x, lda, y, ldb, z, ldc, w.stream)
	}
	return nil
}

// CompareView sets dst = a op b elementwise, with Go's comparison operators
// (elem.Compare's results: every comparison with a NaN is false but !=;
// the unsigned types in unsigned order), a and b broadcast to dst's shape,
// on every element type elem.Compare takes.
func CompareView[T elem.Number](op elem.CompareOp, dst View[bool], a, b View[T]) error {
	if !elem.CompareDefinedOn[T](op) {
		return opNotDefined(op, T(0))
	}
	var w blockWalk
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameA, a), operandOf(nameB, b)}
	if err := w.plan(compareKernel, ops[:]...); err != nil {
		return err
	}
	for w.next(ops[:]) {
		d, ldd := blockOf[bool](&w, ops[:], 0)
		x, lda := blockOf[T](&w, ops[:], 1)
		y, ldb := blockOf[T](&w, ops[:], 2)
		kernel.Compare(w.kind(), kernel.CompareOp(op), w.rows, w.cols, d, ldd, x, lda, y, ldb, false)
	}
	return nil
}

// SelectView sets dst = a where cond, else b, elementwise (NumPy's where,
// elem.Select's bits), cond, a and b broadcast to dst's shape, on every
// element type elem.Select takes. dst may be exactly a or b.
func SelectView[T elem.Number](dst View[T], cond View[bool], a, b View[T]) error {
	var w blockWalk
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameCond, cond), operandOf(nameA, a), operandOf(nameB, b)}
	if err := w.plan(ternaryKernel, ops[:]...); err != nil {
		return err
	}
	for w.next(ops[:]) {
		d, ldd := blockOf[T](&w, ops[:], 0)
		m, ldm := blockOf[bool](&w, ops[:], 1)
		x, lda := blockOf[T](&w, ops[:], 2)
		y, ldb := blockOf[T](&w, ops[:], 3)
		kernel.Select(w.kind(), w.rows, w.cols, d, ldd, m, ldm, x, lda, y, ldb, w.stream)
	}
	return nil
}

// ConvertView sets dst = D(src) elementwise with elem.Convert's semantics
// (Go's conversion; a float out of an integer type's range saturates, NaN
// gives 0; Float16 and BFloat16 convert as the values they hold), src
// broadcast to dst's shape. dst may be exactly src when D and S have the
// same size.
func ConvertView[D, S elem.Number](dst View[D], src View[S]) error {
	var w blockWalk
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameSrc, src)}
	if err := w.plan(convertKernel, ops[:]...); err != nil {
		return err
	}
	for w.next(ops[:]) {
		d, ldd := blockOf[D](&w, ops[:], 0)
		s, lds := blockOf[S](&w, ops[:], 1)
		if w.rows == 1 || ldd == w.cols && lds == w.cols { // one run
			elem.Convert(d[:w.rows*w.cols], s[:w.rows*w.cols])
			continue
		}
		for r := range w.rows {
			elem.Convert(d[r*ldd:][:w.cols], s[r*lds:][:w.cols])
		}
	}
	return nil
}
