package broadcast

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/coalesce"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/nditer"
)

// The calls of the op families beyond the binary ones: a unary op over an
// input broadcast to the output, and the three-operand ops (FMA, Clamp with
// array bounds, Select) over any three shapes under the NUMPY rule. They run
// as the binary plans do, planned per call: every operand's strides over the
// output, coalesced into a short nest, an odometer over the outer axes, and
// the two innermost axes as one 2-D kernel call (a row of n values or one
// value per row for each input).

// ApplyUnary computes dst = op(a), a broadcast to dstShape under the NUMPY
// rule (a's shape must broadcast to dstShape itself: a row repeated for
// every row, a column for every column, ...). dst holds dstShape's elements
// in row-major order. dst may be exactly a when aShape has dstShape's
// elements and no size-1 axis is stretched; any other shared memory is an
// error wrapping [ErrOverlap]. On error nothing is written.
func ApplyUnary[T elem.Float](op elem.UnaryOp, dst []T, dstShape Shape, a []T, aShape Shape) error {
	if !op.Valid() {
		return newError(errs(ErrOp), "invalid %v", op)
	}
	if _, err := Strides(aShape, dstShape); err != nil {
		return err
	}
	n, err := newNary(dstShape, []Shape{aShape}, []string{"a"})
	if err != nil {
		return err
	}
	if err := checkNary(n, dst, spanOf(a)); err != nil {
		return err
	}
	lda, inca := n.block(1)
	k, ok := kernel.KindFor(1, inca)
	n.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Unary(k, kernel.UnaryOp(op), m, cols, dst[off[0]:], n.ld, a[off[1]:], lda, false)
			return
		}
		for r := range m { // a repeats one value along each row
			row := dst[off[0]+r*n.ld:][:cols]
			kernel.Unary(kernel.V, kernel.UnaryOp(op), 1, 1, row, 0, a[off[1]+r*lda:], 0, false)
			fill(row)
		}
	})
	return nil
}

// ApplyTernary computes dst = op(a, b, c), the three shapes broadcast under
// the NUMPY rule (FMA: a*b + c rounded once; Clamp: min(max(a, b), c)). dst
// holds the output's elements in row-major order. dst may be exactly an
// input whose shape is the output's; any other shared memory is an error
// wrapping [ErrOverlap]. On error nothing is written.
func ApplyTernary[T elem.Float](op elem.TernaryOp, dst, a []T, aShape Shape, b []T, bShape Shape, c []T, cShape Shape) error {
	if !op.Valid() {
		return newError(errs(ErrOp), "invalid %v", op)
	}
	out, err := Numpy(aShape, bShape, cShape)
	if err != nil {
		return err
	}
	n, err := newNary(out, []Shape{aShape, bShape, cShape}, []string{"a", "b", "c"})
	if err != nil {
		return err
	}
	if err := checkNary(n, dst, spanOf(a), spanOf(b), spanOf(c)); err != nil {
		return err
	}
	lda, inca := n.block(1)
	ldb, incb := n.block(2)
	ldc, incc := n.block(3)
	k, ok := kernel.KindFor(3, inca|incb<<1|incc<<2)
	n.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Ternary(k, kernel.TernaryOp(op), m, cols, dst[off[0]:], n.ld, a[off[1]:], lda, b[off[2]:], ldb, c[off[3]:], ldc, false)
			return
		}
		for r := range m { // every input repeats one value along each row
			row := dst[off[0]+r*n.ld:][:cols]
			kernel.Ternary(kernel.VVV, kernel.TernaryOp(op), 1, 1, row, 0, a[off[1]+r*lda:], 0, b[off[2]+r*ldb:], 0, c[off[3]+r*ldc:], 0, false)
			fill(row)
		}
	})
	return nil
}

// Select computes dst = a where cond, else b (NumPy's where), the three
// shapes broadcast under the NUMPY rule. dst holds the output's elements in
// row-major order. dst may be exactly a or b when its shape is the
// output's; any other shared memory is an error wrapping [ErrOverlap]. On
// error nothing is written.
func Select[T elem.Float](dst []T, cond []bool, condShape Shape, a []T, aShape Shape, b []T, bShape Shape) error {
	out, err := Numpy(condShape, aShape, bShape)
	if err != nil {
		return err
	}
	n, err := newNary(out, []Shape{condShape, aShape, bShape}, []string{"cond", "a", "b"})
	if err != nil {
		return err
	}
	if err := checkNary(n, dst, spanOf(cond), spanOf(a), spanOf(b)); err != nil {
		return err
	}
	ldm, incm := n.block(1)
	lda, inca := n.block(2)
	ldb, incb := n.block(3)
	k, ok := kernel.KindFor(3, incm|inca<<1|incb<<2)
	n.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Select(k, m, cols, dst[off[0]:], n.ld, cond[off[1]:], ldm, a[off[2]:], lda, b[off[3]:], ldb, false)
			return
		}
		for r := range m { // every input repeats one value along each row
			row := dst[off[0]+r*n.ld:][:cols]
			kernel.Select(kernel.VVV, 1, 1, row, 0, cond[off[1]+r*ldm:], 0, a[off[2]+r*lda:], 0, b[off[3]+r*ldb:], 0, false)
			fill(row)
		}
	})
	return nil
}

// nary is one planned N-ary call: the output's shape and the coalesced nest,
// operand 0 being dst and 1.. the inputs, each with its strides over the
// nest (0 where it repeats).
type nary struct {
	out    Shape
	shapes []Shape
	names  []string
	lens   []int // the element counts the inputs' shapes need
	outLen int
	rank   int
	size   []int
	stride [][]int
	ld     int // dst's leading stride in a block
	m, n   int // a block's rows and columns
}

// newNary validates the shapes against out and coalesces the nest.
func newNary(out Shape, shapes []Shape, names []string) (*nary, error) {
	outLen, err := out.Size()
	if err != nil {
		return nil, err
	}
	x := &nary{out: out, shapes: shapes, names: names, outLen: outLen, size: append([]int(nil), out...)}
	dstStrides, err := Strides(out, out)
	if err != nil {
		return nil, err
	}
	x.stride = append(x.stride, dstStrides)
	for _, s := range shapes {
		st, err := Strides(s, out)
		if err != nil {
			return nil, err
		}
		n, err := s.Size()
		if err != nil {
			return nil, err
		}
		x.stride, x.lens = append(x.stride, st), append(x.lens, n)
	}
	if len(x.size) == 0 { // rank 0: one element
		x.size = []int{1}
		for k := range x.stride {
			x.stride[k] = []int{0}
		}
	}
	x.rank = coalesce.Nest(x.size, x.stride)
	if x.rank == 0 {
		x.rank, x.size[0] = 1, 1
		for _, st := range x.stride {
			st[0] = 0
		}
	}
	x.n, x.m = x.size[x.rank-1], 1
	if x.rank >= 2 {
		x.m = x.size[x.rank-2]
		x.ld = x.stride[0][x.rank-2]
	}
	return x, nil
}

// block returns input k's leading stride and its inner step (0 or 1) in a
// block.
func (x *nary) block(k int) (ld, inc int) {
	inc = x.stride[k][x.rank-1]
	if x.rank >= 2 {
		ld = x.stride[k][x.rank-2]
	}
	return ld, inc
}

// span is an input's memory, for the length and overlap checks.
type span struct {
	start uintptr
	len   int // elements
	elem  int // bytes an element
}

func spanOf[E any](s []E) span {
	var e E
	return span{uintptr(unsafe.Pointer(unsafe.SliceData(s))), len(s), int(unsafe.Sizeof(e))}
}

// checkNary validates the data lengths and dst's overlap with every input:
// dst may be exactly an input laid out as the output, and share nothing
// with the others.
func checkNary[T elem.Float](x *nary, dst []T, ins ...span) error {
	if len(dst) != x.outLen {
		return newError(errs(ErrDataLength), "dst has %d elements; the output %v of %s needs %d", len(dst), x.out, x.describe(), x.outLen)
	}
	for k, in := range ins {
		if in.len != x.lens[k] {
			return newError(errs(ErrDataLength), "%s has %d elements; its shape %v needs %d (%s)", x.names[k], in.len, x.shapes[k], x.lens[k], x.describe())
		}
	}
	d := spanOf(dst)
	size := x.size[:x.rank]
	dspan := alias.Span{Start: d.start, Elem: d.elem, Size: size, Stride: x.stride[0][:x.rank]}
	for k, in := range ins {
		ispan := alias.Span{Start: in.start, Elem: in.elem, Size: size, Stride: x.stride[k+1][:x.rank]}
		if in.elem == d.elem && alias.Conflict(dspan, ispan) || in.elem != d.elem && alias.Overlap(dspan, ispan) {
			return newError(errs(ErrOverlap), "dst shares memory with %s %v without being exactly %s laid out as the output %v",
				x.names[k], x.shapes[k], x.names[k], x.out)
		}
	}
	return nil
}

// describe names every input with its shape, for messages.
func (x *nary) describe() string {
	parts := make([]string, len(x.shapes))
	for k, s := range x.shapes {
		parts[k] = fmt.Sprintf("%s %v", x.names[k], s)
	}
	return strings.Join(parts, ", ")
}

// run calls block once per step of the odometer over the outer axes, with
// every operand's offset and the block's rows and columns.
func (x *nary) run(block func(off [nditer.Operands]int, m, n int)) {
	if x.outLen == 0 {
		return
	}
	outer := max(0, x.rank-2)
	var o nditer.Odometer
	o.Size = x.size[:outer]
	o.Idx = make([]int, outer)
	zero := make([]int, outer) // the operands a call does not have
	for k := range o.Stride {
		o.Stride[k] = zero
		if k < len(x.stride) {
			o.Stride[k] = x.stride[k][:outer]
		}
	}
	o.Seek(0)
	for {
		block(o.At, x.m, x.n)
		if !o.Next() {
			return
		}
	}
}

// fill sets every element of row to its first.
func fill[T elem.Float](row []T) {
	for j := 1; j < len(row); j++ {
		row[j] = row[0]
	}
}
