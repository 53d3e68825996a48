package broadcast

import (
	"github.com/simdkit/elem/internal/elemtype"
	"slices"
	"sync"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/coalesce"
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
// strided dst is scattered back.
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
func recastView[N, T elem.Number | elem.Complex](v View[T]) View[N] {
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
	var n viewNest
	if err := checkViews(&n, [3]View[T]{dst, a, b}); err != nil || n.empty {
		return err
	}
	n.simplify()
	runNest(&n, kernel.Op(op), [3][]T{dst.Data, a.Data, b.Data})
	return nil
}

// checkViews lays the views out into n and checks that dst shares no
// element with an input that it is not exactly.
func checkViews[T elem.Number | elem.Complex](n *viewNest, views [3]View[T]) error {
	if err := layoutViews(n, views); err != nil {
		return err
	}
	for k := 1; k < 3; k++ {
		if viewConflict(n, views[0].Data, views[k].Data, k) {
			name := viewNames[k]
			return newError(errs(ErrOverlap), "dst (shape %v, strides %v) shares elements with %s (shape %v, strides %v) without being exactly %s",
				views[0].Shape.Clone(), slices.Clone(views[0].Strides), name, views[k].Shape.Clone(), slices.Clone(views[k].Strides), name)
		}
	}
	return nil
}

var viewNames = [3]string{"dst", "a", "b"}

// viewNest is the loop nest of a view call over the output's dims,
// outermost first, before and after simplification: per operand (dst, a,
// b) the index in its Data of the element at index 0, and its strides.
type viewNest struct {
	rank   int
	size   [scratchAxes]int
	stride [nditer.Operands][scratchAxes]int // the last stays 0: views have two inputs
	base   [nditer.Operands]int
	empty  bool
}

// layoutViews validates the views and lays them out over the output shape,
// dst's, which the inputs must broadcast to.
func layoutViews[T elem.Number | elem.Complex](n *viewNest, v [3]View[T]) error {
	for k := range v {
		o, err := v[k].origin(viewNames[k])
		if err != nil {
			return err
		}
		n.base[k] = o
	}
	out := v[0].Shape
	if len(v[1].Shape) > len(out) || len(v[2].Shape) > len(out) || len(out) > scratchAxes {
		return shapeMismatch(v)
	}
	var got [scratchAxes]int
	if d, _, _ := numpyInto(got[:len(out)], []Shape{v[1].Shape, v[2].Shape, out}); d >= 0 || !out.Equal(got[:len(out)]) {
		return shapeMismatch(v)
	}
	if err := v[0].distinct("dst"); err != nil {
		return err
	}
	n.rank = len(out)
	for d, size := range out {
		n.size[d] = size
		n.empty = n.empty || size == 0
		n.stride[0][d] = v[0].Strides[d]
		for k := 1; k < 3; k++ {
			if i := d - (len(out) - len(v[k].Shape)); i >= 0 && v[k].Shape[i] != 1 {
				n.stride[k][d] = v[k].Strides[i]
			}
		}
	}
	return nil
}

// shapeMismatch reports views whose shapes do not broadcast to dst's.
func shapeMismatch[T elem.Number | elem.Complex](v [3]View[T]) error {
	if len(v[0].Shape) > scratchAxes {
		return newError(errs(ErrRank), "dst has %d dims: views have at most %d", len(v[0].Shape), scratchAxes)
	}
	out, err := Numpy(v[1].Shape.Clone(), v[2].Shape.Clone())
	if err != nil {
		return err
	}
	return newError(errs(ErrIncompatible), "a %v and b %v do not broadcast to dst's shape %v: their broadcast shape is %v",
		v[1].Shape.Clone(), v[2].Shape.Clone(), v[0].Shape.Clone(), out)
}

// viewConflict reports whether dst shares an element with input k without
// being exactly that view: disjoint data slices settle it in two
// comparisons, the rest goes to package alias with both views' layouts.
func viewConflict[T elem.Number | elem.Complex](n *viewNest, dst, x []T, k int) bool {
	if n.empty {
		return false
	}
	d0, x0 := uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	var zero T
	size := unsafe.Sizeof(zero)
	if d0+uintptr(len(dst))*size <= x0 || x0+uintptr(len(x))*size <= d0 {
		return false
	}
	ds := alias.Span{Start: d0 + uintptr(n.base[0])*size, Elem: int(size), Size: n.size[:n.rank], Stride: n.stride[0][:n.rank]}
	xs := alias.Span{Start: x0 + uintptr(n.base[k])*size, Elem: int(size), Size: n.size[:n.rank], Stride: n.stride[k][:n.rank]}
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
	st := [][]int{n.stride[0][:r], n.stride[1][:r], n.stride[2][:r]}
	n.rank = coalesce.Nest(n.size[:r], st)
	if n.rank == 0 { // one element
		n.rank, n.size[0] = 1, 1
		for k := range n.stride {
			n.stride[k][0] = 1
		}
	}
}

// runNest runs the simplified nest: an odometer over the outer dims, one
// 2-D block (the two innermost dims) per step.
func runNest[T elem.Number](n *viewNest, op kernel.Op, data [3][]T) {
	r := n.rank
	b := viewBlock{n: n.size[r-1], m: 1, op: op}
	outer := r - 1
	for k := range 3 {
		b.inc[k] = n.stride[k][r-1]
	}
	if r >= 2 {
		b.m = n.size[r-2]
		outer = r - 2
		for k := range 3 {
			b.ld[k] = n.stride[k][r-2]
		}
	}
	b.direct = b.inc[0] == 1 && b.inc[1]|1 == 1 && b.inc[2]|1 == 1 && b.inc[1]|b.inc[2] == 1
	if b.direct && b.m > 1 && (b.ld[1] < 0 || b.ld[2] < 0) {
		b.m, b.ld, outer = 1, [3]int{}, r-1 // the rows run one by one: a kernel's rows go forward
	}
	total := 1
	for _, s := range n.size[:r] {
		total *= s
	}
	b.stream = kernel.StreamFlat[T](total, 3) && kernel.StreamBlock(b.m, b.n, b.ld[0], int(unsafe.Sizeof(T(0))))
	o := nditer.Odometer{Size: n.size[:outer]}
	var idx [scratchAxes]int
	o.Idx = idx[:outer]
	for k := range o.Stride {
		o.Stride[k] = n.stride[k][:outer]
	}
	o.Base = n.base
	o.At = o.Base
	if !b.direct {
		runTiled(&b, &o, data)
		kernel.FenceAfter(b.stream)
		return
	}
	kind := [2][2]kernel.Kind{{kernel.SV, kernel.SV}, {kernel.VS, kernel.VV}}[b.inc[1]][b.inc[2]]
	for {
		at := &o.At
		kernel.Binary(kind, op, b.m, b.n, data[0][at[0]:], b.ld[0], data[1][at[1]:], b.ld[1], data[2][at[2]:], b.ld[2], b.stream)
		if !o.Next() {
			kernel.FenceAfter(b.stream)
			return
		}
	}
}

// viewBlock is the m x n block of a nest: operand k at offset r*ld[k] +
// j*inc[k] from its block start. direct says the block runs as kernel calls
// on the data itself: dst's inner stride is 1, each input's 0 or 1 (not
// both 0), and no input's leading stride is negative.
type viewBlock struct {
	m, n    int
	ld, inc [3]int
	op      kernel.Op
	direct  bool
	stream  bool
}

// viewTileBytes is the size of a tile: three of them (dst and two inputs)
// stay within L1. Measured for a + b.T, 1024x1024 float32 (Zen 4, ns per
// element, contiguous Add 0.15): tiles of 4 KiB 0.39, 8 KiB 0.29, 16 KiB
// 0.27 (but 48 KiB of tiles).
const viewTileBytes = 8 << 10

// transposeCols is the width of a tile when an input is gathered across
// its rows (a transposed view): the tile's rows (viewTileBytes / 64 / size
// of them) span whole cache lines of it, and the kernel's rows stay long.
// For a + b.T above: 32 columns 0.80 ns per element, 64 0.29, 128 0.34.
const transposeCols = 64

// tileBuffers hold the tiles of runs: three tiles of viewTileBytes, as
// words so that every element type is aligned in them. From a pool rather
// than the stack, since Go would clear 24 KiB of stack at every run.
var tileBuffers = sync.Pool{New: func() any { return new([3 * viewTileBytes / 8]uint64) }}

// runTiled runs every block of the odometer through tiles.
func runTiled[T elem.Number](b *viewBlock, o *nditer.Odometer, data [3][]T) {
	buf := tileBuffers.Get().(*[3 * viewTileBytes / 8]uint64)
	defer tileBuffers.Put(buf)
	capacity := viewTileBytes / int(unsafe.Sizeof(T(0)))
	var tiles [3][]T
	for k := range tiles {
		tiles[k] = unsafe.Slice((*T)(unsafe.Pointer(&buf[k*viewTileBytes/8])), capacity)
	}
	cols := min(b.n, capacity)
	for k := 1; k < 3; k++ {
		if b.m > 1 && !b.usable(k, 2) && abs(b.ld[k]) < abs(b.inc[k]) {
			cols = min(b.n, transposeCols)
		}
	}
	rows := min(b.m, capacity/cols)
	for {
		for r0 := 0; r0 < b.m; r0 += rows {
			for c0 := 0; c0 < b.n; c0 += cols {
				computeTile(b, &tiles, data, o.At, r0, min(rows, b.m-r0), c0, min(cols, b.n-c0))
			}
		}
		if !o.Next() {
			return
		}
	}
}

// usable reports whether operand k can be used in place for a tile of
// rows rows: a kernel reads and writes rows forward, with inner stride 1 (0
// for an input that repeats one value per row).
func (b *viewBlock) usable(k, rows int) bool {
	inner := b.inc[k] == 1 || k > 0 && b.inc[k] == 0
	return inner && (rows == 1 || b.ld[k] >= 0)
}

// computeTile computes rows r0..r0+rr and columns c0..c0+cc of block b at the
// operand offsets at: the operands that cannot be used in place are
// gathered into contiguous tiles, and dst, if it cannot, is computed in its
// tile and scattered back. Two inputs that both repeat one value per row
// have no kernel: a is gathered then.
func computeTile[T elem.Number](b *viewBlock, tiles *[3][]T, data [3][]T, at [nditer.Operands]int, r0, rr, c0, cc int) {
	var ops [3][]T
	var ld, inc, off [3]int
	for k := range 3 {
		off[k] = at[k] + r0*b.ld[k] + c0*b.inc[k]
		if b.usable(k, rr) && (k != 1 || b.inc[1]|b.inc[2] != 0) {
			ops[k], ld[k], inc[k] = data[k][off[k]:], b.ld[k], b.inc[k]
			continue
		}
		ops[k], ld[k], inc[k] = tiles[k][:rr*cc], cc, 1
		if k > 0 {
			gather(ops[k], data[k], off[k], rr, cc, b.ld[k], b.inc[k])
		}
	}
	kind := [2][2]kernel.Kind{{kernel.SV, kernel.SV}, {kernel.VS, kernel.VV}}[inc[1]][inc[2]]
	kernel.Binary(kind, b.op, rr, cc, ops[0], ld[0], ops[1], ld[1], ops[2], ld[2], b.stream && b.usable(0, rr))
	if !b.usable(0, rr) {
		scatter(data[0], off[0], rr, cc, b.ld[0], b.inc[0], ops[0])
	}
}

// gather copies the rows x cols elements of x at off + r*ld + j*inc into
// tile, row-major. It walks x along its smaller stride, so that a
// transposed view is read a cache line at a time. The view's validation
// has proven every offset inside x: the loops index without bounds checks.
func gather[T elem.Number](tile, x []T, off, rows, cols, ld, inc int) {
	_ = tile[rows*cols-1]
	src := unsafe.Pointer(unsafe.SliceData(x))
	if ld == 1 && rows > 1 { // columns of x's rows: a transposition
		kernel.Transpose[T](unsafe.Pointer(&tile[0]), cols, unsafe.Add(src, off*int(unsafe.Sizeof(T(0)))), inc, cols, rows)
		return
	}
	if rows > 1 && abs(inc) > abs(ld) { // walk down the columns instead
		rows, cols, ld, inc = cols, rows, inc, ld
		for r := range rows {
			copyStrided[T](unsafe.Pointer(&tile[r]), rows, unsafe.Add(src, (off+r*ld)*int(unsafe.Sizeof(T(0)))), inc, cols)
		}
		return
	}
	for r := range rows {
		copyStrided[T](unsafe.Pointer(&tile[r*cols]), 1, unsafe.Add(src, (off+r*ld)*int(unsafe.Sizeof(T(0)))), inc, cols)
	}
}

// copyStrided copies n elements of T from src, inc elements apart, to dst,
// dinc elements apart, four at a time. Every pointer it forms is that of an
// element it copies: src and dst advance by offsets, never past their last
// element (nor, for a negative stride, before their first), which the
// unsafe.Pointer rules forbid even undereferenced.
func copyStrided[T elem.Number](dst unsafe.Pointer, dinc int, src unsafe.Pointer, inc, n int) {
	size := int(unsafe.Sizeof(T(0)))
	ds, ss := dinc*size, inc*size
	d, s := 0, 0 // byte offsets of element j
	j := 0
	for ; j+4 <= n; j += 4 {
		v0 := *(*T)(unsafe.Add(src, s))
		v1 := *(*T)(unsafe.Add(src, s+ss))
		v2 := *(*T)(unsafe.Add(src, s+2*ss))
		v3 := *(*T)(unsafe.Add(src, s+3*ss))
		*(*T)(unsafe.Add(dst, d)) = v0
		*(*T)(unsafe.Add(dst, d+ds)) = v1
		*(*T)(unsafe.Add(dst, d+2*ds)) = v2
		*(*T)(unsafe.Add(dst, d+3*ds)) = v3
		s, d = s+4*ss, d+4*ds
	}
	for ; j < n; j++ {
		*(*T)(unsafe.Add(dst, d)) = *(*T)(unsafe.Add(src, s))
		s, d = s+ss, d+ds
	}
}

// scatter is gather's inverse for dst, whose inner stride is the smaller:
// it writes the tile to dst at off + r*ld + j*inc.
func scatter[T elem.Number](dst []T, off, rows, cols, ld, inc int, tile []T) {
	_ = tile[rows*cols-1]
	base := unsafe.Pointer(unsafe.SliceData(dst))
	if ld == 1 && rows > 1 { // the tile's columns are dst's rows
		kernel.Transpose[T](unsafe.Add(base, off*int(unsafe.Sizeof(T(0)))), inc, unsafe.Pointer(&tile[0]), cols, rows, cols)
		return
	}
	for r := range rows {
		copyStrided[T](unsafe.Add(base, (off+r*ld)*int(unsafe.Sizeof(T(0)))), inc, unsafe.Pointer(&tile[r*cols]), 1, cols)
	}
}
