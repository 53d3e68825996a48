package broadcast

import (
	"sync"

	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/elemtype"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/nditer"
)

// blockKernel says which operands the kernel of a view call takes as they
// are, for the walk that feeds it.
type blockKernel struct {
	// kinds has bit mask set when the kernel has a form for inputs of
	// which those in mask (bit k-1 for input k) are rows of values and the
	// others one value per row (kernel.KindFor's masks).
	kinds uint8
	// moves is set for a copy, which takes every layout (it is the move
	// that gathers tiles): nothing goes through tiles.
	moves bool
	// streams is set when the kernel has streaming stores.
	streams bool
}

// The kernels of the view calls.
var (
	unaryKernel   = blockKernel{kinds: 1 << 1, streams: true}      // V
	convertKernel = blockKernel{kinds: 1 << 1}                     // elem.Convert decides its stores itself
	binaryKernel  = blockKernel{kinds: 0b1110, streams: true}      // VV, VS, SV
	compareKernel = blockKernel{kinds: 0b1110}                     // as elem.Compare, no streaming
	ternaryKernel = blockKernel{kinds: 0b1111_1110, streams: true} // every form but SSS
	moveKernel    = blockKernel{kinds: 0xff, moves: true}          // its transpositions' squares stream (ShouldStreamTranspose)
)

// blockWalk runs a planned view call as a sequence of kernel calls, which
// its caller makes between calls of next: the two innermost dims of the
// simplified nest are a block of m rows of n elements (operand k's element
// (r, j) at r*ld[k] + j*inc[k] from the block's start), and an odometer
// walks the outer dims. A block that the kernel takes as it is (dst's rows
// contiguous, every input's rows contiguous or one value per row in a form
// the kernel has, rows forward) is one call on the data. The others, such
// as a transposed or column view, run through L1-sized tiles: the operands
// the kernel cannot take are gathered into contiguous tiles, the call
// computes dst's tile, and the next step scatters it back. A move (a copy)
// takes every layout and gathers nothing: it runs on whole blocks of the
// data, or, when it transposes, on bands of whole rows of dst (bandRows).
// The walk is written once for every call and element type: it sees
// operands as bytes; only the kernel calls are typed.
type blockWalk struct {
	blockKernel
	nest viewNest
	size [nditer.Operands]int // bytes an element

	m, n      int // the block
	ld, inc   [nditer.Operands]int
	direct    bool
	streamAll bool // the call's kernel calls on the data stream
	outer     int  // the dims the odometer walks
	idx       [scratchAxes]int
	at        [nditer.Operands]int // the block's first element
	started   bool

	buf                *tileBuffer
	tileRows, tileCols int
	r0, c0             int // the tile's first row and column in the block

	// The call that next set up: rows x cols elements, operand k's
	// element (r, j) at arg[k].at + r*arg[k].ld + j*arg[k].inc of its
	// data, or of its tile when inTile[k] is set.
	rows, cols int
	arg        [nditer.Operands]blockPos
	inTile     [nditer.Operands]bool
	stream     bool // the call may stream
	scatterAt  int  // where dst's tile goes back to, when inTile[0]
}

// blockPos is where a block lies in an operand's data: the index of its
// first element, its leading and its inner stride.
type blockPos struct{ at, ld, inc int }

// viewTileBytes is the size of a tile where the walk gathers one operand
// into a tile, and half of it where it gathers more: the tiles of dst and
// two inputs stay within L1. Measured for a + b.T, 1024x1024 float32 (Zen
// 4, ns per element, contiguous Add 0.15): tiles of 4 KiB 0.39, 8 KiB
// 0.29, 16 KiB 0.27; again on a Zen 4 (AMD EPYC family 25 model 17,
// 2026-12-08), 6 interleaved runs of 3, us: 8 KiB 442-594 (medians),
// 16 KiB 364-461, the contiguous Add 163-186.
const viewTileBytes = 16 << 10

// transposeCols is the width of a tile when an input is gathered across
// its rows (a transposed view): the tile's rows (viewTileBytes / 64 / size
// of them) span whole cache lines of it, and the kernel's rows stay long.
// For a + b.T above: 32 columns 0.80 ns per element, 64 0.29, 128 0.34.
const transposeCols = 64

// bandRows is the height of a transposing move's tiles, bands of whole
// rows of dst (rowBytes apart) that the transposition kernel writes
// together while it walks down the input's columns: as many as make a
// cache line of each input row read (16 of float32), but no more than
// setRows(size) in one L1 set, where rows a multiple of l1SetPeriod apart
// all land (a 1024x1024 float32 matrix: 8 rows, 16 on AMD). Measured on
// the Xeon, m x n float32 blocks transposed in bands of 8, 16 and 32 rows
// (us, min-max of 3 runs; a contiguous copy of 1024x1024 160-350):
// 1024x1024 230-260, 500-760, 560-780; 1000x1000 215-260, 210-235,
// 260-370; 4096x256 530-810, 480-720, 400-610; 3136x64 (NCHW to NHWC)
// 30-32, 27-33, 26-35.
func bandRows(rowBytes, size int) int {
	return max(1, min(64/size, setRows(size)*l1SetPeriod/gcd(abs(rowBytes), l1SetPeriod)))
}

// setRows is how many rows of a band of size-byte elements may share an L1
// set. Eight, the ways of the set, except for 4-byte elements on AMD's
// cores, which run sixteen (a whole cache line of each input row) faster
// although the rows of dst then evict each other: 1024x1024 float32
// (CopyView, ns per byte, 4 interleaved runs, a contiguous copy
// 0.053-0.065) in bands of 8 against 16 rows: Zen 3 (AMD EPYC family 25
// model 1) 0.208-0.230 against 0.144-0.237 (medians 0.216, 0.156), NCHW to
// NHWC 64x56x56 0.069-0.083 against 0.066-0.078; Zen 4 (family 25 model
// 17) 472-492 against 403-411 us. Not for 1- and 2-byte elements (Zen 4,
// uint8 and uint16 1024x1024: 0.44-0.94 ms in bands of 8, 1.06-1.34 in
// bands of 16), nor on the Xeon (above).
func setRows(size int) int {
	if size == 4 && amdBands {
		return 16
	}
	return 8
}

// amdBands is whether setRows takes AMD's band height.
var amdBands = cpuinfo.Get().Vendor == cpuinfo.AMD

// l1SetPeriod is the distance at which addresses fall into the same L1
// data cache set: its size over its ways, 4 KiB on the x86 and Arm cores of
// the last decade (48 KiB of 12 ways, 32 KiB of 8).
const l1SetPeriod = 4 << 10

// tileBuffer holds a walk's tiles, one of viewTileBytes per operand, as
// words so that every element type is aligned in them.
type tileBuffer [nditer.Operands * tileWords]uint64

const tileWords = viewTileBytes / 8

// tileBuffers hold the tiles of walks: from a pool rather than the stack,
// since Go would clear 32 KiB of stack at every call.
var tileBuffers = sync.Pool{New: func() any { return new(tileBuffer) }}

// plan plans the call of kernel k on the operands (dst, then the inputs)
// and sets up the walk; on an error there is nothing to run. The walk
// keeps no reference to the operands (their data might then escape to the
// heap): next and blockOf take them again.
func (w *blockWalk) plan(k blockKernel, ops ...viewOperand) error {
	w.blockKernel = k
	if err := w.nest.plan(ops); err != nil || w.nest.empty {
		return err
	}
	for i := range ops {
		w.size[i] = ops[i].size
	}
	w.start()
	return nil
}

// start takes the block from the simplified nest and decides how it runs.
func (w *blockWalk) start() {
	nest := &w.nest
	r := nest.rank
	w.m, w.n = 1, nest.size[r-1]
	outer := r - 1
	for k := range nest.ops {
		w.inc[k] = nest.stride[k][r-1]
		if r >= 2 {
			w.ld[k] = nest.stride[k][r-2]
		}
	}
	if r >= 2 {
		w.m, outer = nest.size[r-2], r-2
	}
	mask, backward := 0, false
	w.direct = w.inc[0] == 1
	for k := 1; k < nest.ops; k++ {
		w.direct = w.direct && w.inc[k]|1 == 1
		mask |= w.inc[k] << (k - 1)
		backward = backward || w.ld[k] < 0
	}
	w.direct = w.direct && w.kinds>>mask&1 != 0
	if w.direct && w.m > 1 && backward { // the rows run one by one: a kernel's rows go forward
		w.m, w.ld, outer = 1, [nditer.Operands]int{}, r-1
	}
	if !w.direct && w.alongColumns() {
		w.m, w.n, outer = w.n, 1, r-1
		for k := range nest.ops {
			w.ld[k], w.inc[k] = w.inc[k], 1
		}
		w.direct = true
	}
	total, bytes := elements(nest.size[:r]), 0
	for k := range nest.ops {
		bytes += total * w.size[k]
	}
	if w.moves {
		w.streamAll = kernel.ShouldStreamTranspose(bytes)
	} else {
		w.streamAll = w.streams && kernel.ShouldStream(bytes) && kernel.StreamBlock(w.m, w.n, w.ld[0], w.size[0])
	}
	w.outer, w.at = outer, nest.base
	if !w.direct {
		w.tiles()
	}
}

// alongColumns reports whether the block's rows run better as columns of
// one element per row, each block row one kernel call whose rows are its
// elements (the kernel's row strides take any distance), than through
// tiles: when dst's elements lie a cache line or more apart, a tile would
// touch each of dst's lines twice (its gather and its scatter), and
// strides of a power of two put them all in a few cache sets, so the
// line is gone by the scatter. One call per block row must not cost more
// than the row's elements, hence long rows, or a single one. Measured on
// a Zen 3 (AMD EPYC 7B13 class, 32 KiB L1d), a column of 1024 float32
// scaled in place, ns per element: stride 1024 tiles 13.9, columns 8.7,
// the plain Go loop 9.7; stride 1025 tiles 4.1, columns 2.3, loop 2.05.
func (w *blockWalk) alongColumns() bool {
	if w.moves || w.inc[0]*w.size[0] < lineBytes || w.m > 1 && w.n < columnRows {
		return false
	}
	for k := 1; k < w.nest.ops; k++ {
		if w.inc[k] < 0 {
			return false
		}
	}
	return w.kinds>>(1<<(w.nest.ops-1)-1)&1 != 0
}

// lineBytes is the size of a cache line, and columnRows the shortest
// block row of several that alongColumns runs as a call of its own.
const (
	lineBytes  = 64
	columnRows = 16
)

// tiles sizes the tiles of a walk that is not direct, and takes their
// buffer unless the kernel is a move.
func (w *blockWalk) tiles() {
	transposed := false
	for k := 1; k < w.nest.ops; k++ {
		transposed = transposed || !w.usable(k, 2) && abs(w.ld[k]) < abs(w.inc[k]) // read across its rows
	}
	if w.moves { // no buffer: the tiles only order the work
		w.tileRows, w.tileCols = w.m, w.n
		if transposed {
			w.tileRows = min(w.m, bandRows(w.ld[0]*w.size[0], w.size[0]))
		}
		return
	}
	size := 0
	for k := range w.nest.ops {
		size = max(size, w.size[k])
	}
	capacity := viewTileBytes / size
	if w.gathers() > 1 {
		capacity /= 2
	}
	w.tileCols = min(w.n, capacity)
	if transposed {
		w.tileCols = min(w.n, capacity/min(w.m, capacity/transposeCols))
	}
	w.tileRows = min(w.m, capacity/w.tileCols)
	w.buf = tileBuffers.Get().(*tileBuffer)
}

// gathers returns how many operands the walk's calls take from tiles:
// those the kernel cannot take as they are, and one more where the kernel
// has no form for the inputs left in place (setTile gathers inputs until
// it has).
func (w *blockWalk) gathers() int {
	in, mask := w.unusable(2)
	n := 0
	for _, t := range in {
		if t {
			n++
		}
	}
	if w.kinds>>mask&1 == 0 {
		n++
	}
	return n
}

// unusable returns the operands the kernel cannot take as they are for a
// block of rows rows (none for a move, whose kernel takes any layout), and
// the kind mask of the inputs then taken with inner stride 1, from a tile
// or in place.
func (w *blockWalk) unusable(rows int) (in [nditer.Operands]bool, mask int) {
	for k := range w.nest.ops {
		in[k] = !w.moves && !w.usable(k, rows)
		if k > 0 && (in[k] || w.inc[k] == 1) {
			mask |= 1 << (k - 1)
		}
	}
	return in, mask
}

// usable reports whether the kernel can take operand k as it is for a
// block of rows rows: a kernel reads and writes rows forward, with inner
// stride 1 (0 for an input that repeats one value per row).
func (w *blockWalk) usable(k, rows int) bool {
	inner := w.inc[k] == 1 || k > 0 && w.inc[k] == 0
	return inner && (rows == 1 || w.ld[k] >= 0)
}

// next scatters the tile of the previous call, if dst was computed in
// one, and sets up the next call on the operands ops (those of plan); it
// reports false after the last, when the walk has ended (its tiles
// returned, its streaming stores fenced).
func (w *blockWalk) next(ops []viewOperand) bool {
	if w.inTile[0] {
		move(w.size[0], ops[0].data, blockPos{w.scatterAt, w.ld[0], w.inc[0]}, w.tile(0), w.arg[0], w.rows, w.cols, false)
	}
	if w.nest.empty || !w.advance() {
		w.close()
		return false
	}
	if !w.direct {
		w.setTile(ops)
		return true
	}
	w.rows, w.cols, w.stream = w.m, w.n, w.streamAll
	for k := range w.nest.ops {
		w.arg[k] = blockPos{w.at[k], w.ld[k], w.inc[k]}
	}
	return true
}

// advance moves to the next block, or tile of the block.
func (w *blockWalk) advance() bool {
	if !w.started {
		w.started = true
		return true
	}
	if !w.direct {
		if w.c0 += w.tileCols; w.c0 < w.n {
			return true
		}
		w.c0 = 0
		if w.r0 += w.tileRows; w.r0 < w.m {
			return true
		}
		w.r0 = 0
	}
	// An odometer over the walk's own arrays, made for the step: one kept
	// in the walk would point into it, and the walk would escape.
	o := nditer.Odometer{Size: w.nest.size[:w.outer], Idx: w.idx[:w.outer], At: w.at}
	for k := range o.Stride {
		o.Stride[k] = w.nest.stride[k][:w.outer]
	}
	more := o.Next()
	w.at = o.At
	return more
}

// setTile sets up the call on the tile at row r0 and column c0 of the
// block: the operands the kernel takes as they are stay in place, the
// others are gathered into their tiles (dst's is scattered back by the
// next step). When the kernel has no form for the inputs that repeat one
// value per row (the input of a unary op, both inputs of a binary op),
// they are gathered too, a row of their value each.
func (w *blockWalk) setTile(ops []viewOperand) {
	w.rows, w.cols = min(w.tileRows, w.m-w.r0), min(w.tileCols, w.n-w.c0)
	var mask int
	w.inTile, mask = w.unusable(w.rows)
	for k := 1; w.kinds>>mask&1 == 0; k++ {
		if mask>>(k-1)&1 == 0 {
			w.inTile[k] = true
			mask |= 1 << (k - 1)
		}
	}
	for k := range w.nest.ops {
		at := blockPos{w.at[k] + w.r0*w.ld[k] + w.c0*w.inc[k], w.ld[k], w.inc[k]}
		w.arg[k] = at
		if !w.inTile[k] {
			continue
		}
		w.arg[k] = blockPos{0, w.cols, 1}
		if k == 0 {
			w.scatterAt = at.at
			continue
		}
		move(w.size[k], w.tile(k), w.arg[k], ops[k].data, at, w.rows, w.cols, false)
	}
	w.stream = w.streamAll && !w.inTile[0]
}

// tile is operand k's tile of the call next set up.
func (w *blockWalk) tile(k int) []byte {
	return elemtype.Recast[byte](w.buf[k*tileWords : (k+1)*tileWords])[:w.rows*w.cols*w.size[k]]
}

// kind is the kernel kind of the call next set up (inputs the
// kernel takes).
func (w *blockWalk) kind() kernel.Kind {
	mask := 0
	for k := 1; k < w.nest.ops; k++ {
		mask |= w.arg[k].inc << (k - 1)
	}
	kind, _ := kernel.KindFor(w.nest.ops-1, mask)
	return kind
}

// close ends the walk: its tiles go back to their pool, and its streaming
// stores are fenced.
func (w *blockWalk) close() {
	if w.buf != nil {
		tileBuffers.Put(w.buf)
		w.buf = nil
	}
	kernel.FenceAfter(w.streamAll)
}

// blockOf returns operand k of the call next set up, ops being those of
// plan, as a slice of T from the block's first element, and its leading
// stride.
func blockOf[T any](w *blockWalk, ops []viewOperand, k int) ([]T, int) {
	data := ops[k].data
	if w.inTile[k] {
		data = w.tile(k)
	}
	return elemtype.Recast[T](data)[w.arg[k].at:], w.arg[k].ld
}
