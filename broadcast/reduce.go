package broadcast

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/kernel"
)

// ReduceSum sums a, of shape aShape, over the given axes into dst, with
// NumPy's semantics: dstShape is aShape with each reduced axis either kept
// with size 1 (keepdims=True) or removed (keepdims=False), and no axes at
// all means every axis (NumPy's axis=None). Negative axes count from the
// end (-1 is the last).
//
// Each element of dst is exactly elem.Sum of the values that it sums,
// taken in index order (row-major over the reduced axes): the canonical
// order, its canonical NaN, and +0 for a sum of nothing (a reduced axis of
// size 0). Sums of at most 32 values each (rows of xyz points, a short
// middle axis) run the canonical tree for a block of outputs at once, as
// vertical adds of rows that hold one value of every output in the block
// (gathered, or the rows of a when its innermost axis is kept and long).
// Longer sums over the innermost axes run the sum kernels on each
// contiguous run; over outer axes (column sums), as vertical adds of
// whole rows into 32 accumulator rows, row i into accumulator row i mod
// 32, then the canonical tree over the rows: no transposes, and the same
// bits. On the integer types the sums wrap around in T, as elem.Sum's do.
//
// Bad input (an invalid shape, a data length that does not match its
// shape, an axis out of range or given twice, a dst shape that is not the
// reduced shape, dst sharing memory with a) is an error wrapping the
// package's sentinels, and nothing is written.
func ReduceSum[T elem.Number](dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	var kept, summed [nestRoom]group
	r, err := checkReduce("sum", dst, dstShape, a, aShape, axes, kept[:0], summed[:0])
	if err != nil {
		return err
	}
	runReduce(fold[T]{}, r, dst, a)
	return nil
}

// nestRoom is the number of kept and of summed groups a reduction holds
// without an allocation; a nest of more takes one.
const nestRoom = 8

// reduction is a reduction's loop nest after coalescing: the axes of a
// that are kept and those summed over, outermost first, with a's strides.
type reduction struct {
	kept, summed []group
	innerSummed  bool // a's innermost axis (of size above 1) is summed
	count        int  // values per output element
	empty        bool // no output element at all
	origin       int  // the offset in a of its element at index 0
}

// group is one axis of the nest: consecutive axes of a that are all kept
// or all summed, merged (a is contiguous, so they always merge).
type group struct {
	size, stride int
}

// checkReduce checks a reduction's shapes, axes and slices and builds its
// nest, appending its groups to kept and summed; what names the reduction
// in errors.
func checkReduce[T, U any](what string, dst []U, dstShape Shape, a []T, aShape Shape, axes []int, kept, summed []group) (reduction, error) {
	r, err := planReduce(what, dstShape, aShape, nil, axes, kept, summed)
	if err != nil {
		return r, err
	}
	if err := aShape.checkLen("a", len(a)); err != nil {
		return r, err
	}
	if err := dstShape.checkLen("dst", len(dst)); err != nil {
		return r, err
	}
	if sharesMemory(dst, a) {
		return r, newError(errs(ErrOverlap), "dst shares memory with a (shape %v); a reduction needs its own output", aShape.Clone())
	}
	return r, nil
}

// planReduce checks the shapes and axes and builds the nest, appending
// its groups to kept and summed: for contiguous data when strides is nil,
// else for a view's strides (consecutive axes of a kind merge only where
// the outer one's stride is the inner one's extent).
func planReduce(what string, dstShape, aShape Shape, strides, axes []int, kept, summed []group) (reduction, error) {
	if err := aShape.validate("a"); err != nil {
		return reduction{}, err
	}
	if err := dstShape.validate("dst"); err != nil {
		return reduction{}, err
	}
	rank := len(aShape)
	reduced := make([]bool, rank)
	if len(axes) == 0 {
		for i := range reduced {
			reduced[i] = true
		}
	}
	for _, ax := range axes {
		i := ax
		if i < 0 {
			i += rank
		}
		if i < 0 || i >= rank {
			return reduction{}, newError(errs(ErrAxis), "axis %d is out of range for a of shape %v (rank %d)", ax, aShape.Clone(), rank)
		}
		if reduced[i] {
			return reduction{}, newError(errs(ErrAxis), "axis %d is given twice (axes %v, a of shape %v)", ax, axesList(axes), aShape.Clone())
		}
		reduced[i] = true
	}
	if !isReducedShape(dstShape, aShape, reduced) {
		return reduction{}, dstShapeError(what, dstShape, aShape, axes, reduced)
	}
	r := reduction{count: 1}
	stride, last := 1, -1 // last: the axis of the latest group
	for i := rank - 1; i >= 0; i-- {
		d := aShape[i]
		if reduced[i] {
			r.count *= d
		} else if d == 0 {
			r.empty = true
		}
		if d == 1 {
			continue
		}
		if strides != nil {
			stride = strides[i]
		}
		merge := last >= 0 && reduced[last] == reduced[i]
		if reduced[i] {
			summed = nestAxis(summed, d, stride, merge && extends(summed, stride, strides))
		} else {
			kept = nestAxis(kept, d, stride, merge && extends(kept, stride, strides))
		}
		if last < 0 {
			r.innerSummed = reduced[i]
		}
		stride *= d
		last = i
	}
	slices.Reverse(kept)
	slices.Reverse(summed)
	r.kept, r.summed = kept, summed
	return r, nil
}

// extends reports whether an axis of the given stride, just outside the
// last group of gs, continues it: always for contiguous data (strides
// nil), else where the stride is the group's extent.
func extends(gs []group, stride int, strides []int) bool {
	g := gs[len(gs)-1]
	return strides == nil || g.size*g.stride == stride
}

// nestAxis adds an axis of size d to the groups gs: as a group of its
// own, or merged into the last one (the next axis out of a, and of the
// same kind).
func nestAxis(gs []group, d, stride int, merge bool) []group {
	if merge {
		gs[len(gs)-1].size *= d
		return gs
	}
	return append(gs, group{size: d, stride: stride})
}

// isReducedShape reports whether dstShape is aShape with its reduced axes
// either kept as 1 (keepdims) or removed.
func isReducedShape(dstShape, aShape Shape, reduced []bool) bool {
	keeps, squeezes := len(dstShape) == len(aShape), true
	j := 0 // the axis of a squeezed dstShape that aShape's axis i would be
	for i, d := range aShape {
		if reduced[i] {
			keeps = keeps && dstShape[i] == 1
			continue
		}
		keeps = keeps && dstShape[i] == d
		squeezes = squeezes && j < len(dstShape) && dstShape[j] == d
		j++
	}
	return keeps || squeezes && j == len(dstShape)
}

// dstShapeError is the error for a dstShape that is not the reduced
// shape of aShape, naming both shapes it could be.
func dstShapeError(what string, dstShape, aShape Shape, axes []int, reduced []bool) error {
	keep, squeeze := Shape{}, Shape{}
	for i, d := range aShape {
		if reduced[i] {
			keep = append(keep, 1)
			continue
		}
		keep, squeeze = append(keep, d), append(squeeze, d)
	}
	return newError(errs(ErrIncompatible),
		"dst shape %v cannot hold the %s of a of shape %v over axes %v: it must be %v (keepdims) or %v",
		dstShape.Clone(), what, aShape.Clone(), axesList(axes), keep, squeeze)
}

// axesList formats the axes as given, "all" for none. It prints a copy,
// so that axes does not escape: a call with literal axes then allocates
// nothing.
func axesList(axes []int) string {
	if len(axes) == 0 {
		return "(all)"
	}
	return fmt.Sprint(append([]int(nil), axes...))
}

// sharesMemory reports whether two slices share a byte.
func sharesMemory[T, U any](x []T, y []U) bool {
	x0, y0 := uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	xs, ys := unsafe.Sizeof(*new(T)), unsafe.Sizeof(*new(U))
	return len(x) > 0 && len(y) > 0 && x0 < y0+uintptr(len(y))*ys && y0 < x0+uintptr(len(x))*xs
}

// runReduce computes every output element of fold f. Outputs of at most
// Lanes values each run the canonical tree on rows of values: whole rows
// of a when its innermost axis is kept and long, else rows gathered for
// blocks of outputs. Outputs of more values run through the fold's lane
// kernel one by one when the innermost axis is summed, else as vertical
// operations on rows.
func runReduce[T elem.Number](f fold[T], r reduction, dst, a []T) {
	// Runs of an output's values, or rows of values of consecutive
	// outputs, are contiguous: the kernels take them as they are. A view
	// with neither is gathered.
	summedRuns := len(r.summed) > 0 && r.summed[len(r.summed)-1].stride == 1
	keptRows := len(r.kept) > 0 && r.kept[len(r.kept)-1].stride == 1
	switch {
	case r.empty:
	case r.count == 0:
		for i := range dst {
			dst[i] = f.ofNothing()
		}
	case r.count <= kernel.Lanes && !summedRuns && keptRows && r.kept[len(r.kept)-1].size >= shortColumns:
		shortColumnSums(f, dst, a, r.kept, r.summed, r.origin)
	case splitsRows(r, f):
		splitFoldRows(f, kernel.SplitFoldSum, dst, a, r.kept, r.count, r.origin)
	case r.count <= kernel.Lanes:
		shortSums(f, dst, a, r.kept, r.summed, r.origin)
	case summedRuns && len(r.summed) == 1 && r.count > smallArg && f.each == nil &&
		(f.op == foldMax || f.op == foldMin) && kernel.IsFloat[T]() && kernel.OnePassArg[T]():
		extremeRows(f.op == foldMax, dst, a, r.kept, r.count, r.origin)
	case r.longRuns() && (f.each == nil || f.squares()):
		longRowSums(f, dst, a, r.kept, r.count, r.origin)
	case summedRuns:
		rowSums(f, dst, a, r.kept, r.summed, r.origin)
	case keptRows && r.summed[len(r.summed)-1].stride > 0:
		columnSums(f, dst, a, r.kept, r.summed, r.origin)
	default:
		gatherSums(f, dst, a, r.kept, r.summed, r.origin)
	}
}

// extremeRows sets each output, whose values are one contiguous run of n,
// to the run's elem.MaxOf (MinOf): the first NaN, or the greatest (least)
// value with Go's signed zeros, which is the fold's result. Where the
// implementation has one-pass kernels for them, those keep no
// accumulators to combine in Go.
func extremeRows[T elem.Number](greatest bool, dst, a []T, kept []group, n, origin int) {
	o := 0
	offsets(kept, origin, func(base int) {
		run := a[base:][:n]
		if greatest {
			dst[o] = elem.MaxOf(run)
		} else {
			dst[o] = elem.MinOf(run)
		}
		o++
	})
}

// chunkValues is the number of input values a reduction of several passes
// (mean then variance, max then sum of exps) runs at once: the later passes
// find them in cache (32 KiB of float32, 64 KiB of float64).
const chunkValues = 8192

// inChunks calls f with sub-reductions of r that together make r, each
// over about chunkValues input values (at least one output, and tiles of
// columns as wide as columnSums takes them) and computing
// outputs lo to hi of r's, in order: ranges of the outermost kept group
// whose index covers few enough values, for each index of the groups
// above it.
func inChunks(r reduction, f func(sub reduction, lo, hi int)) {
	outputs := 1
	for _, g := range r.kept {
		outputs *= g.size
	}
	if len(r.kept) == 0 || r.count == 0 || outputs*r.count <= chunkValues {
		f(r, 0, outputs)
		return
	}
	k, per := 0, outputs // per: the outputs of one index of groups[:k]
	for ; k < len(r.kept)-1 && per/r.kept[k].size*r.count > chunkValues; k++ {
		per /= r.kept[k].size
	}
	per /= r.kept[k].size // now the outputs of one index of kept[k]
	step := max(1, chunkValues/(per*r.count))
	if g := r.kept[k]; k == len(r.kept)-1 && g.stride == 1 && len(r.summed) > 0 && r.summed[len(r.summed)-1].stride != 1 {
		// Columns summed over rows: the kernels want whole rows of a
		// tile (see columnSums) more than the cache does.
		step = max(step, min(g.size, columnTile))
	}
	var room [nestRoom]group
	sub := r
	sub.kept = append(room[:0], r.kept[k:]...)
	lo := 0
	offsets(r.kept[:k], r.origin, func(base int) {
		g := r.kept[k]
		for i := 0; i < g.size; i += step {
			n := min(step, g.size-i)
			sub.kept[0].size, sub.origin = n, base+i*g.stride
			f(sub, lo, lo+n*per)
			lo += n * per
		}
	})
}

// shortColumns is the row length from which sums of few values over rows
// of a run as adds of those rows rather than of gathered values.
const shortColumns = 32

// offsets calls f with the offset of every index of the nest of gs, in
// row-major order, from start (the offset of index 0).
func offsets(gs []group, start int, f func(off int)) {
	var room [nestRoom]int
	idx := room[:]
	if len(gs) > len(room) {
		idx = make([]int, len(gs))
	}
	idx = idx[:len(gs)]
	off := start
	for {
		f(off)
		i := len(gs) - 1
		for ; i >= 0; i-- {
			idx[i]++
			off += gs[i].stride
			if idx[i] < gs[i].size {
				break
			}
			off -= idx[i] * gs[i].stride
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// valueOffsets sets values to the offsets of the values of an output (at
// most Lanes) from its first, in index order, and returns their count.
func valueOffsets(summed []group, values *[kernel.Lanes]int) int {
	n := 0
	offsets(summed, 0, func(off int) {
		values[n] = off
		n++
	})
	return n
}

// treeSteps calls f for each step of the canonical tree over m <= Lanes
// accumulators that changes something: accumulators m and up hold the
// fold's identity, which leaves every value it meets as it is, so of the
// step that combines acc[j+h] into acc[j] for j < h only the first m-h
// remain.
func treeSteps(m int, f func(h, n int)) {
	for h := kernel.Lanes / 2; h > 0; h /= 2 {
		if m > h {
			f(h, m-h)
			m = h
		}
	}
}

// treeRows computes the results of count <= Lanes values each, given as
// rows: value i of every output is accumulator i, and the canonical tree
// combines them (steps of vertical operations on rows, leaving out the
// accumulators no value reaches). The first step reads the values as it
// combines them: load(row, i, with) sets row to value row i combined with
// value row with, or to row i alone when with is -1; the steps after it
// combine rows of acc, ld apart, and the last one writes results.
func treeRows[T elem.Number](f fold[T], results, acc []T, ld, count int, load func(row []T, i, with int)) {
	n := len(results)
	if count == 1 {
		load(results, 0, -1)
		return
	}
	first := true
	treeSteps(count, func(h, rows int) {
		to, ldTo := acc, ld
		if h == 1 {
			to, ldTo = results, n
		}
		if !first {
			f.rows(rows, n, to, ldTo, acc, ld, acc[h*ld:], ld)
			return
		}
		first = false
		for j := range h {
			with := -1
			if j < rows {
				with = j + h
			}
			load(to[j*ldTo:][:n], j, with)
		}
	})
}

// splitsRows reports whether kernel.SplitFold computes the reduction:
// a float sum, max or min of 2-4 contiguous values per output, whose
// outputs' values follow each other along the innermost kept axis (xyz
// points, RGB pixels), without a transform.
func splitsRows[T elem.Number](r reduction, f fold[T]) bool {
	if !kernel.IsFloat[T]() || f.each != nil || f.op == foldProd || r.count < 2 || r.count > 4 || len(r.kept) == 0 {
		return false
	}
	return len(r.summed) == 1 && r.summed[0].stride == 1 && r.kept[len(r.kept)-1].stride == r.count
}

// splitFoldRows computes outputs of 2-4 contiguous values each, the
// values of consecutive outputs back to back along the innermost kept
// group, with kernel.SplitFold over each run of that group: one pass that
// splits the values into columns in registers and folds them there, where
// shortSums stores the columns and folds them in passes of their own. A
// NaN result then takes its bits from the values, as shortSums gives
// them (the sum's NaN, which the division of a mean keeps, and the
// squared deviations' fold, which takes the first NaN value as it is
// before the transform). op is the sum's kernel.SplitFold op when f is a
// sum: SplitFoldSum, or SplitFoldMean, SplitFoldSqDev and the ops of
// SplitFoldVarOp, which divide by count, square the deviations (and
// divide and take the root) while the values are in registers; f's own
// op otherwise.
func splitFoldRows[T elem.Number](f fold[T], op int, dst, a []T, kept []group, count, origin int) {
	values := [...]int{0, 1, 2, 3}
	switch f.op {
	case foldMax:
		op = kernel.SplitFoldMax
	case foldMin:
		op = kernel.SplitFoldMin
	}
	inner, o := kept[len(kept)-1], 0
	offsets(kept[:len(kept)-1], origin, func(base int) {
		for c := 0; c < inner.size; c += splitFoldChunk {
			out, at := dst[o+c:][:min(splitFoldChunk, inner.size-c)], base+c*count
			kernel.SplitFold(out, a[at:], count, op)
			for i := kernel.FindNaN(out); i < len(out); i += 1 + kernel.FindNaN(out[i+1:]) {
				out[i] = shortNaN(f, a, at+i*count, values[:count])
			}
		}
		o += inner.size
	})
}

// splitFoldChunk is the most outputs splitFoldRows computes before it
// looks for their NaNs, which it so finds in L1.
const splitFoldChunk = 2048

// shortBlock is the number of outputs a short reduction computes at once,
// in rows of that length: enough that the kernel calls of a block cost
// little per output.
const shortBlock = 256

// splitBlock is the most outputs a short reduction of contiguous values
// computes at once: their split columns, the accumulators and a row of
// scratch then fill the scratch buffer at most, and each block's few
// kernel calls cost less per output than at shortBlock.
const splitBlock = 1024

// shortSums computes outputs of at most Lanes values each, a block of
// outputs at a time: treeRows over rows holding value i of every output
// in the block. When an output's values are contiguous (xyz points) the
// rows are the block's columns, split by the narrow transposition kernel;
// otherwise they are gathered value by value. A reduction of few values so
// costs a few operations rather than kernel calls of its own.
func shortSums[T elem.Number](f fold[T], dst, a []T, kept, summed []group, origin int) {
	s := shortBlockSums[T]{f: f, a: a, out: dst}
	s.count = valueOffsets(summed, &s.values)
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	all := unsafe.Slice((*T)(unsafe.Pointer(buf)), len(buf)*8/int(unsafe.Sizeof(T(0))))
	inner, outer := group{size: 1}, kept
	if len(kept) > 0 {
		inner, outer = kept[len(kept)-1], kept[:len(kept)-1]
	}
	s.block = shortBlock
	if len(summed) == 1 && summed[0].stride == 1 {
		s.block = min(splitBlock, len(all)/(2*s.count+1)&^63)
		s.columns = all[(s.count+1)*s.block:][:s.count*s.block]
	}
	s.acc, s.tmp = all[:s.count*s.block], all[s.count*s.block:][:s.block]
	offsets(outer, origin, func(base int) {
		for c := 0; c < inner.size; {
			m := min(inner.size-c, s.block-s.n)
			if s.columns != nil {
				kernel.Transpose[T](unsafe.Pointer(&s.columns[s.n]), s.block, unsafe.Pointer(&a[base+c*inner.stride]), inner.stride, m, s.count)
			} else {
				for j := range m {
					s.bases[s.n+j] = base + (c+j)*inner.stride
				}
			}
			s.n += m
			c += m
			if s.n == s.block {
				s.flush()
			}
		}
	})
	s.flush()
}

// shortBlockSums is a block of the outputs of shortSums.
type shortBlockSums[T elem.Number] struct {
	f           fold[T]
	a, acc, tmp []T
	columns     []T               // value i of output j at i*block+j, when contiguous values are split
	out         []T               // the outputs from the block's first on
	o           int               // the index of the block's first output
	values      [kernel.Lanes]int // each value's offset from its output's first
	count       int               // values per output
	bases       [shortBlock]int   // the offset of each output's first value
	n           int               // outputs in the block
	block       int               // outputs a block holds: shortBlock, or up to splitBlock when split
}

// flush computes the outputs of the block and starts the next one.
func (s *shortBlockSums[T]) flush() {
	n, values := s.n, s.values[:s.count]
	var bases []int // gathered values only: split blocks may hold more outputs
	if s.columns == nil {
		bases = s.bases[:n]
	}
	results := s.out[:n]
	shift := s.f.shifts(s.o, n)
	treeRows(s.f, results, s.acc, s.block, len(values), func(row []T, i, with int) {
		switch {
		case s.columns != nil && with < 0:
			s.f.load(row, s.tmp, s.columns[i*s.block:], nil, shift)
		case s.columns != nil:
			s.f.load(row, s.tmp, s.columns[i*s.block:], s.columns[with*s.block:], shift)
		case with < 0:
			s.f.gather(row, s.tmp, s.a, bases, values[i], 0, false, shift)
		default:
			s.f.gather(row, s.tmp, s.a, bases, values[i], values[with], true, shift)
		}
	})
	for i := kernel.FindNaN(results); i < n; i += 1 + kernel.FindNaN(results[i+1:]) {
		if s.columns != nil {
			results[i] = columnNaN(s.f, s.columns, i, nil, group{size: s.count, stride: s.block})
		} else {
			results[i] = shortNaN(s.f, s.a, bases[i], values)
		}
	}
	s.n, s.out, s.o = 0, s.out[n:], s.o+n
}

// shortColumnSums computes outputs of at most Lanes values each whose
// innermost axis is kept: for each kept outer index and tile of columns,
// treeRows over the rows of a that hold the values.
func shortColumnSums[T elem.Number](f fold[T], dst, a []T, kept, summed []group, origin int) {
	cols, outer := kept[len(kept)-1].size, kept[:len(kept)-1]
	var room [kernel.Lanes]int
	values := room[:valueOffsets(summed, &room)]
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	acc := unsafe.Slice((*T)(unsafe.Pointer(buf)), kernel.Lanes/2*columnTile+columnTile)
	acc, tmp := acc[:kernel.Lanes/2*columnTile], acc[kernel.Lanes/2*columnTile:]
	o := 0
	offsets(outer, origin, func(base int) {
		for c0 := 0; c0 < cols; c0 += columnTile {
			results := dst[o+c0 : o+min(c0+columnTile, cols)]
			w, at := len(results), base+c0
			shift := f.shifts(o+c0, w)
			treeRows(f, results, acc, w, len(values), func(row []T, i, with int) {
				var y []T
				if with >= 0 {
					y = a[at+values[with]:]
				}
				f.load(row, tmp, a[at+values[i]:], y, shift)
			})
			for c := kernel.FindNaN(results); c < w; c += 1 + kernel.FindNaN(results[c+1:]) {
				results[c] = shortNaN(f, a, at+c, values)
			}
		}
		o += cols
	})
}

// shortNaN is the NaN result of the output whose values are at
// at + values[i]: made from their first NaN, or the default NaN.
func shortNaN[T elem.Number](f fold[T], a []T, at int, values []int) T {
	for _, off := range values {
		if x := a[at+off]; x != x {
			return f.nanOf(x)
		}
	}
	return kernel.DefaultNaN[T]()
}

// longRows is the fewest values from which outputs whose values are one
// contiguous run each fold them one output at a time (longRowSums,
// varianceRows): there the scalar tree of each output (6 ns, 15 ns just
// after the kernel's stores on a Zen 4) is small beside the kernel's run,
// and the blocks of accumulators that rowSums keeps for shorter runs cost
// more than they save: ReduceSum of (1024, 1024) along its rows took
// 108 us through them.
const longRows = 512

// longRuns reports whether each output's values are one contiguous run of
// at least longRows values.
func (r reduction) longRuns() bool {
	return len(r.summed) == 1 && r.summed[0].stride == 1 && r.count >= longRows
}

// longRowSums computes outputs whose values are one contiguous run of n
// values each, n at least longRows, one after the other: the fold's
// kernel over the run, then its tree, one run behind (the kernel of run o,
// then the tree of run o-1), as varianceRows pipelines its runs, so that
// the tree's scalar loads do not wait for the kernel's last vector stores.
// Zen 4 (AMD EPYC family 25 model 17), ReduceSum of (128, 1024) float32
// over axis 1 (in L2), medians of 5 interleaved runs of 3: 7.97-8.88 ->
// 7.60-8.72 us; at (1024, 1024) the machine's noise hid it.
func longRowSums[T elem.Number](f fold[T], dst, a []T, kept []group, n, origin int) {
	start := f.startLanes()
	var acc [2][kernel.Lanes]T
	var runs [2][]T
	o := 0
	offsets(kept, origin, func(base int) {
		x := a[base:][:n]
		var v T
		if f.each != nil {
			v = f.each.shift[o]
		}
		acc[o&1] = start
		f.lanesOf(acc[o&1][:], x, v)
		if o >= 1 {
			p := (o - 1) & 1
			dst[o-1] = f.resultOf(&acc[p], runs[p])
		}
		runs[o&1] = x
		o++
	})
	if o >= 1 {
		p := (o - 1) & 1
		dst[o-1] = f.resultOf(&acc[p], runs[p])
	}
}

// resultOf is the result of the accumulators acc of an output whose values
// are x: their tree, or where that is a NaN, the NaN that firstNaN gives.
func (f fold[T]) resultOf(acc *[kernel.Lanes]T, x []T) T {
	s := f.tree(acc[:])
	if s != s {
		s = firstNaN(f, func(visit func([]T)) { visit(x) })
	}
	return s
}

// rowSums computes outputs whose values end in contiguous runs (the
// innermost axis is summed): each output folds its runs, in order, into
// one set of accumulators.
func rowSums[T elem.Number](f fold[T], dst, a []T, kept, summed []group, origin int) {
	run, outer := summed[len(summed)-1].size, summed[:len(summed)-1]
	var s laneState[T]
	if f.each != nil && f.each.exp {
		buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
		defer scratch.Put(buf)
		s.tmp = unsafe.Slice((*T)(unsafe.Pointer(buf)), columnTile*kernel.Lanes)
	}
	var b laneBlock[T]
	b.init(fold[T]{op: f.op}, dst)
	defer b.free()
	nan := func(base int) T { // the NaN result of the output at base
		return firstNaN(f, func(visit func([]T)) {
			offsets(outer, 0, func(off int) { visit(a[base+off:][:run]) })
		})
	}
	start := f.startLanes()
	o := 0
	offsets(kept, origin, func(base int) {
		s.acc, s.count = start, 0
		var shift T
		if f.each != nil {
			shift = f.each.shift[o]
		}
		if s.tmp == nil {
			offsets(outer, 0, func(off int) { s.add(f, a[base+off:][:run], shift) })
		} else {
			offsets(outer, 0, func(off int) {
				x := a[base+off:][:run]
				for len(x) > 0 {
					piece := s.tmp[:min(len(x), len(s.tmp))]
					f.each.run(piece, x[:len(piece)], shift)
					s.add(f, piece, shift)
					x = x[len(piece):]
				}
			})
		}
		if b.add(&s.acc, base) {
			b.flush(nan)
		}
		o++
	})
	b.flush(nan)
}

// laneBlockRows is the number of outputs whose accumulators a laneBlock
// holds.
const laneBlockRows = 256

// laneBlockVertical is the fewest outputs a laneBlock combines by vertical
// operations: their tree is some 35 kernel calls, whatever the number of
// outputs, where fold.tree costs about one call per output. The chunks
// of a reduction of several passes (inChunks) flush blocks of 8 rows of
// 1000: on a Zen 3, the variance of (32, 1000) along its rows took 22 us
// with every block vertical (1024 rows of 1024: 490 us), 16 us with the
// blocks of fewer than 32 outputs combined by fold.tree (365 us); the
// sum of the same values 2 us (0.1 ms).
const laneBlockVertical = 32

// laneBlock combines the Lanes accumulators of each of a block of outputs
// by the canonical tree as vertical operations over the block (treeRows
// over the accumulators transposed), where the tree of one output's
// accumulators costs as much as a kernel call over a thousand values.
type laneBlock[T elem.Number] struct {
	f                  fold[T] // the fold, without a transform
	buf                *[columnTile * kernel.Lanes]float64
	lanes, columns, at []T // accumulators by output, by lane; the tree's rows
	bases              [laneBlockRows]int
	n                  int // outputs in the block
	out                []T // the outputs from the block's first on
}

// init starts the first block of the outputs dst of fold f.
func (b *laneBlock[T]) init(f fold[T], dst []T) {
	const n = laneBlockRows * kernel.Lanes
	b.f, b.out, b.buf = f, dst, scratch.Get().(*[columnTile * kernel.Lanes]float64)
	all := unsafe.Slice((*T)(unsafe.Pointer(b.buf)), 2*n+n/2)
	b.lanes, b.columns, b.at = all[:n], all[n:2*n], all[2*n:]
}

// add takes the accumulators of the next output, whose values start at
// base, and reports whether the block is full.
func (b *laneBlock[T]) add(acc *[kernel.Lanes]T, base int) bool {
	copy(b.lanes[b.n*kernel.Lanes:], acc[:])
	b.bases[b.n] = base
	b.n++
	return b.n == laneBlockRows
}

// flush writes the outputs of the block, a NaN one as nan(its base) makes
// it, and starts the next block.
func (b *laneBlock[T]) flush(nan func(base int) T) {
	n := b.n
	if n == 0 {
		return
	}
	results := b.out[:n]
	if n < laneBlockVertical {
		for i := range results {
			results[i] = b.f.tree(b.lanes[i*kernel.Lanes:][:kernel.Lanes])
		}
	} else {
		kernel.Transpose[T](unsafe.Pointer(&b.columns[0]), laneBlockRows, unsafe.Pointer(&b.lanes[0]), kernel.Lanes, n, kernel.Lanes)
		treeRows(b.f, results, b.at, laneBlockRows, kernel.Lanes, func(row []T, i, with int) {
			var y []T
			if with >= 0 {
				y = b.columns[with*laneBlockRows:]
			}
			b.f.load(row, nil, b.columns[i*laneBlockRows:], y, nil)
		})
	}
	for i := kernel.FindNaN(results); i < n; i += 1 + kernel.FindNaN(results[i+1:]) {
		results[i] = nan(b.bases[i])
	}
	b.n, b.out = 0, b.out[n:]
}

// free returns the block's room to the pool.
func (b *laneBlock[T]) free() { scratch.Put(b.buf) }

// firstNaN returns the NaN result of an output whose runs of values visit
// gives in index order: made from the first NaN among them, or the
// default NaN.
func firstNaN[T elem.Number](f fold[T], visit func(func([]T))) T {
	nan, found := kernel.DefaultNaN[T](), false
	visit(func(run []T) {
		if i := kernel.FindNaN(run); !found && i < len(run) {
			nan, found = f.nanOf(run[i]), true
		}
	})
	return nan
}

// laneState is one output's accumulators across runs: a run that starts
// in the middle of a round of the accumulators is folded into them
// rotated, so that value i still meets accumulator i mod their count.
type laneState[T elem.Number] struct {
	acc   [kernel.Lanes]T
	count int
	tmp   []T // room for transformed values
}

// add folds the next values of the output, whose shift is v (see
// fold.lanesOf).
func (s *laneState[T]) add(f fold[T], run []T, v T) {
	const k = kernel.Lanes
	p := s.count % k
	s.count += len(run)
	if p == 0 {
		f.lanesOf(s.acc[:], run, v)
		return
	}
	var r [k]T
	copy(r[:], s.acc[p:]) // r[j] = acc[(j+p) % k]
	copy(r[k-p:], s.acc[:p])
	f.lanesOf(r[:], run, v)
	copy(s.acc[p:], r[:])
	copy(s.acc[:p], r[k-p:])
}

// gatherSums computes outputs of a view whose values are contiguous in
// neither direction: each output's values are gathered, a buffer at a
// time, and folded as rowSums folds runs.
func gatherSums[T elem.Number](f fold[T], dst, a []T, kept, summed []group, origin int) {
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	vals := unsafe.Slice((*T)(unsafe.Pointer(buf)), columnTile*kernel.Lanes)
	start := f.startLanes()
	var s laneState[T]
	o := 0
	offsets(kept, origin, func(base int) {
		s.acc, s.count = start, 0
		n := 0
		var shift T
		if f.each != nil {
			shift = f.each.shift[o]
		}
		flush := func() {
			if f.each != nil && f.each.exp {
				f.each.run(vals[:n], vals[:n], shift)
			}
			s.add(f, vals[:n], shift)
			n = 0
		}
		offsets(summed, base, func(at int) {
			vals[n] = a[at]
			if n++; n == len(vals) {
				flush()
			}
		})
		flush()
		dst[o] = f.tree(s.acc[:])
		if x := dst[o]; x != x {
			dst[o] = firstNaN(f, func(visit func([]T)) {
				offsets(summed, base, func(at int) { visit(a[at : at+1]) })
			})
		}
		o++
	})
}

// columnTile is the most columns a column reduction runs at once, and
// the size of the scratch buffers in rows of kernel.Lanes.
const columnTile = 1024

// accTile is the number of columns a column reduction of size-byte
// elements with lanes accumulator rows (and, with transformed, as many
// rows of transformed values) runs at once: as many as fill two thirds of
// the L1d, or a sixteenth of the L2 where that is 2 MiB or more, a power
// of two. On the Zen 5 (48 KiB L1d, 1 MiB L2) float32 ReduceSum of
// (1024, 1024) over axis 0 took 70-73 us with 256 columns (32 KiB of
// accumulators) against 91-93 with 1024 (128 KiB, in L2), ReduceVar
// 213-221 us with 128 against 280-286; elem.Sum of the same values 48-54.
// On the Xeon model 167 (48 KiB L1d, 2 MiB L2) it is the other way round:
// ReduceSum took 171-177 us with 1024 columns against 208-221 with 256,
// ReduceVar 349-354 against 481-537, Softmax over axis 0 865-881 against
// 950 (512 columns and as many of exp(x - m)); elem.Sum 155-165. Its
// prefetchers serve whole rows of a 4 KiB page better than quarter rows.
func accTile(size, lanes int, transformed bool) int {
	budget := max(l1d, 16<<10) * 2 / 3
	if l2 >= 2<<20 {
		budget = l2 / 16
	}
	if transformed {
		budget /= 2
	}
	tile := columnTile
	for tile > 16 && tile*lanes*size > budget {
		tile /= 2
	}
	return tile
}

// l1d and l2 are the sizes of this CPU's L1d and L2.
var l1d, l2 = cpuinfo.Get().Caches.L1d, cpuinfo.Get().Caches.L2

// scratch holds accumulator rows between calls.
var scratch = sync.Pool{New: func() any { return new([columnTile * kernel.Lanes]float64) }}

// columnSums computes outputs whose innermost axis is kept: for each
// block of kept outer indices and each tile of columns, every summed row
// is folded into accumulator row i mod lanes (i its index among the summed
// rows, in order), as 2-D vertical operations over consecutive rows, then
// the canonical tree runs over the accumulator rows, on their halves.
func columnSums[T elem.Number](f fold[T], dst, a []T, kept, summed []group, origin int) {
	cols := kept[len(kept)-1].size
	outer := kept[:len(kept)-1]
	inner := summed[len(summed)-1]
	above := summed[:len(summed)-1]
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	lanes := kernel.Lanes
	if (f.op == foldMax || f.op == foldMin) && f.each == nil {
		lanes = 1 // no order to keep: one accumulator row, which stays in L1
	}
	rows := unsafe.Slice((*T)(unsafe.Pointer(buf)), lanes*columnTile)
	var tmp []T // exp(x - m) of a group of rows
	transformed := f.each != nil && !f.squares()
	if transformed {
		tbuf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
		defer scratch.Put(tbuf)
		tmp = unsafe.Slice((*T)(unsafe.Pointer(tbuf)), lanes*columnTile)
	}
	start := f.start()
	down := f.op == foldSum && (f.each == nil || f.squares())
	tile := accTile(int(unsafe.Sizeof(T(0))), lanes, transformed)
	o := 0
	offsets(outer, origin, func(base int) {
		for c0 := 0; c0 < cols; c0 += tile {
			w := min(tile, cols-c0)
			acc := rows[:lanes*w]
			fillRow(acc, start)
			shift := f.shifts(o+c0, w)
			i := 0
			offsets(above, 0, func(off int) {
				at, from := base+off+c0, 0
				switch { // the columns a kernel sums, each accumulator row loaded once
				case down && f.squares():
					from = kernel.ColumnSqDevs(acc, w, a[at:], inner.stride, inner.size, w, i, shift)
				case down:
					from = kernel.ColumnSums(acc, w, a[at:], inner.stride, inner.size, w, i)
				}
				n, sh := w-from, shift
				if sh != nil {
					sh = sh[from:]
				}
				for j, left := i, inner.size; left > 0 && n > 0; {
					p := j % lanes
					m := min(lanes-p, left)
					x, ldx, sums := a[at+from:], inner.stride, acc[p*w+from:]
					switch {
					case f.squares(): // (x - m)^2 + acc: the bits of a subtraction, a multiply and the fold's Add
						kernel.SqDiffAdd(kernel.VVV, m, n, sums, w, x, ldx, sh, 0, sums, w, false)
					case transformed:
						f.each.rows(m, n, tmp, w, x, ldx, sh)
						f.rows(m, n, sums, w, sums, w, tmp, w)
					default:
						f.rows(m, n, sums, w, sums, w, x, ldx)
					}
					at += m * inner.stride
					j, left = j+m, left-m
				}
				i += inner.size
			})
			for h := lanes / 2; h > 0; h /= 2 {
				f.rows(h, w, acc, w, acc, w, acc[h*w:], w)
			}
			out := dst[o+c0:][:w]
			copy(out, acc[:w])
			for c, x := range out {
				if x != x {
					out[c] = columnNaN(f, a, base+c0+c, above, inner)
				}
			}
		}
		o += cols
	})
}

// columnNaN is the NaN result of the column at a[at + ...]: made from its
// first NaN in row order, or the default NaN.
func columnNaN[T elem.Number](f fold[T], a []T, at int, above []group, inner group) T {
	nan, found := kernel.DefaultNaN[T](), false
	offsets(above, 0, func(off int) {
		for r := 0; r < inner.size && !found; r++ {
			if x := a[at+off+r*inner.stride]; x != x {
				nan, found = f.nanOf(x), true
			}
		}
	})
	return nan
}
