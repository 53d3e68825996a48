package kernel

import (
	"math"
	"unsafe"
)

// This file holds what every implementation of the reductions shares: the
// accumulators' starting values and the combination of the accumulators
// into one value. A fold's kernels (reduce_generated.go) only update the
// accumulators, so the order of every addition after them is this Go code,
// the same on every CPU.

// SumStart returns st set to -0, the additive identity that keeps every
// value's bits (+0 + -0 is +0, -0 + -0 is -0): the state of a sum before
// its first element. For an integer type it is 0.
func SumStart[T Number](st *[Lanes]T) []T {
	return fill(st, negZero[T]())
}

// MinStart returns the state of a MinOf before its first element: +Inf,
// which every value but a NaN is at most, or an integer type's largest
// value.
func MinStart[T Number](st *[Lanes]T) []T {
	if isFloat[T]() {
		return fill(st, inf[T](1))
	}
	return fill(st, largest[T]())
}

// MaxStart returns the state of a MaxOf before its first element: -Inf,
// or an integer type's least value.
func MaxStart[T Number](st *[Lanes]T) []T {
	if isFloat[T]() {
		return fill(st, inf[T](-1))
	}
	return fill(st, -largest[T]()-1) // wraps to 0 for an unsigned type

}

// isFloat reports whether T is a floating-point type, a constant for each
// instantiation.
func isFloat[T Number]() bool { return typeOf[T]() <= tFloat64 }

// IsFloat reports whether T is a floating-point type, for the packages
// above the kernels.
func IsFloat[T Number]() bool { return isFloat[T]() }

// FloatsOf returns x's memory as a slice of F, for a float type T of F's
// size (a type defined on F): the kernels that only the float types have
// take it.
func FloatsOf[F float32 | float64, T Number](x []T) []F {
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}

// largest is the greatest value of the integer type T: all ones for an
// unsigned type, all ones but the sign bit for a signed one.
func largest[T Number]() T {
	bits := 8 * unsafe.Sizeof(T(0))
	ones := ^uint64(0) >> (64 - bits)
	var m1 T = 0
	if m1--; m1 > 0 {
		return T(ones)
	}
	return T(ones >> 1)
}

func fill[T Number](st *[Lanes]T, x T) []T {
	for i := range st {
		st[i] = x
	}
	return st[:]
}

// SumTree combines a sum's accumulators by the canonical pairwise tree and
// returns the result: while more than one is left, the first half becomes
// acc[j] + acc[j+h], h being half the count (j + 16, then j + 8, j + 4,
// j + 2, j + 1). The generated sumTree computes exactly that, in
// registers.
func SumTree[T Number](acc []T) T { return sumTree((*[Lanes]T)(acc)) }

// Least returns Go's min over a (at least one element): a NaN if any
// element is one, -0 below +0. Greatest is Go's max. They combine the
// accumulators of a MinOf or MaxOf, and run elem's short slices whole:
// the builtins' NaN and signed-zero cases on every element made the
// combining of 32 float32 accumulators cost 200 ns, and a loop of
// comparisons, whose branches the values decide, 65 ns; floats are
// compared as integers instead (floatKey), without a branch.
func Least[T Number](a []T) T { return extreme(a, false) }

// Greatest returns Go's max over a (at least one element), +0 above -0;
// see Least.
func Greatest[T Number](a []T) T { return extreme(a, true) }

// extreme is Greatest or Least.
func extreme[T Number](a []T, greatest bool) T {
	switch typeOf[T]() {
	case tFloat32:
		m, nan := extremeKey(FloatsOf[float32](a), greatest)
		return floatOrNaN[T](T(math.Float32frombits(uint32(m))), nan)
	case tFloat64:
		m, nan := extremeKey(FloatsOf[float64](a), greatest)
		return floatOrNaN[T](T(math.Float64frombits(m)), nan)
	}
	m := a[0]
	for _, x := range a[1:] {
		if greatest {
			m = max(m, x)
		} else {
			m = min(m, x)
		}
	}
	return m
}

// floatOrNaN is m, or a NaN if nan.
func floatOrNaN[T Number](m T, nan bool) T {
	if nan {
		var zero T
		return zero / zero
	}
	return m
}

// extremeKey returns the bits of the greatest (or least) element of a by
// floatKey's order, which is Go's max and min on the numbers (-0 below
// +0), and whether a NaN is among them: a NaN's key is above +Inf's or
// below -Inf's, so the greatest and the least keys tell.
func extremeKey[F float32 | float64](a []F, greatest bool) (uint64, bool) {
	hi := floatKey(a[0])
	lo := hi
	for _, x := range a[1:] {
		k := floatKey(x)
		hi, lo = max(hi, k), min(lo, k)
	}
	var inf F = F(math.Inf(1))
	nan := hi > floatKey(inf) || lo < floatKey(-inf)
	if greatest {
		return keyBits[F](hi), nan
	}
	return keyBits[F](lo), nan
}

// floatKey maps x to an integer that orders as x does, -0 just below +0:
// the magnitude bits of a negative x flipped.
func floatKey[F float32 | float64](x F) int64 {
	if unsafe.Sizeof(x) == 4 {
		b := int32(math.Float32bits(float32(x)))
		return int64(b ^ int32(uint32(b>>31)>>1))
	}
	b := int64(math.Float64bits(float64(x)))
	return b ^ int64(uint64(b>>63)>>1)
}

// keyBits is floatKey's inverse on the bits (the flip is its own inverse).
func keyBits[F float32 | float64](k int64) uint64 {
	var x F
	if unsafe.Sizeof(x) == 4 {
		b := int32(k)
		return uint64(uint32(b ^ int32(uint32(b>>31)>>1)))
	}
	return uint64(k ^ int64(uint64(k>>63)>>1))
}

// SumResult returns the result of a sum s (of a, or of the products of a
// and b when b is not nil) as elem defines it: s itself unless it is a NaN,
// which it replaces by the first NaN element (at the lowest index, a's
// before b's at one index) made quiet, or, when no element is a NaN (Inf -
// Inf, 0 * Inf), by DefaultNaN. CPUs differ in the NaN an addition
// returns (the first or the second operand's, or for Inf - Inf a negative
// or a positive one), so this is what makes a NaN sum the same everywhere;
// it costs a search only when the sum is a NaN. An integer sum is never
// one: it is s.
func SumResult[T Number](s T, a, b []T) T {
	if s == s {
		return s
	}
	i, x := FindNaN(a), a
	if b != nil {
		if j := FindNaN(b[:i]); j < i {
			i, x = j, b
		}
	}
	if i == len(a) {
		return DefaultNaN[T]()
	}
	return Quiet(x[i])
}

// is32 says whether T is 32 bits wide, a constant for each instantiation.
func is32[T Number]() bool { return unsafe.Sizeof(T(0)) == 4 }

// DefaultNaN is the positive quiet NaN with no payload (for float T;
// SumResult never asks for it on an integer type).
func DefaultNaN[T Number]() T {
	if is32[T]() {
		return T(math.Float32frombits(0x7fc00000))
	}
	return T(math.Float64frombits(0x7ff8000000000000))
}

// Quiet returns x with its quiet bit set: a signalling NaN becomes the
// quiet NaN an arithmetic operation would return for it, payload and sign
// kept; any other value is returned as it is.
func Quiet[T Number](x T) T {
	if x == x {
		return x
	}
	if is32[T]() {
		return T(math.Float32frombits(math.Float32bits(float32(x)) | 1<<22))
	}
	return T(math.Float64frombits(math.Float64bits(float64(x)) | 1<<51))
}

// negZero returns -0 in T, 0 for the integer types: the start of a sum.
// It and inf use no function of math, which would be a call where the
// reductions are compiled, in the user's package (see implFor).
func negZero[T Number]() T {
	var zero T
	return -zero
}

// inf returns the float infinity of sign's sign in T: the largest float64
// doubled, rounded to T.
func inf[T Number](sign float64) T {
	big := math.MaxFloat64 * sign
	return T(big * 2)
}

// extremeBits is the result of GreatestBits and LeastBits for their
// extreme m (not a NaN): m's bits as an int, +0's for either zero; an
// integer as itself (their generic loop serves integers too).
func extremeBits[T Number](m T) int {
	switch {
	case m == 0:
		return 0
	case typeOf[T]() == tFloat32:
		return int(math.Float32bits(float32(m)))
	case typeOf[T]() == tFloat64:
		return int(math.Float64bits(float64(m)))
	}
	return int(m)
}

// FromExtremeBits is the value whose bits GreatestBits or LeastBits gave
// (not -1, a NaN's).
func FromExtremeBits[T Number](b int) T {
	switch typeOf[T]() {
	case tFloat32:
		return T(math.Float32frombits(uint32(b)))
	case tFloat64:
		return T(math.Float64frombits(uint64(b)))
	}
	return T(b)
}

// joinExtremeBits is GreatestBits' (greatest) or LeastBits' result over
// two parts whose results are b and p: -1 if either holds a NaN, else the
// greater (lesser) value's bits.
func joinExtremeBits[T Number](b, p int, greatest bool) int {
	switch {
	case isFloat[T]() && (b == -1 || p == -1):
		return -1
	case greatest && FromExtremeBits[T](p) > FromExtremeBits[T](b), !greatest && FromExtremeBits[T](p) < FromExtremeBits[T](b):
		return p
	}
	return b
}
