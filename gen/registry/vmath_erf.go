package registry

import "math/big"

// erf32Program is erf on float32 without a division: below 1 in
// magnitude x + x*P(x^2) (minimax, degree 13: x's own coefficient 2/sqrt(pi)
// held as 1 plus a small part, so that its rounding is small); up to
// 3.92, where erf rounds to 1, 1 - e^(-x^2)*G(|x|) with G minimax of
// erfcx(x) = e^(x^2)*erfc(x) (degree 11), e^(-x^2) from expFast of -x^2's
// high part times 1 - its low part (x^2 in two parts, exact); 1 beyond;
// the sign of x. erf is at least 0.84 where erfc's rounding enters, so
// that a relative error of 2^-24 of erfc is under a quarter ulp of erf.
func erf32Program(t Type) *MathProgram {
	b := newMath("erf", t, 1)
	x := b.in(0)
	sign := b.bits(b.signBit())
	ax := b.abs(x)
	one := b.f(1)
	// |x| cut to [1, erfOne], outside of which this branch's result is
	// not used: e^(-x^2) of a larger |x| would be subnormal or garbage,
	// and a subnormal product costs Intel CPUs a microcode assist.
	al := b.min(b.max(ax, one), b.f(erfOne))
	h := b.mul(al, al)
	nl := b.fnma(al, al, h) // h - x^2: minus x^2's low part
	e := b.expFast(b.xor(h, sign), false)
	ex := b.fma(e.res, nl, e.res) // e^(-h)*(1 + (h - x^2)) = e^(-x^2) to 2^-48
	g := b.horner(b.sub(al, b.f(erfMid)), erfcxPoly(t)...)
	large := b.fnma(ex, g, one)
	large = b.sel(b.lt(ax, b.f(erfOne)), large, one)
	large = b.or(large, b.and(x, sign))
	// |x| < 1 last, so that its value is not held through the exponential:
	// the program's values then fit twice in AVX2's sixteen registers.
	// x^2 of |x| at least 2^-20: below, P(x^2) is P(0) all the same,
	// and the square of a tiny x would be subnormal.
	xs := b.max(ax, b.f(0x1p-20))
	z := b.mul(xs, xs)
	small := b.fma(x, b.horner(z, erfSmallPoly(t)...), x)
	r := b.sel(b.lt(ax, one), small, large)
	return b.finish(r)
}

// erfOne is where erf rounds to 1 in float32 (erfc under 2^-25).
const erfOne = 3.9375

// erfMid is the middle of G's interval, its variable's origin: a
// polynomial in |x| itself would have large coefficients of both signs,
// whose roundings add up far beyond G's own rounding.
const erfMid = (1 + erfOne) / 2

// bigErf is erf x by its series, for |x| <= 6 at the fit's precision
// (the terms' cancellation loses under 60 of its bits).
func bigErf(x *big.Float) *big.Float {
	x2 := bnew().Mul(x, x)
	sum, term := bnew().Set(x), bnew().Set(x) // term = (-1)^n x^(2n+1)/n!
	for n := 1; n < 600; n++ {
		term.Mul(term, x2)
		term.Quo(term, bf(float64(-n)))
		t := bnew().Quo(term, bf(float64(2*n+1)))
		sum.Add(sum, t)
		if t.Sign() == 0 || t.MantExp(nil) < sum.MantExp(nil)-minimaxPrec-70 {
			break
		}
	}
	return sum.Mul(sum, bnew().Quo(bf(2), bnew().Sqrt(bigPi(minimaxPrec))))
}

// erfSmallPoly is P of erf x = x + x*P(x^2) on |x| < 1.
func erfSmallPoly(t Type) []float64 {
	target := fitTarget{f: func(x *big.Float) *big.Float { return bnew().Sub(bigErf(x), x) }, w: relative(bigErf).w}
	c, _ := minimax(target, 0, 1, []int{1, 3, 5, 7, 9, 11, 13})
	return roundCoefs(t, c)
}

// erfcxPoly is G, minimax of erfcx(erfMid + u) on [1, erfOne] - erfMid
// for its relative error.
func erfcxPoly(t Type) []float64 {
	erfcx := func(u *big.Float) *big.Float {
		x := bnew().Add(u, bf(erfMid))
		e := bnew().Sub(bf(1), bigErf(x))
		return e.Mul(e, bigExp(bnew().Mul(x, x)))
	}
	var pows []int
	for p := 0; p <= 11; p++ {
		pows = append(pows, p)
	}
	c, _ := minimax(relative(erfcx), 1-erfMid, erfOne-erfMid, pows)
	return roundCoefs(t, c)
}
