package kernel

import "math"

// The complex products. Go's compiler multiplies complex64 values in
// float64 (each product of two float32 parts is exact there, the sum and
// difference round once in float64, then once to float32), so a fused
// multiply-add cannot change a complex64 product: the plain loop is
// reproducible and these are its bits. complex128 products are rounded
// each before the sum, never fused (Go's compiler fuses them on arm64 and
// on amd64 from GOAMD64=v3): the explicit conversions forbid the fusion.

//
// A NaN part of a product or quotient is the quiet NaN of positive sign
// and no payload (0x7fc00000, 0x7ff8000000000000): which of two NaN
// operands an operation returns differs between CPUs, and Go's compiler
// takes the operands of a commutative operation in either order (the same
// code inlined at two places can give two NaNs), so no payload rule would
// give the same bits everywhere.

// MulC64 returns a*b with the bits of Go's a*b for complex64, NaN parts
// made the quiet NaN.
func MulC64(a, b complex64) complex64 {
	ar, ai, br, bi := float64(real(a)), float64(imag(a)), float64(real(b)), float64(imag(b))
	return complex(float32(quiet(ar*br-ai*bi)), float32(quiet(ar*bi+ai*br)))
}

// MulC128 returns a*b: (ar·br − ai·bi, ar·bi + ai·br), every product
// rounded, NaN parts made the quiet NaN.
func MulC128(a, b complex128) complex128 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	return complex(quiet(float64(ar*br)-float64(ai*bi)), quiet(float64(ar*bi)+float64(ai*br)))
}

// quiet returns x, or the quiet NaN for any NaN.
func quiet(x float64) float64 {
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
	return complex(quiet(e), quiet(f))
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

// MulComplex64 sets dst[i] = a[i]*b[i], or a[i]*conj(b[i]) when conj is
// set, for i < len(dst) (a and b at least as long): the kernel of the
// implementation in use over whole steps, MulC64 over the rest.
func MulComplex64(dst, a, b []complex64, conj bool) {
	done := mulComplexKernel(dst, a, b, conj)
	a, b = a[:len(dst)], b[:len(dst)]
	for i := done; i < len(dst); i++ {
		y := b[i]
		if conj {
			y = conj64(y)
		}
		dst[i] = MulC64(a[i], y)
	}
}

// MulComplex128 is MulComplex64 for complex128.
func MulComplex128(dst, a, b []complex128, conj bool) {
	done := mulComplexKernel(dst, a, b, conj)
	a, b = a[:len(dst)], b[:len(dst)]
	for i := done; i < len(dst); i++ {
		y := b[i]
		if conj {
			y = conj128(y)
		}
		dst[i] = MulC128(a[i], y)
	}
}
