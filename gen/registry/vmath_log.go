package registry

import (
	"fmt"
	"math"
	"math/big"
)

// The logarithms (Tang's table method, with a reduction that is exact):
// x = 2^k * z with z in [OFF, 2*OFF), OFF about 0.7, found on the bits;
// the top four bits of z's fraction pick c_i (one of 16), whose inverse
// invc_i has five significant bits, so that r = z*invc_i - 1 is exact in
// one fused step (|r| < 2^-4 leaves at most 24 bits of the 29-bit
// product); then log_b x = k*log_b 2 + log_b c_i + log_b(1 + r) with
// log_b(1+r) = C*r + r^2*Q(r) minimax, C = 1/ln b. The large terms k*B_hi +
// L_hi (B = log_b 2, L = log_b c, each split so that this sum is exact)
// and C*r are summed with their rounding error kept (fastTwoSum: the
// first is 0 or at least as large as the second), every small term added
// to that error, and the last addition rounds once: the error is half an
// ulp and a few hundredths.

// logTableBits is log2 of the number of table entries.
const logTableBits = 4

// logOffset is OFF's bits (0.69921875): the subinterval of z that holds 1
// is then well inside [OFF, 2*OFF).
var logOffset = map[int]uint64{32: 0x3F330000, 64: 0x3FE6600000000000}

// logTable is the table of one base and type: invc_i, L_hi and L_lo (L_hi
// a multiple of 2^-splitBits, so that k*B_hi + L_hi is exact).
type logTable struct {
	invc, lhi, llo []uint64
	maxR           float64 // the largest |r|, which the fit covers
}

// logTables builds the table for log base b (C = 1/ln b; B = log_b 2) on
// t: for each subinterval [zlo, zhi) the five-bit invc that makes |z*invc
// - 1| smallest over it, invc = 1 for the one holding 1.
func logTables(t Type, invLnB *big.Float) logTable {
	fb := bitsOf(t)
	var tab logTable
	off := logOffset[t.Bits]
	step := uint64(1) << (fb.mant - logTableBits)
	zOf := func(m uint64) float64 { // z of fraction bits m (of x's bits less OFF's)
		bits := off + m
		if t.Bits == 32 {
			return float64(math.Float32frombits(uint32(bits)))
		}
		return math.Float64frombits(bits)
	}
	// The bits of OFF's fraction go round at 2^mant: index i covers
	// fractions [i*step, (i+1)*step) of ix - OFF's, whose z is the
	// float of OFF + that fraction.
	for i := range uint64(1) << logTableBits {
		zlo, zhi := zOf(i*step), zOf((i+1)*step-1)
		best, bestErr := 0.0, math.Inf(1)
		if zlo <= 1 && 1 <= zhi {
			best, bestErr = 1, math.Max(math.Abs(zlo-1), math.Abs(zhi-1))
		} else {
			center := 2 / (zlo + zhi)
			_, e := math.Frexp(center)
			unit := math.Ldexp(1, e-5) // five significant bits
			for c := math.Floor(center/unit) - 2; c <= math.Ceil(center/unit)+2; c++ {
				inv := c * unit
				if err := math.Max(math.Abs(zlo*inv-1), math.Abs(zhi*inv-1)); err < bestErr {
					best, bestErr = inv, err
				}
			}
		}
		if bestErr >= 1.0/16 {
			panic(fmt.Sprintf("registry: log table %d: |r| up to %v", i, bestErr))
		}
		tab.maxR = math.Max(tab.maxR, bestErr)
		// L = log_b(1/invc) = -ln(invc)/ln b, split.
		l := bnew().Mul(bigLogFit(bf(best)), invLnB)
		l.Neg(l)
		lh := splitBits(l, logSplitBits)
		// fastTwoSum(k*B + L_hi, C*r) needs its first term 0 or no
		// smaller than the second; k = 0 is the tightest.
		if c, _ := invLnB.Float64(); lh != 0 && math.Abs(lh) < bestErr*c*(1+1.0/64) {
			panic(fmt.Sprintf("registry: log table %d: L_hi %v under |C*r| <= %v", i, lh, bestErr*c))
		}
		lo := roundTo(t, bnew().Sub(l, bf(lh)))
		tab.invc = append(tab.invc, floatBitsOf(t, best))
		tab.lhi = append(tab.lhi, floatBitsOf(t, lh))
		tab.llo = append(tab.llo, floatBitsOf(t, lo))
	}
	return tab
}

// logSplitBits is the fraction bits of L_hi and B_hi: with k's at most 11
// bits and |k*B + L| < 2^11, their sum then has at most 24 bits (float32)
// or 53 (float64: 40).
var logSplitBits = 16

// splitBits is x rounded to a multiple of 2^-bits.
func splitBits(x *big.Float, bits int) float64 {
	v := bnew().SetMantExp(x, bits)
	n, _ := v.Int(nil)
	r := bnew().Sub(v, bnew().SetInt(n))
	if r.Cmp(bf(0.5)) >= 0 {
		n.Add(n, big.NewInt(1))
	} else if r.Cmp(bf(-0.5)) <= 0 {
		n.Sub(n, big.NewInt(1))
	}
	f, _ := bnew().SetMantExp(bnew().SetInt(n), -bits).Float64()
	return f
}

func floatBitsOf(t Type, x float64) uint64 {
	if t.Bits == 32 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

// bigLogFit is ln x for x in (0, 4) at the fit's precision: 2 atanh((x -
// 1)/(x + 1)) by its series.
func bigLogFit(x *big.Float) *big.Float {
	z := bnew().Quo(bnew().Sub(x, bf(1)), bnew().Add(x, bf(1)))
	z2 := bnew().Mul(z, z)
	sum, pow := bnew().Set(z), bnew().Set(z)
	for k := 3; k < 4000; k += 2 {
		pow.Mul(pow, z2)
		term := bnew().Quo(pow, bf(float64(k)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-minimaxPrec-8 {
			break
		}
	}
	return sum.Mul(sum, bf(2))
}

// logBase is a logarithm's constants: C = 1/ln b, B = log_b 2.
type logBase struct {
	name      string
	invLn, b2 func() *big.Float
}

var logBases = map[string]logBase{
	"log":   {"log", func() *big.Float { return bf(1) }, func() *big.Float { return bnew().Set(bigLn2()) }},
	"log2":  {"log2", func() *big.Float { return bnew().Quo(bf(1), bigLn2()) }, func() *big.Float { return bf(1) }},
	"log10": {"log10", func() *big.Float { return bnew().Quo(bf(1), bigLn10()) }, func() *big.Float { return bnew().Quo(bigLn2(), bigLn10()) }},
}

// logPolyCoefs are Q's coefficients: minimax of (log_b(1+r) - C*r)/r^2 for
// the relative error of log_b(1+r) on |r| <= maxR.
func logPolyCoefs(t Type, base logBase, maxR float64) []float64 {
	c := base.invLn()
	f := func(x *big.Float) *big.Float {
		v := bnew().Mul(bigLogFit(bnew().Add(bf(1), x)), c)
		return v.Sub(v, bnew().Mul(c, x))
	}
	w := func(x *big.Float) *big.Float {
		v := bnew().Abs(bnew().Mul(bigLogFit(bnew().Add(bf(1), x)), c))
		if v.Sign() == 0 {
			return bnew()
		}
		return bnew().Quo(bf(1), v)
	}
	deg := 6
	if t.Bits == 64 {
		deg = 11
	}
	var pows []int
	for p := 2; p <= deg; p++ {
		pows = append(pows, p)
	}
	a := maxR * (1 + 1.0/256)
	coef, _ := minimax(fitTarget{f: f, w: w}, -a, a, pows)
	return roundCoefs(t, coef)
}

// logParts is log_b x for a normal, finite x > 0, as hi + lo; k is less
// by the step extraK, if any (>= 0).
func (b *mathBuilder) logParts(x int, base logBase, extraK int) (hi, lo int) {
	return b.logPartsWith(x, base, extraK, nil)
}

// logPartsWith is logParts with a term more among the small ones: extra
// of the bits ix (x's, the exponent field holding k + bias), invc and r.
func (b *mathBuilder) logPartsWith(x int, base logBase, extraK int, extra func(ix, invc, r int) int) (hi, lo int) {
	t := b.p.T
	fb := bitsOf(t)
	tab := logTables(t, base.invLn())
	off := logOffset[t.Bits]
	one := b.constBits(1)
	ix := b.iadd(x, b.bits(one-off))
	magic := math.Ldexp(1, fb.mant)
	k := b.sub(b.or(b.shr(ix, fb.mant), b.bits(b.constBits(magic))), b.f(magic+float64(fb.bias)))
	if extraK >= 0 {
		k = b.sub(k, extraK)
	}
	z := b.iadd(b.and(ix, b.bits(fb.mantMask)), b.bits(off))
	idx := b.shr(ix, fb.mant-logTableBits)
	invc := b.table(base.name+"invc", idx, tab.invc)
	r := b.fma(z, invc, b.f(-1))
	bh := splitBits(base.b2(), logSplitBits)
	bl := roundTo(t, bnew().Sub(base.b2(), bf(bh)))
	a := b.fma(k, b.f(bh), b.table(base.name+"lhi", idx, tab.lhi)) // exact
	ch, cl := splitConst(t, base.invLn())
	small := b.fma(k, b.f(bl), b.table(base.name+"llo", idx, tab.llo))
	cr := r
	if cl != 0 {
		// C*r in two parts: the product rounded and its error.
		cr = b.mul(r, b.f(ch))
		small = b.sub(b.fma(r, b.f(cl), small), b.fnma(r, b.f(ch), cr)) // cr - r*ch: minus its error
	}
	if extra != nil {
		small = b.add(small, extra(ix, invc, r))
	}
	s, e := b.fastTwoSum(a, cr, -1)
	q := b.horner(r, logPolyCoefs(t, base, tab.maxR)...)
	return s, b.fma(b.mul(r, r), q, b.add(e, small))
}

// logProgramOf is log_b x: logParts on the common path; in a block, the
// lanes outside it (subnormals, scaled by 2^(mant+2) first, zeros,
// negatives, infinities and NaNs): -Inf at ±0, NaN below, +Inf at +Inf, a
// NaN quieted.
func logProgramOf(name string) func(t Type) *MathProgram {
	return func(t Type) *MathProgram {
		b := newMath(name, t, 1)
		x := b.in(0)
		base := logBases[name]
		hi, lo := b.logParts(x, base, -1)
		b.p.Out = b.logRange(x, b.add(hi, lo), func(xs, extra int) int {
			h, l := b.logParts(xs, base, extra)
			return b.add(h, l)
		}, 0)
		return b.p
	}
}

// logRange gives the lanes of x outside logParts' range their results in
// a block: core of x scaled into the normal range (and the amount its k
// is to be less by) for subnormals, then the special values, with zeroAt
// the argument whose result is -Inf (log1p: -1).
func (b *mathBuilder) logRange(x, res int, core func(xs, extra int) int, zeroAt float64) int {
	fb := bitsOf(b.p.T)
	minNormal := math.Ldexp(1, 1-fb.bias)
	inf := b.f(fb.inf)
	var out int
	if core == nil { // log1p: no subnormal u
		out = b.or2(b.nlt(b.f(zeroAt), x), b.eq(x, inf))
	} else {
		out = b.or2(b.lt(x, b.f(minNormal)), b.nlt(x, inf)) // !(x < Inf): +Inf and NaN
	}
	return b.block(out, []int{res}, func() []int {
		r := res
		if core != nil {
			scale := fb.mant + 2
			r = core(b.mul(x, b.f(math.Ldexp(1, scale))), b.f(float64(scale)))
		}
		z := b.f(zeroAt)
		r = b.sel(b.eq(x, z), b.f(-fb.inf), r)
		r = b.sel(b.lt(x, z), b.bits(fb.defNaN), r)
		r = b.sel(b.eq(x, inf), inf, r)
		return []int{b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)}
	})[0]
}

// log1pProgram is log(1 + x): u = 1 + x with its exact rounding error e,
// log u by logParts plus e/u, which is e*2^-k*invc/(1 + r) and, as a term
// under an ulp of u's logarithm, e*2^-k*invc*(1 - r); ±0 kept.
func log1pProgram(t Type) *MathProgram {
	b := newMath("log1p", t, 1)
	fb := bitsOf(t)
	x := b.in(0)
	u, e := b.twoSum(b.f(1), x)
	base := logBases["log"]
	hi, lo := b.logPartsWith(u, base, -1, func(ix, invc, r int) int {
		// invc*2^-k: k's bits are those of ix's exponent less the bias.
		inv := b.iadd(b.isub(invc, b.and(ix, b.bits(b.constBits(fb.inf)))), b.bits(b.constBits(1)))
		c := b.mul(e, inv)
		// From 2^(mant+1) on, e/u is under 2^-(mant+1) and log u over
		// 36: nothing; and 2^-k would not be a normal number for every
		// such u. Compared here, from x in memory, so that no register
		// holds the mask through the logarithm.
		near := b.lt(x, b.f(math.Ldexp(1, fb.mant+1)))
		return b.sel(near, b.fnma(c, r, c), b.f(0))
	})
	res := b.sel(b.eq(x, b.f(0)), x, b.add(hi, lo))
	b.p.Out = b.logRange(x, res, nil, -1)
	return b.p
}
