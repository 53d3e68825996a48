// Copyright ©2013 The Gonum Authors. All rights reserved.
// Use of this code is governed by a BSD-style
// license that can be found in the LICENSE-gonum file.

package floats

import (
	"math"
	"slices"
)

// Equal returns true when the slices have equal lengths and
// all elements are numerically identical.
func Equal(s1, s2 []float64) bool {
	return EqualFunc(s1, s2, func(a, b float64) bool { return a == b })
}

// EqualApprox returns true when the slices have equal lengths and
// all element pairs have an absolute tolerance less than tol or a
// relative tolerance less than tol.
//
// The test of a pair is gonum's scalar.EqualWithinAbsOrRel(a, b, tol, tol).
func EqualApprox(s1, s2 []float64, tol float64) bool {
	return EqualFunc(s1, s2, func(a, b float64) bool { return equalWithinAbsOrRel(a, b, tol) })
}

// minNormalFloat64 is the least normal float64, 2^-1022.
const minNormalFloat64 = 0x1p-1022

// equalWithinAbsOrRel is gonum's scalar.EqualWithinAbsOrRel with both
// tolerances tol: |a - b| <= tol, or |a - b| <= tol * max(|a|, |b|), with
// differences below the least normal number compared to
// tol * minNormalFloat64.
func equalWithinAbsOrRel(a, b, tol float64) bool {
	if a == b {
		return true
	}
	delta := math.Abs(a - b)
	if delta <= tol {
		return true
	}
	if delta <= minNormalFloat64 {
		return delta <= tol*minNormalFloat64
	}
	// The division makes a NaN of two infinities, which fails the test.
	return delta/math.Max(math.Abs(a), math.Abs(b)) <= tol
}

// EqualFunc returns true when the slices have the same lengths
// and the function returns true for all element pairs.
func EqualFunc(s1, s2 []float64, f func(float64, float64) bool) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i, val := range s1 {
		if !f(val, s2[i]) {
			return false
		}
	}
	return true
}

// EqualLengths returns true when all of the slices have equal length,
// and false otherwise. It also returns true when there are no input slices.
func EqualLengths(slices ...[]float64) bool {
	for _, s := range slices {
		if len(s) != len(slices[0]) {
			return false
		}
	}
	return true
}

// Same returns true when the input slices have the same length and all
// elements have the same value with NaN treated as the same.
func Same(s, t []float64) bool {
	return EqualFunc(s, t, func(v, w float64) bool { return v == w || math.IsNaN(v) && math.IsNaN(w) })
}

// Reverse reverses the order of elements in the slice.
//
// Deprecated: This function simply calls [slices.Reverse].
func Reverse(s []float64) {
	slices.Reverse(s)
}
