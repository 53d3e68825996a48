package broadcast

import (
	"slices"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/coalesce"
	"github.com/simdkit/elem/internal/elemtype"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/nditer"
)

// ApplyView computes dst = a op b elementwise over strided views, with the
// NUMPY rule: a and b must broadcast to dst's shape, as the inputs of a NumPy
// ufunc must to its out= array: Numpy(a.Shape, b.Shape, dst.Shape) is
// dst.Shape. It is usually Numpy(a.Shape, b.Shape); extra leading dims, or
// sizes above 1 where both inputs have 1, repeat the result along them.
// Every view is validated (see [View.Validate]). dst must not address an
// element twice (an error wrapping [ErrOverlap]), decided exactly: the usual
// layouts, whose dims by increasing stride each step past the reach of the
// finer ones, pass at once; interleaved ones, such as shape (3,2) with
// strides (2,3), are checked element by element over the interleaved dims,
// and refused if those reach over more than 2^26 elements. dst may share
// memory with an input only by being exactly that input view (same first
// element, shape and strides); any other shared element is an error
// wrapping [ErrOverlap], decided exactly, so interleaved views of one matrix
// that share no element are fine. Views have at most 16 dims. On error
// nothing has been written.
//
// The views are walked as one loop nest: dims of size 1 dropped, dst's
// negative strides flipped, the dims ordered by dst's strides for locality
// and merged where every operand continues from one into the next (NumPy's
// rule). Blocks whose inner dim is contiguous (or broadcast) in every
// operand run as kernel calls straight on the data; the others, such as a
// transposed or column view, run through L1-sized tiles: strided operands
// are gathered into contiguous tiles, the kernel runs on them, and a
// strided dst is scattered back. The other view calls ([CopyView],
// [FillView], [ApplyUnaryView], [ApplyTernaryView], [CompareView],
// [SelectView], [ConvertView]) are planned and run the same way, with the
// same rules.
//
// On complex values (elem.Complex) the ops are Add, Sub, Mul and Div, with
// elem's bits for them, row by row; the others give an error wrapping
// [ErrOp].
func ApplyView[T elem.Number | elem.Complex](op elem.Op, dst, a, b View[T]) error {
	switch elemtype.KindOf[T]() { // folds: the call of T's own type
	case elemtype.Complex64:
		return applyViewComplex(op, recastView[complex64](dst), recastView[complex64](a), recastView[complex64](b))
	case elemtype.Complex128:
		return applyViewComplex(op, recastView[complex128](dst), recastView[complex128](a), recastView[complex128](b))
	case elemtype.Float32:
		return applyView(op, recastView[float32](dst), recastView[float32](a), recastView[float32](b))
	case elemtype.Float64:
		return applyView(op, recastView[float64](dst), recastView[float64](a), recastView[float64](b))
	case elemtype.Int8:
		if elemtype.Signed[T]() {
			return applyView(op, recastView[int8](dst), recastView[int8](a), recastView[int8](b))
		}
		return applyView(op, recastView[uint8](dst), recastView[uint8](a), recastView[uint8](b))
	case elemtype.Int16:
		if elemtype.Signed[T]() {
			return applyView(op, recastView[int16](dst), recastView[int16](a), recastView[int16](b))
		}
		return applyView(op, recastView[uint16](dst), recastView[uint16](a), recastView[uint16](b))
	case elemtype.Int32:
		if elemtype.Signed[T]() {
			return applyView(op, recastView[int32](dst), recastView[int32](a), recastView[int32](b))
		}
		return applyView(op, recastView[uint32](dst), recastView[uint32](a), recastView[uint32](b))
	}
	if elemtype.Signed[T]() {
		return applyView(op, recastView[int64](dst), recastView[int64](a), recastView[int64](b))
	}
	return applyView(op, recastView[uint64](dst), recastView[uint64](a), recastView[uint64](b))
}

// recastView returns v as a view of N, a type of T's layout.
func recastView[N, T Element](v View[T]) View[N] {
	return View[N]{Data: elemtype.Recast[N](v.Data), Shape: v.Shape, Strides: v.Strides}
}

// applyView is ApplyView on a real type.
func applyView[T elem.Number](op elem.Op, dst, a, b View[T]) error {
	if !op.Valid() {
		return newError(errs(ErrOp), "invalid operation %v", op)
	}
	if !elem.DefinedOn[T](op) {
		return newError(errs(ErrOp), "%v is not defined on %T", op, T(0))
	}
	var w blockWalk
	ops := [...]viewOperand{operandOf(nameDst, dst), operandOf(nameA, a), operandOf(nameB, b)}
	if err := w.plan(binaryKernel, ops[:]...); err != nil {
		return err
	}
	for w.next(ops[:]) {
		d, ldd := blockOf[T](&w, ops[:], 0)
		x, lda := blockOf[T](&w, ops[:], 1)
		y, ldb := blockOf[T](&w, ops[:], 2)
		kernel.Binary(w.kind(), kernel.Op(op), w.rows, w.cols, d, ldd, x, lda, y, ldb, w.stream)
	}
	return nil
}

// viewNest is the loop nest of a view call over dst's dims, outermost
// first, before and after simplification: per operand (dst, then the
// inputs) the index in its data of the element at index 0, and its
// strides; the operands a call does not have keep strides of 0.
type viewNest struct {
	ops    int // operands: dst and the inputs
	rank   int
	size   [scratchAxes]int
	stride [nditer.Operands][scratchAxes]int
	base   [nditer.Operands]int
	empty  bool
}

// plan validates the operands (dst first, then one to three inputs), lays
// them out over dst's shape, which every input must broadcast to, checks
// that dst addresses each element once and shares none with an input that
// it is not exactly, and simplifies the nest.
func (n *viewNest) plan(ops []viewOperand) error {
	n.ops = len(ops)
	for k := range ops {
		o, err := ops[k].origin()
		if err != nil {
			return err
		}
		n.base[k] = o
	}
	out := ops[0].shape
	var shapes [nditer.Operands]Shape
	for k := range ops {
		shapes[k] = ops[k].shape
		if len(shapes[k]) > len(out) || len(out) > scratchAxes {
			return shapeMismatch(ops)
		}
	}
	var got [scratchAxes]int
	if d, _, _ := numpyInto(got[:len(out)], shapes[:len(ops)]); d >= 0 || !out.Equal(got[:len(out)]) {
		return shapeMismatch(ops)
	}
	if err := ops[0].distinct(); err != nil {
		return err
	}
	n.rank = len(out)
	for d, size := range out {
		n.size[d] = size
		n.empty = n.empty || size == 0
		n.stride[0][d] = ops[0].strides[d]
		for k := 1; k < len(ops); k++ {
			if i := d - (len(out) - len(ops[k].shape)); i >= 0 && ops[k].shape[i] != 1 {
				n.stride[k][d] = ops[k].strides[i]
			}
		}
	}
	for k := 1; k < len(ops); k++ {
		if n.conflict(&ops[0], &ops[k], k) {
			return newError(errs(ErrOverlap), "dst (shape %v, strides %v) shares elements with %s (shape %v, strides %v) without being exactly %s",
				out.Clone(), slices.Clone(ops[0].strides), ops[k].name, ops[k].shape.Clone(), slices.Clone(ops[k].strides), ops[k].name)
		}
	}
	if !n.empty {
		n.simplify()
	}
	return nil
}

// shapeMismatch reports inputs whose shapes do not broadcast to dst's.
func shapeMismatch(ops []viewOperand) error {
	if len(ops[0].shape) > scratchAxes {
		return newError(errs(ErrRank), "dst has %d dims: views have at most %d", len(ops[0].shape), scratchAxes)
	}
	in := ops[1:]
	names := listShapes(len(in), func(i int) string { return in[i].name.String() + " " + in[i].shape.Clone().String() })
	if len(in) == 1 {
		return newError(errs(ErrIncompatible), "%s does not broadcast to dst's shape %v", names, ops[0].shape.Clone())
	}
	shapes := make([]Shape, len(in))
	for k := range in {
		shapes[k] = in[k].shape.Clone()
	}
	out, err := Numpy(shapes...)
	if err != nil {
		return err
	}
	return newError(errs(ErrIncompatible), "%s do not broadcast to dst's shape %v: their broadcast shape is %v",
		names, ops[0].shape.Clone(), out)
}

// conflict reports whether dst shares an element with input x (operand k)
// without being exactly that view: disjoint data settles it in two
// comparisons, the rest goes to package alias with both views' layouts
// (views of elements of different sizes are never the same).
func (n *viewNest) conflict(dst, x *viewOperand, k int) bool {
	if n.empty {
		return false
	}
	d0, x0 := uintptr(unsafe.Pointer(unsafe.SliceData(dst.data))), uintptr(unsafe.Pointer(unsafe.SliceData(x.data)))
	if d0+uintptr(len(dst.data)) <= x0 || x0+uintptr(len(x.data)) <= d0 {
		return false
	}
	ds := alias.Span{Start: d0 + uintptr(n.base[0]*dst.size), Elem: dst.size, Size: n.size[:n.rank], Stride: n.stride[0][:n.rank]}
	xs := alias.Span{Start: x0 + uintptr(n.base[k]*x.size), Elem: x.size, Size: n.size[:n.rank], Stride: n.stride[k][:n.rank]}
	return !alias.Same(ds, xs) && alias.Overlap(ds, xs) // Same first: it is cheaper, and in place is common
}

// simplify turns the nest into the loop order that runs it: dims of size 1
// dropped, dst's negative strides made positive (writing order does not
// matter: no element of dst is read after another is written, except its
// own), the dims sorted by decreasing dst stride so that dst is written
// in address order, and dims merged where every operand continues.
func (n *viewNest) simplify() {
	r := 0
	for d := range n.rank {
		if n.size[d] == 1 {
			continue
		}
		n.size[r] = n.size[d]
		for k := range n.stride {
			n.stride[k][r] = n.stride[k][d]
		}
		if n.stride[0][r] < 0 {
			for k := range n.stride {
				n.base[k] += (n.size[r] - 1) * n.stride[k][r]
				n.stride[k][r] = -n.stride[k][r]
			}
		}
		for i := r; i > 0 && n.stride[0][i-1] < n.stride[0][i]; i-- {
			n.size[i-1], n.size[i] = n.size[i], n.size[i-1]
			for k := range n.stride {
				n.stride[k][i-1], n.stride[k][i] = n.stride[k][i], n.stride[k][i-1]
			}
		}
		r++
	}
	var st [nditer.Operands][]int
	for k := range st {
		st[k] = n.stride[k][:r]
	}
	n.rank = coalesce.Nest(n.size[:r], st[:n.ops])
	if n.rank == 0 { // one element
		n.rank, n.size[0] = 1, 1
		for k := range n.ops {
			n.stride[k][0] = 1
		}
	}
}
