package broadcast

import (
	"math"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// The softmax family is defined, for the values x of one output (along
// the axis, or over the axes of LogSumExp), by
//
//	m = max(x)  (ReduceMax)
//	S = the sum of exp(x - m), in the canonical order of ReduceSum
//	LogSumExp = m + log(S)
//	Softmax(x)_i = exp(x_i - m) / S
//	LogSoftmax(x)_i = (x_i - m) - log(S)
//
// each operation rounded to T, exp and log those of elem (within 1 ulp,
// the same bits on every CPU). Subtracting the maximum keeps exp from
// overflowing; S is then at least 1. Where m is not finite the formulas
// give 0/0 and Inf - Inf, so the results are set instead: a NaN among
// the values makes every result that NaN, quiet (the first in index
// order); otherwise (m = +Inf, or every value -Inf) Softmax and
// LogSoftmax are the default NaN, as NumPy's and PyTorch's are NaN, and
// LogSumExp is m.

// LogSumExp sets each element of dst to log(sum(exp(x))) of the values x of
// a that it reduces, over the given axes, computed as m + log(S) above,
// with ReduceSum's shapes, axes and errors. The log-sum-exp of nothing is
// -Inf. It allocates the maxima.
func LogSumExp[T elem.Float](dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce("log-sum-exp", dst, dstShape, a, aShape, axes, kept[:0], summed[:0])
	if err != nil || r.empty {
		return err
	}
	logSumExpOf(r, dst, a)
	return nil
}

// logSumExpOf sets dst to the log-sum-exps of the reduction r of a.
func logSumExpOf[T elem.Float](r reduction, dst, a []T) {
	if r.count == 0 {
		for i := range dst {
			dst[i] = T(math.Inf(-1))
		}
		return
	}
	room := newChunkRoom[T](chunkValues)
	defer room.free()
	tr := &transform[T]{exp: true} // one for every chunk: a new one each would be an allocation each
	inChunks(r, func(sub reduction, lo, hi int) {
		d, m := dst[lo:hi], room.get(0, hi-lo)
		sumExp(sub, d, m, a, tr)
		elem.Log(d, d)
		elem.Add(d, d, m)
		// S, so d, is a NaN exactly where m is not finite (see softmax).
		for i := kernel.FindNaN(d); i < len(d); i += 1 + kernel.FindNaN(d[i+1:]) {
			d[i] = kernel.Quiet(m[i])
		}
	})
}

// sumExp sets m to the maxima of the reduction r of a and s to the sums
// S of exp(x - m), by tr (an exp transform).
func sumExp[T elem.Float](r reduction, s, m, a []T, tr *transform[T]) {
	runReduce(fold[T]{op: foldMax}, r, m, a)
	tr.shift = m
	runReduce(fold[T]{each: tr}, r, s, a)
}

// Softmax sets dst to the softmax of a (of the given shape) along axis:
// each value's exp(x - m) divided by S over the values that share its
// other indexes (see above), numerically safe for any finite values. dst
// has a's shape and may be a itself, but no other slice that shares
// memory with it. A negative axis counts from the end. Rows of 64 values
// or more along the innermost axis run one at a time while in cache, with
// no allocation; other layouts take the maxima and sums first (allocating
// them), then one pass of kernels over whole rows.
func Softmax[T elem.Float](dst, a []T, shape Shape, axis int) error {
	return softmax("softmax", dst, a, shape, axis, false)
}

// LogSoftmax sets dst to the logarithm of the softmax of a along axis,
// computed as (x - m) - log(S), with Softmax's arguments.
func LogSoftmax[T elem.Float](dst, a []T, shape Shape, axis int) error {
	return softmax("log-softmax", dst, a, shape, axis, true)
}

func softmax[T elem.Float](what string, dst, a []T, shape Shape, axis int, log bool) error {
	ax, along, inner, err := checkAlong(what, dst, a, shape, axis)
	if err != nil || len(a) == 0 {
		return err
	}
	if inner == 1 && along >= cachedRows && softmaxRows(dst, a, along, log) {
		return nil
	}
	reduced := shape.Clone()
	reduced[ax] = 1
	var kept, summed [nestRoom]group
	r, err := planReduce(what, reduced, shape, nil, []int{ax}, kept[:0], summed[:0])
	if err != nil {
		return err
	}
	room := newChunkRoom[T](chunkValues)
	defer room.free()
	tr := &transform[T]{exp: true}
	inChunks(r, func(sub reduction, lo, hi int) {
		m, s := room.get(0, hi-lo), room.get(1, hi-lo)
		c := chunkValuesOf[T]{along: along, inner: inner, lo: lo, hi: hi}
		if inner == 1 && along < cachedRows {
			c.rep = room.get(2, (hi-lo)*along)
		}
		if log { // (x - m) - log S
			sumExp(sub, s, m, a, tr)
			elem.Log(s, s)
			c.apply(kernel.Sub[T], dst, a, m)
			c.apply(kernel.Sub[T], dst, dst, s)
		} else { // exp(x - m) / S, each exp once: S sums them in dst
			runReduce(fold[T]{op: foldMax}, sub, m, a)
			c.apply(kernel.ExpSub[T], dst, a, m)
			runReduce(fold[T]{}, sub, s, dst)
			c.apply(kernel.Div[T], dst, dst, s)
		}
		// S is a NaN exactly where m is not finite: exp(x - m) is NaN
		// for some x then, and S >= 1 otherwise.
		for i := kernel.FindNaN(s); i < len(s); i += 1 + kernel.FindNaN(s[i+1:]) {
			o, col := (lo+i)/inner, (lo+i)%inner
			for j := range along {
				dst[(o*along+j)*inner+col] = nanResult(m[i])
			}
		}
	})
	return nil
}

// chunkValuesOf is the values of outputs lo to hi of a softmax along an
// axis of along values, over inner values after it: rows of along values
// when inner is 1, else columns of blocks of along rows of inner columns.
type chunkValuesOf[T elem.Float] struct {
	along, inner, lo, hi int
	rep                  []T // room for the values of the chunk, where rows are short
}

// apply sets each value of the chunk in dst to op(x, v) with v the
// value of its output in v (v[0] is output lo's): over whole rows with v
// repeated along them (by the transposition kernel) when rows are short,
// with v as the kernels' scalar operand, row by row, when they are long,
// and with v as a vector over each block's columns.
func (c chunkValuesOf[T]) apply(op func(k kernel.Kind, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int, stream bool), dst, x, v []T) {
	n := c.hi - c.lo
	if c.inner == 1 {
		d, x := dst[c.lo*c.along:c.hi*c.along], x[c.lo*c.along:c.hi*c.along]
		if c.along >= cachedRows {
			op(kernel.VS, n, c.along, d, c.along, x, c.along, v, 1, false)
			return
		}
		rep := c.rep[:len(x)]
		kernel.Transpose[T](unsafe.Pointer(&rep[0]), c.along, unsafe.Pointer(&v[0]), 0, c.along, n)
		op(kernel.VV, 1, len(x), d, 0, x, 0, rep, 0, false)
		return
	}
	c.blocks(func(at, w, i int) {
		op(kernel.VV, c.along, w, dst[at:], c.inner, x[at:], c.inner, v[i:][:w], 0, false)
	})
}

// blocks calls f for each block the chunk's outputs (inner > 1) take
// columns of: the offset of its first value in the chunk, the number of
// columns, and the index of its first output from lo.
func (c chunkValuesOf[T]) blocks(f func(at, w, i int)) {
	for o := c.lo / c.inner; o*c.inner < c.hi; o++ {
		c0, c1 := max(c.lo-o*c.inner, 0), min(c.hi-o*c.inner, c.inner)
		f(o*c.along*c.inner+c0, c1-c0, o*c.inner+c0-c.lo)
	}
}

// cachedRows is the row length from which Softmax along the innermost
// axis runs row by row (exp once, the row in cache); shorter rows take the
// passes of the other axes, a few kernel calls over all rows at once.
const cachedRows = 64

// softmaxRows is Softmax (LogSoftmax, for log) along the innermost axis,
// rows of n values, in blocks of rows that stay in the L1d: each row's
// maximum, then x - m and exp(x - m) of the whole block (a kernel call
// each, m one value per row), each row's sum in the canonical order, and
// the division (the subtraction of log S) of the block. x - m and
// exp(x - m) go to scratch rows, so that the last pass is the only one
// that writes dst, with streaming stores where the call is that large:
// dst's lines are then never read. The bits are those of the row by row
// passes: every step is elementwise but the sums, which stay per row. On
// the Zen 5 (AMD EPYC family 26 model 2), float32 Softmax, test binaries
// run interleaved: see docs/reductions.md. It reports false, having done
// nothing, where the scratch buffer does not hold a row of each of the
// blocks LogSoftmax needs; Softmax then runs in dst, a row at a time, as
// it does wherever softmaxInDst says so.
func softmaxRows[T elem.Float](dst, a []T, n int, log bool) bool {
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	size := int(unsafe.Sizeof(T(0)))
	room := unsafe.Slice((*T)(unsafe.Pointer(buf)), len(buf)*8/size)
	lines := func(k int) int { return (k*size + 63) / 64 * 64 / size } // k values in whole cache lines
	parts := 1                                                         // blocks of scratch rows: exp(x - m), and x - m for LogSoftmax
	if log {
		parts = 2
	}
	rows := len(a) / n
	block := max(1, min(rows, softmaxBlockBytes/(parts*n*size)))
	// fits: the blocks take scratch rows (Softmax may run in dst instead)
	fits := 2*lines(block)+parts*lines(block*n) <= len(room) && (log || !softmaxInDst(len(a)*size))
	if !fits {
		if log {
			return false
		}
		block = 1
	}
	m, s := room[:block], room[lines(block):][:block] // per row: the maximum, the sum (its log)
	var diff, work []T
	if fits {
		work = room[2*lines(block):][:block*n]
		if log {
			diff = room[2*lines(block)+lines(block*n):][:block*n]
		}
	}
	stream := work != nil && kernel.ShouldStream(2*len(a)*size)
	for r0 := 0; r0 < rows; r0 += block {
		b := min(block, rows-r0)
		d, x := dst[r0*n:][:b*n], a[r0*n:][:b*n]
		bad := false
		for r := range b {
			m[r] = elem.MaxOf(x[r*n:][:n])
			bad = bad || m[r]-m[r] != 0
		}
		e := d
		if work != nil {
			e = work[:b*n]
		}
		if log { // (x - m) - log S
			t := diff[:b*n]
			kernel.Sub(kernel.VS, b, n, t, n, x, n, m, 1, false)
			kernel.Exp(kernel.V, 1, b*n, e, b*n, t, b*n, false)
			rowSumsOf(s[:b], e, n)
			elem.Log(s[:b], s[:b])
			kernel.Sub(kernel.VS, b, n, d, n, t, n, s, 1, stream)
		} else { // exp(x - m) / S
			kernel.ExpSub(kernel.VS, b, n, e, n, x, n, m, 1, false)
			rowSumsOf(s[:b], e, n)
			kernel.Div(kernel.VS, b, n, d, n, e, n, s, 1, stream)
		}
		if bad { // rows whose maximum is not finite, after the streaming stores
			kernel.FenceAfter(stream)
			for r := range b {
				if m[r]-m[r] != 0 {
					nan := nanResult(m[r])
					for i := range n {
						d[r*n+i] = nan
					}
				}
			}
		}
	}
	kernel.FenceAfter(stream)
	return true
}

// softmaxInDst reports whether Softmax over bytes of values runs in dst a
// row at a time, exp(x - m) written there and divided in place, rather
// than in blocks of scratch rows: where the L2 is 2 MiB or more and the
// output is not large enough for streaming stores. On the Xeon model 167
// (48 KiB L1d, 2 MiB L2) float32 Softmax of (1024, 1024) over axis 1 took
// 498-551 us in dst against 647-700 with blocks of six scratch rows and
// 593-614 with one (elem.Exp 332-385), (32, 1000) 14.2-15.9 against
// 14.7-18.0; the Zen 5 (1 MiB L2), on which the blocks were measured,
// keeps them.
func softmaxInDst(bytes int) bool {
	return l2 >= 2<<20 && !kernel.ShouldStream(2*bytes)
}

// softmaxBlockBytes is the most bytes of scratch rows a block of
// softmaxRows takes: half the L1d, where its three passes find them.
var softmaxBlockBytes = max(l1d, 16<<10) / 2

// rowSumsOf sets s[r] to the sum of row r of e, rows of n values:
// elem.Sum's, by longRowSums, whose trees run one row behind the kernel.
func rowSumsOf[T elem.Float](s, e []T, n int) {
	rows := [1]group{{size: len(s), stride: n}}
	longRowSums(fold[T]{}, s, e, rows[:], n, 0)
}

// nanResult is every Softmax and LogSoftmax result of values whose
// maximum m is not finite: m quiet if it is a NaN, else the default NaN.
func nanResult[T elem.Float](m T) T {
	if m != m {
		return kernel.Quiet(m)
	}
	return kernel.DefaultNaN[T]()
}
