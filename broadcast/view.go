package broadcast

import (
	"fmt"
	"math"
	"slices"

	"github.com/simdkit/elem"
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
type View[T elem.Number] struct {
	Data    []T
	Shape   Shape
	Strides []int
}

// ViewOf is the contiguous row-major (C-order) view of data with shape s.
// It does not check that data fits s: the call that runs the view does.
func ViewOf[T elem.Number](data []T, s Shape) View[T] {
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
// element inside Data. The error names the first offending dim.
func (v View[T]) Validate() error {
	_, err := v.origin("view")
	return err
}

// origin validates v, naming it name in messages, and returns the index in
// Data of its element at index 0.
func (v View[T]) origin(name string) (int, error) {
	if len(v.Strides) != len(v.Shape) {
		return 0, newError(errs(ErrView), "%s: shape %v has %d dims but %d strides %v",
			name, v.Shape, len(v.Shape), len(v.Strides), v.Strides)
	}
	if err := v.Shape.validate(name); err != nil {
		return 0, err
	}
	if slices.Contains(v.Shape, 0) {
		return 0, nil // no element is addressed
	}
	lo, hi := 0, 0 // the lowest and highest offset from index 0 so far
	for d, n := range v.Shape {
		s := v.Strides[d]
		if s != 0 && n-1 > math.MaxInt/2/abs(s) {
			return 0, v.outside(name, d, "its reach overflows int")
		}
		reach := (n - 1) * s
		if s < 0 {
			lo += reach
		} else {
			hi += reach
		}
		if hi-lo >= len(v.Data) || hi-lo < 0 {
			return 0, v.outside(name, d, fmt.Sprintf("it reaches index %d of Data, which has %d elements", hi-lo, len(v.Data)))
		}
	}
	return -lo, nil
}

// outside reports dim d of v reaching outside its data.
func (v View[T]) outside(name string, d int, why string) error {
	return newError(errs(ErrView), "%s with shape %v and strides %v does not fit in its data: dim %d (size %d, stride %d): %s",
		name, v.Shape, v.Strides, d, v.Shape[d], v.Strides[d], why)
}

// distinct returns an error wrapping ErrOverlap if the view, a destination,
// addresses some element twice: its dims, taken by increasing |stride|, must
// each step past everything the finer dims reach (a zero stride on a dim
// above size 1 never does).
func (v View[T]) distinct(name string) error {
	var buf [scratchAxes][2]int
	dims := buf[:0]
	for d, n := range v.Shape {
		if n > 1 {
			dims = append(dims, [2]int{abs(v.Strides[d]), d})
		}
	}
	slices.SortFunc(dims, func(x, y [2]int) int { return x[0] - y[0] })
	reach := 0
	for _, x := range dims {
		if x[0] <= reach {
			return newError(errs(ErrOverlap), "%s with shape %v and strides %v writes some elements twice: dim %d (size %d, stride %d) steps onto elements its finer dims reach",
				name, v.Shape, v.Strides, x[1], v.Shape[x[1]], v.Strides[x[1]])
		}
		reach += (v.Shape[x[1]] - 1) * x[0]
	}
	return nil
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
func MustApply[T elem.Number](op elem.Op, dst, a []T, aShape Shape, b []T, bShape Shape) {
	if err := Apply(op, dst, a, aShape, b, bShape); err != nil {
		panic(err)
	}
}

// MustApplyView is ApplyView for views whose shapes and strides are
// constants in the code: it panics on an error (nothing is written then).
func MustApplyView[T elem.Number](op elem.Op, dst, a, b View[T]) {
	if err := ApplyView(op, dst, a, b); err != nil {
		panic(err)
	}
}
