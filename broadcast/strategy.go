package broadcast

import (
	"math/bits"
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/rowtile"
)

// strategy is how a plan turns its block, the two innermost axes of the
// coalesced nest, into work. It is chosen when the plan is built, once for
// each element size, and the executor only follows it.
type strategy uint8

const (
	// runEmpty: the output has no elements; nothing runs.
	runEmpty strategy = iota
	// runFlat: the nest is one axis, so the whole output is one 1 x n
	// kernel call (vv, vs or sv), with no odometer.
	runFlat
	// runTiny: blocks of at most tinyBlock elements, computed row by row by
	// the generic row loops: below that size a kernel call costs more than
	// the elements.
	runTiny
	// runTile: a dense block against a short repeated row. The row is
	// expanded on the stack into an L1 tile, a multiple of the row and of
	// every vector width long, and the block runs as a flat vv op against
	// it, tile after tile.
	runTile
	// run2D: each block is one m x n kernel call whose row loop runs inside
	// the kernel: a row (ld 0), column (vs or sv, one value per row), outer
	// product or dense form, by the inputs' strides.
	run2D
	// runCopy: an op-less plan; each row of the block is copied from the
	// input, or filled with its one value.
	runCopy
)

var strategyNames = [...]string{"empty", "flat", "tiny", "tile", "2-D", "copy"}

// String names the strategy as the package documentation does.
func (s strategy) String() string { return strategyNames[s] }

// Element sizes, which index a plan's per-size decisions.
const (
	elemSizes = 4 // 1, 2, 4 and 8 bytes
	// tinyBlock is the largest block computed by the row loops.
	tinyBlock = 16
	// tileCap is the capacity, in elements, of the stack tile that a short
	// repeated row is expanded into (see rowtile; rows of up to
	// rowtile.RowBytes use it).
	tileCap = 1024
	// tileAlign is the tile's alignment in elements: every vector width.
	tileAlign = 16
)

// sizeIndex is the index of T in a plan's per-size decisions.
func sizeIndex[T kernel.Number]() int { return bits.TrailingZeros(uint(unsafe.Sizeof(T(0)))) }

// block is the innermost m x n of the nest: operand k (dst first) is at
// offset r*ld[k] + j*inc[k] for row r and column j, and rows counts the
// block's rows over the whole nest (m times the size of every outer axis).
// repeated is the input (1 or 2) that is one row repeated against a dense
// block of the other, as in (m,n) op (n), or -1.
type block struct {
	m, n     int
	ld, inc  [maxOperands]int
	kind     kernel.Kind
	rows     int
	repeated int
}

// choose fills in the block and the strategy and streaming decision for each
// element size.
func (p *Plan) choose() {
	size, stride := p.axes()
	b := &p.block
	r := len(size)
	b.m, b.n, b.rows = 1, size[r-1], 1
	for k := range b.inc {
		b.inc[k] = stride[k][r-1]
		if r >= 2 {
			b.ld[k] = stride[k][r-2]
		}
	}
	if r >= 2 {
		b.m = size[r-2]
	}
	for _, s := range size[:r-1] {
		b.rows *= s
	}
	// The inputs' inner strides are 0 or 1, and at least one is 1: the
	// innermost axis of a broadcast is one along which some input does not
	// repeat.
	b.kind = [2][2]kernel.Kind{{kernel.SV, kernel.SV}, {kernel.VS, kernel.VV}}[b.inc[1]][b.inc[2]]
	b.repeated = p.repeatedRow()
	for i := range p.strategy {
		elemSize := 1 << i
		p.strategy[i] = p.strategyFor(elemSize)
		p.stream[i] = kernel.ShouldStream(p.streamed()*elemSize) && p.rowsStream(i)
	}
}

// rowsStream reports whether the kernel calls of strategy i may write with
// streaming stores: flat runs and tiles write long contiguous runs; the
// other strategies write the block's rows one by one, which may stream only
// where kernel.StreamBlock says (rows of 17 float32 against a column,
// 307200 of them: 46 ms a run streaming, 2.5 ms not).
func (p *Plan) rowsStream(i int) bool {
	switch p.strategy[i] {
	case runFlat, runTile:
		return true
	}
	b := &p.block
	return kernel.StreamBlock(b.m, b.n, b.ld[0], 1<<i)
}

// strategyFor decides the strategy for elements of elemSize bytes.
func (p *Plan) strategyFor(elemSize int) strategy {
	b := &p.block
	switch {
	case p.length[0] == 0:
		return runEmpty
	case p.form == formCopy:
		return runCopy
	case b.m*b.n <= tinyBlock:
		return runTiny
	case b.repeated > 0 && b.n*elemSize <= rowtile.RowBytes:
		return runTile
	case p.rank == 1:
		return runFlat
	}
	return run2D
}

// repeatedRow finds block.repeated.
func (p *Plan) repeatedRow() int {
	b := &p.block
	if b.m < 2 || b.kind != kernel.VV || b.ld[0] != b.n {
		return -1
	}
	for k, other := 1, 2; k <= 2; k, other = k+1, other-1 {
		if b.ld[k] == 0 && b.ld[other] == b.n {
			return k
		}
	}
	return -1
}

// tileLen is the tile length for rows of n elements: a multiple of n and of
// every vector width near half the tile capacity.
func tileLen(n int) int { return rowtile.Len(n, tileAlign, tileCap/2) }
