package registry

import (
	"math/big"
)

// expParts2 is e^z for z of expFast's range as vh + vl: the rounded
// result and its rounding error (s - vh is exact, vh being within 2% of s,
// so the fused s*t + (s - vh) is the error to within its own rounding).
func (b *mathBuilder) expParts2(z int) (vh, vl int) {
	e := b.expFast(z, false)
	return e.res, b.fma(e.t, e.s, b.sub(e.s, e.res))
}

// quotient is (nh + nl)/(dh + dl) for small nl, dl, rounded once: the
// quotient of the high parts by q = 1/dh, corrected by its exact
// remainder and the low parts (one division).
func (b *mathBuilder) quotient(nh, nl, dh, dl int) int {
	q := b.div(b.f(1), dh)
	y0 := b.mul(nh, q)
	c := b.fnma(y0, dl, b.add(b.fnma(y0, dh, nh), nl))
	return b.fma(c, q, y0)
}

// sigmoidProgram is 1/(1 + e^-x): v = e^-|x| as vh + vl, the denominator
// 1 + v summed exactly, and 1/(1 + v) (x >= 0) or v/(1 + v) (x < 0) by
// quotient, so that the one rounding that matters is the last. Beyond
// exp's range (a block), e^x (x < 0, subnormal or 0: there v/(1 + v)
// rounds as v does) or 1; a NaN quieted.
func sigmoidProgram(t Type) *MathProgram {
	b := newMath("sigmoid", t, 1)
	fb := bitsOf(t)
	x := b.in(0)
	vh, vl := b.expParts2(b.or(x, b.bits(b.signBit()))) // e^-|x|
	one := b.f(1)
	dh, dl := b.fastTwoSum(one, vh, vl)
	neg := b.lt(x, b.f(0))
	y := b.quotient(b.sel(neg, vh, one), b.sel(neg, vl, b.f(0)), dh, dl)
	bound := expBounds[[2]int{t.Bits, 0}][0]
	out := b.nlt(b.abs(x), b.f(bound))
	b.p.Out = b.block(out, []int{y}, func() []int {
		r := b.sel(b.lt(x, b.f(0)), b.expOutside(x, b.expFast(x, false), false), one)
		return []int{b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)}
	})[0]
	return b.p
}

// tanhProgram is tanh x: below tanhSmall in magnitude x + x^3*P(x^2)
// (minimax), else (1 - v)/(1 + v) with v = e^(-2|x|) as vh + vl, both
// sums exact and the quotient rounded once (quotient), with x's sign; ±1
// from where tanh rounds to it; a NaN quieted.
func tanhProgram(t Type) *MathProgram {
	b := newMath("tanh", t, 1)
	x := b.in(0)
	sign := b.bits(b.signBit())
	ax := b.abs(x)
	vh, vl := b.expParts2(b.or(b.mul(x, b.f(2)), sign)) // e^(-2|x|)
	one := b.f(1)
	nh := b.sub(one, vh)
	nl := b.sub(b.sub(b.sub(one, nh), vh), vl) // 1 - vh exactly less nh, then -vl
	dh, dl := b.fastTwoSum(one, vh, vl)
	y := b.quotient(nh, nl, dh, dl)
	// Beyond 9.1 (float64: 19.1) 1 - tanh|x| = 2e^(-2|x|)/(1+e^(-2|x|)) is
	// under a quarter ulp of 1.
	big := 9.125
	if t.Bits == 64 {
		big = 19.125
	}
	y = b.sel(b.lt(ax, b.f(big)), y, one)
	// The polynomial is a block: only vectors with a lane under small take
	// it (a third of them for arguments spread over (-10, 10)).
	small := tanhSmall(t)
	y = b.block(b.lt(ax, b.f(small)), []int{y}, func() []int {
		z := b.mul(x, x)
		p := b.horner(z, tanhPoly(t, small)...)
		return []int{b.fma(b.mul(z, x), p, x)}
	})[0]
	return b.finish(b.or(y, b.and(x, sign))) // x's sign: tanh(-0) = -0 too
}

// tanhSmall is the bound of tanh's polynomial: where the quotient's
// cancellation (1 - v for v near 1) would cost more than the polynomial.
func tanhSmall(t Type) float64 {
	if t.Bits == 64 {
		return 0.25
	}
	return 0.25
}

// tanhPoly is P of tanh x = x + x^3*P(x^2) on |x| < small: minimax for
// tanh's relative error.
func tanhPoly(t Type, small float64) []float64 {
	deg := 11 // the last power of x
	if t.Bits == 64 {
		deg = 21
	}
	var pows []int
	for p := 3; p <= deg; p += 2 {
		pows = append(pows, p)
	}
	target := fitTarget{f: func(x *big.Float) *big.Float { return bnew().Sub(bigTanh(x), x) }, w: relative(bigTanh).w}
	c, _ := minimax(target, 0, small*(1+1.0/256), pows)
	return roundCoefs(t, c)
}

// bigTanh is tanh x = (e^2x - 1)/(e^2x + 1) at the fit's precision.
func bigTanh(x *big.Float) *big.Float {
	e := bigExp(bnew().Mul(x, bf(2)))
	return bnew().Quo(bnew().Sub(e, bf(1)), bnew().Add(e, bf(1)))
}
