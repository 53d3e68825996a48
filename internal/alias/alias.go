// Package alias decides whether two strided operands share memory: the one
// overlap implementation of elem's slice calls, its 2-D calls and the
// broadcast plans.
//
// An operand is a [Span]: the address of its element at index 0, the size of
// one element in bytes, and per dimension a size and a stride in elements of
// any sign, zero included. Its elements are byte ranges; two spans overlap when
// any byte belongs to an element of both. [Overlap] first compares the spans'
// bounding intervals, which settles nearly every call, and only then runs an
// exact check, so interleaved but disjoint blocks of one matrix (every other
// column, say) are not an overlap.
package alias

// Span is an operand in memory: its element at index (i0, i1, ...) occupies
// Elem bytes from Start + Elem*(i0*Stride[0] + i1*Stride[1] + ...), for every
// index below Size. Size and Stride have one entry per dimension; a span of
// rank 0 is one element, and one with a size of 0 has no elements. The span's
// byte extent must fit in an int, as that of any array in memory does.
type Span struct {
	Start  uintptr
	Elem   int
	Size   []int
	Stride []int
}

// SameOrDisjoint reports, cheaply enough to inline, whether two contiguous
// runs of the same byte length n, starting at x and y, are either the same run
// or share no byte: the fast path of elem's slice calls. It is [Overlap] and
// [Same] for that one case.
//
// It and SameOrDisjointRuns are generic only so that they inline where
// elem's calls are compiled. A generic call such as elem.Add[float32] is
// compiled in the package that calls it; there the compiler inlines the
// generic functions of elem's internal packages but calls their plain
// ones, which spills every live register around the call (elem.Add of 4
// float32 from another module, -pgo=off: 12.9-14.8 ns with the helpers
// calls, 6.4-7.8 ns inlined).
func SameOrDisjoint[P ~uintptr](x, y, n P) bool {
	d := x - y
	return d == 0 || d >= n && -d >= n
}

// SameOrDisjointRuns is SameOrDisjoint for runs of xn and yn bytes, which
// may differ: the runs of two slices of different element types.
func SameOrDisjointRuns[P ~uintptr](x, xn, y, yn P) bool {
	return x == y && xn == yn || x+xn <= y || y+yn <= x || xn == 0 || yn == 0
}

// Same reports whether x and y are the same operand index by index: the same
// start, element size and sizes, and the same stride on every dimension of
// size above 1 (a stride along a dimension of size 1 is never used). An
// operation may write x while it reads y then, element by element.
func Same(x, y Span) bool {
	if x.Start != y.Start || x.Elem != y.Elem || len(x.Size) != len(y.Size) {
		return false
	}
	for d, n := range x.Size {
		if n != y.Size[d] || n > 1 && x.Stride[d] != y.Stride[d] {
			return false
		}
	}
	return true
}

// Conflict reports whether writing dst while reading in can go wrong: they
// overlap without being the [Same] operand.
func Conflict(dst, in Span) bool {
	return Overlap(dst, in) && !Same(dst, in)
}

// Overlap reports whether x and y share a byte. Disjoint bounding intervals,
// the usual answer, cost a pass over the dimensions; otherwise the spans are
// normalized (strides made positive, unused dimensions dropped, contiguous
// ones merged) and split, outermost dimension first, into the sub-blocks that
// fall within the other span's bounds, until both sides are contiguous runs.
// The work is proportional to the number of sub-blocks of one span that lie
// within the bounds of the other: a few for the blocks and broadcasts of elem.
func Overlap(x, y Span) bool {
	xlo, xhi, ok := bounds(x)
	if !ok {
		return false
	}
	ylo, yhi, ok := bounds(y)
	if !ok || xhi <= ylo || yhi <= xlo {
		return false
	}
	return exact(x, y, min(xlo, ylo))
}

// bounds returns the byte interval [lo, hi) that x's elements lie in, and
// false if x has no elements.
func bounds(x Span) (lo, hi uintptr, ok bool) {
	lo = x.Start
	hi = x.Start + uintptr(x.Elem)
	for d, n := range x.Size {
		if n == 0 {
			return 0, 0, false
		}
		reach := uintptr((n - 1) * x.Stride[d] * x.Elem)
		if x.Stride[d] < 0 {
			lo += reach // reach is negative, wrapped
		} else {
			hi += reach
		}
	}
	return lo, hi, true
}

// dim is one dimension of a normalized span: size >= 2, stride > 0 bytes.
type dim struct{ size, stride int }

// block is a normalized span: elements of elem bytes at byte offsets start +
// sum of i*stride over dims (outermost, largest stride, first), relative to a
// base address; end is one past its last byte.
type block struct {
	start, end, elem int
	dims             []dim
}

// maxDims covers every span of distinct elements: a normalized dimension has
// size >= 2, so more than 63 of them address more than 2^63 elements.
const maxDims = 64

// exact is Overlap after the bounding intervals met; base is the lower of the
// two starts, so offsets fit in an int.
//
//go:noinline
func exact(x, y Span, base uintptr) bool {
	var xd, yd [maxDims]dim
	bx, okx := normalize(x, base, xd[:0])
	by, oky := normalize(y, base, yd[:0])
	if !okx || !oky {
		return true // more dimensions than distinct elements allow: assume the worst
	}
	return meet(bx, by)
}

// normalize returns x relative to base as a block whose dimensions are
// appended to buf: negative strides flipped (moving the start to the lowest
// element), dimensions of size 1 or stride 0 dropped (they repeat elements),
// the rest sorted by decreasing stride and merged where one continues the
// next. It reports false if more than cap(buf) dimensions remain.
func normalize(x Span, base uintptr, buf []dim) (block, bool) {
	b := block{start: int(x.Start - base), elem: x.Elem}
	for d, n := range x.Size {
		s := x.Stride[d] * x.Elem
		if n == 1 || s == 0 {
			continue
		}
		if s < 0 {
			b.start += (n - 1) * s
			s = -s
		}
		if len(buf) == cap(buf) {
			return b, false
		}
		buf = append(buf, dim{n, s})
		for i := len(buf) - 1; i > 0 && buf[i-1].stride < buf[i].stride; i-- {
			buf[i-1], buf[i] = buf[i], buf[i-1]
		}
	}
	merged := buf[:0]
	for _, d := range buf {
		if last := len(merged) - 1; last >= 0 && merged[last].stride == d.size*d.stride {
			merged[last] = dim{merged[last].size * d.size, d.stride}
			continue
		}
		merged = append(merged, d)
	}
	b.dims = merged
	b.end = b.start + b.elem
	for _, d := range merged {
		b.end += (d.size - 1) * d.stride
	}
	return b, true
}

// dense reports whether b's elements cover its whole byte interval.
func (b block) dense() bool {
	return len(b.dims) == 0 || len(b.dims) == 1 && b.dims[0].stride <= b.elem
}

// meet reports whether blocks x and y share a byte.
func meet(x, y block) bool {
	if x.end <= y.start || y.end <= x.start {
		return false
	}
	if x.dense() && y.dense() {
		return true
	}
	if x.dense() || !y.dense() && y.dims[0].stride > x.dims[0].stride {
		x, y = y, x // split the coarser of the two, or the one that is not dense
	}
	// Sub-block i of x spans [start + i*stride, start + i*stride + inner):
	// only those that reach into [y.start, y.end) can meet y.
	d := x.dims[0]
	inner := x.end - x.start - (d.size-1)*d.stride
	first := max(0, floorDiv(y.start-x.start-inner, d.stride)+1)
	last := min(d.size-1, floorDiv(y.end-1-x.start, d.stride))
	sub := block{elem: x.elem, dims: x.dims[1:]}
	for i := first; i <= last; i++ {
		sub.start = x.start + i*d.stride
		sub.end = sub.start + inner
		if meet(sub, y) {
			return true
		}
	}
	return false
}

// floorDiv is a/b rounded toward minus infinity, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
