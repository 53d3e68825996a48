package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// x86Divide is division. A vector divided by one value per row (DivScalar,
// a fused "x / s") takes, on AVX-512, the quotient from the reciprocal:
// VDIVPS on 512 bits issues once every 8 to 16 cycles (about 12 per vector
// measured on an Intel Xeon, model 207, in Softmax's rows), while the
// sequence below is ten instructions on the FMA and integer ports (two of
// them register copies) and a mask OR. It gives the bits of the
// division itself, for every lane it is used on:
//
//	y = RN(1/s), once per row
//	q0 = RN(a*y); r0 = a - q0*s (FMA); q1 = RN(q0 + r0*y) (FMA)
//	r1 = a - q1*s (FMA); q = RN(q1 + r1*y) (FMA)
//
// With a and s scaled into [1, 2) (exact, lacking overflow and underflow)
// and p T's precision: |y - 1/s| <= 2^-(p+1), so q0 is within 1.5 ulp of
// x = a/s; r0 is then exact or within a relative 2^-p, and q0 + r0*y is x
// within far less than an ulp (the error (x-q0)(1-s*y) plus r0's
// rounding), so q1 is within an ulp and a hair of x, r1 is exact (a
// multiple of ulp(q1)*ulp(s) under 2^p of them), and q1 + r1*y = x +
// (x-q1)(1-s*y) is within (1/2 ulp + a hair)*s*2^-(p+1) of x. A quotient of
// p-bit numbers is never a midpoint of the p-bit grid, and one that is not
// is at least 2^-(2p)/s (in units where ulp(x) is 2^-p or 2^-(p-1)) away
// from it: more than that error for every s < 2, so the last rounding is
// x's. A single correction is not enough by this bound (for s above
// sqrt 2), hence two.
//
// The bound needs normal numbers throughout: |s| in [2^-e/2, 2^e/2] (e
// T's largest exponent), so that 1/s is normal; |a| at least 2^(p+2) above
// the smallest normal (r1 normal or exact), |a/s| normal (|a| >= 2^-(e-2)
// |s|) and not near overflow (|a| <= 2^(e-1)|s|, |a| <= 2^e). A vector
// with a lane outside (zeros, infinities, NaNs, tiny or huge quotients)
// is divided by VDIVPS instead, as is every vector when s is outside: the
// per-row preparation sets the range of |a| empty then. AVX2 keeps
// VDIVPS: the sequence would need the FMA feature, which division does
// not, and it has not been measured against VDIVPS on an AVX2-only CPU.
var x86Divide = x86Emitter{
	memInput: 2, consts: divConsts, preps: 3, prep: (*x86Kernel).divPrep,
	compute: func(k *x86Kernel, in []x86Src, w int) Op {
		return k.divide([][]x86Src{in}, w)[0]
	},
	computeAll: func(k *x86Kernel, ins [][]x86Src, w int) []Op { return k.divide(ins, w) },
}

// divFast reports whether the kernel divides by its per-row value through
// the reciprocal: AVX-512, and a per-row divisor (a kernel's, or a fused
// handler's, which has no operand list).
func (k *x86Kernel) divFast() bool {
	if k.isa.Vector != 64 {
		return false
	}
	if k.ins == nil {
		return true
	}
	return !k.ins[1].vector
}

// divThresholds are the constants of the reciprocal path, as float
// values: one, the range of |s|, and the bounds on |a| (see x86Divide).
func divThresholds(bits int) []float64 {
	e, p := 127, 24
	if bits == 64 {
		e, p = 1023, 53
	}
	lowest := 1 - e // the smallest normal exponent
	return []float64{
		1,
		math.Ldexp(1, -e/2), math.Ldexp(1, e/2), // |s|
		math.Ldexp(1, lowest+p+2), math.Ldexp(1, 2-e), // |a| >= max(these two*|s|)
		math.Ldexp(1, e-1), math.Ldexp(1, e), // |a| <= min(this*|s|, this)
	}
}

// divConsts are the magnitude mask and divThresholds, on AVX-512 kernels
// that divide by a per-row value.
func divConsts(k *x86Kernel) []reg.VecVirtual {
	if !k.divFast() {
		return nil
	}
	cs := []reg.VecVirtual{k.constant(0x7fffffff, 0x7fffffffffffffff)}
	for _, v := range divThresholds(k.t.Bits) {
		cs = append(cs, k.constant(math.Float32bits(float32(v)), math.Float64bits(v)))
	}
	return cs
}

// divPrep sets out to y = RN(1/s), the bits of the least |a| the
// reciprocal path takes and the count of bit patterns from there it takes
// (zero when s is outside its range).
func (k *x86Kernel) divPrep(s Op, out []Op, w int) {
	if !k.divFast() {
		return
	}
	c := func(i int) Op { return narrow(k.consts[i], w) }
	y, lo, width := out[0], out[1], out[2]
	mul, maxf, minf := pick(k.t, k.VMULPS, k.VMULPD), pick(k.t, k.VMAXPS, k.VMAXPD), pick(k.t, k.VMINPS, k.VMINPD)
	sub, cmp := pick(k.t, k.VPSUBD, k.VPSUBQ), pick(k.t, k.VCMPPS, k.VCMPPD)
	pick(k.t, k.VDIVPS, k.VDIVPD)(s, c(1), y)
	abs, hi := narrow(k.vec(w), w), narrow(k.vec(w), w)
	k.and(s, c(0), abs, w)
	mul(c(5), abs, lo)
	maxf(c(4), lo, lo)
	mul(c(6), abs, hi)
	minf(c(7), hi, hi)
	inside, above := k.K(), k.K()
	cmp(U8(0x1d), c(2), abs, inside) // |s| >= 2^-e/2 (GE_OQ: false for NaN)
	cmp(U8(0x12), c(3), abs, above)  // |s| <= 2^e/2 (LE_OQ)
	k.KANDW(above, inside, inside)
	sub(lo, hi, width)
	k.KNOTW(inside, inside)
	pick(k.t, k.VPXORD, k.VPXORQ)(width, width, inside, width) // merge-masked: zero outside
}

// x86DivLabels numbers the labels of the reciprocal path's fallbacks.
var x86DivLabels int

// divide emits the quotients of the vectors of ins.
func (k *x86Kernel) divide(ins [][]x86Src, w int) []Op {
	div := pick(k.t, k.VDIVPS, k.VDIVPD)
	qs := make([]Op, len(ins))
	if !k.divFast() || len(ins[0][1].prep) == 0 {
		for i, in := range ins {
			qs[i] = narrow(k.vec(w), w)
			div(in[1].v, k.reg(in[0], w), qs[i])
		}
		return qs
	}
	s, y, lo, width := ins[0][1].v, ins[0][1].prep[0], ins[0][1].prep[1], ins[0][1].prep[2]
	fma, fnma := pick(k.t, k.VFMADD231PS, k.VFMADD231PD), pick(k.t, k.VFNMADD231PS, k.VFNMADD231PD)
	sub, cmpu := pick(k.t, k.VPSUBD, k.VPSUBQ), pick(k.t, k.VPCMPUD, k.VPCMPUQ)
	as := make([]Op, len(ins))
	var outside reg.Virtual
	for i, in := range ins {
		a := k.reg(in[0], w)
		as[i] = a
		t, r := narrow(k.vec(w), w), narrow(k.vec(w), w)
		k.and(a, narrow(k.consts[0], w), t, w)
		sub(lo, t, t)
		m := k.K()
		cmpu(U8(5), width, t, m) // NLT: |a| outside [lo, lo + width)
		if outside == nil {
			outside = m
		} else {
			k.KORW(m, outside, outside)
		}
		q := narrow(k.vec(w), w)
		pick(k.t, k.VMULPS, k.VMULPD)(y, a, q)
		for range 2 {
			k.VMOVUPS(a, r)
			fnma(s, q, r)
			fma(y, r, q)
		}
		qs[i] = q
	}
	done := fmt.Sprintf("divexact%d", x86DivLabels)
	x86DivLabels++
	k.KORTESTW(outside, outside)
	k.JZ(LabelRef(done))
	for i, q := range qs {
		div(s, as[i], q)
	}
	k.Label(done)
	return qs
}
