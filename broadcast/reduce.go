package broadcast

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/simdkit/elem"
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
// size 0). Reductions over the innermost axes run the sum kernels on each
// contiguous run; reductions over outer axes (column sums) run as
// vertical adds of whole rows into 32 (float32) or 16 (float64)
// accumulator rows, row i into accumulator row i mod that count, then the
// canonical tree over the rows: no transposes, and the same bits. On the
// integer types the sums wrap around in T, as elem.Sum's do.
//
// Bad input (an invalid shape, a data length that does not match its
// shape, an axis out of range or given twice, a dst shape that is not the
// reduced shape, dst sharing memory with a) is an error wrapping the
// package's sentinels, and nothing is written.
func ReduceSum[T elem.Number](dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error {
	r, err := planReduce(dstShape, aShape, axes)
	if err != nil {
		return err
	}
	if err := aShape.checkLen("a", len(a)); err != nil {
		return err
	}
	if err := dstShape.checkLen("dst", len(dst)); err != nil {
		return err
	}
	if sharesMemory(dst, a) {
		return newError(errs(ErrOverlap), "dst shares memory with a (shape %v); a reduction needs its own output", aShape)
	}
	runReduce(r, dst, a)
	return nil
}

// reduction is a reduction's loop nest after coalescing: the axes of a,
// outermost first, each kept or summed over, with a's strides.
type reduction struct {
	groups []group
	count  int  // values per output element
	empty  bool // no output element at all
}

// group is one axis of the nest: consecutive axes of a that are all kept
// or all reduced, merged (a is contiguous, so they always merge).
type group struct {
	size, stride int
	reduced      bool
}

// planReduce checks the shapes and axes and builds the nest.
func planReduce(dstShape, aShape Shape, axes []int) (reduction, error) {
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
			return reduction{}, newError(errs(ErrAxis), "axis %d is out of range for a of shape %v (rank %d)", ax, aShape, rank)
		}
		if reduced[i] {
			return reduction{}, newError(errs(ErrAxis), "axis %d is given twice (axes %v, a of shape %v)", ax, axes, aShape)
		}
		reduced[i] = true
	}
	keep, squeeze := Shape{}, Shape{}
	for i, d := range aShape {
		if reduced[i] {
			keep = append(keep, 1)
			continue
		}
		keep, squeeze = append(keep, d), append(squeeze, d)
	}
	if !dstShape.Equal(keep) && !dstShape.Equal(squeeze) {
		return reduction{}, newError(errs(ErrIncompatible),
			"dst shape %v cannot hold the sum of a of shape %v over axes %v: it must be %v (keepdims) or %v",
			dstShape, aShape, axesList(axes), keep, squeeze)
	}
	r := reduction{count: 1}
	stride := 1
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
		if n := len(r.groups); n > 0 && r.groups[n-1].reduced == reduced[i] {
			r.groups[n-1].size *= d
		} else {
			r.groups = append(r.groups, group{size: d, stride: stride, reduced: reduced[i]})
		}
		stride *= d
	}
	slices.Reverse(r.groups)
	return r, nil
}

// axesList formats the axes as given, "all" for none.
func axesList(axes []int) string {
	if len(axes) == 0 {
		return "(all)"
	}
	return fmt.Sprint(axes)
}

// sharesMemory reports whether two slices share an element.
func sharesMemory[T elem.Number](x, y []T) bool {
	x0, y0 := uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	size := unsafe.Sizeof(T(0))
	return len(x) > 0 && len(y) > 0 && x0 < y0+uintptr(len(y))*size && y0 < x0+uintptr(len(x))*size
}

// runReduce computes every output element: as vertical adds of rows when
// the innermost axis is kept and some axis is summed, else through the sum
// kernels.
func runReduce[T elem.Number](r reduction, dst, a []T) {
	kept, summed := r.split()
	switch {
	case r.empty:
	case r.count == 0:
		clear(dst) // sums of nothing: +0
	case len(summed) > 0 && !r.groups[len(r.groups)-1].reduced:
		columnSums(dst, a, kept, summed)
	default:
		rowSums(dst, a, kept, summed)
	}
}

// split returns the kept and the reduced groups, in order.
func (r reduction) split() (kept, summed []group) {
	for _, g := range r.groups {
		if g.reduced {
			summed = append(summed, g)
		} else {
			kept = append(kept, g)
		}
	}
	return kept, summed
}

// offsets calls f with the offset of every index of the nest of gs, in
// row-major order.
func offsets(gs []group, f func(off int)) {
	idx := make([]int, len(gs))
	off := 0
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

// rowSums computes outputs whose values end in a contiguous run (the
// innermost axis is summed, or each output is one value): each output
// folds its runs, in order, into one sum's accumulators.
func rowSums[T elem.Number](dst, a []T, kept, summed []group) {
	run, outer := 1, summed
	if len(summed) > 0 {
		run, outer = summed[len(summed)-1].size, summed[:len(summed)-1]
	}
	o := 0
	offsets(kept, func(base int) {
		var s sumState[T]
		s.start()
		offsets(outer, func(off int) { s.add(a[base+off:][:run]) })
		dst[o] = kernel.SumTree(s.acc)
		if x := dst[o]; x != x {
			dst[o] = firstNaN(func(f func([]T)) {
				offsets(outer, func(off int) { f(a[base+off:][:run]) })
			})
		}
		o++
	})
}

// firstNaN returns the canonical NaN of a sum whose runs of values visit
// gives in index order: the first NaN among them, quiet, or the default
// NaN.
func firstNaN[T elem.Number](visit func(f func([]T))) T {
	nan, found := kernel.DefaultNaN[T](), false
	visit(func(run []T) {
		if i := kernel.FindNaN(run); !found && i < len(run) {
			nan, found = kernel.Quiet(run[i]), true
		}
	})
	return nan
}

// sumState is one sum's accumulators across runs: a run that starts in
// the middle of a round of the accumulators is folded into them rotated,
// so that value i still meets accumulator i mod their count.
type sumState[T elem.Number] struct {
	st    [kernel.Lanes]T
	acc   []T
	count int
}

func (s *sumState[T]) start() { s.acc = kernel.SumStart(&s.st) }

// add folds the next values of the sum.
func (s *sumState[T]) add(run []T) {
	k := len(s.acc)
	p := s.count % k
	s.count += len(run)
	if p == 0 {
		kernel.Sum(s.acc, run)
		return
	}
	var rot [kernel.Lanes]T
	r := rot[:k]
	copy(r, s.acc[p:]) // r[j] = acc[(j+p) % k]
	copy(r[k-p:], s.acc[:p])
	kernel.Sum(r, run)
	copy(s.acc[p:], r)
	copy(s.acc[:p], r[k-p:])
}

// columnTile is the number of columns a column sum runs at once: its
// accumulator rows then take 128 KiB (float32) or 256 KiB (float64), which
// stay in L2.
const columnTile = 1024

// scratch holds accumulator rows between calls.
var scratch = sync.Pool{New: func() any { return new([columnTile * kernel.Lanes]float64) }}

// columnSums computes outputs whose innermost axis is kept: for each
// block of kept outer indices and each tile of columns, every summed row
// is added into accumulator row i mod lanes (i its index among the summed
// rows, in order), as 2-D vertical adds over consecutive rows, then the
// canonical tree runs over the accumulator rows, as adds of their halves.
func columnSums[T elem.Number](dst, a []T, kept, summed []group) {
	cols := kept[len(kept)-1].size
	outer := kept[:len(kept)-1]
	inner := summed[len(summed)-1]
	above := summed[:len(summed)-1]
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	lanes := kernel.Lanes
	rows := unsafe.Slice((*T)(unsafe.Pointer(buf)), lanes*columnTile)
	var negZero [kernel.Lanes]T
	nz := kernel.SumStart(&negZero)[0]
	o := 0
	offsets(outer, func(base int) {
		for c0 := 0; c0 < cols; c0 += columnTile {
			w := min(columnTile, cols-c0)
			acc := rows[:lanes*w]
			for i := range acc {
				acc[i] = nz
			}
			i := 0
			offsets(above, func(off int) {
				at := base + off + c0
				for left := inner.size; left > 0; {
					p := i % lanes
					m := min(lanes-p, left)
					kernel.Add(kernel.VV, m, w, acc[p*w:], w, acc[p*w:], w, a[at:], inner.stride, false)
					at += m * inner.stride
					i, left = i+m, left-m
				}
			})
			for h := lanes / 2; h > 0; h /= 2 {
				kernel.Add(kernel.VV, h, w, acc, w, acc, w, acc[h*w:], w, false)
			}
			out := dst[o+c0:][:w]
			copy(out, acc[:w])
			for c, x := range out {
				if x != x {
					out[c] = columnNaN(a, base+c0+c, above, inner)
				}
			}
		}
		o += cols
	})
}

// columnNaN is the canonical NaN of the column sum at a[at + ...]: its
// first NaN in row order, quiet, or the default NaN.
func columnNaN[T elem.Number](a []T, at int, above []group, inner group) T {
	nan, found := kernel.DefaultNaN[T](), false
	offsets(above, func(off int) {
		for r := 0; r < inner.size && !found; r++ {
			if x := a[at+off+r*inner.stride]; x != x {
				nan, found = kernel.Quiet(x), true
			}
		}
	})
	return nan
}
