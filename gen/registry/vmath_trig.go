package registry

import (
	"fmt"
	"math"
	"math/big"
)

// The reduction of sin and cos: x*2/pi = q + f with q an integer and |f| <=
// 1/2, whatever x's size (Payne and Hanek). Every lane takes the same
// steps: x's exponent selects, in groups of 2^remGroup, a table entry that
// holds 2/pi without its leading bits (those whose product with any x of
// the group is a multiple of 4, which changes neither sine nor cosine) in
// four parts of T's precision; x with its exponent replaced by the group's
// offset times them are four exact products, whose sum modulo 4 is formed
// exactly where it cancels and with 2T's precision elsewhere. That keeps
// the reduced argument's relative error near 2^-2p even for the x closest
// to a multiple of pi/2 (for float64, 6381956970095103*2^797: 2^-61 away).
const remGroup = 3

// rempio2Parts are the tables: part j of group i is entry i of table j.
func rempio2Parts(t Type) [4][]uint64 {
	fb := bitsOf(t)
	p := uint(fb.mant + 1)
	prec := uint(2*fb.bias + 8*int(p) + 64)
	twoOverPi := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(2), bigPi(prec))
	groups := (2*fb.bias + 2) >> remGroup
	var parts [4][]uint64
	for i := range groups {
		start := i << remGroup // the group's least biased exponent
		// x = M * 2^emin, M an integer, for every x of the group: the
		// bits of 2/pi from 2^(2-emin) up make multiples of 4.
		emin := start - fb.bias - fb.mant
		rest := new(big.Float).SetPrec(prec).Set(twoOverPi)
		if cut := 2 - emin; cut < 1 {
			unit := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), cut)
			n, _ := new(big.Float).SetPrec(prec).Quo(rest, unit).Int(nil)
			rest.Sub(rest, new(big.Float).SetPrec(prec).Mul(new(big.Float).SetPrec(prec).SetInt(n), unit))
		}
		// The tables are for x scaled by 2^-(start-bias), into [1, 2^8).
		rest.SetMantExp(rest, start-fb.bias)
		for j := range parts {
			part := new(big.Float).SetPrec(p).SetMode(big.ToZero).Set(rest)
			rest.Sub(rest, part)
			var bits uint64
			if t.Bits == 32 {
				f, _ := part.Float32()
				bits = uint64(math.Float32bits(f))
			} else {
				f, _ := part.Float64()
				bits = math.Float64bits(f)
			}
			parts[j] = append(parts[j], bits)
		}
	}
	return parts
}

// bigPi is pi to prec bits: 16 atan(1/5) - 4 atan(1/239) (Machin).
func bigPi(prec uint) *big.Float {
	atanInv := func(k int64) *big.Float {
		z := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(1), new(big.Float).SetPrec(prec).SetInt64(k))
		z2 := new(big.Float).SetPrec(prec).Mul(z, z)
		sum, pow := new(big.Float).SetPrec(prec).Set(z), new(big.Float).SetPrec(prec).Set(z)
		for n := int64(3); pow.MantExp(nil) > -int(prec)-8; n += 2 {
			pow.Mul(pow, z2)
			term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(n))
			if (n/2)%2 == 1 {
				term.Neg(term)
			}
			sum.Add(sum, term)
		}
		return sum
	}
	p := new(big.Float).SetPrec(prec).Mul(atanInv(5), new(big.Float).SetPrec(prec).SetInt64(16))
	return p.Sub(p, new(big.Float).SetPrec(prec).Mul(atanInv(239), new(big.Float).SetPrec(prec).SetInt64(4)))
}

// twoProd is x*y rounded and its rounding error, exactly (a fused step).
func (b *mathBuilder) twoProd(x, y int) (int, int) {
	h := b.mul(x, y)
	return h, b.fma(x, y, b.neg(h))
}

// rint is v rounded to an integer, ties to even: v plus and minus 2^mant
// with v's sign rounds below 2^mant; above, v is an integer.
func (b *mathBuilder) rint(v int) int {
	fb := bitsOf(b.p.T)
	at := math.Ldexp(1, fb.mant)
	c := b.or(b.and(v, b.bits(b.signBit())), b.bits(b.constBits(at)))
	return b.sel(b.lt(b.abs(v), b.f(at)), b.sub(b.add(v, c), c), v)
}

// mod4 is v minus the multiple of 4 nearest it, exactly.
func (b *mathBuilder) mod4(v int) int {
	return b.fnma(b.f(4), b.rint(b.mul(v, b.f(0.25))), v)
}

// remPio2 reduces ax = |x| (finite, at least 2^-27; the slow path, for
// the lanes beyond fastTrigBound): ax = (q + f)*pi/2 with q's two low
// bits those of k's bits and f*pi/2 = hi + lo.
func (b *mathBuilder) remPio2(ax int) (k, hi, lo int) {
	fb := bitsOf(b.p.T)
	e := b.shr(ax, fb.mant)
	group := b.shr(e, remGroup)
	off := b.iadd(b.and(e, b.bits(1<<remGroup-1)), b.bits(uint64(fb.bias)))
	xs := b.or(b.and(ax, b.bits(fb.mantMask)), b.shl(off, fb.mant))
	parts := rempio2Parts(b.p.T)
	// part j of 2/pi for this group, looked up where it is used (four
	// live at once would crowd the registers).
	t := func(j int) int { return b.table(fmt.Sprintf("rempio2_%d", j), group, parts[j]) }
	h0, l0 := b.twoProd(xs, t(0))
	h0 = b.mod4(h0)
	h1, l1 := b.twoProd(xs, t(1))
	// The sum h0 + l0 + h1 + l1 + h2 + l2 + h3: the large terms exactly,
	// modulo 4, the small ones in two parts.
	sa, ea := b.twoSum(l0, h1)
	sb, eb := b.twoSum(h0, sa)
	sb = b.mod4(sb)
	h2, l2 := b.twoProd(xs, t(2))
	s1, e1 := b.twoSum(h2, l1)
	s2, e2 := b.twoSum(s1, ea)
	s3, e3 := b.twoSum(s2, eb)
	h3 := b.mul(xs, t(3))
	tail := b.add(b.add(b.add(e1, e2), b.add(e3, l2)), h3)
	s, es := b.twoSum(sb, s3)
	el, ell := b.twoSum(es, tail)
	q := b.rint(s)
	rh, rl := b.twoSum(b.sub(s, q), el)
	rl = b.add(rl, ell)
	// times pi/2 in two parts
	ph, pl := splitConst(b.p.T, newBig().Quo(bigPi(mathPrec), newBig().SetInt64(2)))
	yh, ye := b.twoProd(rh, b.f(ph))
	yl := b.fma(rh, b.f(pl), b.fma(rl, b.f(ph), ye))
	hi, lo = b.fastTwoSum(yh, yl, -1)
	return b.add(q, b.f(math.Ldexp(1.5, fb.mant))), hi, lo
}

// remPio2Fast is remPio2 for ax up to fastTrigBound: q = round(ax*2/pi)
// and ax - q*pi/2 with pi/2 in four parts of T's precision (Cody and
// Waite): the first product's difference is exact in one fused step, the
// next two products exact in two parts each and summed exactly, the rest
// rounded far below the result's ulp.
func (b *mathBuilder) remPio2Fast(ax int) (k, hi, lo int) {
	fb := bitsOf(b.p.T)
	shifter := b.f(math.Ldexp(1.5, fb.mant))
	twoOverPi := newBig().Quo(newBig().SetInt64(2), bigPi(mathPrec))
	k = b.fma(ax, b.f(roundTo(b.p.T, twoOverPi)), shifter)
	q := b.sub(k, shifter)
	var part [4]int
	rest := newBig().Quo(bigPi(mathPrec), newBig().SetInt64(2))
	for j := range part {
		c := new(big.Float).SetPrec(uint(fb.mant + 1)).SetMode(big.ToZero).Set(rest)
		rest.Sub(rest, c)
		part[j] = b.f(roundTo(b.p.T, c))
	}
	a := b.fnma(q, part[0], ax)
	h2, l2 := b.twoProd(q, part[1])
	s, e := b.twoSum(a, b.neg(h2))
	h3, l3 := b.twoProd(q, part[2])
	s, e2 := b.twoSum(s, b.neg(h3))
	rl := b.sub(b.sub(b.add(e, e2), l2), b.fma(q, part[3], l3))
	hi, lo = b.twoSum(s, rl)
	return k, hi, lo
}

// fastTrigBound is the largest |x| that remPio2Fast reduces (float32,
// float64): with q up to 2^14.4 (2^27.4) what it rounds is under 2^-57
// (2^-120) in absolute terms, far below an ulp of the nearest a float
// comes to a multiple of pi/2 there.
var fastTrigBound = [2]float64{0x1p15, 0x1p28}

// roundTo is c rounded to T.
func roundTo(t Type, c *big.Float) float64 {
	if t.Bits == 32 {
		f, _ := c.Float32()
		return float64(f)
	}
	f, _ := c.Float64()
	return f
}

// taylor are the coefficients of sin's (odd) or cos's (even) series from
// the term of degree from on, as many as bring the first one left out
// under 2^-(p+10) of the function at |x| = pi/4.
func taylor(t Type, from int) []float64 {
	fb := bitsOf(t)
	const x = math.Pi / 4 * 1.01
	var c []float64
	fact := 1.0
	for d := 2; d <= from; d++ {
		fact *= float64(d)
	}
	sign := 1.0
	if (from/2)%2 == 1 {
		sign = -1
	}
	for d := from; ; d += 2 {
		c = append(c, sign/fact)
		fact *= float64(d+1) * float64(d+2)
		sign = -sign
		if math.Pow(x, float64(d+2))/fact < math.Ldexp(0.7, -fb.mant-11) {
			return c
		}
	}
}

// sinKernel is sin(hi + lo) for |hi| <= pi/4 (lo small): hi + hi^3*P(hi^2)
// + lo*(1 - hi^2/2), the small terms summed before the last addition.
func (b *mathBuilder) sinKernel(hi, lo int) int {
	z := b.mul(hi, hi)
	u := b.horner(z, taylor(b.p.T, 3)...)
	c := b.fnma(b.mul(b.f(0.5), z), lo, lo)
	return b.add(hi, b.fma(b.mul(z, hi), u, c))
}

// cosKernel is cos(hi + lo) for |hi| <= pi/4: 1 - hi^2/2 with hi^2 in two
// parts and the subtraction's error kept (exact), plus hi^4*P(hi^2) -
// hi*lo, added last.
func (b *mathBuilder) cosKernel(hi, lo int) int {
	zh, zl := b.twoProd(hi, hi)
	hz := b.mul(b.f(0.5), zh)
	w, err := b.fastTwoSum(b.f(1), b.neg(hz), -1)
	q := b.horner(zh, taylor(b.p.T, 4)...)
	c := b.fma(b.mul(zh, zh), q, err)
	c = b.fnma(b.f(0.5), zl, b.fnma(hi, lo, c))
	return b.add(w, c)
}

// sinCosProgram is sin x or cos x: |x| reduced (remPio2Fast, and remPio2
// in a block for the lanes beyond fastTrigBound), the kernel of the
// quadrant, its sign; x itself (sin) or 1 (cos) below 2^-27 (float64) or
// 2^-12, where they are the value within half an ulp; NaN for ±Inf.
func sinCosProgram(cos bool) func(t Type) *MathProgram {
	return func(t Type) *MathProgram {
		name := "sin"
		if cos {
			name = "cos"
		}
		b := newMath(name, t, 1)
		fb := bitsOf(t)
		x := b.in(0)
		tiny := perType(t, -12, -27)
		// |x| is taken as 2^tiny from there down, where the result is x
		// or 1: the kernels' squares of a smaller one are subnormal, and a
		// subnormal product costs Intel CPUs a microcode assist (sin over
		// float32 x in (-1e-20, 1e-20) took 36 ns per element on a Xeon
		// model 167, float64 in (-1e-160, 1e-160) 107, against 1 and 2.3).
		ax := b.max(b.abs(x), b.f(math.Ldexp(1, int(tiny))))
		k, hi, lo := b.remPio2Fast(ax)
		bound := fastTrigBound[t.Bits/64]
		far := b.and2(b.lt(b.f(bound), ax), b.lt(ax, b.f(fb.inf)))
		outs := b.block(far, []int{k, hi, lo}, func() []int {
			k, hi, lo := b.remPio2(ax)
			return []int{k, hi, lo}
		})
		k, hi, lo = outs[0], outs[1], outs[2]
		if cos {
			k = b.iadd(k, b.bits(1))
		}
		even := b.eq(b.and(k, b.bits(1)), b.f(0)) // the bits 1 are a subnormal, not 0
		sign := b.shl(b.and(k, b.bits(2)), t.Bits-2)
		r := b.sel(even, b.sinKernel(hi, lo), b.cosKernel(hi, lo))
		ax = b.abs(x) // again: one step, where keeping it would hold a register through the block
		small := b.lt(ax, b.f(math.Ldexp(1, int(tiny))))
		if cos {
			r = b.sel(small, b.f(1), b.xor(r, sign))
		} else {
			r = b.sel(small, x, b.xor(r, b.xor(sign, b.and(x, b.bits(b.signBit())))))
		}
		r = b.sel(b.eq(ax, b.f(fb.inf)), b.bits(fb.defNaN), r)
		return b.finish(r)
	}
}
