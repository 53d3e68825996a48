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
// quotient, so that the one rounding that matters is the last. From
// -sigmoidTiny down (a block), exp's e^x (0 or subnormal where exp's
// range ends): v/(1 + v) differs from v by a relative v there, under
// 2^-62 (float64: 2^-505), so that exp's error bound holds for it; a NaN
// quieted.
//
// The argument of e^-|x| is kept from making subnormal numbers where the
// result does not need them, for they cost Intel CPUs a microcode assist
// each (sigmoid over x in [80, 97.5] took 6.9 ns per element on a Xeon
// model 167, against 0.39 over [-10, 10]): from sigmoidOne on, where the
// result is 1, |x| is taken as sigmoidOne, and below -sigmoidTiny, where
// the block gives the results, as sigmoidTiny: there the quotient's
// product of v and its low part, about v^2, is normal (float32 v^2 is
// subnormal from x = -43.7 on, float64 from -354; vl, the rounding error
// of vh, from -70.7 and -671.7).
func sigmoidProgram(t Type) *MathProgram {
	b := newMath("sigmoid", t, 1)
	fb := bitsOf(t)
	x := b.in(0)
	tiny := sigmoidTiny(t)
	neg := b.lt(x, b.f(0))
	// -|x| is also cut at -sigmoidHalf, from where the result is 1/2 and
	// e^-|x| would square |x| into a subnormal number.
	arg := b.max(b.or(x, b.bits(b.signBit())), b.sel(neg, b.f(-tiny), b.f(-sigmoidOne(t))))
	vh, vl := b.expParts2(b.min(arg, b.f(-sigmoidHalf(t))))
	one := b.f(1)
	dh, dl := b.fastTwoSum(one, vh, vl)
	y := b.quotient(b.sel(neg, vh, one), b.sel(neg, vl, b.f(0)), dh, dl)
	out := b.nlt(b.f(-tiny), x) // x <= -tiny, or a NaN
	b.p.Out = b.block(out, []int{y}, func() []int {
		r := b.expOutside(x, b.expFast(b.expFloor(x, false), false), false)
		return []int{b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)}
	})[0]
	return b.p
}

// sigmoidOne is an x from which sigmoid x rounds to 1 on t: e^-x is
// below 2^-25 (float64: 2^-54) from 17.33 (37.43) on.
func sigmoidOne(t Type) float64 { return perType(t, 20, 40) }

// sigmoidHalf is an |x| below which sigmoid x rounds to 1/2: |x|/4 is
// far under half an ulp of 1/2 below it (2^-26; float64: 2^-55).
func sigmoidHalf(t Type) float64 { return perType(t, 0x1p-30, 0x1p-60) }

// sigmoidTiny is where sigmoid's block starts, -sigmoidTiny: e^x is
// normal from there to the common path, and v^2 above it.
func sigmoidTiny(t Type) float64 { return perType(t, 43, 350) }

// tanhProgram is tanh x: below tanhSmall in magnitude x + x^3*P(x^2)
// (minimax), else (1 - v)/(1 + v) with v = e^(-2|x|) as vh + vl, both
// sums exact and the quotient rounded once (quotient), with x's sign; ±1
// from where tanh rounds to it; a NaN quieted.
func tanhProgram(t Type) *MathProgram {
	b := newMath("tanh", t, 1)
	x := b.in(0)
	sign := b.bits(b.signBit())
	ax := b.abs(x)
	// Beyond 9.1 (float64: 19.1) 1 - tanh|x| = 2e^(-2|x|)/(1+e^(-2|x|)) is
	// under a quarter ulp of 1.
	big := perType(t, 9.125, 19.125)
	// e^(-2|x|) of |x| up to big, whose results alone are kept: beyond
	// it the exponential would make subnormal numbers, which cost Intel
	// CPUs a microcode assist each (tanh over x in [20, 97.5] took 2.4 ns
	// per element on a Xeon model 167 instead of 0.5).
	// The same below tanhSmall, whose results the block gives: e^(-2|x|)
	// of a tiny |x| would square it into a subnormal number.
	small := tanhSmall(t)
	vh, vl := b.expParts2(b.or(b.mul(b.min(b.max(ax, b.f(small)), b.f(big)), b.f(2)), sign))
	one := b.f(1)
	nh := b.sub(one, vh)
	nl := b.sub(b.sub(b.sub(one, nh), vh), vl) // 1 - vh exactly less nh, then -vl
	dh, dl := b.fastTwoSum(one, vh, vl)
	y := b.quotient(nh, nl, dh, dl)
	y = b.sel(b.lt(ax, b.f(big)), y, one)
	// The polynomial is a block: only vectors with a lane under small take
	// it (a third of them for arguments spread over (-10, 10)).
	y = b.block(b.lt(ax, b.f(small)), []int{y}, func() []int {
		// |x| itself below tanhSmallest, where it is the result; the
		// polynomial of |x| cut there, whose square is normal.
		ax := b.abs(x)
		least := b.f(tanhSmallest(t))
		xc := b.max(ax, least)
		z := b.mul(xc, xc)
		p := b.horner(z, tanhPoly(t, small)...)
		return []int{b.sel(b.lt(ax, least), ax, b.fma(b.mul(z, xc), p, xc))}
	})[0]
	return b.finish(b.or(y, b.and(x, sign))) // x's sign: tanh(-0) = -0 too
}

// tanhSmall is the bound of tanh's polynomial: where the quotient's
// cancellation (1 - v for v near 1) would cost more than the polynomial.
func tanhSmall(Type) float64 { return 0.25 }

// tanhSmallest is where tanh x rounds to x: x^3/3 is under a quarter
// ulp of x below 2^-13 (float64: 2^-28).
func tanhSmallest(t Type) float64 { return perType(t, 0x1p-13, 0x1p-28) }

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
