package broadcast

import (
	"unsafe"

	"github.com/simdkit/elem"
)

// Run computes dst = a op b as planned: a and b hold the data of the plan's
// input shapes, dst that of its output (in-place plans: pass a as dst). On
// error nothing has been written. dst may be exactly a or b when that input
// has the output's shape; any other shared memory is an error wrapping
// ErrOverlap. Run allocates nothing and may be called from many goroutines.
func Run[T elem.Float](p *Plan, op elem.Op, dst, a, b []T) error {
	if err := checkRun(p, op, dst, a, b); err != nil {
		return err
	}
	if p.empty {
		return nil
	}
	e := exec[T]{p: p, op: op, dst: dst, a: a, b: b, c1: p.n}
	e.walk(0, p.rows())
	return nil
}

// Apply computes dst = a op b under the NUMPY rule: dst has the shape
// Numpy(aShape, bShape). It plans on the stack and allocates nothing.
func Apply[T elem.Float](op elem.Op, dst, a []T, aShape Shape, b []T, bShape Shape) error {
	p := Plan{aShape: aShape, bShape: bShape}
	if err := p.build(aShape, bShape, true); err != nil {
		return err
	}
	return Run(&p, op, dst, a, b)
}

// ApplyInPlace computes a = a op b with PyTorch's in-place rule (a.add_(b)):
// b broadcasts to a's shape, which must not change.
func ApplyInPlace[T elem.Float](op elem.Op, a []T, aShape Shape, b []T, bShape Shape) error {
	p := Plan{aShape: aShape, bShape: bShape}
	if err := p.build(aShape, bShape, true); err != nil {
		return err
	}
	if !keepsShape(aShape, bShape) {
		return InPlace(aShape.Clone(), bShape.Clone())
	}
	return Run(&p, op, a, a, b)
}

// ApplyMinibatch computes dst = a op b with primitiv's minibatch rule over
// batch-major data; dst has the shape Minibatch(aShape, bShape).
func ApplyMinibatch[T elem.Float](op elem.Op, dst, a []T, aShape BatchShape, b []T, bShape BatchShape) error {
	var p Plan
	if err := p.initMinibatch(aShape, bShape); err != nil {
		return err
	}
	return Run(&p, op, dst, a, b)
}

// To materialises the bidirectional broadcast of in (of shape inShape) to
// target, numpy.broadcast_to followed by a copy: it writes the result into
// dst and returns its shape, Bidirectional(inShape, target), which may differ
// from target.
func To[T elem.Float](dst, in []T, inShape, target Shape) (Shape, error) {
	out, err := Bidirectional(inShape, target)
	if err != nil {
		return nil, err
	}
	p := Plan{aShape: inShape, bShape: target}
	if err := p.build(inShape, target, false); err != nil {
		return nil, err
	}
	if err := inShape.checkLen("input", len(in)); err != nil {
		return nil, err
	}
	if len(dst) != p.outLen {
		return nil, newError(errs(ErrDataLength), "dst has %d elements but the broadcast of %v to %v has shape %v with %d",
			len(dst), inShape, target, out, p.outLen)
	}
	if overlaps(dst, in) {
		return nil, newError(errs(ErrOverlap), "dst shares memory with the input of shape %v", inShape)
	}
	if !p.empty {
		e := exec[T]{p: &p, dst: dst, a: in, copying: true, c1: p.n}
		e.walk(0, p.rows())
	}
	return out, nil
}

// checkRun validates a Run call before anything is written.
func checkRun[T elem.Float](p *Plan, op elem.Op, dst, a, b []T) error {
	if !op.Valid() {
		return newError(errs(ErrOp), "invalid operation %v", op)
	}
	if len(a) != p.aLen || len(b) != p.bLen || len(dst) != p.outLen {
		return p.lengthError(len(dst), len(a), len(b))
	}
	if overlaps(dst, a) && !(p.aWhole && sameStart(dst, a)) {
		return newError(errs(ErrOverlap), "dst shares memory with a %s without being exactly a", p.describe("a"))
	}
	if overlaps(dst, b) && !(p.bWhole && sameStart(dst, b)) {
		return newError(errs(ErrOverlap), "dst shares memory with b %s without being exactly b", p.describe("b"))
	}
	return nil
}

// lengthError reports the first data slice whose length does not match.
func (p *Plan) lengthError(dst, a, b int) error {
	name, got, want := "dst", dst, p.outLen
	switch {
	case a != p.aLen:
		name, got, want = "a", a, p.aLen
	case b != p.bLen:
		name, got, want = "b", b, p.bLen
	}
	return newError(errs(ErrDataLength), "%s has %d elements but %s needs %d (a %s, b %s)",
		name, got, p.describe(name), want, p.describe("a"), p.describe("b"))
}

// describe names the shape of operand name ("a", "b" or "dst") in messages.
func (p *Plan) describe(name string) string {
	switch {
	case name == "a" && p.batchA.Batch != 0:
		return "minibatch shape " + clone(p.batchA).String()
	case name == "b" && p.batchB.Batch != 0:
		return "minibatch shape " + clone(p.batchB).String()
	case name == "a":
		return "shape " + p.aShape.Clone().String()
	case name == "b":
		return "shape " + p.bShape.Clone().String()
	}
	if p.out != nil {
		return "the output shape " + p.out.String()
	}
	return "the output shape " + p.outShape().String()
}

// overlaps reports whether x and y share memory.
func overlaps[T elem.Float](x, y []T) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	x0, y0 := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	size := unsafe.Sizeof(x[0])
	return x0 < y0+uintptr(len(y))*size && y0 < x0+uintptr(len(x))*size
}

func sameStart[T elem.Float](x, y []T) bool { return &x[0] == &y[0] }

// tileCap is the capacity, in elements, of the stack tile that a tiny
// repeated row is expanded into; tileRowBytes is the longest row that uses it.
const (
	tileCap      = 1024
	tileRowBytes = 128
)

// exec is one Run in progress, or one goroutine's part of a parallel run:
// the columns c0..c1 of the inner block.
type exec[T elem.Float] struct {
	p         *Plan
	op        elem.Op
	dst, a, b []T
	copying   bool // To: dst = a, no operation
	c0, c1    int
}

// tile is the repeated row of a tiny row broadcast, expanded on the stack.
// It is passed by value rather than kept in exec so that it stays there.
type tile[T elem.Float] struct {
	buf    []T // nil when the plan needs no tile
	offset int // offset in a or b of the row buf holds, or -1
}

// rows is the number of rows of the whole computation: the inner block's m
// rows at every index of the outer dimensions.
func (p *Plan) rows() int {
	r := p.m
	for _, d := range p.outerDims() {
		r *= d.size
	}
	return r
}

// tiled reports whether the plan runs its tiny repeated row through a tile.
func (p *Plan) tiled(elemSize int) bool { return (p.rowA || p.rowB) && p.n*elemSize <= tileRowBytes }

// walk computes rows lo..hi of the whole computation (see rows).
func (e *exec[T]) walk(lo, hi int) {
	if !e.copying && e.p.tiled(int(unsafe.Sizeof(T(0)))) {
		e.walkTiled(lo, hi)
		return
	}
	e.walkWith(tile[T]{}, lo, hi)
}

// walkTiled is walk with a tile for a tiny repeated row: a separate function
// so that only such plans pay for clearing the tile's stack space.
func (e *exec[T]) walkTiled(lo, hi int) {
	var buf [tileCap]T
	e.walkWith(tile[T]{buf: buf[:tileLen(e.p.n)], offset: -1}, lo, hi)
}

// walkWith runs the inner block, or the part of it in lo..hi, at every index
// of the outer dimensions from lo's on: an odometer over offsets precomputed
// in the plan.
func (e *exec[T]) walkWith(t tile[T], lo, hi int) {
	p := e.p
	dims := p.outerDims()
	var idxBuf [inlineDims]int
	idx := idxBuf[:min(len(dims), inlineDims)]
	if len(dims) > inlineDims {
		idx = make([]int, len(dims))
	}
	od, oa, ob, r := 0, 0, 0, 0
	if lo > 0 { // a part of a parallel run: find where it starts (divisions cost)
		q := lo / p.m
		r = lo % p.m
		for i := range dims {
			idx[i] = q % dims[i].size
			q /= dims[i].size
			od, oa, ob = od+idx[i]*dims[i].d, oa+idx[i]*dims[i].a, ob+idx[i]*dims[i].b
		}
	}
	for ; lo < hi; r = 0 {
		r1 := min(p.m, r+hi-lo)
		t = e.block(od, oa, ob, t, r, r1)
		lo += r1 - r
		i := 0
		for ; i < len(dims); i++ {
			d := &dims[i]
			od, oa, ob = od+d.d, oa+d.a, ob+d.b
			if idx[i]++; idx[i] < d.size {
				break
			}
			idx[i] = 0
			od, oa, ob = od-d.d*d.size, oa-d.a*d.size, ob-d.b*d.size
		}
		if i == len(dims) {
			return
		}
	}
}

// block computes rows r0..r1 and columns c0..c1 of the inner block at the
// given offsets and returns the tile as it left it.
func (e *exec[T]) block(od, oa, ob int, t tile[T], r0, r1 int) tile[T] {
	p := e.p
	od, oa, ob = od+r0*p.ldd+e.c0, oa+r0*p.lda+e.c0*p.inca, ob+r0*p.ldb+e.c0*p.incb
	m, n := r1-r0, e.c1-e.c0
	switch {
	case e.copying:
		for r := range m {
			row := e.dst[od+r*p.ldd:][:n]
			if p.inca == 1 {
				copy(row, e.a[oa+r*p.lda:])
				continue
			}
			v := e.a[oa+r*p.lda]
			for j := range row {
				row[j] = v
			}
		}
	case p.tiny:
		for r := range m {
			d, x, y := e.dst[od+r*p.ldd:][:n], e.a[oa+r*p.lda:], e.b[ob+r*p.ldb:]
			switch {
			case p.inca == 1 && p.incb == 1:
				elem.Apply(e.op, d, x[:n], y[:n])
			case p.inca == 1:
				elem.ApplyScalar(e.op, d, x[:n], y[0])
			case p.incb == 1:
				elem.ScalarApply(e.op, d, x[0], y[:n])
			default:
				for j := range d {
					d[j] = elem.Scalar(e.op, x[0], y[0])
				}
			}
		}
	case t.buf != nil && p.rowB:
		t = t.fill(e.b, ob, p.n)
		e.tiled(od, e.a[oa:], t.buf, false, m*n)
	case t.buf != nil:
		t = t.fill(e.a, oa, p.n)
		e.tiled(od, t.buf, e.b[ob:], true, m*n)
	default:
		elem.Apply2D(e.op, m, n, e.dst[od:], p.ldd, e.a[oa:], p.lda, p.inca, e.b[ob:], p.ldb, p.incb)
	}
	return t
}

// tiled computes a dense block of total elements against a repeated row as
// a flat run: whole tiles (the row repeated to a length that is a multiple of
// n and of the vector width) as the rows of one kernel call, then the
// remainder. The tile is x when tileIsA, else y; the other operand is the
// dense block.
func (e *exec[T]) tiled(od int, x, y []T, tileIsA bool, total int) {
	l := len(y)
	ldx, ldy := l, 0
	if tileIsA {
		l = len(x)
		ldx, ldy = 0, l
	}
	full := total / l
	if full > 0 {
		elem.Apply2D(e.op, full, l, e.dst[od:], l, x, ldx, 1, y, ldy, 1)
	}
	if rem := total - full*l; rem > 0 {
		if tileIsA {
			y = y[full*l:]
		} else {
			x = x[full*l:]
		}
		elem.Apply2D(e.op, 1, rem, e.dst[od+full*l:], 0, x[:rem], 0, 1, y[:rem], 0, 1)
	}
}

// fill expands the n-element row at offset off of src into the tile, unless
// the tile already holds it.
func (t tile[T]) fill(src []T, off, n int) tile[T] {
	if t.offset == off {
		return t
	}
	copy(t.buf, src[off:off+n])
	for filled := n; filled < len(t.buf); filled *= 2 {
		copy(t.buf[filled:], t.buf[:filled])
	}
	t.offset = off
	return t
}

// tileLen is the tile length for rows of n elements: a multiple of n and of
// 16 (every vector width) near half the tile capacity.
func tileLen(n int) int {
	l := n / gcd(n, 16) * 16
	return l * max(1, tileCap/2/l)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// keepsShape reports whether broadcasting b onto a leaves a's shape as it
// is, rank included, for shapes that broadcast.
func keepsShape(a, b Shape) bool {
	if len(b) > len(a) {
		return false
	}
	for i := 1; i <= len(b); i++ {
		if sb := sizeAt(b, i); sb != 1 && sb != sizeAt(a, i) {
			return false
		}
	}
	return true
}
