// Copyright ©2013 The Gonum Authors. All rights reserved.
// Use of this code is governed by a BSD-style
// license that can be found in the LICENSE-gonum file.

package floats

import (
	"math"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
)

// Sum returns the sum of the elements of the slice, in elem's canonical
// order (elem.Sum).
func Sum(s []float64) float64 {
	return elem.Sum(s)
}

// SumCompensated returns the sum of the elements of the slice calculated with greater
// accuracy than Sum at the expense of additional computation.
//
// It is gonum's Neumaier summation, element by element: gonum's bits.
func SumCompensated(s []float64) float64 {
	var sum, c float64
	for _, x := range s {
		// The conversion keeps a compiler from optimising the operations away.
		t := float64(sum + x)
		if math.Abs(sum) >= math.Abs(x) {
			c += (sum - t) + x
		} else {
			c += (x - t) + sum
		}
		sum = t
	}
	return sum + c
}

// Dot computes the dot product of s1 and s2, i.e.
// sum_{i = 1}^N s1[i]*s2[i], in elem's canonical order (elem.Dot).
// It panics if the argument lengths do not match.
func Dot(s1, s2 []float64) float64 {
	if len(s1) != len(s2) {
		panic(badLength)
	}
	return elem.Dot(s1, s2)
}

// Prod returns the product of the elements of the slice, multiplied in
// elem's canonical order (broadcast.ReduceProd).
// Returns 1 if len(s) = 0.
func Prod(s []float64) float64 {
	p := [1]float64{1}
	if len(s) > 0 {
		// A rank-0 dst and a rank-1 s of the same length cannot fail.
		_ = broadcast.ReduceProd(p[:], nil, s, broadcast.Shape{len(s)})
	}
	return p[0]
}

// CumSum finds the cumulative sum of the first i elements in
// s and puts them in place into the ith element of the
// destination dst.
// It panics if the argument lengths do not match.
//
// At the return of the function, dst[i] = s[i] + s[i-1] + s[i-2] + ...,
// added in index order (elem.CumSum): the bits of gonum's pure-Go code.
// gonum's amd64 assembly adds each pair s[i]+s[i+1] first, so its last
// bits may differ.
func CumSum(dst, s []float64) []float64 {
	if len(dst) != len(s) {
		panic(badDstLength)
	}
	return scan(dst, s, plus, elem.CumSum[float64])
}

// CumProd finds the cumulative product of the first i elements in
// s and puts them in place into the ith element of the
// destination dst.
// It panics if the argument lengths do not match.
//
// At the return of the function, dst[i] = s[i] * s[i-1] * s[i-2] * ...,
// multiplied in index order as CumSum adds.
func CumProd(dst, s []float64) []float64 {
	if len(dst) != len(s) {
		panic(badDstLength)
	}
	return scan(dst, s, times, elem.CumProd[float64])
}

// scan runs the scan kernel(dst, s), elem's, or, for a dst that partly
// overlaps s, gonum's pure-Go scan: dst[0] = s[0] and dst[i] =
// f(dst[i-1], s[i]) in index order. It returns dst.
func scan(dst, s []float64, f func(x, y float64) float64, kernel func(dst, s []float64)) []float64 {
	if !overlapsPartly(dst, s) {
		kernel(dst, s)
		return dst
	}
	dst[0] = s[0] // s is not empty: it overlaps dst
	for i := 1; i < len(s); i++ {
		dst[i] = f(dst[i-1], s[i])
	}
	return dst
}

// Norm returns the L norm of the slice S, defined as
// (sum_{i=1}^N s[i]^L)^{1/L}
// Special cases:
// L = math.Inf(1) gives the maximum absolute value.
// Does not correctly compute the zero norm (use Count).
//
// L = 1 is elem.Norm1; L = 2 is the square root of elem.SumSq, or
// elem.Norm2 where that sum overflows or underflows (no overflow or
// underflow on the way, as gonum's); for any other L the terms |s[i]|^L are
// elem's Pow, summed by elem.Sum in pieces of 512 added in order. A NaN in s
// gives a NaN, except for L = +Inf with an infinity in s: +Inf, as
// gonum's math.Max gives.
func Norm(s []float64, L float64) float64 {
	switch {
	case len(s) == 0:
		return 0
	case L == 2:
		return norm2(s, nil)
	case L == 1:
		return elem.Norm1(s)
	case math.IsInf(L, 1):
		if n := elem.NormInf(s); n == n || !hasInf(s) {
			return n
		}
		return math.Inf(1)
	}
	return pNorm(s, nil, L)
}

// Distance computes the L-norm of s - t. See Norm for special cases.
// It panics if the slice argument lengths do not match.
//
// L = 1 and +Inf are elem.Distance; L = 2 sums the squares of the
// differences by elem.SumSq in pieces of 512, with Norm's fallback to
// elem.Distance; the others are Norm's pieces. For
// L = +Inf, gonum's loop skips the differences that are NaN, and so does
// Distance.
func Distance(s, t []float64, L float64) float64 {
	if len(s) != len(t) {
		panic(badLength)
	}
	switch {
	case len(s) == 0:
		return 0
	case L == 2:
		return norm2(s, t)
	case L == 1:
		return elem.Distance(s, t, L)
	case math.IsInf(L, 1):
		if d := elem.Distance(s, t, L); d == d {
			return d
		}
		return maxAbsDiff(s, t)
	}
	return pNorm(s, t, L)
}

// norm2 is the Euclidean norm of s, or of s - t: the square root of
// elem.SumSq (of each piece of 512 differences, added in order) where that
// sum shows that no square overflowed and none that matters underflowed,
// else elem's scaled algorithm (elem.Norm2, elem.Distance), which neither
// overflows nor underflows but costs several times more (it runs in Go,
// SumSq in SIMD kernels).
func norm2(s, t []float64) float64 {
	var sq float64
	if t == nil {
		sq = elem.SumSq(s)
	} else {
		var buf [piece]float64
		for off := 0; off < len(s); off += piece {
			n := min(piece, len(s)-off)
			p := buf[:n]
			elem.Sub(p, s[off:off+n], t[off:off+n])
			sq += elem.SumSq(p)
		}
	}
	switch {
	case sq >= 0x1p-900 && sq <= math.MaxFloat64, sq != sq:
		// Squares below 2^-1022 lose at most n*2^-1074 from a sum above
		// 2^-900; a NaN is a NaN input or difference, which the scaled
		// algorithm gives as a NaN too.
		return math.Sqrt(sq)
	case t == nil:
		return elem.Norm2(s)
	}
	return elem.Distance(s, t, 2)
}

// pNorm is (sum |s[i] - t[i]|^L)^(1/L), or of |s[i]| when t is nil, for an
// L other than 1, 2 and +Inf, where gonum's formula holds for any L (0,
// negative, -Inf or NaN included), which elem.Distance refuses.
func pNorm(s, t []float64, L float64) float64 {
	var buf [piece]float64
	var sum float64
	for off := 0; off < len(s); off += piece {
		n := min(piece, len(s)-off)
		p := buf[:n]
		if t == nil {
			elem.Abs(p, s[off:off+n])
		} else {
			elem.Sub(p, t[off:off+n], s[off:off+n])
			elem.Abs(p, p)
		}
		elem.PowScalar(p, p, L)
		sum += elem.Sum(p)
	}
	return math.Pow(sum, 1/L)
}

// maxAbsDiff is the greatest |t[i] - s[i]| that is not NaN, or 0: gonum's
// Distance for L = +Inf.
func maxAbsDiff(s, t []float64) float64 {
	var norm float64
	for i, v := range s {
		if d := math.Abs(t[i] - v); d > norm {
			norm = d
		}
	}
	return norm
}

// hasInf reports whether s holds an infinity.
func hasInf(s []float64) bool {
	for _, v := range s {
		if math.IsInf(v, 0) {
			return true
		}
	}
	return false
}

// LogSumExp returns the log of the sum of the exponentials of the values in s.
// Panics if s is an empty slice.
//
// As gonum's, it returns the greatest value that is not NaN when that is
// infinite, and a NaN when s holds one otherwise; else it is
// broadcast.LogSumExp: the sum of elem's exp(s[i] - max) in the canonical
// order, and elem's log.
func LogSumExp(s []float64) float64 {
	m := Max(s)
	switch {
	case math.IsInf(m, 0):
		return m
	case HasNaN(s):
		return math.NaN()
	}
	var r [1]float64
	// A rank-0 dst and a rank-1 s of the same length cannot fail.
	_ = broadcast.LogSumExp(r[:], nil, s, broadcast.Shape{len(s)})
	return r[0]
}
