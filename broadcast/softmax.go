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
	m := make([]T, len(dst))
	sumExp(r, dst, m, a)
	elem.Log(dst, dst)
	elem.Add(dst, dst, m)
	for i, x := range m {
		if x-x != 0 {
			dst[i] = kernel.Quiet(x)
		}
	}
}

// sumExp sets m to the maxima of the reduction r of a and s to the sums
// S of exp(x - m).
func sumExp[T elem.Float](r reduction, s, m, a []T) {
	runReduce(fold[T]{op: foldMax}, r, m, a)
	runReduce(fold[T]{each: &transform[T]{shift: m, exp: true}}, r, s, a)
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
	if inner == 1 && !log && along >= cachedRows {
		softmaxRows(dst, a, along)
		return nil
	}
	reduced := shape.Clone()
	reduced[ax] = 1
	var kept, summed [nestRoom]group
	r, err := planReduce(what, reduced, shape, nil, []int{ax}, kept[:0], summed[:0])
	if err != nil {
		return err
	}
	n := len(a) / along
	s, m := make([]T, n), make([]T, n)
	sumExp(r, s, m, a)
	if log {
		elem.Log(s, s)
	}
	if inner == 1 { // rows of along values, each with its own m and S
		kernel.Sub(kernel.VS, n, along, dst, along, a, along, m, 1, false)
		if log {
			kernel.Sub(kernel.VS, n, along, dst, along, dst, along, s, 1, false)
		} else {
			kernel.Exp(kernel.V, 1, len(dst), dst, 0, dst, 0, false)
			kernel.Div(kernel.VS, n, along, dst, along, dst, along, s, 1, false)
		}
	}
	block := along * inner
	for o := 0; o < n/inner && inner > 1; o++ {
		d, x, mo, so := dst[o*block:][:block], a[o*block:][:block], m[o*inner:][:inner], s[o*inner:][:inner]
		kernel.Sub(kernel.VV, along, inner, d, inner, x, inner, mo, 0, false)
		if log {
			kernel.Sub(kernel.VV, along, inner, d, inner, d, inner, so, 0, false)
			continue
		}
		kernel.Exp(kernel.V, along, inner, d, inner, d, inner, false)
		kernel.Div(kernel.VV, along, inner, d, inner, d, inner, so, 0, false)
	}
	for i, x := range m {
		if x-x != 0 {
			o, c := i/inner, i%inner
			for j := range along {
				dst[o*block+j*inner+c] = nanResult(x)
			}
		}
	}
	return nil
}

// cachedRows is the row length from which Softmax along the innermost
// axis runs row by row (exp once, the row in cache); shorter rows take the
// passes of the other axes, a few kernel calls over all rows at once.
const cachedRows = 64

// softmaxRows is Softmax along the innermost axis, rows of n values: each
// row's maximum, then exp(x - m) into dst, its sum in the canonical
// order, and the division, while the row is in cache.
func softmaxRows[T elem.Float](dst, a []T, n int) {
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	one := unsafe.Slice((*T)(unsafe.Pointer(buf)), 1) // where the kernels read m and S: a local would escape
	for at := 0; at < len(a); at += n {
		d, x := dst[at:][:n], a[at:][:n]
		m := elem.MaxOf(x)
		if m-m != 0 {
			nan := nanResult(m)
			for i := range d {
				d[i] = nan
			}
			continue
		}
		one[0] = m
		kernel.Sub(kernel.VS, 1, n, d, n, x, n, one, 0, false)
		kernel.Exp(kernel.V, 1, n, d, n, d, n, false)
		one[0] = elem.Sum(d)
		kernel.Div(kernel.VS, 1, n, d, n, d, n, one, 0, false)
	}
}

// nanResult is every Softmax and LogSoftmax result of values whose
// maximum m is not finite: m quiet if it is a NaN, else the default NaN.
func nanResult[T elem.Float](m T) T {
	if m != m {
		return kernel.Quiet(m)
	}
	return kernel.DefaultNaN[T]()
}
