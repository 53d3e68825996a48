package elem

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/simdkit/elem/internal/elemtype"
	"github.com/simdkit/elem/internal/kernel"
)

// Complex is the element type of the complex calls: complex64 and
// complex128 and types defined on them, stored as Go stores them (the
// real part, then the imaginary part). Add, Sub, Mul, Div, Exp, Sum and
// Dot take them beside the real types, and so do broadcast's Apply, Run
// and ApplyView (Add, Sub, Mul, Div); Conj, MulConj, Scale, ScaleReal,
// Magnitude, Phase, Real, Imag, FromParts, DotConj and ConvertComplex are
// theirs.
//
// Their bits are defined and the same on every CPU:
//   - Add and Sub work on the parts: the real calls' bits.
//   - Mul is (ar·br − ai·bi, ar·bi + ai·br) with every product rounded,
//     never fused. complex64 is multiplied in float64, as Go's compiler
//     does it: each product of float32 parts is exact there, so the plain
//     loop's bits are these, fused or not. complex128 products round in
//     float64 each, which the plain loop does not promise: Go's compiler
//     fuses them on arm64 and on amd64 from GOAMD64=v3 (golang/go#36971).
//   - Exp is e^(x+iy) = (e^x·cos y, e^x·sin y) by Exp, Cos and Sin on the
//     parts (within 1 ulp each), the products rounded: each part within
//     about 2.5 ulp of its exact value where e^x is finite; math/cmplx's
//     special cases for infinite and NaN real parts.
//   - Div is Go's runtime algorithm (Smith's, then C99's corrections for
//     infinities and zeros where both parts come out NaN), in float64 for
//     both types, every operation rounded on its own.
//   - A NaN part of a product, quotient or sum is the quiet NaN of positive
//     sign and no payload (0x7fc00000, 0x7ff8000000000000): which of two
//     NaNs an operation returns differs between CPUs, and Go's compiler
//     swaps the operands of a commutative operation as it likes, so no
//     payload rule would give the same bits everywhere.
type Complex interface {
	~complex64 | ~complex128
}

// complexAdd is Add on complex values: Add on their parts.
func complexAdd[T Number | Complex](dst, a, b []T) {
	if elemtype.KindOf[T]() == elemtype.Complex64 {
		Add(elemtype.Recast[float32](dst), elemtype.Recast[float32](a), elemtype.Recast[float32](b))
		return
	}
	Add(elemtype.Recast[float64](dst), elemtype.Recast[float64](a), elemtype.Recast[float64](b))
}

// complexSub is Sub on complex values: Sub on their parts.
func complexSub[T Number | Complex](dst, a, b []T) {
	if elemtype.KindOf[T]() == elemtype.Complex64 {
		Sub(elemtype.Recast[float32](dst), elemtype.Recast[float32](a), elemtype.Recast[float32](b))
		return
	}
	Sub(elemtype.Recast[float64](dst), elemtype.Recast[float64](a), elemtype.Recast[float64](b))
}

// complexMul is Mul on complex values.
func complexMul[T Number | Complex](dst, a, b []T) { mulComplex(dst, a, b, false) }

// mulComplex sets dst[i] = a[i]*b[i], or a[i]*conj(b[i]) when conj is set.
func mulComplex[T Number | Complex](dst, a, b []T, conj bool) {
	if elemtype.KindOf[T]() == elemtype.Complex64 {
		kernel.MulComplex(elemtype.Recast[complex64](dst), elemtype.Recast[complex64](a), elemtype.Recast[complex64](b), conj)
		return
	}
	kernel.MulComplex(elemtype.Recast[complex128](dst), elemtype.Recast[complex128](a), elemtype.Recast[complex128](b), conj)
}

// complexDiv is Div on complex values.
func complexDiv[T Number | Complex](dst, a, b []T) {
	if elemtype.KindOf[T]() == elemtype.Complex64 {
		kernel.DivComplex(elemtype.Recast[complex64](dst), elemtype.Recast[complex64](a), elemtype.Recast[complex64](b))
		return
	}
	kernel.DivComplex(elemtype.Recast[complex128](dst), elemtype.Recast[complex128](a), elemtype.Recast[complex128](b))
}

// MulConj sets dst[i] = a[i] * conj(b[i]): Mul with b's imaginary parts
// negated (their sign bits flipped), without the negated copy.
func MulConj[C Complex](dst, a, b []C) {
	if !fits(dst, a) || !fits(dst, b) {
		mustFit("MulConj", in("dst", dst), in("a", a), in("b", b))
	}
	mulComplex(dst, a, b, true)
}

// Conj sets dst[i] = conj(a[i]): the imaginary part's sign bit flipped
// (a NaN's too), the real part as it is.
func Conj[C Complex](dst, a []C) {
	if !fits(dst, a) {
		mustFit("Conj", in("dst", dst), in("a", a))
	}
	if elemtype.KindOf[C]() == elemtype.Complex64 {
		conjParts(elemtype.Recast[float32](dst), elemtype.Recast[float32](a))
		return
	}
	conjParts(elemtype.Recast[float64](dst), elemtype.Recast[float64](a))
}

func conjParts[F float32 | float64](dst, a []F) {
	a = a[:len(dst)]
	for i := 0; i+1 < len(dst); i += 2 {
		dst[i], dst[i+1] = a[i], -a[i+1]
	}
}

// complexPiece is the values a complex call takes at a time into buffers
// on the stack: Scale's repeated scalar, the split or joined parts of
// Magnitude, Phase, Real, Imag, FromParts and Exp.
const complexPiece = 256

// Scale sets dst[i] = a[i] * s, Mul's product by the complex scalar s.
func Scale[C Complex](dst, a []C, s C) {
	if !fits(dst, a) {
		mustFit("Scale", in("dst", dst), in("a", a))
	}
	var tile [complexPiece]C
	for i := range tile[:min(len(tile), len(dst))] {
		tile[i] = s
	}
	for lo := 0; lo < len(dst); lo += complexPiece {
		hi := min(lo+complexPiece, len(dst))
		mulComplex(dst[lo:hi], a[lo:hi], tile[:hi-lo], false)
	}
}

// ScaleReal sets dst[i] = (real(a[i])*s, imag(a[i])*s): each part scaled
// by the real s, rounded to the part type (s itself first rounds to
// float32 for complex64). It is not Mul by complex(s, 0), whose cross
// terms turn an infinite part into NaNs (Inf·0).
func ScaleReal[C Complex](dst, a []C, s float64) {
	if !fits(dst, a) {
		mustFit("ScaleReal", in("dst", dst), in("a", a))
	}
	if elemtype.KindOf[C]() == elemtype.Complex64 {
		MulScalar(elemtype.Recast[float32](dst), elemtype.Recast[float32](a), float32(s))
		return
	}
	MulScalar(elemtype.Recast[float64](dst), elemtype.Recast[float64](a), s)
}

// checkParts panics, naming the call, unless dst has the part type of a's
// values and a's length, and shares no memory with a.
func checkParts[F Float, C Complex](call string, dst []F, a []C) {
	partsOf[F, C](call)
	if !fitsAny(dst, a) {
		mustFit(call, in("dst", dst), in("a", a))
	}
}

// partsOf panics unless F is the part type of C (float32 for complex64,
// float64 for complex128), naming the call.
func partsOf[F Float, C Complex](call string) {
	var f F
	var c C
	if unsafe.Sizeof(c) != 2*unsafe.Sizeof(f) {
		panic(fmt.Sprintf("elem: %s: %T values have parts of %d bytes, not %T", call, c, unsafe.Sizeof(c)/2, f))
	}
}

// Magnitude sets dst[i] = |a[i]|, within 1 ulp, without overflow or
// underflow in between: +Inf if a part is infinite (even with a NaN one),
// else NaN if a part is NaN. complex128 values take Hypot (its bits);
// complex64 values s = re² + im² in float64 (exact squares, one
// rounding), then the float32 square root of s rounded to float32 where
// that is a float32 normal, else the float64 root of s rounded to float32:
// every step a correctly rounded operation, so the same bits everywhere,
// at the cost of float32 square roots. dst has the part type of a's values
// (float32 for complex64); another panics.
func Magnitude[F Float, C Complex](dst []F, a []C) {
	if elemtype.KindOf[C]() == elemtype.Complex64 {
		checkParts("Magnitude", dst, a)
		kernel.MagnitudeComplex64(elemtype.Recast[float32](dst), elemtype.Recast[complex64](a))
		return
	}
	parts("Magnitude", dst, a, func(d, re, im []F) { Hypot(d, re, im) })
}

// Phase sets dst[i] to the angle of a[i], Atan2(imag, real) as Atan2
// gives it: in [-Pi, Pi], within 1 ulp, Go's signed zeros and infinities.
// dst has the part type of a's values; another panics.
func Phase[F Float, C Complex](dst []F, a []C) {
	parts("Phase", dst, a, func(d, re, im []F) { Atan2(d, im, re) })
}

// Real sets dst[i] = real(a[i]).
func Real[F Float, C Complex](dst []F, a []C) {
	parts("Real", dst, a, func(d, re, _ []F) { copy(d, re) })
}

// Imag sets dst[i] = imag(a[i]).
func Imag[F Float, C Complex](dst []F, a []C) {
	parts("Imag", dst, a, func(d, _, im []F) { copy(d, im) })
}

// parts checks a call from a's values to dst's parts, then runs f on
// pieces of dst with a's real and imaginary parts split into buffers on
// the stack (by the transposition kernels: a piece of values is a block of
// two columns).
func parts[F Float, C Complex](call string, dst []F, a []C, f func(d, re, im []F)) {
	checkParts(call, dst, a)
	var buf [2 * complexPiece]F
	p := elemtype.Recast[F](a)
	for lo := 0; lo < len(dst); lo += complexPiece {
		n := min(complexPiece, len(dst)-lo)
		kernel.Transpose[F](unsafe.Pointer(&buf[0]), complexPiece, unsafe.Pointer(&p[2*lo]), 2, n, 2)
		f(dst[lo:lo+n], buf[:n], buf[complexPiece:complexPiece+n])
	}
}

// FromParts sets dst[i] = complex(re[i], im[i]). re and im have the part
// type of dst's values; another panics.
func FromParts[C Complex, F Float](dst []C, re, im []F) {
	partsOf[F, C]("FromParts")
	if !fitsAny(dst, re) || !fitsAny(dst, im) {
		mustFit("FromParts", in("dst", dst), in("re", re), in("im", im))
	}
	var buf [2 * complexPiece]F
	p := elemtype.Recast[F](dst)
	for lo := 0; lo < len(dst); lo += complexPiece {
		n := min(complexPiece, len(dst)-lo)
		copy(buf[:n], re[lo:lo+n])
		copy(buf[complexPiece:complexPiece+n], im[lo:lo+n])
		kernel.Transpose[F](unsafe.Pointer(&p[2*lo]), 2, unsafe.Pointer(&buf[0]), complexPiece, 2, n)
	}
}

// ConvertComplex sets dst[i] = D(src[i]): each part converted as Convert
// converts floats (complex64 to complex128 exact, the other way rounded to
// nearest even, NaN payloads kept as the conversion keeps them): Go's
// conversion's bits.
func ConvertComplex[D, S Complex](dst []D, src []S) {
	if !fitsAny(dst, src) {
		mustFit("ConvertComplex", in("dst", dst), in("src", src))
	}
	switch d, s := elemtype.KindOf[D]() == elemtype.Complex64, elemtype.KindOf[S]() == elemtype.Complex64; {
	case d && s:
		Convert(elemtype.Recast[float32](dst), elemtype.Recast[float32](src))
	case d:
		Convert(elemtype.Recast[float32](dst), elemtype.Recast[float64](src))
	case s:
		Convert(elemtype.Recast[float64](dst), elemtype.Recast[float32](src))
	default:
		Convert(elemtype.Recast[float64](dst), elemtype.Recast[float64](src))
	}
}

// complexSum returns the sum of a's values, or of the products a[i]*b[i]
// (a[i]*conj(b[i]) when conj is set) as Mul gives them, in the canonical
// order of complex sums: Sum's 32 accumulators over the parts (value i's
// real part into accumulator 2i mod 32, its imaginary part into the next)
// and Sum's tree without its last step, which would add the two parts:
// acc[j] += acc[j+h] for h = 16, 8, 4, 2, then (acc[0], acc[1]). A NaN
// part is the quiet NaN; the sum of nothing is 0.
func complexSum[T Number | Complex](a, b []T, conj bool) T {
	if elemtype.KindOf[T]() == elemtype.Complex64 {
		return elemtype.As[T](complexSumOf[float32](elemtype.Recast[complex64](a), elemtype.Recast[complex64](b), conj))
	}
	return elemtype.As[T](complexSumOf[float64](elemtype.Recast[complex128](a), elemtype.Recast[complex128](b), conj))
}

func complexSumOf[F float32 | float64, C complex64 | complex128](a, b []C, conj bool) C {
	if len(a) == 0 {
		return 0
	}
	var acc [kernel.Lanes]F
	var zero F
	for j := range acc {
		acc[j] = -zero
	}
	if b == nil {
		kernel.Sum(acc[:], elemtype.Recast[F](a))
	} else {
		done := kernel.DotComplex(acc[:], a, b[:len(a)], conj)
		var prod [kernel.Lanes / 2]C // less than a round of the accumulators
		for lo := done; lo < len(a); lo += len(prod) {
			n := min(len(prod), len(a)-lo)
			mulComplex(prod[:n], a[lo:lo+n], b[lo:lo+n], conj)
			kernel.Sum(acc[:], elemtype.Recast[F](prod[:n]))
		}
	}
	for h := kernel.Lanes / 2; h >= 2; h /= 2 {
		for j := range h {
			acc[j] += acc[j+h]
		}
	}
	sum := [2]F{acc[0], acc[1]}
	for k, x := range sum {
		if x != x {
			sum[k] = F(math.Float64frombits(0x7ff8000000000000))
		}
	}
	return elemtype.As[C](sum)
}

// DotConj returns the sum of a[i]*conj(b[i]) (MulConj's products) in the
// canonical order of complex sums (see Dot): the inner product of a and b
// that is linear in a; conj(DotConj(a, b)) is BLAS's dotc of a and b,
// which conjugates its first argument. It panics if the lengths differ.
func DotConj[C Complex](a, b []C) C {
	if len(a) != len(b) {
		panic(fmt.Sprintf("elem: DotConj: slice lengths differ: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	return complexSum(a, b, true)
}

// complexExp is Exp on complex values: e^(x+iy) = (e^x·cos y, e^x·sin y),
// math/cmplx's formula and special cases, with elem's Exp, Cos and Sin
// (within 1 ulp each) and the products rounded, so each part is within
// about 2.5 ulp of r·cos y and r·sin y; e^x overflows past the largest
// float as elem's Exp does (Inf·cos y, as in math/cmplx). Infinite real
// parts: e^(+Inf+0i) is itself, e^(±Inf+iy) for an infinite or NaN y is
// (+0, ±0) for -Inf and (+Inf, NaN) for +Inf; e^(NaN±0i) is (NaN, ±0). A
// NaN part is the quiet NaN.
func complexExp[T Float | Complex](dst, a []T) {
	if elemtype.KindOf[T]() == elemtype.Complex64 {
		expParts(elemtype.Recast[float32](dst), elemtype.Recast[float32](a))
		return
	}
	expParts(elemtype.Recast[float64](dst), elemtype.Recast[float64](a))
}

// expParts is complexExp on the parts of the values, a piece at a time:
// split, the kernels on the pieces, the special real parts fixed, joined.
func expParts[F float32 | float64](dst, a []F) {
	var split, out [2 * complexPiece]F
	var r [complexPiece]F
	nan := F(math.Float64frombits(0x7ff8000000000000))
	for lo := 0; lo < len(dst)/2; lo += complexPiece {
		n := min(complexPiece, len(dst)/2-lo)
		kernel.Transpose[F](unsafe.Pointer(&split[0]), complexPiece, unsafe.Pointer(&a[2*lo]), 2, n, 2)
		x, y := split[:n], split[complexPiece:complexPiece+n]
		re, im := out[:n], out[complexPiece:complexPiece+n]
		Exp(r[:n], x)
		Cos(re, y)
		Sin(im, y)
		Mul(re, r[:n], re)
		Mul(im, r[:n], im)
		for j, v := range x {
			inf := v-v != v-v // ±Inf or NaN
			switch {
			case inf && v == v: // ±Inf
				switch {
				case v > 0 && y[j] == 0:
					re[j], im[j] = v, y[j]
				case y[j]-y[j] != y[j]-y[j]: // y infinite or NaN
					if v < 0 {
						re[j], im[j] = 0, F(math.Copysign(0, float64(y[j])))
					} else {
						re[j], im[j] = v, nan
					}
				}
			case inf && y[j] == 0: // NaN ± 0i
				re[j], im[j] = nan, y[j]
			}
			if re[j] != re[j] {
				re[j] = nan
			}
			if im[j] != im[j] {
				im[j] = nan
			}
		}
		kernel.Transpose[F](unsafe.Pointer(&dst[2*lo]), 2, unsafe.Pointer(&out[0]), complexPiece, 2, n)
	}
}
