package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/gen/registry"
)

// x86Emitter is the amd64 instruction sequence of one op: every level and
// element type, at every width. An op whose entry has none set runs the
// generic row loop on amd64 (the registry's "no vector form").
type x86Emitter struct {
	// none says, explicitly, that the op has no vector form here.
	none bool
	// features are the CPU features the op needs beyond its level's, as
	// x/sys/cpu expressions ("cpu.X86.HasFMA"): without them the generic
	// row loop runs.
	features []string
	// consts emits the op's constants once per kernel, at full width.
	consts func(k *x86Kernel) []reg.VecVirtual
	// preps and prep: prep fills preps registers per row from the
	// broadcast value of an input with one value per row (max precomputes
	// its negation).
	preps int
	prep  func(k *x86Kernel, bc Op, out []Op, w int)
	// compute emits the op on the sources at width w (bytes, of the widest
	// element) and returns the register holding the result.
	compute func(k *x86Kernel, in []x86Src, w int) Op
	// memInput is 1 + the index of the input that compute accepts as a
	// memory operand when it is a full-width vector input (folding its load
	// into the instruction), or 0 for none.
	memInput int
	// unroll, if set, gives the vectors per loop iteration on a level and
	// element type in place of the level's own.
	unroll func(isa x86ISA, t registry.Type) int
	// computeAll, if set, computes several vectors at once (as compute
	// does one), so that it may interleave their instructions.
	computeAll func(k *x86Kernel, ins [][]x86Src, w int) []Op
}

// x86Emitters maps every op of the registry to its amd64 sequence; the
// generator refuses an op without an entry.
var x86Emitters = map[string]x86Emitter{
	"add": x86Arith(func(k *x86Kernel, t registry.Type) func(...Op) { return pick(t, k.VADDPS, k.VADDPD) }),
	"sub": x86Arith(func(k *x86Kernel, t registry.Type) func(...Op) { return pick(t, k.VSUBPS, k.VSUBPD) }),
	"mul": x86Arith(func(k *x86Kernel, t registry.Type) func(...Op) { return pick(t, k.VMULPS, k.VMULPD) }),
	"div": x86Divide,
	"min": {memInput: 2, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := k.vec(w)
		k.goMin(k.reg(in[0], w), in[1].v, narrow(r, w), w)
		return narrow(r, w)
	}},
	"max": {memInput: 2, consts: signConsts, preps: 1,
		prep: func(k *x86Kernel, bc Op, out []Op, w int) { k.negate(bc, out[0], w) },
		compute: func(k *x86Kernel, in []x86Src, w int) Op {
			if w == 64 {
				return k.maxByRange(k.reg(in[0], w), k.reg(in[1], w))
			}
			// Go computes max(x, y) as -min(-x, -y).
			nx, ny := k.negated(in[0], w), k.negated(in[1], w)
			m, r := k.vec(w), k.vec(w)
			k.goMin(nx, ny, narrow(m, w), w)
			k.xor(narrow(k.consts[0], w), narrow(m, w), narrow(r, w), w)
			return narrow(r, w)
		}},
	"neg": {memInput: 1, consts: signConsts, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		k.xor(in[0].v, narrow(k.consts[0], w), r, w)
		return r
	}},
	"abs": {memInput: 1, consts: signConsts, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		k.andNot(narrow(k.consts[0], w), in[0].v, r, w)
		return r
	}},
	"sqrt": {memInput: 1, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		pick(k.t, k.VSQRTPS, k.VSQRTPD)(in[0].v, r)
		return r
	}},
	"floor":     x86Round(roundDown),
	"ceil":      x86Round(roundUp),
	"trunc":     x86Round(roundTrunc),
	"roundeven": x86Round(roundEven),
	"round":     {consts: roundConsts, compute: (*x86Kernel).roundAway},

	"eq": x86Compare(0x00), // EQ_OQ
	"ne": x86Compare(0x04), // NEQ_UQ: true when either is NaN, as Go's !=
	"lt": x86Compare(0x11), // LT_OQ
	"le": x86Compare(0x12), // LE_OQ
	"gt": x86Compare(0x1e), // GT_OQ
	"ge": x86Compare(0x1d), // GE_OQ

	// c = a*b + c in the accumulator: the form and operand roles of Go's
	// own math.FMA (VFMADD231SD), so NaNs propagate as there: the first
	// NaN of a, b, c.
	"fma": {features: []string{"cpu.X86.HasFMA"}, memInput: 2, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		acc := narrow(k.vec(w), w)
		if m, ok := in[2].v.(Mem); ok {
			in[2].elem.load(k.Context, w, m, acc)
		} else {
			k.VMOVUPS(in[2].v, acc)
		}
		pick(k.t, k.VFMADD231PS, k.VFMADD231PD)(in[1].v, k.reg(in[0], w), acc)
		return acc
	}},
	// (a - b)^2 + c: b folded into the subtraction, the square the
	// addition's first source (its NaN wins over c's, as in Go's t + c).
	"sqdiffadd": {memInput: 2, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		d, r := narrow(k.vec(w), w), narrow(k.vec(w), w)
		pick(k.t, k.VSUBPS, k.VSUBPD)(in[1].v, k.reg(in[0], w), d)
		pick(k.t, k.VMULPS, k.VMULPD)(d, d, d)
		pick(k.t, k.VADDPS, k.VADDPD)(k.reg(in[2], w), d, r)
		return r
	}},
	"clamp": {memInput: 1, consts: signConsts, preps: 1,
		prep: func(k *x86Kernel, bc Op, out []Op, w int) { k.negate(bc, out[0], w) },
		compute: func(k *x86Kernel, in []x86Src, w int) Op {
			// min(max(a, lo), hi), max as Go computes it: -min(-a, -lo).
			var mx Op
			if w == 64 {
				mx = k.maxByRange(k.reg(in[0], w), k.reg(in[1], w))
			} else {
				m := narrow(k.vec(w), w)
				mx = narrow(k.vec(w), w)
				k.goMin(k.negated(in[0], w), k.negated(in[1], w), m, w)
				k.xor(narrow(k.consts[0], w), m, mx, w)
			}
			r := narrow(k.vec(w), w)
			k.goMin(mx, k.reg(in[2], w), r, w)
			return r
		}},
	"select": {consts: zeroConsts, compute: (*x86Kernel).selectLanes},
}

// pick returns the float32 or float64 form of an instruction.
func pick(t registry.Type, f32, f64 func(...Op)) func(...Op) {
	if t.Bits == 32 {
		return f32
	}
	return f64
}

// x86Arith is the emitter of an op that is one instruction, y folded from
// memory. Go assembly lists sources in reverse, so x, the first source, is
// the middle operand: the result of x - y is never y - x.
func x86Arith(inst func(k *x86Kernel, t registry.Type) func(...Op)) x86Emitter {
	return x86Emitter{memInput: 2, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		inst(k, k.t)(in[1].v, k.reg(in[0], w), r)
		return r
	}}
}

// goMin emits the sequence the Go compiler uses for the builtin min, so
// that NaNs and signed zeros come out with the same bits:
// t1 = MIN(x, y); t2 = MIN(t1, x); r = t1 | t2.
func (k *x86Kernel) goMin(x, y, r Op, w int) {
	min := pick(k.t, k.VMINPS, k.VMINPD)
	t1, t2 := narrow(k.vec(w), w), narrow(k.vec(w), w)
	min(y, x, t1)
	min(x, t1, t2)
	k.or(t2, t1, r, w)
}

// maxByRange emits Go's max(x, y) on zmm registers with the bits of
// -goMin(-x, -y) in three operations where that takes six (the negations
// of x, y and the result): VRANGE's max (+0 above -0) where neither is a
// NaN, and elsewhere the bits -min's sequence gives a NaN, x | y with the
// sign of x & y, by one VPTERNLOG (0xd4: C ? A & B : A | B, C the sign).
func (k *x86Kernel) maxByRange(x, y Op) Op {
	r, ordered := k.vec(64), k.K()
	k.VMOVDQU64(x, r)
	pick(k.t, k.VPTERNLOGD, k.VPTERNLOGQ)(U8(0xd4), k.consts[0], y, r)
	pick(k.t, k.VCMPPS, k.VCMPPD)(U8(0x07), y, x, ordered) // ORD_Q
	pick(k.t, k.VRANGEPS, k.VRANGEPD)(U8(rangeMax), y, x, ordered, r)
	return r
}

// constant broadcasts one element's bit pattern (bits32 for float32
// lanes, bits64 for float64) into every lane of a full-width register.
func (k *x86Kernel) constant(bits32 uint32, bits64 uint64) reg.VecVirtual {
	g, x, r := k.GP64(), k.XMM(), k.vec(k.isa.Vector)
	if k.t.Bits == 32 {
		k.MOVL(U32(bits32), g.As32())
		k.VMOVQ(g, x) // VEX: a legacy-SSE MOVQ after 256-bit code stalls on the dirty upper halves
		k.VPBROADCASTD(x, r)
		return r
	}
	k.MOVQ(U64(bits64), g)
	k.VMOVQ(g, x) // VEX: a legacy-SSE MOVQ after 256-bit code stalls on the dirty upper halves
	k.VPBROADCASTQ(x, r)
	return r
}

// signConsts is the sign bit of one element in every lane.
func signConsts(k *x86Kernel) []reg.VecVirtual {
	return []reg.VecVirtual{k.constant(0x80000000, 0x8000000000000000)}
}

// negate emits r = -x (a sign flip, as Go's unary minus).
func (k *x86Kernel) negate(x, r Op, w int) { k.xor(x, narrow(k.consts[0], w), r, w) }

// negated returns -s: its per-row preparation when it has one.
func (k *x86Kernel) negated(s x86Src, w int) Op {
	if len(s.prep) > 0 {
		return s.prep[0]
	}
	r := narrow(k.vec(w), w)
	k.xor(s.v, narrow(k.consts[0], w), r, w)
	return r
}

// andNot emits r = ^x & y in the integer domain of the level.
func (k *x86Kernel) andNot(x, y, r Op, w int) {
	if w == 64 {
		k.VPANDND(y, x, r)
	} else {
		k.VPANDN(y, x, r)
	}
}

// The rounding-control immediates of VROUNDPS and VRNDSCALEPS: the mode in
// bits 1:0, bit 3 suppressing the inexact exception (as Go's math.Floor
// does with ROUNDSD).
const (
	roundEven  = 0x08
	roundDown  = 0x09
	roundUp    = 0x0a
	roundTrunc = 0x0b
)

// roundTo emits r = x rounded to an integer by mode: VROUNDPS on AVX2,
// VRNDSCALEPS (the same immediate, scale 0) on 512-bit vectors.
func (k *x86Kernel) roundTo(mode uint8, x, r Op, w int) {
	switch {
	case w == 64 && k.t.Bits == 32:
		k.VRNDSCALEPS(U8(mode), x, r)
	case w == 64:
		k.VRNDSCALEPD(U8(mode), x, r)
	case k.t.Bits == 32:
		k.VROUNDPS(U8(mode), x, r)
	default:
		k.VROUNDPD(U8(mode), x, r)
	}
}

// x86Round is the emitter of floor, ceil, trunc and roundeven: one rounding
// instruction, which like Go's math functions (ROUNDSD) returns a NaN
// operand quieted.
func x86Round(mode uint8) x86Emitter {
	return x86Emitter{memInput: 1, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		k.roundTo(mode, in[0].v, r, w)
		return r
	}}
}

// roundConsts are the sign bit, 0.5 and 1.0 in every lane.
func roundConsts(k *x86Kernel) []reg.VecVirtual {
	return []reg.VecVirtual{
		k.constant(0x80000000, 0x8000000000000000),
		k.constant(0x3f000000, 0x3fe0000000000000),
		k.constant(0x3f800000, 0x3ff0000000000000),
	}
}

// roundAway emits math.Round, which rounds half away from zero and has no
// instruction: t = trunc(x), then t ± 1 where |x - t| >= 0.5, the sign of
// x. Every step is exact. A float64 NaN comes back as it was, bits and all
// (math.Round returns it untouched, signalling or not); a float32 NaN comes
// back quieted, as float32(math.Round(float64(x))) does.
func (k *x86Kernel) roundAway(in []x86Src, w int) Op {
	sign, half, one := narrow(k.consts[0], w), narrow(k.consts[1], w), narrow(k.consts[2], w)
	x := k.reg(in[0], w)
	t, f, step, r := narrow(k.vec(w), w), narrow(k.vec(w), w), narrow(k.vec(w), w), narrow(k.vec(w), w)
	k.roundTo(roundTrunc, x, t, w)
	pick(k.t, k.VSUBPS, k.VSUBPD)(t, x, f) // x - t
	k.andNot(sign, f, f, w)                // |x - t|
	k.and(sign, x, step, w)
	k.or(one, step, step, w) // ±1, the sign of x
	const ge = 0x1d          // GE_OQ
	if w == 64 {
		m := k.K()
		pick(k.t, k.VCMPPS, k.VCMPPD)(U8(ge), half, f, m)
		pick(k.t, k.VMOVAPS, k.VMOVAPD)(t, r)
		pick(k.t, k.VADDPS, k.VADDPD)(step, t, m, r) // merge-masked: t + step where m
		if k.t.Bits == 64 {
			nan := k.K()
			k.VCMPPD(U8(0x03), x, x, nan) // UNORD_Q: x is NaN
			k.VMOVAPD(x, nan, r)
		}
		return r
	}
	pick(k.t, k.VCMPPS, k.VCMPPD)(U8(ge), half, f, f) // |x - t| >= 0.5: all ones
	// A blend, not t + (step & mask): t + 0 would turn -0 into +0.
	pick(k.t, k.VADDPS, k.VADDPD)(step, t, step)
	k.blendv(f, step, t, r)
	if k.t.Bits == 64 {
		nan := narrow(k.vec(w), w)
		k.VCMPPD(U8(0x03), x, x, nan) // UNORD_Q: x is NaN
		k.blendv(nan, x, r, r)
	}
	return r
}

// blendv emits r = mask ? x : y, lane by lane by the sign bit of mask.
func (k *x86Kernel) blendv(mask, x, y, r Op) {
	if k.t.Bits == 32 {
		k.VBLENDVPS(mask, x, y, r)
	} else {
		k.VBLENDVPD(mask, x, y, r)
	}
}

// x86Compare is the emitter of a comparison: VCMPPS/VCMPPD with predicate
// pred, then the lanes narrowed to one byte each, 1 for true: on AVX2 the
// lane mask's sign bits (VMOVMSKPS) index a table of bool bytes, a load
// rather than a chain of shuffles; on 512-bit vectors the opmask becomes
// bytes (VPMOVM2B, then 0xff to 1).
func x86Compare(pred uint8) x86Emitter {
	return x86Emitter{memInput: 2, consts: bitBytesTable, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		x := k.reg(in[0], w)
		if w == 64 {
			m, r := k.K(), k.XMM()
			pick(k.t, k.VCMPPS, k.VCMPPD)(U8(pred), in[1].v, x, m)
			k.VPMOVM2B(m, r)
			k.VPABSB(r, r)
			return r
		}
		mask, bits, r := narrow(k.vec(w), w), k.GP32(), k.XMM()
		pick(k.t, k.VCMPPS, k.VCMPPD)(U8(pred), in[1].v, x, mask)
		if k.t.Bits == 32 {
			k.VMOVMSKPS(mask, bits)
		} else {
			k.VMOVMSKPD(mask, bits)
		}
		k.VMOVQ(Mem{Base: k.table, Index: bits.As64(), Scale: 8}, r)
		return r
	}}
}

// bitBytesTable loads the address of the bool-byte table once per kernel.
func bitBytesTable(k *x86Kernel) []reg.VecVirtual {
	if !k.isa.masked {
		k.table = k.GP64()
		k.LEAQ(x86BitBytes, k.table)
	}
	return nil
}

// zeroConsts is a zero vector.
func zeroConsts(k *x86Kernel) []reg.VecVirtual {
	z := k.vec(k.isa.Vector)
	k.xor(narrow(z, k.isa.Vector), narrow(z, k.isa.Vector), narrow(z, k.isa.Vector), k.isa.Vector)
	return []reg.VecVirtual{z}
}

// selectLanes emits a where cond, else b: the cond bytes widened to lanes
// and compared with zero (any nonzero byte is true), then a blend; on
// 512-bit vectors an opmask from the bytes and a masked blend. No
// floating-point operation touches the values, so every bit passes.
func (k *x86Kernel) selectLanes(in []x86Src, w int) Op {
	cond, a, b := in[0].v, k.reg(in[1], w), k.reg(in[2], w)
	r := narrow(k.vec(w), w)
	if w == 64 {
		m := k.K()
		k.VPTESTMB(cond, cond, m)
		// avo counts a masked instruction's destination among its inputs
		// (merge masking), though VBLENDMPS merges from its first source:
		// without a definition here r would be live from the kernel's
		// entry, and a fused kernel's many select handlers ran out of
		// vector registers. A move defines it (avo sees a zeroing XOR as a
		// read of r too).
		pick(k.t, k.VMOVAPS, k.VMOVAPD)(a, r)
		pick(k.t, k.VBLENDMPS, k.VBLENDMPD)(a, b, m, r)
		return r
	}
	wide := narrow(k.vec(w), w)
	if k.t.Bits == 32 {
		k.VPMOVZXBD(cond, wide)
		k.VPCMPEQD(narrow(k.consts[0], w), wide, wide)
	} else {
		k.VPMOVZXBQ(cond, wide)
		k.VPCMPEQQ(narrow(k.consts[0], w), wide, wide)
	}
	k.blendv(wide, b, a, r) // cond == 0: b
	return r
}

// x86EmitterFor returns op o's emitter for element type t, from the float
// or the integer table, and whether it has a vector form; an op without an
// entry in the table of a type it is defined on is an error.
func x86EmitterFor(o registry.Op, t registry.Type) (x86Emitter, bool, error) {
	if o.Math {
		return x86Math(o.Name), true, nil
	}
	table, which := x86Emitters, "x86Emitters"
	if !t.Float {
		table, which = x86IntEmitters, "x86IntEmitters"
	}
	em, ok := table[o.Name]
	if !ok {
		return em, false, fmt.Errorf("op %s has no entry in %s (give it one, or x86Emitter{none: true})", o.Name, which)
	}
	return em, !em.none, nil
}
