package broadcast

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/elemtype"
)

// View is an N-d strided view of data, NumPy's ndarray over a Go slice: the
// element at index (i0, i1, ...) below Shape is
//
//	Data[origin + i0*Strides[0] + i1*Strides[1] + ...]
//
// with strides in elements. A stride of 0 repeats one element along its dim
// (a broadcast dim; inputs only), and a negative stride walks its dim
// backwards (a reversed dim). As in BLAS, Data[0] is the lowest element the
// view addresses: origin is the sum of (size-1)*|stride| over the dims with
// negative strides, so that an offset into a larger array is a slice of it
// (Data: buf[off:]). A gonum mat.Dense sub-matrix m (RawMatrix() r) is
// View{r.Data, Shape{r.Rows, r.Cols}, []int{r.Stride, 1}}.
type View[T Element] struct {
	Data    []T
	Shape   Shape
	Strides []int
}

// Element is the element type of a [View]: elem's real numbers, its
// complex numbers, and bool (the masks that [CompareView] writes and
// [SelectView] reads). Each call says which of them it takes.
type Element interface {
	elem.Number | elem.Complex | ~bool
}

// ViewOf is the contiguous row-major (C-order) view of data with shape s.
// It does not check that data fits s: the call that runs the view does.
func ViewOf[T Element](data []T, s Shape) View[T] {
	return View[T]{Data: data, Shape: s, Strides: contiguous(s)}
}

// Transposed returns the view with its dims reversed, NumPy's v.T: the
// same elements, no copy.
func (v View[T]) Transposed() View[T] {
	t := View[T]{Data: v.Data, Shape: slices.Clone(v.Shape), Strides: slices.Clone(v.Strides)}
	slices.Reverse(t.Shape)
	slices.Reverse(t.Strides)
	return t
}

// Validate checks that v is a well-formed view: one stride per dim, no
// negative size, an element count that fits in an int, and every addressed
// element inside Data (a rank-0 view addresses one, so Data must not be
// empty; a view with a size-0 dim addresses none). The error wraps
// [ErrView] and names the first offending dim.
func (v View[T]) Validate() error {
	_, err := v.origin(nameView)
	return err
}

// origin validates v, naming it name in messages, and returns the index in
// Data of its element at index 0.
func (v View[T]) origin(name viewName) (int, error) {
	o := operandOf(name, v)
	return o.origin()
}

// viewOperand is a view as the planner of view calls takes it, whatever
// its element type: its name in messages, its layout, and its data as
// bytes with the size of an element. The planner and the walker of the
// calls are written once for every element type, and only the kernel
// calls are typed.
type viewOperand struct {
	name    viewName
	shape   Shape
	strides []int
	data    []byte
	size    int
}

// viewName names an operand of a view call in messages: a number, not
// a string, so that formatting it does not make the operand's content, and
// with it the caller's shapes, escape to the heap (escape analysis does not
// tell a struct's fields apart).
type viewName uint8

// The operands' names.
const (
	nameDst viewName = iota
	nameSrc
	nameA
	nameB
	nameC
	nameCond
	nameView
)

var viewNames = [...]string{"dst", "src", "a", "b", "c", "cond", "view"}

func (n viewName) String() string { return viewNames[n] }

// operandOf is v as an operand named name.
func operandOf[T Element](name viewName, v View[T]) viewOperand {
	return viewOperand{name, v.Shape, v.Strides, elemtype.Recast[byte](v.Data), int(unsafe.Sizeof(*new(T)))}
}

// elements is how many elements v's data holds.
func (v *viewOperand) elements() int { return len(v.data) / v.size }

// origin validates v and returns the index in its data of its element at
// index 0.
func (v *viewOperand) origin() (int, error) {
	name := v.name
	if len(v.strides) != len(v.shape) {
		return 0, newError(errs(ErrView), "%s: shape %v has %d dims but %d strides %v",
			name, v.shape.Clone(), len(v.shape), len(v.strides), slices.Clone(v.strides))
	}
	if err := v.shape.validate(name.String()); err != nil {
		return 0, err
	}
	if slices.Contains(v.shape, 0) {
		return 0, nil // no element is addressed
	}
	if len(v.data) == 0 { // the loop below checks dims, and rank 0 has none
		n, _ := count(v.shape)
		return 0, newError(errs(ErrView), "%s does not fit in its data: it addresses %d elements but Data is empty",
			v.describe(), n)
	}
	lo, hi := 0, 0 // the lowest and highest offset from index 0 so far
	for d, n := range v.shape {
		s := v.strides[d]
		if s != 0 && n-1 > math.MaxInt/2/abs(s) {
			return 0, v.outside(d, "its reach overflows int")
		}
		reach := (n - 1) * s
		if s < 0 {
			lo += reach
		} else {
			hi += reach
		}
		if n := v.elements(); hi-lo >= n || hi-lo < 0 {
			return 0, v.outside(d, fmt.Sprintf("it reaches index %d of Data, which has %d elements", hi-lo, n))
		}
	}
	return -lo, nil
}

// outside reports dim d of v reaching outside its data.
func (v *viewOperand) outside(d int, why string) error {
	return newError(errs(ErrView), "%s does not fit in its data: dim %d (size %d, stride %d): %s",
		v.describe(), d, v.shape[d], v.strides[d], why)
}

// describe names v in messages: "a with shape (2,3) and strides [3 1]". It
// formats copies, so that v's slices stay the caller's (see [Shape]).
func (v *viewOperand) describe() string {
	return fmt.Sprintf("%s with shape %v and strides %v", v.name, v.shape.Clone(), slices.Clone(v.strides))
}

// distinct returns an error wrapping ErrOverlap if the view, a destination,
// addresses some element twice; a view of no element never does. Its dims
// of size above 1, taken by increasing |stride|, nearly always each step past
// everything the finer dims reach, which proves the elements distinct (a
// sort of at most 16 dims and one pass). Where a dim does not (an
// interleaved layout, such as shape (3,2) with strides (2,3)), the coarser
// dims that do still cannot make a repeat, and the others, from the finest
// to the last that does not, are walked: each offset they address is
// marked in a bitmap over their reach (their strides' common factor divided
// out), one step per element, of the order of the call that writes them.
// Beyond maxExactExtent a reach is not walked: more elements than places in
// it repeat one, and fewer are refused undecided.
func (v *viewOperand) distinct() error {
	if slices.Contains(v.shape, 0) {
		return nil
	}
	var buf [scratchAxes]strideDim
	dims := buf[:0]
	for d, n := range v.shape {
		if n > 1 {
			dims = append(dims, strideDim{n, abs(v.strides[d]), d})
		}
	}
	slices.SortFunc(dims, func(x, y strideDim) int { return x.stride - y.stride })
	reach, interleaved := 0, 0 // how many of the finest dims the walk needs
	for i, x := range dims {
		if x.stride <= reach {
			interleaved = i + 1
		}
		reach += (x.size - 1) * x.stride
	}
	if interleaved == 0 {
		return nil
	}
	dims = dims[:interleaved]
	g, n := 0, 1
	for _, x := range dims {
		g = gcd(g, x.stride)
		n *= x.size // at most the view's element count, which fits
	}
	g = max(g, 1) // all strides 0
	reach = 0
	for i := range dims {
		dims[i].stride /= g
		reach += (dims[i].size - 1) * dims[i].stride
	}
	switch {
	case reach < maxExactExtent:
		first, again, ok := firstRepeat(dims, reach)
		if !ok {
			return nil
		}
		return newError(errs(ErrOverlap), "%s writes some elements twice: indices %v and %v address the same element",
			v.describe(), v.index(dims, first), v.index(dims, again))
	case n > reach+1:
		return newError(errs(ErrOverlap), "%s writes some elements twice: %d of its elements lie on %d places",
			v.describe(), n, reach+1)
	}
	return newError(errs(ErrOverlap), "%s has interleaved dims reaching over more than %d elements: whether it writes some element twice is not checked, and such a dst is refused",
		v.describe(), maxExactExtent)
}

// strideDim is a dim of a view as distinct walks it: its size, |stride|
// and position in the view.
type strideDim struct{ size, stride, dim int }

// maxExactExtent bounds the walk of distinct: the interleaved dims of a dst
// may reach over at most this many places, its bitmap then 8 MiB at most.
const maxExactExtent = 1 << 26

// firstRepeat walks dims (sizes above 1, strides >= 0 reaching over reach
// places) in odometer order, finest first, and returns the first index
// whose offset an earlier one had, with that earlier index, if any.
func firstRepeat(dims []strideDim, reach int) (first, again [scratchAxes]int, found bool) {
	var small [64]uint64
	seen := small[:]
	if words := reach/64 + 1; words > len(small) {
		seen = make([]uint64, words)
	}
	at := 0
	for {
		if seen[at/64]&(1<<(at%64)) != 0 {
			break
		}
		seen[at/64] |= 1 << (at % 64)
		if !step(dims, &again, &at) {
			return first, again, false
		}
	}
	for other := 0; other != at; step(dims, &first, &other) {
	}
	return first, again, true
}

// step moves idx, whose offset is at, to the next index over dims, finest
// first, and reports false after the last.
func step(dims []strideDim, idx *[scratchAxes]int, at *int) bool {
	for d := range dims {
		if idx[d] < dims[d].size-1 {
			idx[d]++
			*at += dims[d].stride
			return true
		}
		*at -= idx[d] * dims[d].stride
		idx[d] = 0
	}
	return false
}

// index formats an index over dims, taken from distinct's walk (which runs
// reversed dims forwards), as an index of v: 0 in v's other dims.
func (v *viewOperand) index(dims []strideDim, idx [scratchAxes]int) Shape {
	out := make(Shape, len(v.shape))
	for i, x := range dims {
		out[x.dim] = idx[i]
		if v.strides[x.dim] < 0 {
			out[x.dim] = x.size - 1 - idx[i]
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// NewOut allocates the output of a NUMPY broadcast of shapes: its data, of
// the result's element count, and its shape.
func NewOut[T elem.Number](shapes ...Shape) ([]T, Shape, error) {
	out, err := Numpy(shapes...)
	if err != nil {
		return nil, nil, err
	}
	return make([]T, elements(out)), out, nil
}

// MustNewOut is NewOut for shapes that are constants in the code: it
// panics on an error, which is then a programming error.
func MustNewOut[T elem.Number](shapes ...Shape) ([]T, Shape) {
	data, out, err := NewOut[T](shapes...)
	if err != nil {
		panic(err)
	}
	return data, out
}

// MustNumpy is Numpy for shapes that are constants in the code: it panics
// on an error.
func MustNumpy(shapes ...Shape) Shape {
	out, err := Numpy(shapes...)
	if err != nil {
		panic(err)
	}
	return out
}

// MustApply is Apply for shapes that are constants in the code: it panics
// on an error (nothing is written then).
func MustApply[T elem.Number | elem.Complex](op elem.Op, dst, a []T, aShape Shape, b []T, bShape Shape) {
	if err := Apply(op, dst, a, aShape, b, bShape); err != nil {
		panic(err)
	}
}

// MustApplyView is ApplyView for views whose shapes and strides are
// constants in the code: it panics on an error (nothing is written then).
func MustApplyView[T elem.Number | elem.Complex](op elem.Op, dst, a, b View[T]) {
	if err := ApplyView(op, dst, a, b); err != nil {
		panic(err)
	}
}

// gcd is the greatest common divisor of a and b.
func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
