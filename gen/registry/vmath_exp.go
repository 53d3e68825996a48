package registry

import (
	"math"
	"math/big"
)

// expTableBits is log2 of the number of entries of exp's table: 2^(j/16)
// is one register permutation on AVX-512 (and two on AVX2) for float32,
// and a two-register one for float64.
const expTableBits = 4

// expFast is the common path of e^x (2^x if base2), for the x whose
// result is a normal number (Tang's method): k = round(x*16/ln 2) by
// adding 1.5*2^mant (k's low bits then hold k), r = x - k*ln2/16 in one
// part (Cody and Waite: x - k*C1 is exact), |r| <= ln(2)/32, and e^x =
// 2^(k>>4) * T[k&15] * e^r with T[j] = 2^(j/16) from a table of its value
// rounded (Thi) and of its rest relative to it (tail): 2^(k>>4)*Thi is s,
// made by adding k<<(mant-4) to the table's bits (which hold Thi's less
// j<<(mant-4)), and the result is s + s*t, one rounding, with t =
// (e^r - 1) + tail = r + r^2*q(r) + tail. With |r| this small, r's
// rounding, t's and q's error are far under an ulp of the result: the
// error is the last rounding's half ulp and a few hundredths.
type expFast struct{ k, s, t, res int }

func (b *mathBuilder) expFast(x int, base2 bool) expFast {
	fb := bitsOf(b.p.T)
	f64 := b.p.T.Bits == 64
	shifter := math.Ldexp(1.5, fb.mant)
	scale := float64(int(1) << expTableBits)
	var k, r int
	if base2 {
		// r = (x - k/16)*ln 2: the difference is exact, the product
		// rounds once, and the rounding is as small as r.
		k = b.fma(x, b.f(scale), b.f(shifter))
		f := b.fnma(b.sub(k, b.f(shifter)), b.f(1/scale), x)
		r = b.mul(f, b.c(math.Ln2))
	} else {
		// C1 has few enough bits that k*C1 is exact for every k of a
		// finite result (9 bits; float64: 32 bits).
		c1 := float64(math.Float32frombits(0x3F318000))
		if f64 {
			c1 = math.Float64frombits(0x3FE62E42FEE00000)
		}
		c2, _ := splitConst(b.p.T, newBig().Sub(bigLn2(), newBig().SetFloat64(c1)))
		k = b.fma(x, b.c(scale/math.Ln2), b.f(shifter))
		n := b.sub(k, b.f(shifter))
		r = b.fnma(n, b.f(c2/scale), b.fnma(n, b.f(c1/scale), x))
	}
	deg := 3
	if f64 {
		deg = 6
	}
	hi, tail := expTables(b.p.T)
	q := b.horner(r, expPoly(b.p.T, deg)...)
	t := b.fma(b.mul(r, r), q, b.add(r, b.table("exptail", k, tail)))
	s := b.iadd(b.table("exphi", k, hi), b.shl(k, fb.mant-expTableBits))
	return expFast{k: k, s: s, t: t, res: b.fma(t, s, s)}
}

// expTables are the bits of Thi[j] = 2^(j/16) rounded, less j<<(mant-4)
// (so that adding k<<(mant-4) gives 2^(k>>4)*Thi[k&15]), and the rests
// tail[j] = (2^(j/16) - Thi[j])/Thi[j] rounded.
func expTables(t Type) (hi, tail []uint64) {
	fb := bitsOf(t)
	for j := range 1 << expTableBits {
		v := bigExp(bnew().Mul(bf(float64(j)/float64(int(1)<<expTableBits)), bigLn2Fit()))
		h := roundTo(t, v)
		rest := bnew().Quo(bnew().Sub(v, bf(h)), bf(h))
		lo := roundTo(t, rest)
		if t.Bits == 32 {
			hi = append(hi, uint64(math.Float32bits(float32(h)))-uint64(j)<<(fb.mant-expTableBits))
			tail = append(tail, uint64(math.Float32bits(float32(lo))))
		} else {
			hi = append(hi, math.Float64bits(h)-uint64(j)<<(fb.mant-expTableBits))
			tail = append(tail, math.Float64bits(lo))
		}
	}
	return hi, tail
}

// bigLn2Fit is ln 2 at the fit's precision.
func bigLn2Fit() *big.Float { return bnew().Set(bigLn2()) }

// expPoly is q of expFast to degree deg of e^r: minimax of (e^r - 1 -
// r)/r^2 for the relative error of e^r on |r| <= ln(2)/32.
func expPoly(t Type, deg int) []float64 {
	var pows []int
	for p := 2; p <= deg; p++ {
		pows = append(pows, p)
	}
	a := math.Ln2 / float64(int(2)<<expTableBits) * (1 + 1.0/256)
	c, _ := minimax(fitTarget{f: expm1Rest, w: func(x *big.Float) *big.Float { return bnew().Quo(bf(1), bigExp(x)) }}, -a, a, pows)
	return roundCoefs(t, c)
}

// expBounds are, for e^x and 2^x on float32 and float64, the bound of |x|
// below which expFast's result is normal (k>>4 >= 1 - bias), the x above
// which the result overflows, the x below which it is +0, and expFloor's
// floor.
var expBounds = map[[2]int][4]float64{
	{32, 0}: {87.25, 89, -105, -120}, {64, 0}: {708.25, 710, -746, -800},
	{32, 1}: {125.5, 128, -151, -160}, {64, 1}: {1021.5, 1024, -1076, -1200},
}

// expRange gives the lanes of x outside expFast's range their results (see
// expOutside) in a block, NaNs among them: nan's, where it is not nil.
func (b *mathBuilder) expRange(x int, e expFast, base2 bool, nan func() int) int {
	out := b.nlt(b.abs(x), b.f(expBounds[expKey(b.p.T, base2)][0]))
	return b.block(out, []int{e.res}, func() []int {
		r := b.expOutside(x, e, base2)
		if nan != nil {
			r = b.sel(b.isNaN(x), nan(), r)
		}
		return []int{r}
	})[0]
}

func expKey(t Type, base2 bool) [2]int {
	if base2 {
		return [2]int{t.Bits, 1}
	}
	return [2]int{t.Bits, 0}
}

// expOutside is e^x (2^x) for the x outside expFast's range: v = Thi +
// Thi*t rounded (in [1, 2)) times 2^(k>>4) as two factors 2^floor(u/2)
// and 2^(u - floor(u/2)) (u = (k>>4) + 2*(bias+1)), both normal for every
// result that is neither 0 nor +Inf, so that the first product is exact
// and the second rounds once (a subnormal result by an addition, below);
// +Inf and +0 beyond the bounds; a NaN quieted.
func (b *mathBuilder) expOutside(x int, e expFast, base2 bool) int {
	fb := bitsOf(b.p.T)
	bounds := expBounds[expKey(b.p.T, base2)]
	shifter := math.Ldexp(1.5, fb.mant)
	hi, _ := expTables(b.p.T)
	lowBits := b.and(e.k, b.bits(1<<expTableBits-1))
	th := b.iadd(b.table("exphi", e.k, hi), b.shl(lowBits, fb.mant-expTableBits))
	v := b.fma(e.t, th, th)
	off := uint64(2 * (fb.bias + 1))
	// k + 16*off > 0 for every k of a result that is not 0: its logical
	// shift is (k>>4) + off.
	u := b.shr(b.isub(e.k, b.bits(b.constBits(shifter)-off<<expTableBits)), expTableBits)
	h := b.shr(u, 1)
	s1 := b.shl(b.isub(h, b.bits(1)), fb.mant)
	s2 := b.shl(b.isub(b.isub(u, h), b.bits(1)), fb.mant)
	// A product that rounds to a subnormal number costs Intel CPUs a
	// microcode assist (exp over x in [-97.5, -80] took 2.7 ns per element
	// on a Xeon model 167, 13x its common path), so below 1 the product is
	// made 2^delta times larger, z, a normal number and exact, and where
	// it is under 2^delta times the smallest normal, M, the result is
	// rounded in z + M instead, whose ulp is 2^delta times the subnormal
	// one (both round to nearest, ties to the even multiple): the bits of
	// z + M less those of M are the result's, the smallest normal number
	// included where it rounds up to it.
	delta := (fb.bias + 1) / 2
	neg := b.lt(x, b.f(0))
	z := b.mul(b.mul(v, s1), b.sel(neg, b.iadd(s2, b.bits(uint64(delta)<<fb.mant)), s2))
	m := b.f(math.Ldexp(1, delta+1-fb.bias))
	sub := b.and2(neg, b.lt(z, m))
	down := b.and2(neg, b.nlt(z, m))
	r := b.sel(sub, b.isub(b.add(z, m), m), b.mul(z, b.sel(down, b.f(math.Ldexp(1, -delta)), b.f(1))))
	r = b.sel(b.lt(b.f(bounds[1]), x), b.f(fb.inf), r)
	r = b.sel(b.lt(x, b.f(bounds[2])), b.f(0), r)
	return b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)
}

// expFloor is x cut from below (expBounds' floor) where e^x (2^x) is +0
// whatever it is:
// far below the bound, k = round(16x/ln 2) leaves the binade of
// expFast's shifter and the scale made of its bits is garbage, sometimes
// subnormal, which costs Intel CPUs a microcode assist (float32 exp over
// x in (-1e7, -1e5) took 4.0 ns per element on a Xeon model 167, against
// 1.0 over (-97.5, -80)). At the floor (k>>4 from -173 to -160; float64
// -1154 to -1200) expFast's scale has a large normal exponent, its field
// wrapped, and expOutside's 2^delta-times product stays normal.
func (b *mathBuilder) expFloor(x int, base2 bool) int {
	return b.max(x, b.f(expBounds[expKey(b.p.T, base2)][3]))
}

// expProgram is e^x (see expFast and expRange).
func expProgram(t Type) *MathProgram {
	b := newMath("exp", t, 1)
	x := b.in(0)
	b.p.Out = b.expRange(x, b.expFast(b.expFloor(x, false), false), false, nil)
	return b.p
}

// exp2Program is 2^x, as exp with r = (x - k/16)*ln 2.
func exp2Program(t Type) *MathProgram {
	b := newMath("exp2", t, 1)
	x := b.in(0)
	b.p.Out = b.expRange(x, b.expFast(b.expFloor(x, true), true), true, nil)
	return b.p
}

// expSubProgram is e^(a - b) with a - b rounded to T first: the exp(x - m)
// of softmax and log-sum-exp in one pass over x, with the bits of Sub and
// then Exp. A NaN argument comes back quieted (a's first), and a NaN
// difference of two infinities of one sign is Go's NaN, so that no lane
// depends on the NaN an instruction set makes: in exp's block, which a
// NaN difference takes anyway. A block of its own tested every vector for
// NaNs: Xeon model 167, ExpSub of 32 rows of 1000 float32 (one call), us,
// 4 interleaved runs, 7.18-7.47 with two blocks, 6.61-6.93 with one (Exp
// of the same values 5.9-6.4).
func expSubProgram(t Type) *MathProgram {
	b := newMath("expsub", t, 2)
	fb := bitsOf(t)
	x, y := b.in(0), b.in(1)
	d := b.sub(x, y)
	b.p.Out = b.expRange(d, b.expFast(b.expFloor(d, false), false), false, func() int {
		r := b.sel(b.isNaN(y), b.or(y, b.bits(fb.quiet)), b.bits(fb.defNaN))
		return b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)
	})
	return b.p
}
