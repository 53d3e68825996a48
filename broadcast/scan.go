package broadcast

import (
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/kernel"
)

// CumSum sets dst to the cumulative sums of a (of the given shape) along
// axis, NumPy's cumsum(a, axis): along the axis each value is the one
// before it plus the value of a, in index order, exactly the bits of
// elem.CumSum on each line of values (the plain loop's). Lines along the
// innermost axis run elem.CumSum one by one; along any other axis, whole
// rows of the lines at once (row i of dst is row i-1 plus row i of a), in
// vertical kernel calls. dst has a's shape and may be a itself, but no
// other slice that shares memory with it. A negative axis counts from the
// end.
func CumSum[T elem.Number](dst, a []T, shape Shape, axis int) error {
	return scan("cumulative sum", dst, a, shape, axis, false)
}

// CumProd is CumSum with products (NumPy's cumprod).
func CumProd[T elem.Number](dst, a []T, shape Shape, axis int) error {
	return scan("cumulative product", dst, a, shape, axis, true)
}

func scan[T elem.Number](what string, dst, a []T, shape Shape, axis int, prod bool) error {
	_, along, inner, err := checkAlong(what, dst, a, shape, axis)
	if err != nil || len(a) == 0 {
		return err
	}
	block := along * inner
	for o := 0; o < len(a); o += block {
		d, x := dst[o:][:block], a[o:][:block]
		if inner == 1 {
			if prod {
				elem.CumProd(d, x)
			} else {
				elem.CumSum(d, x)
			}
			continue
		}
		copy(d[:inner], x[:inner])
		for i := 1; i < along; i++ {
			row, prev := d[i*inner:][:inner], d[(i-1)*inner:][:inner]
			if prod {
				kernel.Mul(kernel.VV, 1, inner, row, inner, prev, inner, x[i*inner:], inner, false)
			} else {
				kernel.Add(kernel.VV, 1, inner, row, inner, prev, inner, x[i*inner:], inner, false)
			}
		}
	}
	return nil
}

// checkAlong checks the arguments of an operation along an axis whose
// result has a's shape (dst may be a itself, nothing else that overlaps
// it), and returns the axis (from 0), its size and the number of elements
// after it.
func checkAlong[T elem.Number](what string, dst, a []T, shape Shape, axis int) (ax, along, inner int, err error) {
	if err := shape.checkLen("a", len(a)); err != nil {
		return 0, 0, 0, err
	}
	if err := shape.checkLen("dst", len(dst)); err != nil {
		return 0, 0, 0, err
	}
	ax = axis
	if ax < 0 {
		ax += len(shape)
	}
	if ax < 0 || ax >= len(shape) {
		return 0, 0, 0, newError(errs(ErrAxis), "axis %d is out of range for the %s of a of shape %v (rank %d)", axis, what, shape.Clone(), len(shape))
	}
	size := uintptr(len(a)) * unsafe.Sizeof(T(0))
	if !alias.SameOrDisjoint(uintptr(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(unsafe.Pointer(unsafe.SliceData(a))), size) {
		return 0, 0, 0, newError(errs(ErrOverlap), "dst partly overlaps a (shape %v); the %s may only be written over a itself", shape.Clone(), what)
	}
	inner = 1
	for _, d := range shape[ax+1:] {
		inner *= d
	}
	return ax, shape[ax], inner, nil
}
