package elem

import (
	"fmt"

	"github.com/simdkit/elem/internal/elemtype"
	"github.com/simdkit/elem/internal/kernel"
)

// Sum returns the sum of a's elements in the canonical order (see
// "Reductions" in the package documentation): the same bits on every CPU
// and implementation. On an integer type the sum wraps around in T: exactly
// the bits of the plain loop s += a[i] (wrap-around addition is
// associative, so no order changes them). The sum of no elements is +0.
// On complex values it is the canonical order of complex sums: see Dot.
func Sum[T Number | Complex](a []T) T {
	if elemtype.IsComplex[T]() {
		return complexSum(a, nil, false)
	}
	switch elemtype.KindOf[T]() {
	case elemtype.Float32:
		return elemtype.As[T](sumReal(elemtype.Recast[float32](a)))
	case elemtype.Float64:
		return elemtype.As[T](sumReal(elemtype.Recast[float64](a)))
	case elemtype.Int8:
		return elemtype.As[T](sumReal(elemtype.Recast[int8](a)))
	case elemtype.Int16:
		return elemtype.As[T](sumReal(elemtype.Recast[int16](a)))
	case elemtype.Int32:
		return elemtype.As[T](sumReal(elemtype.Recast[int32](a)))
	}
	return elemtype.As[T](sumReal(elemtype.Recast[int64](a)))
}

func sumReal[T Number](a []T) T {
	if len(a) == 0 {
		return 0
	}
	if len(a) <= smallReduce {
		return kernel.SumResult(withZeroSign(shortSum(a, nil), a, nil), a, nil)
	}
	var acc [kernel.Lanes]T // +0, not the canonical -0: see withZeroSign
	kernel.Sum(acc[:], a)
	return kernel.SumResult(withZeroSign(kernel.SumTree(acc[:]), a, nil), a, nil)
}

// Dot returns the sum of the products a[i]*b[i], each rounded to T (never
// fused into a multiply-add), in the canonical order; on an integer type,
// products and sum wrap around in T: the bits of the plain loop
// s += a[i]*b[i]. It panics if the lengths differ. The dot product of empty
// slices is +0.
//
// On complex values it is the sum of Mul's products a[i]*b[i] (no
// conjugate: see DotConj) in the canonical order of complex sums: Sum's 32
// accumulators over the parts (value i's real part into accumulator 2i
// mod 32, its imaginary part into the next) and Sum's tree without its
// last step, which would add the two parts: acc[j] += acc[j+h] for h =
// 16, 8, 4, 2, then (acc[0], acc[1]). A NaN part is the quiet NaN.
func Dot[T Number | Complex](a, b []T) T {
	if len(a) != len(b) {
		panic(fmt.Sprintf("elem: Dot: slice lengths differ: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	if elemtype.IsComplex[T]() {
		return complexSum(a, b, false)
	}
	switch elemtype.KindOf[T]() {
	case elemtype.Float32:
		return elemtype.As[T](dotReal(elemtype.Recast[float32](a), elemtype.Recast[float32](b)))
	case elemtype.Float64:
		return elemtype.As[T](dotReal(elemtype.Recast[float64](a), elemtype.Recast[float64](b)))
	case elemtype.Int8:
		return elemtype.As[T](dotReal(elemtype.Recast[int8](a), elemtype.Recast[int8](b)))
	case elemtype.Int16:
		return elemtype.As[T](dotReal(elemtype.Recast[int16](a), elemtype.Recast[int16](b)))
	case elemtype.Int32:
		return elemtype.As[T](dotReal(elemtype.Recast[int32](a), elemtype.Recast[int32](b)))
	}
	return elemtype.As[T](dotReal(elemtype.Recast[int64](a), elemtype.Recast[int64](b)))
}

func dotReal[T Number](a, b []T) T {
	if len(a) == 0 {
		return 0
	}
	if len(a) <= smallReduce {
		return kernel.SumResult(withZeroSign(shortSum(a, b), a, b), a, b)
	}
	var acc [kernel.Lanes]T // +0, not the canonical -0: see withZeroSign
	kernel.Dot(acc[:], a, b)
	return kernel.SumResult(withZeroSign(kernel.SumTree(acc[:]), a, b), a, b)
}

// SumSq returns the sum of the squares a[i]*a[i], each rounded to T, in the
// canonical order: the square of the Euclidean norm. On an integer type it
// wraps around in T: the bits of the plain loop s += a[i]*a[i]. The sum of
// no elements is +0.
func SumSq[T Number](a []T) T {
	if len(a) == 0 {
		return 0
	}
	if len(a) <= smallReduce {
		return kernel.SumResult(withZeroSign(shortSum(a, a), a, a), a, nil)
	}
	var acc [kernel.Lanes]T // +0, not the canonical -0: see withZeroSign
	kernel.SumSq(acc[:], a)
	return kernel.SumResult(withZeroSign(kernel.SumTree(acc[:]), a, a), a, nil)
}

// MinOf returns the least element of a by Go's min: -0 is below +0, and if
// any element is a NaN the result is the first NaN, exactly as it is in a.
// On an integer type it is the least value. It panics if a is empty.
func MinOf[T Number](a []T) T {
	mustNotEmpty("MinOf", len(a))
	if onePassArg[T](len(a)) {
		return valueByGoRules(a, kernel.LeastBits(a), false)
	}
	if m := minOf(a); m == m {
		return m
	}
	return a[kernel.FindNaN(a)]
}

// MaxOf returns the greatest element of a by Go's max: +0 is above -0, and
// if any element is a NaN the result is the first NaN, exactly as it is in
// a. On an integer type it is the greatest value. It panics if a is empty.
func MaxOf[T Number](a []T) T {
	mustNotEmpty("MaxOf", len(a))
	if onePassArg[T](len(a)) {
		return valueByGoRules(a, kernel.GreatestBits(a), true)
	}
	if m := maxOf(a); m == m {
		return m
	}
	return a[kernel.FindNaN(a)]
}

// ArgMin returns the index of MinOf(a) in a: the first index of the least
// element (-0 below +0), or the first index of a NaN if there is one. It
// panics if a is empty.
func ArgMin[T Number](a []T) int {
	mustNotEmpty("ArgMin", len(a))
	if onePassArg[T](len(a)) {
		return byGoRules(a, kernel.ArgMin(a), false)
	}
	return indexOf(a, minOf(a))
}

// ArgMax returns the index of MaxOf(a) in a: the first index of the
// greatest element (+0 above -0), or the first index of a NaN if there is
// one. It panics if a is empty.
func ArgMax[T Number](a []T) int {
	mustNotEmpty("ArgMax", len(a))
	if onePassArg[T](len(a)) {
		return byGoRules(a, kernel.ArgMax(a), true)
	}
	return indexOf(a, maxOf(a))
}

// onePassArg tells ArgMax and ArgMin to run the one-pass kernels: a slice
// of floats longer than smallExtreme, with kernels for them.
func onePassArg[T Number](n int) bool {
	return n > smallExtreme && kernel.IsFloat[T]() && kernel.OnePassArg[T]()
}

// byGoRules turns the one-pass kernels' index i (the first extreme by the
// ordered comparison, where -0 and +0 tie; -1 when a holds a NaN) into
// ArgMax's (greatest) or ArgMin's: the first NaN; and where the extreme
// found is the zero that loses to the other one (-0 for a max), the first
// zero of the other sign if a has one. Both are rare searches of their own.
func byGoRules[T Number](a []T, i int, greatest bool) int {
	if i < 0 {
		return kernel.FindNaN(a)
	}
	// No math.Signbit or Copysign: this compiles in the caller's package,
	// where they would be calls (see TestSmallPathsCallNothing).
	if a[i] != 0 || (1/float64(a[i]) < 0) != greatest {
		return i
	}
	other := T(0) // +0 beats -0 in a max
	if !greatest {
		other = -other // a negation at run time: -0
	}
	if j := kernel.FindBits(a, other); j < len(a) {
		return j
	}
	return i
}

// valueByGoRules turns the bits b that the value kernels GreatestBits and
// LeastBits found (-1 when a holds a NaN, +0's for a zero of either sign)
// into MaxOf's (greatest) or MinOf's result: the first NaN; and for a
// zero, the sign Go's max (min) prefers if a has a zero of it. Both are
// rare searches of their own.
func valueByGoRules[T Number](a []T, b int, greatest bool) T {
	if b == -1 {
		return a[kernel.FindNaN(a)]
	}
	v := kernel.FromExtremeBits[T](b)
	if v != 0 {
		return v
	}
	preferred, other := T(0), T(0) // +0 beats -0 in a max
	if greatest {
		other = -other // a negation at run time: -0
	} else {
		preferred = -preferred
	}
	if kernel.FindBits(a, preferred) < len(a) {
		return preferred
	}
	return other
}

// minOf is Go's min over a: a NaN (any) when a has one.
func minOf[T Number](a []T) T {
	if len(a) <= smallExtreme {
		return kernel.Least(a)
	}
	var st [kernel.Lanes]T
	acc := kernel.MinStart(&st)
	kernel.MinOf(acc, a)
	return kernel.Least(acc)
}

// maxOf is Go's max over a: a NaN (any) when a has one.
func maxOf[T Number](a []T) T {
	if len(a) <= smallExtreme {
		return kernel.Greatest(a)
	}
	var st [kernel.Lanes]T
	acc := kernel.MaxStart(&st)
	kernel.MaxOf(acc, a)
	return kernel.Greatest(acc)
}

// indexOf returns the first index of a NaN when m is one, else the first
// index of m's bits (so -0 and +0 are told apart).
func indexOf[T Number](a []T, m T) int {
	if m != m {
		return kernel.FindNaN(a)
	}
	return kernel.FindBits(a, m)
}

// mustNotEmpty panics, naming the call, for an empty slice: a least or
// greatest element of nothing does not exist.
func mustNotEmpty(call string, n int) {
	if n == 0 {
		panic("elem: " + call + " of an empty slice")
	}
}

// smallReduce is the length up to which the reductions run a loop of
// their own rather than set up Lanes accumulators and call a kernel, which
// costs 30 to 40 ns however short the slice.
const smallReduce = 16

// smallExtreme is that length for MinOf, MaxOf, ArgMin and ArgMax, whose
// loop costs about 1.4 ns an element against the kernel path's 80 ns
// (Intel Xeon model 207, float32).
const smallExtreme = 32

// shortSum is the sum of the terms of a slice of at most 16 elements (a[j],
// or a[j]*b[j] rounded to T when b is not nil) in the canonical order, but
// from +0 (see withZeroSign). Each term is alone in its lane, and the
// canonical tree adds the empty lanes to each of the first 16 lanes at its
// first level (lane j + lane j+16), and to each of the first 8 at its
// second when there are at most 8 terms: what is left is the tree over 16
// or 8 lanes, the missing terms zeros. NaNs are not told apart here:
// SumResult picks the first NaN of the inputs whenever the sum is one.
func shortSum[T Number](a, b []T) T {
	var l [16]T
	if b == nil {
		copy(l[:], a)
	} else {
		b = b[:len(a)]
		for j, x := range a {
			l[j] = T(x * b[j])
		}
	}
	if len(a) > 8 {
		for j := range 8 {
			l[j] = l[j] + l[j+8]
		}
	}
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

// withZeroSign returns s, a sum in the canonical order of the terms of a
// (a[i], or a[i]*b[i] rounded to T when b is not nil) but from
// accumulators that started at +0, as the canonical -0 would have given
// it. Zeroing them costs nothing, where filling them with -0 was a third of
// a Sum of 64 float32. The two differ only in a lane whose every term is -0
// (+0 there for -0: a lane holds -0 only then, as x + y is -0 only for
// -0 + -0), and a tree of sums is -0 only when every lane is -0: s is
// then +0 for the canonical -0 (or -0 already, from a short tree that met
// no empty lane), which every term being -0 tells apart. The look at the
// terms stops at the first that is not -0.
func withZeroSign[T Number](s T, a, b []T) T {
	if s != 0 || !isFloat[T]() {
		return s
	}
	for i, x := range a {
		if b != nil {
			x = T(x * b[i])
		}
		if x != 0 || 1/x > 0 {
			return s
		}
	}
	var zero T
	return -zero
}
