package registry

import "math"

// lnHL is log x for x > 0 as hi + lo with about twice T's precision, as
// pow needs it (y*log x up to 745 in magnitude must be right to 2^-(p+2)):
// x = 2^k * m, m = (1+s)/(1-s) in [sqrt(2)/2, sqrt(2)), s = f/(2+f) in two
// parts, log m = 2s + 2s^3/3 + 2s^5/5 + ... (|s| <= 0.1716) with 2s,
// 2s^3/3 and 2s^5/5 in two parts and the rest, under 2^-18 of the whole,
// rounded; k ln 2 with an exact high part. The large terms are summed
// exactly and the small ones into their error.
func (b *mathBuilder) lnHL(x int) (hi, lo int) {
	t := b.p.T
	k, f := b.logReduce(x)
	two := b.f(2)
	dh, dl := b.fastTwoSum(two, f, -1)
	sh, sl := b.divHL2(f, b.f(0), dh, dl)
	zh, zl := b.mulHL(sh, sl, sh, sl)
	ch, cl := b.mulHL(zh, zl, sh, sl)    // s^3
	t3h, t3l := b.mulConst(ch, cl, 2, 3) // 2s^3/3
	c5h, c5l := b.mulHL(ch, cl, zh, zl)  // s^5
	t5h, t5l := b.mulConst(c5h, c5l, 2, 5)
	// 2s z^3 (1/7 + z/9 + ...), to the term under 2^-(p+16).
	var c []float64
	for n := 7; math.Pow(0.1716, float64(n-1))/float64(n) > math.Ldexp(1, -bitsOf(t).mant-17); n += 2 {
		c = append(c, 1/float64(n))
	}
	rest := b.mul(b.mul(b.add(sh, sh), b.mul(b.mul(zh, zh), zh)), b.horner(zh, c...))
	bits := 15
	if t.Bits == 64 {
		bits = 40
	}
	l2h, l2l := splitConstBits(t, bigLn2(), bits)
	sa, ea := b.twoSum(b.mul(k, b.f(l2h)), b.add(sh, sh))
	sb, eb := b.twoSum(sa, t3h)
	sc, ec := b.twoSum(sb, t5h)
	small := b.add(b.add(b.add(ea, eb), b.add(ec, b.add(sl, sl))), b.add(b.add(t3l, t5l), b.add(rest, b.mul(k, b.f(l2l)))))
	return b.fastTwoSum(sc, small, -1)
}

// mulConst is (h + l)*num/den, the constant in two parts (see mulHL).
func (b *mathBuilder) mulConst(h, l int, num, den int64) (int, int) {
	ch, cl := splitConst(b.p.T, newBig().Quo(newBig().SetInt64(num), newBig().SetInt64(den)))
	return b.mulHL(h, l, b.f(ch), b.f(cl))
}

// mulHL is (ah + al)*(bh + bl) as hi + lo: the high product exact in two
// parts, the cross terms added to its error.
func (b *mathBuilder) mulHL(ah, al, bh, bl int) (int, int) {
	h, l := b.twoProd(ah, bh)
	return h, b.fma(al, bh, b.fma(ah, bl, l))
}

// powProgram is x^y: e^(y log|x|) with log|x| in two parts (lnHL), their
// product with y in two parts and e^ of that sum (expCoreLo), the sign of
// x for an odd integer y; Go's special cases by selects (math.Pow's list),
// and a NaN argument quieted (x's first) where Go's result is NaN.
func powProgram(t Type) *MathProgram {
	b := newMath("pow", t, 2)
	fb := bitsOf(t)
	x, y := b.in(0), b.in(1)
	zero, one, inf := b.f(0), b.f(1), b.f(fb.inf)
	sign := b.bits(b.signBit())
	lh, ll := b.lnHL(b.abs(x))
	ph, pl := b.twoProd(y, lh)
	pl = b.fma(y, ll, pl)
	pl = b.sel(b.lt(b.abs(ph), b.f(1024)), pl, zero) // an overflowing or infinite product's error is not a number
	// Below the exponential's least argument the result is +0, which a
	// select gives, the core taking 0 instead: its steps would make
	// subnormal numbers, which cost Intel CPUs a microcode assist each
	// (float32 pow of x in (0.5, 0.9) to y in (500, 1000) took 6.2 ns per
	// element on a Xeon model 167, against 2.8 over x in (0.5, 2)).
	least := b.f(expBounds[expKey(t, false)][2])
	e := b.expCoreLo(b.sel(b.lt(ph, least), zero, ph), pl, false)
	r := b.scale(b.add(e.s, e.lo), e)
	// ph < least again: one step, where keeping it would hold a register
	r = b.sel(b.lt(ph, least), zero, r)
	ax, ay := b.abs(x), b.abs(y) // here, not held through the core
	// y an integer: rint(|y|) = |y| (an infinity counts: it is excluded
	// below); odd: the unit bit of |y| + 2^mant (or of |y| itself from
	// 2^mant on) is set, and |y| < 2^(mant+1).
	integer := b.eq(b.rint(ay), ay)
	at := math.Ldexp(1, fb.mant)
	units := b.sel(b.lt(ay, b.f(at)), b.add(ay, b.f(at)), ay)
	oddSign := b.shl(b.and(units, b.bits(1)), t.Bits-1)
	oddSign = b.sel(b.and2(integer, b.lt(ay, b.f(2*at))), oddSign, zero)
	xSign := b.and(b.and(x, sign), oddSign) // the result's sign
	r = b.or(r, xSign)
	r = b.sel(integer, r, b.sel(b.lt(x, zero), b.bits(fb.defNaN), r))
	yNeg := b.lt(y, zero)
	r = b.sel(b.eq(ax, zero), b.or(b.sel(yNeg, inf, zero), xSign), r)
	r = b.sel(b.eq(ax, inf), b.or(b.sel(yNeg, zero, inf), xSign), r)
	bigX := b.lt(one, ax)
	yInf := b.sel(bigX, b.sel(yNeg, zero, inf), b.sel(yNeg, inf, zero))
	r = b.sel(b.eq(ay, inf), b.sel(b.eq(ax, one), one, yInf), r)
	r = b.sel(b.eq(y, one), x, r)
	r = b.sel(b.isNaN(y), b.or(y, b.bits(fb.quiet)), r)
	r = b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)
	b.p.Out = b.sel(b.or2(b.eq(y, zero), b.eq(x, one)), one, r)
	return b.p
}
