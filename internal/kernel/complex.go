package kernel

import (
	"math"
	"unsafe"

	"github.com/simdkit/elem/internal/elemtype"
)

// The complex products are (ar·br − ai·bi, ar·bi + ai·br) with every
// product rounded to the part type, never fused: the explicit conversions
// forbid the fusion that Go's compiler applies to such expressions on
// arm64 and on amd64 from GOAMD64=v3. (Go's own complex64 product is
// taken in float64 and rounded to float32 at the end, other bits than
// these, which are NumPy's and C's.)
//
// A NaN part of a product or quotient is the quiet NaN of positive sign
// and no payload (0x7fc00000, 0x7ff8000000000000): which of two NaN
// operands an operation returns differs between CPUs, and Go's compiler
// takes the operands of a commutative operation in either order (the same
// code inlined at two places can give two NaNs), so no payload rule would
// give the same bits everywhere.

// MulC64 returns a*b, every product rounded to float32, NaN parts made the
// quiet NaN.
func MulC64(a, b complex64) complex64 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	return complex(plainNaN32(float32(ar*br)-float32(ai*bi)), plainNaN32(float32(ar*bi)+float32(ai*br)))
}

// MulC128 returns a*b, every product rounded, NaN parts made the quiet
// NaN.
func MulC128(a, b complex128) complex128 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	return complex(plainNaN(float64(ar*br)-float64(ai*bi)), plainNaN(float64(ar*bi)+float64(ai*br)))
}

// plainNaN32 returns x, or the quiet NaN for any NaN.
func plainNaN32(x float32) float32 {
	if x != x {
		return math.Float32frombits(0x7fc00000)
	}
	return x
}

// plainNaN returns x, or the quiet NaN for any NaN.
func plainNaN(x float64) float64 {
	if x != x {
		return math.Float64frombits(0x7ff8000000000000)
	}
	return x
}

// conj64 and conj128 flip the imaginary part's sign bit (a NaN's too).
func conj64(x complex64) complex64    { return complex(real(x), -imag(x)) }
func conj128(x complex128) complex128 { return complex(real(x), -imag(x)) }

// DivC128 returns a/b by the algorithm of Go's runtime (complex128div:
// Smith's, then C99's corrections where both parts are NaN), with every
// operation rounded on its own (the runtime's own code may be fused on
// arm64, this is not) and NaN parts made the quiet NaN.
func DivC128(n, m complex128) complex128 {
	var e, f float64
	if math.Abs(real(m)) >= math.Abs(imag(m)) {
		ratio := imag(m) / real(m)
		denom := real(m) + float64(ratio*imag(m))
		e = (real(n) + float64(imag(n)*ratio)) / denom
		f = (imag(n) - float64(real(n)*ratio)) / denom
	} else {
		ratio := real(m) / imag(m)
		denom := imag(m) + float64(ratio*real(m))
		e = (float64(real(n)*ratio) + imag(n)) / denom
		f = (float64(imag(n)*ratio) - real(n)) / denom
	}
	if math.IsNaN(e) && math.IsNaN(f) {
		a, b := real(n), imag(n)
		c, d := real(m), imag(m)
		inf := math.Inf(1)
		switch {
		case m == 0 && (!math.IsNaN(a) || !math.IsNaN(b)):
			e = math.Copysign(inf, c) * a
			f = math.Copysign(inf, c) * b
		case (math.IsInf(a, 0) || math.IsInf(b, 0)) && finite(c) && finite(d):
			a = math.Copysign(unit(math.IsInf(a, 0)), a)
			b = math.Copysign(unit(math.IsInf(b, 0)), b)
			e = inf * (float64(a*c) + float64(b*d))
			f = inf * (float64(b*c) - float64(a*d))
		case (math.IsInf(c, 0) || math.IsInf(d, 0)) && finite(a) && finite(b):
			c = math.Copysign(unit(math.IsInf(c, 0)), c)
			d = math.Copysign(unit(math.IsInf(d, 0)), d)
			e = 0 * (float64(a*c) + float64(b*d))
			f = 0 * (float64(b*c) - float64(a*d))
		}
	}
	return complex(plainNaN(e), plainNaN(f))
}

// DivC64 returns a/b as Go divides complex64 values: in complex128, by
// DivC128, rounded to complex64.
func DivC64(a, b complex64) complex64 { return complex64(DivC128(complex128(a), complex128(b))) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func unit(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// DivComplex sets dst[i] = a[i]/b[i] for i < len(dst) by DivC64 or
// DivC128, value by value: the algorithm's branches and corrections have
// no kernel.
func DivComplex[C complex64 | complex128](dst, a, b []C) {
	a, b = a[:len(dst)], b[:len(dst)]
	var zero C
	for i := range dst {
		if unsafe.Sizeof(zero) == 8 {
			dst[i] = elemtype.As[C](DivC64(elemtype.As[complex64](a[i]), elemtype.As[complex64](b[i])))
		} else {
			dst[i] = elemtype.As[C](DivC128(elemtype.As[complex128](a[i]), elemtype.As[complex128](b[i])))
		}
	}
}

// MulComplex sets dst[i] = a[i]*b[i], or a[i]*conj(b[i]) when conj is
// set, for i < len(dst) (a and b at least as long): the kernel of the
// implementation in use over whole steps, MulC64 or MulC128 over the rest.
func MulComplex[C complex64 | complex128](dst, a, b []C, conj bool) {
	done := mulComplexKernel(dst, a, b, conj)
	a, b = a[:len(dst)], b[:len(dst)]
	for i := done; i < len(dst); i++ {
		dst[i] = mulScalar(a[i], b[i], conj)
	}
}

// mulScalar is MulC64 or MulC128 of x and y (y's conjugate when conj is
// set).
func mulScalar[C complex64 | complex128](x, y C, conj bool) C {
	var zero C
	if unsafe.Sizeof(zero) == 8 {
		y64 := elemtype.As[complex64](y)
		if conj {
			y64 = conj64(y64)
		}
		return elemtype.As[C](MulC64(elemtype.As[complex64](x), y64))
	}
	y128 := elemtype.As[complex128](y)
	if conj {
		y128 = conj128(y128)
	}
	return elemtype.As[C](MulC128(elemtype.As[complex128](x), y128))
}

// MagC64 returns |z| for a complex64 z, within 1 ulp: s = re² + im² in
// float64 (the squares exact, one rounding), then the float32 square root
// of s rounded to float32 where that is a float32 normal (2^-126 <= s <=
// 2^127: the two roundings stay below one ulp together), else s's float64
// square root rounded to float32 (overflow and underflow impossible in
// between); +Inf if a part is infinite, else the quiet NaN if one is NaN.
// The same bits on every CPU: every step is a correctly rounded IEEE
// operation.
func MagC64(z complex64) float32 {
	re, im := float64(real(z)), float64(imag(z))
	if math.IsInf(re, 0) || math.IsInf(im, 0) {
		return float32(math.Inf(1))
	}
	s := re*re + im*im // the squares are exact: fused or not, one rounding
	if s >= 0x1p-126 && s <= 0x1p127 {
		return float32(math.Sqrt(float64(float32(s)))) // float32's correctly rounded root
	}
	return plainNaN32(float32(math.Sqrt(s)))
}

// MagnitudeComplex64 sets dst[i] = MagC64(a[i]) for i < len(dst): the
// kernel over whole groups, MagC64 over a group with a NaN (where the
// kernel stops) and over the tail.
func MagnitudeComplex64(dst []float32, a []complex64) {
	a = a[:len(dst)]
	i := 0
	for {
		done, group := magnitudeKernel(dst[i:], a[i:])
		i += done
		if group == 0 || len(dst)-i < group { // no kernel, or the tail
			break
		}
		for end := i + group; i < end; i++ {
			dst[i] = MagC64(a[i])
		}
	}
	for ; i < len(dst); i++ {
		dst[i] = MagC64(a[i])
	}
}
