package broadcast

import (
	"bytes"
	"math"
	"math/bits"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// The reductions below share ReduceSum's arguments, shape rules, errors
// and canonical order: each output combines its values in index order,
// value i into accumulator i mod 32, then the pairwise tree, so that every
// implementation and CPU gives the same bits.

// ReduceMax sets each element of dst to the greatest of the values of a
// that it reduces, over the given axes, with ReduceSum's shapes and axes.
// It follows Go's max, as elem.MaxOf: +0 is above -0, and an output with a
// NaN among its values is the first of them in index order, exactly as it
// is in a. A reduced axis of size 0 is an error wrapping ErrEmpty (a
// maximum of nothing does not exist), unless dst is empty too.
func ReduceMax[T elem.Number](dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	return reduceFold("max", foldMax, dst, dstShape, a, aShape, axes)
}

// ReduceMin is ReduceMax for the least values: -0 is below +0, a NaN wins
// as in ReduceMax, and a reduced axis of size 0 is an error.
func ReduceMin[T elem.Number](dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	return reduceFold("min", foldMin, dst, dstShape, a, aShape, axes)
}

// ReduceProd sets each element of dst to the product of the values of a
// that it reduces, each product rounded to T, in the canonical order of
// ReduceSum; a NaN result is the first NaN among the values, quiet, or
// the default NaN; a product of nothing is 1. On the integer types the
// products wrap around in T (so any order gives the same bits).
func ReduceProd[T elem.Number](dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	return reduceFold("product", foldProd, dst, dstShape, a, aShape, axes)
}

// reduceFold runs a fold without a transform; what names it in errors.
func reduceFold[T elem.Number](what string, op foldOp, dst []T, dstShape Shape, a []T, aShape Shape, axes []int) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce(what, dst, dstShape, a, aShape, axes, kept[:0], summed[:0])
	if err != nil {
		return err
	}
	if op == foldMax || op == foldMin {
		if err := checkNotEmpty(what, r, aShape, axes); err != nil {
			return err
		}
	}
	runReduce(fold[T]{op: op}, r, dst, a)
	return nil
}

// checkNotEmpty rejects a reduction without an identity whose outputs
// (there are some) reduce no values.
func checkNotEmpty(what string, r reduction, aShape Shape, axes []int) error {
	if r.count == 0 && !r.empty {
		return newError(errs(ErrEmpty), "the %s of a of shape %v over axes %v is over no values: it has none", what, aShape.Clone(), axesList(axes))
	}
	return nil
}

// ReduceMean sets each element of dst to the mean of the values of a that
// it reduces, over the given axes, with ReduceSum's shapes and axes: their
// sum in F, in the canonical order, divided by their count (converted to
// F), rounded once. F is the element type of dst: the same as a's for
// float data (or the other float type), float32 or float64 for integer
// data, whose values are converted to F (as elem.Convert does) before
// they are summed, in a temporary of a's length. The mean of nothing (a
// reduced axis of size 0) is the default NaN.
func ReduceMean[T elem.Number, F elem.Float](dst []F, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce("mean", dst, dstShape, a, aShape, axes, kept[:0], summed[:0])
	if err != nil {
		return err
	}
	meanOf(r, dst, asFloat[F](a))
	return nil
}

// meanOf sets dst to the means of the reduction r of a: runs of 2-4
// values divided in the split-fold kernels, while the sums are in
// registers, the others by a pass of their own. Zen 5 (AMD EPYC family 26
// model 2), float32 (1048576, 3) over axis 1: 515-674 -> 385-441 us (see
// docs/reductions.md).
func meanOf[F elem.Float](r reduction, dst, a []F) {
	if !r.empty && splitsRows(r, fold[F]{}) {
		splitFoldRows(fold[F]{}, kernel.SplitFoldMean, dst, a, r.kept, r.count, r.origin)
		return
	}
	runReduce(fold[F]{}, r, dst, a)
	divideBy(dst, r.count)
}

// divideBy divides the sums in dst by n >= 0, with the default NaN for
// 0/0 and NaN sums kept (the hardware's 0/0 differs between CPUs).
func divideBy[F elem.Float](dst []F, n int) {
	if n > 0 {
		elem.DivScalar(dst, dst, F(n))
		return
	}
	for i, s := range dst {
		switch {
		case s > 0:
			dst[i] = F(math.Inf(1))
		case s == 0:
			dst[i] = kernel.DefaultNaN[F]()
		}
	}
}

// asFloat returns a as []F: itself when it is one, else converted into a
// new slice.
func asFloat[F elem.Float, T elem.Number](a []T) []F {
	if x, ok := any(a).([]F); ok {
		return x
	}
	x := make([]F, len(a))
	elem.Convert(x, a)
	return x
}

// ReduceVar sets each element of dst to the population variance of the
// values of a that it reduces (NumPy's var with ddof=0), with ReduceMean's
// types and shapes: two passes, the mean m first (as ReduceMean), then
// the sum of the squared deviations (x - m)*(x - m), each rounded to F, in
// the canonical order, divided by the count. It allocates the means.
func ReduceVar[T elem.Number, F elem.Float](dst []F, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	return reduceVar("variance", dst, dstShape, a, aShape, 0, axes, false)
}

// ReduceVarDdof is ReduceVar divided by count - ddof rather than count
// (NumPy's ddof; 1 gives the unbiased sample variance). A divisor of 0 or
// less gives +Inf, or the default NaN for a sum of 0, as NumPy does.
func ReduceVarDdof[T elem.Number, F elem.Float](dst []F, dstShape Shape, a []T, aShape Shape, ddof int, axes ...int) error {
	return reduceVar("variance", dst, dstShape, a, aShape, ddof, axes, false)
}

// ReduceStd is the square root of ReduceVar, correctly rounded: the
// population standard deviation.
func ReduceStd[T elem.Number, F elem.Float](dst []F, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	return reduceVar("standard deviation", dst, dstShape, a, aShape, 0, axes, true)
}

// ReduceStdDdof is the square root of ReduceVarDdof.
func ReduceStdDdof[T elem.Number, F elem.Float](dst []F, dstShape Shape, a []T, aShape Shape, ddof int, axes ...int) error {
	return reduceVar("standard deviation", dst, dstShape, a, aShape, ddof, axes, true)
}

func reduceVar[T elem.Number, F elem.Float](what string, dst []F, dstShape Shape, a []T, aShape Shape, ddof int, axes []int, std bool) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce(what, dst, dstShape, a, aShape, axes, kept[:0], summed[:0])
	if err != nil || r.empty {
		return err
	}
	varianceOf(r, dst, asFloat[F](a), ddof, std)
	return nil
}

// varianceOf sets dst to the variances (or standard deviations) of the
// reduction r of a.
func varianceOf[F elem.Float](r reduction, dst, a []F, ddof int, std bool) {
	if r.longRuns() {
		varianceRows(dst, a, r.kept, r.count, r.origin, ddof, std)
		return
	}
	if !r.empty && splitsRows(r, fold[F]{}) { // rows of 2-4 contiguous values: one pass
		d := r.count - ddof
		if d >= 1 && d <= 255 { // SplitFoldVarOp's divisors; a large negative ddof takes the passes
			splitFoldRows(fold[F]{}, kernel.SplitFoldVarOp(d, std), dst, a, r.kept, r.count, r.origin)
			return
		}
		splitFoldRows(fold[F]{}, kernel.SplitFoldSqDev, dst, a, r.kept, r.count, r.origin)
		divideBy(dst, max(d, 0))
		if std {
			elem.Sqrt(dst, dst)
		}
		return
	}
	room := newChunkRoom[F](chunkValues)
	defer room.free()
	tr := new(transform[F]) // one for every chunk, as in softmax
	inChunks(r, func(sub reduction, lo, hi int) {
		d, mean := dst[lo:hi], room.get(0, hi-lo)
		meanOf(sub, mean, a)
		tr.shift = mean
		runReduce(fold[F]{each: tr}, sub, d, a)
		divideBy(d, max(r.count-ddof, 0))
		if std {
			elem.Sqrt(d, d)
		}
	})
}

// varianceRows is varianceOf for outputs whose values are one contiguous
// run of n each: each run's sum (the canonical order and tree of ReduceSum,
// divided by n as meanOf divides), then its squared deviations from that
// mean by SqDev while the run is in cache, the same bits as the passes of
// varianceOf. (1024, 1024) float32 along its rows on a Zen 4: 136-140 us,
// against 274-312 us by chunks of 8 rows with two reduction plans each
// (the Sum of the same values 46-58 us).
//
// The runs are pipelined: run o's sum, then run o-1's squared
// deviations, then the tree of run o-2's, then run o's mean, so that no
// tree reads accumulators the kernel stored just before it. A scalar load
// of a lane the kernel has just stored with a whole vector waits for the
// store (it does not forward): on a Zen 4 (AMD EPYC family 25 model 17)
// kernel.Sum of 1024 float32 then sumTree took 50 ns against 41 for the
// Sum and 6 for the tree apart.
func varianceRows[F elem.Float](dst, a []F, kept []group, n, origin, ddof int, std bool) {
	var f fold[F]
	start := f.startLanes()
	var sums, devs [2][kernel.Lanes]F
	var runs [2][]F // runs o-1 and o-2, by o's parity
	var means [2]F
	finish := func(o int) { // run o's variance from its squared deviations
		x, d := runs[o&1], dst[o:][:1]
		d[0] = f.resultOf(&devs[o&1], x)
		if n > ddof {
			d[0] /= F(n - ddof) // DivScalar's bits: one correctly rounded division
		} else {
			divideBy(d, 0)
		}
		if std {
			d[0] = F(math.Sqrt(float64(d[0]))) // float32's root correctly rounded through float64
		}
	}
	o := 0
	offsets(kept, origin, func(base int) {
		x := a[base:][:n]
		sums[o&1] = start
		kernel.Sum(sums[o&1][:], x)
		if o >= 1 {
			p := (o - 1) & 1
			devs[p] = start
			kernel.SqDev(devs[p][:], runs[p], means[p])
		}
		if o >= 2 {
			finish(o - 2)
		}
		runs[o&1], means[o&1] = x, f.resultOf(&sums[o&1], x)/F(n) // n > 0: DivScalar's bits
		o++
	})
	if o >= 1 {
		p := (o - 1) & 1
		devs[p] = start
		kernel.SqDev(devs[p][:], runs[p], means[p])
	}
	for k := max(o-2, 0); k < o; k++ {
		finish(k)
	}
}

// chunkRoom holds the rows of a chunk of outputs (of inChunks): pooled
// room for rows of n values, and rows of more allocated.
type chunkRoom[T elem.Number] struct {
	buf *[columnTile * kernel.Lanes]float64
	n   int
}

// chunkRoom returns room for rows of n values.
func newChunkRoom[T elem.Number](n int) chunkRoom[T] {
	return chunkRoom[T]{buf: scratch.Get().(*[columnTile * kernel.Lanes]float64), n: n}
}

// get returns row i, of m values.
func (c chunkRoom[T]) get(i, m int) []T {
	size := int(unsafe.Sizeof(T(0)))
	if m > c.n || (i+1)*c.n*size > len(c.buf)*8 {
		return make([]T, m)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(c.buf)), (i+1)*c.n)[i*c.n:][:m]
}

// free returns the room to the pool.
func (c chunkRoom[T]) free() { scratch.Put(c.buf) }

// ReduceArgMax sets each element of dst to the index along axis of the
// greatest of the values of a that it reduces, as elem.ArgMax: the first
// index of the greatest value (+0 above -0), or the first index of a NaN
// if there is one. dstShape is aShape with the axis removed or kept as 1.
// An axis of size 0 is an error wrapping ErrEmpty, unless dst is empty.
func ReduceArgMax[T elem.Number](dst []int, dstShape Shape, a []T, aShape Shape, axis int) error {
	return reduceArg("argmax", true, dst, dstShape, a, aShape, axis)
}

// ReduceArgMin is ReduceArgMax for the least value (-0 below +0).
func ReduceArgMin[T elem.Number](dst []int, dstShape Shape, a []T, aShape Shape, axis int) error {
	return reduceArg("argmin", false, dst, dstShape, a, aShape, axis)
}

func reduceArg[T elem.Number](what string, greatest bool, dst []int, dstShape Shape, a []T, aShape Shape, axis int) error {
	var kept, summed [nestRoom]group
	axes := [1]int{axis}
	r, err := checkReduce(what, dst, dstShape, a, aShape, axes[:], kept[:0], summed[:0])
	if err != nil || r.empty {
		return err
	}
	if err := checkNotEmpty(what, r, aShape, axes[:]); err != nil {
		return err
	}
	if len(r.summed) == 0 { // an axis of size 1
		clear(dst)
		return nil
	}
	along := r.summed[0]
	if r.innerSummed && len(r.kept) == 1 && along.size <= 4 && along.stride == 1 && r.kept[0].stride == along.size && kernel.SplitArgRuns[T](along.size) {
		kernel.SplitArg(dst, a[:len(dst)*along.size], along.size, greatest) // rows of 2-4 contiguous floats: one pass
		return nil
	}
	if r.innerSummed {
		if len(r.kept) == 1 && along.size <= kernel.Lanes && kernel.IsFloat[T]() {
			argRows(dst, a, r.kept[0], along.size, greatest)
			return nil
		}
		if len(r.kept) == 1 && along.size <= smallArg { // rows of a few values: no call per row
			k := r.kept[0]
			for o := range dst {
				dst[o] = argSmall(a[o*k.stride:][:along.size], greatest)
			}
			return nil
		}
		o := 0
		offsets(r.kept, 0, func(base int) {
			dst[o] = argOf(a[base:][:along.size], greatest)
			o++
		})
		return nil
	}
	inner, outer := r.kept[len(r.kept)-1], r.kept[:len(r.kept)-1]
	var best [columnTile]T
	var match [columnTile]bool
	o := 0
	offsets(outer, 0, func(base int) {
		for c0 := 0; c0 < inner.size; c0 += columnTile {
			w := min(columnTile, inner.size-c0)
			x := a[base+c0:]
			if !argColumnsDirect(dst[o+c0:][:w], x, along, greatest) && !argColumnsFused(dst[o+c0:][:w], x, along, greatest) {
				argColumns(dst[o+c0:][:w], best[:w], true, match[:w], x, along, greatest)
			}
		}
		o += inner.size
	})
	return nil
}

// argRows sets dst to the arg of each of the rows of n <= Lanes values
// that start at a[o*rows.stride]: blocks of rows split into their columns
// by the transposition kernel, then argColumns over the columns.
func argRows[T elem.Number](dst []int, a []T, rows group, n int, greatest bool) {
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	columns := unsafe.Slice((*T)(unsafe.Pointer(buf)), n*columnTile)
	var best [columnTile]T
	var match [columnTile]bool
	for o := 0; o < rows.size; o += columnTile {
		w := min(columnTile, rows.size-o)
		kernel.Transpose[T](unsafe.Pointer(&columns[0]), w, unsafe.Pointer(&a[o*rows.stride]), rows.stride, w, n)
		argColumns(dst[o:][:w], best[:w], n <= fewArg, match[:w], columns, group{size: n, stride: w}, greatest)
	}
}

// argColumns sets idx to the arg of each of the columns of the lines rows
// (line i of column c at x[i*along.stride+c]). Integer columns take the
// plain loop. Float columns take their extremes first, as vertical
// kernels, then look for them row by row: a vertical comparison with the
// extremes marks the few candidates of a row, and the first candidate of
// a column with the extreme's bits is its index. A column whose extreme
// is a NaN (which equals nothing) takes the exact loop.
func argColumns[T elem.Number](idx []int, best []T, few bool, match []bool, x []T, along group, greatest bool) {
	w := len(idx)
	row := func(i int) []T { return x[i*along.stride:][:w] }
	if !kernel.IsFloat[T]() {
		copy(best, row(0))
		clear(idx)
		for i := 1; i < along.size; i++ {
			improve(best, idx, row(i), i, greatest)
		}
		return
	}
	if along.size == 1 {
		copy(best, row(0))
	}
	for i := 1; i < along.size; i++ {
		from := best
		if i == 1 {
			from = row(0)
		}
		if greatest { // direct calls: through a func value, best would escape
			kernel.Max(kernel.VV, 1, w, best, w, from, w, row(i), w, false)
		} else {
			kernel.Min(kernel.VV, 1, w, best, w, from, w, row(i), w, false)
		}
	}
	exact := func(c int) { idx[c] = exactArg(x, along, c, greatest) }
	if along.size <= fewArg && few && bits.UintSize == 64 {
		// Every row has candidates: mark them all, last row first, so
		// that the first match stays, selected into idx as the int64s
		// they are; a zero extreme (which equals the other zero) and a
		// NaN one (which equals nothing) take the exact loop.
		pos := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(idx))), w)
		at, none := [1]int64{}, [1]int64{-1}
		for i := along.size - 1; i >= 0; i-- {
			eqFloats(match, row(i), best)
			at[0] = int64(i)
			if i == along.size-1 {
				kernel.Select(kernel.VSS, 1, w, pos, 0, match, 0, at[:], 0, none[:], 0, false)
			} else {
				kernel.Select(kernel.VSV, 1, w, pos, 0, match, 0, at[:], 0, pos, 0, false)
			}
		}
		zeroFloats(match, best)
		m := kernel.BoolBytes(match)
		for c := bytes.IndexByte(m, 1); c >= 0; c = nextTrue(m, c) {
			exact(c)
		}
	} else {
		for c := range idx {
			idx[c] = -1
		}
		left := w
		for i := 0; i < along.size && left > 0; i++ {
			r := row(i)
			eqFloats(match, r, best)
			m := kernel.BoolBytes(match)
			for c := bytes.IndexByte(m, 1); c >= 0; c = nextTrue(m, c) {
				if idx[c] < 0 && (r[c] != 0 || math.Signbit(float64(r[c])) == math.Signbit(float64(best[c]))) {
					idx[c] = i
					left--
				}
			}
		}
	}
	for c := kernel.FindNaN(best); c < w; c += 1 + kernel.FindNaN(best[c+1:]) {
		exact(c)
	}
}

// fewArg is the number of lines up to which argColumns marks every
// candidate rather than looking for the few there are.
const fewArg = 8

// zeroFloats sets match[c] to whether x[c] is ±0, for float T.
func zeroFloats[T elem.Number](match []bool, x []T) {
	n := len(match)
	if unsafe.Sizeof(T(0)) == 4 {
		kernel.Eq(kernel.VS, 1, n, match, 0, kernel.FloatsOf[float32](x), 0, []float32{0}, 0, false)
		return
	}
	kernel.Eq(kernel.VS, 1, n, match, 0, kernel.FloatsOf[float64](x), 0, []float64{0}, 0, false)
}

// nextTrue returns the index of the next 1 in m after c, or -1.
func nextTrue(m []byte, c int) int {
	if j := bytes.IndexByte(m[c+1:], 1); j >= 0 {
		return c + 1 + j
	}
	return -1
}

// eqFloats sets match[c] to x[c] == y[c], for float T.
func eqFloats[T elem.Number](match []bool, x, y []T) {
	n := len(match)
	if unsafe.Sizeof(T(0)) == 4 {
		kernel.Eq(kernel.VV, 1, n, match, n, kernel.FloatsOf[float32](x), n, kernel.FloatsOf[float32](y), n, false)
		return
	}
	kernel.Eq(kernel.VV, 1, n, match, n, kernel.FloatsOf[float64](x), n, kernel.FloatsOf[float64](y), n, false)
}

// smallArg is the run length up to which argOf runs its own loop rather
// than elem's calls, whose set-up costs more than such a run.
const smallArg = 32

// argOf is elem.ArgMax(run), or elem.ArgMin(run) when greatest is false.
func argOf[T elem.Number](run []T, greatest bool) int {
	if len(run) > smallArg {
		if greatest {
			return elem.ArgMax(run)
		}
		return elem.ArgMin(run)
	}
	return argSmall(run, greatest)
}

// argSmall is argOf's loop: plain comparisons, with beats' cases (a NaN,
// zeros of both signs) only where a plain comparison does not decide.
func argSmall[T elem.Number](run []T, greatest bool) int {
	at, b := 0, run[0]
	for i := 1; i < len(run); i++ {
		x := run[i]
		if greatest && x > b || !greatest && x < b {
			at, b = i, x
		} else if (x != x || x == 0) && beats(x, b, greatest) {
			at, b = i, x
		}
	}
	return at
}

// improve takes row i into the running best values and their indexes.
func improve[T elem.Number](best []T, idx []int, row []T, i int, greatest bool) {
	best, idx = best[:len(row)], idx[:len(row)]
	for c, x := range row {
		if beats(x, best[c], greatest) {
			best[c], idx[c] = x, i
		}
	}
}

// beats reports whether x, coming after b, takes its place: it is greater
// (or less), a NaN after a number, or +0 after -0 (-0 after +0).
func beats[T elem.Number](x, b T, greatest bool) bool {
	if greatest && x > b || !greatest && x < b {
		return true
	}
	if b != b {
		return false
	}
	if x != x {
		return true
	}
	if x == 0 && b == 0 {
		return math.Signbit(float64(b)) == greatest && math.Signbit(float64(x)) != greatest
	}
	return false
}
