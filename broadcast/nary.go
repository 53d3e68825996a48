package broadcast

import (
	"strings"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
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
// error wrapping [ErrOverlap]. An op not defined on T (see
// elem.UnaryDefinedOn: the integer types have Neg and Abs) is an error
// wrapping [ErrOp]. On error nothing is written.
func ApplyUnary[T elem.Number](op elem.UnaryOp, dst []T, dstShape Shape, a []T, aShape Shape) error {
	if !elem.UnaryDefinedOn[T](op) {
		return opNotDefined(op, T(0))
	}
	x, err := newNary(dstShape, [3]Shape{aShape}, 1, &unaryNames)
	if err != nil {
		return err
	}
	if err := checkNary(&x, dst, spanOf(a)); err != nil {
		return err
	}
	lda, inca := x.block(1)
	k, ok := kernel.KindFor(1, inca)
	x.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Unary(k, kernel.UnaryOp(op), m, cols, dst[off[0]:], x.ld, a[off[1]:], lda, false)
			return
		}
		for r := range m { // a repeats one value along each row
			row := dst[off[0]+r*x.ld:][:cols]
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
// wrapping [ErrOverlap]. An op not defined on T (the integer types have
// Clamp) is an error wrapping [ErrOp]. On error nothing is written.
func ApplyTernary[T elem.Number](op elem.TernaryOp, dst, a []T, aShape Shape, b []T, bShape Shape, c []T, cShape Shape) error {
	if !elem.TernaryDefinedOn[T](op) {
		return opNotDefined(op, T(0))
	}
	var out [scratchAxes]int
	x, err := numpyNary(out[:], [3]Shape{aShape, bShape, cShape}, 3, &ternaryNames)
	if err != nil {
		return err
	}
	if err := checkNary(&x, dst, spanOf(a), spanOf(b), spanOf(c)); err != nil {
		return err
	}
	lda, inca := x.block(1)
	ldb, incb := x.block(2)
	ldc, incc := x.block(3)
	k, ok := kernel.KindFor(3, inca|incb<<1|incc<<2)
	x.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Ternary(k, kernel.TernaryOp(op), m, cols, dst[off[0]:], x.ld, a[off[1]:], lda, b[off[2]:], ldb, c[off[3]:], ldc, false)
			return
		}
		for r := range m { // every input repeats one value along each row
			row := dst[off[0]+r*x.ld:][:cols]
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
func Select[T elem.Number](dst []T, cond []bool, condShape Shape, a []T, aShape Shape, b []T, bShape Shape) error {
	var out [scratchAxes]int
	x, err := numpyNary(out[:], [3]Shape{condShape, aShape, bShape}, 3, &selectNames)
	if err != nil {
		return err
	}
	if err := checkNary(&x, dst, spanOf(cond), spanOf(a), spanOf(b)); err != nil {
		return err
	}
	ldm, incm := x.block(1)
	lda, inca := x.block(2)
	ldb, incb := x.block(3)
	k, ok := kernel.KindFor(3, incm|inca<<1|incb<<2)
	x.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Select(k, m, cols, dst[off[0]:], x.ld, cond[off[1]:], ldm, a[off[2]:], lda, b[off[3]:], ldb, false)
			return
		}
		for r := range m { // every input repeats one value along each row
			row := dst[off[0]+r*x.ld:][:cols]
			kernel.Select(kernel.VVV, 1, 1, row, 0, cond[off[1]+r*ldm:], 0, a[off[2]+r*lda:], 0, b[off[3]+r*ldb:], 0, false)
			fill(row)
		}
	})
	return nil
}

// opNotDefined is the error of an op that is invalid or not defined on the
// type of zero.
func opNotDefined(op interface{ Valid() bool }, zero any) error {
	if !op.Valid() {
		return newError(errs(ErrOp), "invalid %v", op)
	}
	return newError(errs(ErrOp), "%v is not defined on %T", op, zero)
}

// Compare computes dst = a op b (elem.Compare's comparisons, Go's
// operators: false for a NaN but with Ne), a and b broadcast under the NUMPY
// rule, as NumPy's np.less(a, b) and the like. dst holds the output's
// elements in row-major order and shares no memory with a or b (an error
// wrapping [ErrOverlap]). On error nothing is written.
func Compare[T elem.Number](op elem.CompareOp, dst []bool, a []T, aShape Shape, b []T, bShape Shape) error {
	if !elem.CompareDefinedOn[T](op) {
		return opNotDefined(op, T(0))
	}
	var out [scratchAxes]int
	x, err := numpyNary(out[:], [3]Shape{aShape, bShape}, 2, &compareNames)
	if err != nil {
		return err
	}
	if err := checkNary(&x, dst, spanOf(a), spanOf(b)); err != nil {
		return err
	}
	lda, inca := x.block(1)
	ldb, incb := x.block(2)
	k, ok := kernel.KindFor(2, inca|incb<<1)
	x.run(func(off [nditer.Operands]int, m, cols int) {
		if ok {
			kernel.Compare(k, kernel.CompareOp(op), m, cols, dst[off[0]:], x.ld, a[off[1]:], lda, b[off[2]:], ldb, false)
			return
		}
		for r := range m { // both inputs repeat one value along each row
			row := dst[off[0]+r*x.ld:][:cols]
			kernel.Compare(kernel.VV, kernel.CompareOp(op), 1, 1, row, 0, a[off[1]+r*lda:], 0, b[off[2]+r*ldb:], 0, false)
			fill(row)
		}
	})
	return nil
}

// The inputs' names in the N-ary calls' messages.
var (
	compareNames = [3]string{"a", "b"}
	unaryNames   = [3]string{"a"}
	ternaryNames = [3]string{"a", "b", "c"}
	selectNames  = [3]string{"cond", "a", "b"}
)

// nary is one planned N-ary call, a value on its caller's stack: the
// output's shape and the inputs' (the caller's own: planning only reads
// them and formats copies in messages, so that they do not escape), and the
// coalesced nest, operand 0 being dst and 1.. the inputs, each with its
// strides over the nest (0 where it repeats).
type nary struct {
	loops
	out    Shape
	shapes [3]Shape
	names  *[3]string
	ld     int // dst's leading stride in a block
	m, n   int // a block's rows and columns
}

// newNary plans a call of the first inputs shapes, broadcast to out,
// naming them names in messages. A function returning the plan rather than
// a method filling one in: the shapes stored into a value behind a pointer
// would escape.
func newNary(out Shape, shapes [3]Shape, inputs int, names *[3]string) (nary, error) {
	x := nary{out: out, shapes: shapes, names: names}
	x.inputs = inputs
	err := x.init()
	return x, err
}

// numpyNary is newNary for the first inputs shapes with the output their
// NUMPY broadcast, computed in buf (scratchAxes dims; a deeper output goes
// to the heap).
func numpyNary(buf []int, shapes [3]Shape, inputs int, names *[3]string) (nary, error) {
	rank := 0
	for _, s := range shapes[:inputs] {
		if !valid(s) {
			return nary{}, numpyError(shapes, inputs)
		}
		rank = max(rank, len(s))
	}
	out := buf[:min(rank, len(buf))]
	if rank > len(buf) {
		out = make([]int, rank)
	}
	if d, _, _ := numpyInto(out, shapes[:inputs]); d >= 0 || !fits(out) {
		return nary{}, numpyError(shapes, inputs)
	}
	return newNary(out, shapes, inputs, names)
}

// numpyError returns the error of Numpy for the first inputs shapes, on
// copies.
func numpyError(shapes [3]Shape, inputs int) error {
	clones := make([]Shape, inputs)
	for k, s := range shapes[:inputs] {
		clones[k] = s.Clone()
	}
	_, err := Numpy(clones...)
	return err
}

// init validates the inputs' shapes against the output's, which they must
// broadcast to, and coalesces the nest.
func (x *nary) init() error {
	var in [3]placed
	for k, s := range x.shapes[:x.inputs] {
		if !broadcastsTo(s, x.out) {
			_, err := Strides(s.Clone(), x.out.Clone())
			return err
		}
		in[k] = placed{shape: s}
	}
	x.lay(x.out, in[:x.inputs])
	size, stride := x.axes()
	x.n, x.m = size[x.rank-1], 1
	if x.rank >= 2 {
		x.m = size[x.rank-2]
		x.ld = stride[0][x.rank-2]
	}
	return nil
}

// broadcastsTo reports whether the NUMPY rule broadcasts s to out, both
// valid shapes (out's element count fitting in an int): what [Strides]
// checks, without its allocations.
func broadcastsTo(s, out Shape) bool {
	if !valid(s) || !valid(out) || !fits(out) || len(s) > len(out) {
		return false
	}
	for i, d := range s {
		if o := out[len(out)-len(s)+i]; d != o && d != 1 {
			return false
		}
	}
	return true
}

// block returns input k's leading stride and its inner step (0 or 1) in a
// block.
func (x *nary) block(k int) (ld, inc int) {
	_, stride := x.axes()
	inc = stride[k][x.rank-1]
	if x.rank >= 2 {
		ld = stride[k][x.rank-2]
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
func checkNary[E any](x *nary, dst []E, ins ...span) error {
	if len(dst) != x.length[0] {
		return newError(errs(ErrDataLength), "dst has %d elements; the output %v of %s needs %d", len(dst), x.out.Clone(), x.describe(), x.length[0])
	}
	for k, in := range ins {
		if in.len != x.length[k+1] {
			return newError(errs(ErrDataLength), "%s has %d elements; its shape %v needs %d (%s)", x.names[k], in.len, x.shapes[k].Clone(), x.length[k+1], x.describe())
		}
	}
	d := spanOf(dst)
	size, stride := x.axes()
	dspan := alias.Span{Start: d.start, Elem: d.elem, Size: size, Stride: stride[0]}
	for k, in := range ins {
		ispan := alias.Span{Start: in.start, Elem: in.elem, Size: size, Stride: stride[k+1]}
		if in.elem == d.elem && alias.Conflict(dspan, ispan) || in.elem != d.elem && alias.Overlap(dspan, ispan) {
			return newError(errs(ErrOverlap), "dst shares memory with %s %v without being exactly %s laid out as the output %v",
				x.names[k], x.shapes[k].Clone(), x.names[k], x.out.Clone())
		}
	}
	return nil
}

// describe names every input with its shape, for messages.
func (x *nary) describe() string {
	parts := make([]string, x.inputs)
	for k, s := range x.shapes[:x.inputs] {
		parts[k] = x.names[k] + " " + s.String()
	}
	return strings.Join(parts, ", ")
}

// run calls block once per step of the odometer over the outer axes, with
// every operand's offset and the block's rows and columns.
func (x *nary) run(block func(off [nditer.Operands]int, m, n int)) {
	if x.length[0] == 0 {
		return
	}
	size, stride := x.axes()
	outer := max(0, x.rank-2)
	o := nditer.Odometer{Size: size[:outer]}
	var idx [maxAxes]int
	o.Idx = idx[:outer]
	for k := range o.Stride {
		o.Stride[k] = stride[k][:outer] // the operands a call does not have: 0, as lay leaves them
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
func fill[E any](row []E) {
	for j := 1; j < len(row); j++ {
		row[j] = row[0]
	}
}
