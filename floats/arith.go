// Copyright ©2013 The Gonum Authors. All rights reserved.
// Use of this code is governed by a BSD-style
// license that can be found in the LICENSE-gonum file.

package floats

import (
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
)

// gonum's panic values, word for word.
const (
	zeroLength   = "floats: zero length slice"
	shortSpan    = "floats: slice length less than 2"
	badLength    = "floats: slice lengths do not match"
	badDstLength = "floats: destination slice length does not match input"
)

// Add adds, element-wise, the elements of s and dst, and stores the result in dst.
// It panics if the argument lengths do not match.
func Add(dst, s []float64) {
	if len(dst) != len(s) {
		panic(badDstLength)
	}
	// s first: when both are NaN, gonum's sum carries s's payload.
	each(dst, s, dst, plus, elem.Add[float64])
}

// AddTo adds, element-wise, the elements of s and t and
// stores the result in dst.
// It panics if the argument lengths do not match.
func AddTo(dst, s, t []float64) []float64 {
	checkTo(dst, s, t)
	each(dst, s, t, plus, elem.Add[float64])
	return dst
}

// AddConst adds the scalar c to all of the values in dst.
func AddConst(c float64, dst []float64) {
	elem.AddScalar(dst, dst, c)
}

// AddScaled performs dst = dst + alpha * s.
// It panics if the slice argument lengths do not match.
//
// Each alpha*s[i] is rounded before it is added, as in gonum's assembly:
// never one fused multiply-add (elem.MulScalarAdd) with a single rounding.
func AddScaled(dst []float64, alpha float64, s []float64) {
	if len(dst) != len(s) {
		panic(badLength)
	}
	addScaled(dst, alpha, s, dst)
}

// AddScaledTo performs dst = y + alpha * s, where alpha is a scalar,
// and dst, y and s are all slices.
// It panics if the slice argument lengths do not match.
//
// At the return of the function, dst[i] = y[i] + alpha * s[i], the
// product rounded before the sum as in AddScaled.
func AddScaledTo(dst, y []float64, alpha float64, s []float64) []float64 {
	if len(s) != len(y) {
		panic(badLength)
	}
	if len(dst) != len(y) {
		panic(badDstLength)
	}
	addScaled(dst, alpha, s, y)
	return dst
}

// piece is the number of products addScaled rounds into a buffer on the
// stack before adding them: enough to amortise two kernel calls, and
// small enough that the buffer stays in L1 between them.
const piece = 512

// addScaled sets dst[i] = alpha*s[i] + y[i] with two roundings, a piece at
// a time: elem has no call that rounds a product and then a sum in one
// pass. The product stays the first operand of the sum, so a NaN from it
// wins over y's as in gonum.
func addScaled(dst []float64, alpha float64, s, y []float64) {
	each(dst, s, y, func(x, y float64) float64 { return float64(alpha*x) + y }, func(dst, s, y []float64) {
		var buf [piece]float64
		for off := 0; off < len(dst); off += piece {
			n := min(piece, len(dst)-off)
			p := buf[:n]
			elem.MulScalar(p, s[off:off+n], alpha)
			elem.Add(dst[off:off+n], p, y[off:off+n])
		}
	})
}

// Sub subtracts, element-wise, the elements of s from dst.
// It panics if the argument lengths do not match.
func Sub(dst, s []float64) {
	if len(dst) != len(s) {
		panic(badLength)
	}
	each(dst, s, dst, minus, subtract)
}

// SubTo subtracts, element-wise, the elements of t from s and
// stores the result in dst.
// It panics if the argument lengths do not match.
func SubTo(dst, s, t []float64) []float64 {
	checkTo(dst, s, t)
	each(dst, t, s, minus, subtract)
	return dst
}

// Mul performs element-wise multiplication between dst
// and s and stores the value in dst.
// It panics if the argument lengths do not match.
func Mul(dst, s []float64) {
	if len(dst) != len(s) {
		panic(badLength)
	}
	each(dst, dst, s, times, elem.Mul[float64])
}

// MulTo performs element-wise multiplication between s
// and t and stores the value in dst.
// It panics if the argument lengths do not match.
func MulTo(dst, s, t []float64) []float64 {
	checkTo(dst, s, t)
	each(dst, t, s, times, elem.Mul[float64]) // gonum's t[i] * s[i]
	return dst
}

// Div performs element-wise division dst / s
// and stores the value in dst.
// It panics if the argument lengths do not match.
func Div(dst, s []float64) {
	if len(dst) != len(s) {
		panic(badLength)
	}
	each(dst, dst, s, over, elem.Div[float64])
}

// DivTo performs element-wise division s / t
// and stores the value in dst.
// It panics if the argument lengths do not match.
func DivTo(dst, s, t []float64) []float64 {
	checkTo(dst, s, t)
	each(dst, s, t, over, elem.Div[float64])
	return dst
}

// Scale multiplies every element in dst by the scalar c.
func Scale(c float64, dst []float64) {
	elem.MulScalar(dst, dst, c)
}

// ScaleTo multiplies the elements in s by c and stores the result in dst.
// It panics if the slice argument lengths do not match.
func ScaleTo(dst []float64, c float64, s []float64) []float64 {
	if len(dst) != len(s) {
		panic(badDstLength)
	}
	each(dst, s, s, func(x, _ float64) float64 { return x * c }, func(dst, s, _ []float64) { elem.MulScalar(dst, s, c) })
	return dst
}

// checkTo panics as gonum's ...To functions do when the lengths of dst, s
// and t differ.
func checkTo(dst, s, t []float64) {
	if len(s) != len(t) {
		panic(badLength)
	}
	if len(dst) != len(s) {
		panic(badDstLength)
	}
}

// overlapsPartly reports whether dst shares memory with x without being
// x, which elem's calls refuse.
func overlapsPartly(dst, x []float64) bool {
	return !alias.SameOrDisjoint(uintptr(unsafe.Pointer(unsafe.SliceData(dst))),
		uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(len(dst))*8)
}

// each sets dst[i] = f(a[i], b[i]) by kernel(dst, a, b), elem's calls,
// when dst is a or apart from it and the same of b; otherwise by f, one
// element after the other in index order: gonum's pure-Go loops, for a dst
// that partly overlaps an input, where an element written early is read
// later (and elem's calls panic).
func each(dst, a, b []float64, f func(x, y float64) float64, kernel func(dst, a, b []float64)) {
	if !overlapsPartly(dst, a) && !overlapsPartly(dst, b) {
		kernel(dst, a, b)
		return
	}
	for i := range dst {
		dst[i] = f(a[i], b[i])
	}
}

// subtract sets dst[i] = b[i] - a[i] as gonum computes it, (-1*a[i]) +
// b[i]: the same value, but when both are NaN, a's payload. a*(-1) + b
// with one rounding, exact before it, is that value and that payload.
func subtract(dst, a, b []float64) { elem.MulScalarAdd(dst, a, -1, b) }

// The operations of each: y - x is x's negation plus y, as gonum's
// (-1)*x + y.
func plus(x, y float64) float64  { return x + y }
func minus(x, y float64) float64 { return y - x }
func times(x, y float64) float64 { return x * y }
func over(x, y float64) float64  { return x / y }
