package broadcast

import (
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/nditer"
	"github.com/simdkit/elem/internal/rowtile"
)

// exec is one run of a validated plan, or one goroutine's part of a parallel
// run: the columns c0..c1 of every block. It calls the trusted kernel entry
// directly: the plan's checks have made every offset it computes valid.
type exec[T kernel.Number] struct {
	p        *Plan
	op       kernel.Op
	ops      [maxOperands][]T // dst, then the inputs
	strategy strategy
	stream   bool // decided once for the whole plan
	c0, c1   int
}

// newExec prepares a run of p over the given operands.
func newExec[T kernel.Number](p *Plan, op kernel.Op, dst, a, b []T) exec[T] {
	i := sizeIndex[T]()
	return exec[T]{p: p, op: op, ops: [maxOperands][]T{dst, a, b}, strategy: p.strategy[i],
		stream: p.stream[i], c1: p.block.n}
}

// run computes the whole plan on the calling goroutine.
func (e *exec[T]) run() {
	switch e.strategy {
	case runEmpty:
	case runFlat:
		var at [maxOperands]int
		e.block(&at, 0, 1, nil)
	default:
		e.walk(0, e.p.block.rows)
	}
	kernel.FenceAfter(e.stream)
}

// walk computes rows lo..hi of the whole computation (see block.rows).
func (e *exec[T]) walk(lo, hi int) {
	if e.strategy == runTile {
		e.walkTiled(lo, hi)
		return
	}
	e.walkWith(nil, lo, hi)
}

// walkTiled is walk with a tile for a short repeated row: a separate function
// so that only such plans pay for clearing the tile's stack space.
func (e *exec[T]) walkTiled(lo, hi int) {
	var buf [tileCap]T
	t := rowtile.Tile[T]{Buf: buf[:tileLen(e.p.block.n)]}
	e.walkWith(&t, lo, hi)
}

// walkWith runs rows lo..hi block by block: a seek to lo, then the
// odometer. The odometer's index lives on the stack, in a small array unless
// the nest is deep.
func (e *exec[T]) walkWith(t *rowtile.Tile[T], lo, hi int) {
	size, stride := e.p.axes()
	outer := len(size) - min(2, len(size))
	o := nditer.Odometer{Size: size[:outer]}
	for k := range stride {
		o.Stride[k] = stride[k][:outer]
	}
	if outer <= inlineAxes {
		var idx [inlineAxes]int
		o.Idx = idx[:outer]
		e.steps(&o, t, lo, hi)
		return
	}
	var idx [maxAxes]int
	o.Idx = idx[:outer]
	e.steps(&o, t, lo, hi)
}

// steps runs rows lo..hi from the odometer's start.
func (e *exec[T]) steps(o *nditer.Odometer, t *rowtile.Tile[T], lo, hi int) {
	m := e.p.block.m
	r := 0
	if lo > 0 { // a part of a parallel run: divisions find where it starts
		o.Seek(lo / m)
		r = lo % m
	}
	for ; lo < hi; r = 0 {
		r1 := min(m, r+hi-lo)
		e.block(&o.At, r, r1, t)
		lo += r1 - r
		if !o.Next() {
			return
		}
	}
}

// block computes rows r0..r1 and columns c0..c1 of the block at the given
// operand offsets, as the strategy says.
func (e *exec[T]) block(at *[maxOperands]int, r0, r1 int, t *rowtile.Tile[T]) {
	b := &e.p.block
	od := at[0] + r0*b.ld[0] + e.c0
	oa := at[1] + r0*b.ld[1] + e.c0*b.inc[1]
	m, n := r1-r0, e.c1-e.c0
	dst, a := e.ops[0][od:], e.ops[1][oa:]
	if e.strategy == runCopy {
		copyRows(m, n, dst, b.ld[0], a, b.ld[1], b.inc[1])
		return
	}
	ob := at[2] + r0*b.ld[2] + e.c0*b.inc[2]
	y := e.ops[2][ob:]
	switch e.strategy {
	case runTiny:
		kernel.Reference(b.kind, e.op, m, n, dst, b.ld[0], a, b.ld[1], y, b.ld[2])
	case runTile:
		if b.repeated == 2 {
			e.tiled(dst, a, t.Fill(e.ops[2], ob, n, len(t.Buf)), false, m*n)
		} else {
			e.tiled(dst, t.Fill(e.ops[1], oa, n, len(t.Buf)), y, true, m*n)
		}
	default:
		kernel.Binary(b.kind, e.op, m, n, dst, b.ld[0], a, b.ld[1], y, b.ld[2], e.stream)
	}
}

// copyRows copies m rows of n elements into dst (leading stride ldd) from x,
// whose rows have leading stride ld and are either n elements (inc 1) or one
// value to repeat (inc 0).
func copyRows[T kernel.Number](m, n int, dst []T, ldd int, x []T, ld, inc int) {
	for r := range m {
		row := dst[r*ldd:][:n]
		if inc == 1 {
			copy(row, x[r*ld:])
			continue
		}
		v := x[r*ld]
		for j := range row {
			row[j] = v
		}
	}
}

// tiled computes a dense block of total elements against a repeated row as
// a flat run: whole tiles (the row repeated to a length that is a multiple of
// n and of the vector width) as the rows of one kernel call, then the
// remainder. The tile is x when tileIsA, else y; the other operand is the
// dense block.
func (e *exec[T]) tiled(dst, x, y []T, tileIsA bool, total int) {
	l := len(y)
	ldx, ldy := l, 0
	if tileIsA {
		l = len(x)
		ldx, ldy = 0, l
	}
	full := total / l
	if full > 0 {
		kernel.Binary(kernel.VV, e.op, full, l, dst, l, x, ldx, y, ldy, e.stream)
	}
	if rem := total - full*l; rem > 0 {
		if tileIsA {
			y = y[full*l:]
		} else {
			x = x[full*l:]
		}
		kernel.Binary(kernel.VV, e.op, 1, rem, dst[full*l:], 0, x, 0, y, 0, e.stream)
	}
}
