package main

import (
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// x86IntEmitters maps every op defined on the integer types to its amd64
// sequence for them: two's-complement wrap-around, as Go's operators. The
// generator refuses an integer op without an entry.
var x86IntEmitters = map[string]x86Emitter{
	"add": x86IntInst(func(k *x86Kernel) func(...Op) { return k.byBits(k.VPADDB, k.VPADDW, k.VPADDD, k.VPADDQ) }),
	"sub": x86IntInst(func(k *x86Kernel) func(...Op) { return k.byBits(k.VPSUBB, k.VPSUBW, k.VPSUBD, k.VPSUBQ) }),
	"mul": {memInput: 2, consts: byteMasks, compute: (*x86Kernel).intMul},
	"min": {memInput: 2, consts: signFlip, compute: func(k *x86Kernel, in []x86Src, w int) Op { return k.intMinMax(in, w, false) }},
	"max": {memInput: 2, consts: signFlip, compute: func(k *x86Kernel, in []x86Src, w int) Op { return k.intMinMax(in, w, true) }},

	"and": x86IntInst(func(k *x86Kernel) func(...Op) { return k.bitwise(fixed3(k.VPAND), k.VPANDD) }),
	"or":  x86IntInst(func(k *x86Kernel) func(...Op) { return k.bitwise(fixed3(k.VPOR), k.VPORD) }),
	"xor": x86IntInst(func(k *x86Kernel) func(...Op) { return k.bitwise(fixed3(k.VPXOR), k.VPXORD) }),
	// a &^ b is ^b & a: VPANDN complements its first source, b.
	"andnot": {compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		k.andNot(k.reg(in[1], w), k.reg(in[0], w), r, w)
		return r
	}},

	"shl": {consts: byteMasks, compute: func(k *x86Kernel, in []x86Src, w int) Op { return k.shift(in, w, shiftLeft) }},
	"shr": {consts: byteMasks, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		if k.t.Signed {
			return k.shift(in, w, shiftArith)
		}
		return k.shift(in, w, shiftLogical)
	}},
}

// byBits picks the form of an instruction for the element width.
func (k *x86Kernel) byBits(b8, b16, b32, b64 func(...Op)) func(...Op) {
	switch k.t.Bits {
	case 8:
		return b8
	case 16:
		return b16
	case 32:
		return b32
	}
	return b64
}

// bitwise picks the VEX form of a bitwise instruction on AVX2, the EVEX
// form on AVX-512 (VEX has no 512-bit registers).
func (k *x86Kernel) bitwise(vex, evex func(...Op)) func(...Op) {
	if k.isa.masked {
		return evex
	}
	return vex
}

// x86IntInst is the emitter of an integer op that is one instruction, b
// folded from memory; x, the first source, is the middle Go operand.
func x86IntInst(inst func(k *x86Kernel) func(...Op)) x86Emitter {
	return x86Emitter{memInput: 2, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		r := narrow(k.vec(w), w)
		inst(k)(in[1].v, k.reg(in[0], w), r)
		return r
	}}
}

// byteMasks are the word masks 0x00ff and 0xff00, for the 8-bit ops x86
// lacks, done on words (other widths need none).
func byteMasks(k *x86Kernel) []reg.VecVirtual {
	if k.t.Bits != 8 {
		return nil
	}
	return []reg.VecVirtual{k.intConst(0x00ff00ff00ff00ff), k.intConst(0xff00ff00ff00ff00)}
}

// signFlip is the sign bit of each lane, which turns unsigned order into
// signed order, for the 64-bit unsigned min and max AVX2 lacks.
func signFlip(k *x86Kernel) []reg.VecVirtual {
	if k.t.Bits != 64 || k.t.Signed || k.isa.masked {
		return nil
	}
	return []reg.VecVirtual{k.intConst(0x8000000000000000)}
}

// intConst broadcasts a 64-bit pattern into every quadword of a full-width
// register.
func (k *x86Kernel) intConst(bits uint64) reg.VecVirtual {
	g, x, r := k.GP64(), k.XMM(), k.vec(k.isa.Vector)
	k.MOVQ(U64(bits), g)
	k.VMOVQ(g, x) // VEX: a legacy-SSE MOVQ after 256-bit code stalls on the dirty upper halves
	k.VPBROADCASTQ(x, r)
	return r
}

// intMul emits a*b with wrap-around. 16- and 32-bit lanes have a multiply
// low; 64-bit lanes have one on AVX-512 (VPMULLQ) and on AVX2 are built from
// 32x32->64 partial products: lo(a)lo(b) + (hi(a)lo(b) + lo(a)hi(b))<<32.
// 8-bit lanes are multiplied as words: the low byte of a word product is
// the product of the low bytes; the high bytes' product comes from the
// high byte of a shifted a times the masked high byte of b.
func (k *x86Kernel) intMul(in []x86Src, w int) Op {
	a, b := k.reg(in[0], w), in[1].v
	r := narrow(k.vec(w), w)
	switch {
	case k.t.Bits == 16:
		k.VPMULLW(b, a, r)
	case k.t.Bits == 32:
		k.VPMULLD(b, a, r)
	case k.t.Bits == 64 && k.isa.masked:
		k.VPMULLQ(b, a, r)
	case k.t.Bits == 64:
		bb := k.reg(in[1], w)
		lo, ah, bh, cross := narrow(k.vec(w), w), narrow(k.vec(w), w), narrow(k.vec(w), w), narrow(k.vec(w), w)
		k.VPMULUDQ(bb, a, lo)
		k.VPSRLQ(U8(32), a, ah)
		k.VPSRLQ(U8(32), bb, bh)
		k.VPMULUDQ(bb, ah, ah)
		k.VPMULUDQ(bh, a, bh)
		k.VPADDQ(bh, ah, cross)
		k.VPSLLQ(U8(32), cross, cross)
		k.VPADDQ(cross, lo, r)
	default: // 8 bits
		bb := k.reg(in[1], w)
		low, high := narrow(k.consts[0], w), narrow(k.consts[1], w)
		even, ah, bh := narrow(k.vec(w), w), narrow(k.vec(w), w), narrow(k.vec(w), w)
		k.VPMULLW(bb, a, even)
		k.and(low, even, even, w)
		k.VPSRLW(U8(8), a, ah)
		k.and(high, bb, bh, w)
		k.VPMULLW(bh, ah, ah)
		k.or(ah, even, r, w)
	}
	return r
}

// intMinMax emits Go's min or max. Every width has the instruction but
// 64-bit lanes on AVX2, which compare (VPCMPGTQ, signed; unsigned values
// with their sign bits flipped first) and blend.
func (k *x86Kernel) intMinMax(in []x86Src, w int, isMax bool) Op {
	a := k.reg(in[0], w)
	r := narrow(k.vec(w), w)
	k.intMinMaxInto(a, in[1], r, w, isMax)
	return r
}

// intMinMaxInto emits r = min(a, b) or max(a, b) (r may be a).
func (k *x86Kernel) intMinMaxInto(a Op, b x86Src, r Op, w int, isMax bool) {
	if k.t.Bits < 64 || k.isa.masked {
		var inst func(...Op)
		switch {
		case k.t.Signed && isMax:
			inst = k.byBits(k.VPMAXSB, k.VPMAXSW, k.VPMAXSD, k.VPMAXSQ)
		case k.t.Signed:
			inst = k.byBits(k.VPMINSB, k.VPMINSW, k.VPMINSD, k.VPMINSQ)
		case isMax:
			inst = k.byBits(k.VPMAXUB, k.VPMAXUW, k.VPMAXUD, k.VPMAXUQ)
		default:
			inst = k.byBits(k.VPMINUB, k.VPMINUW, k.VPMINUD, k.VPMINUQ)
		}
		inst(b.v, a, r)
		return
	}
	bb := k.reg(b, w)
	x, y := a, bb
	if !k.t.Signed {
		x, y = narrow(k.vec(w), w), narrow(k.vec(w), w)
		k.xor(narrow(k.consts[0], w), a, x, w)
		k.xor(narrow(k.consts[0], w), bb, y, w)
	}
	gt := narrow(k.vec(w), w)
	k.VPCMPGTQ(y, x, gt) // a > b
	if isMax {
		k.VPBLENDVB(gt, a, bb, r) // a where a > b, else b
	} else {
		k.VPBLENDVB(gt, bb, a, r) // b where a > b, else a
	}
}

// The shifts of shift.
const (
	shiftLeft = iota
	shiftLogical
	shiftArith
)

// shift emits a << s, a >> s (logical) or a >> s (arithmetic) by the count
// in the low quadword of in[1], as Go: x86 shifts by a register count give
// 0 (logical) or the sign (arithmetic) once the count reaches the width,
// whatever its size, as Go's shifts by a uint do. 8-bit lanes, which x86
// cannot shift, are shifted as words: each byte apart, the other masked
// off; an arithmetic shift of 64-bit lanes on AVX2, which lacks one, is
// ((a ^ m) >> s) ^ m with m the sign of a in every bit.
func (k *x86Kernel) shift(in []x86Src, w int, how int) Op {
	a, s := k.reg(in[0], w), in[1].v
	r := narrow(k.vec(w), w)
	if k.t.Bits == 8 {
		k.shiftBytes(a, s, r, w, how)
		return r
	}
	if how == shiftArith && k.t.Bits == 64 && !k.isa.masked {
		m, z := narrow(k.vec(w), w), narrow(k.vec(w), w)
		k.xor(z, z, z, w)
		k.VPCMPGTQ(a, z, m) // 0 > a
		k.xor(m, a, r, w)
		k.VPSRLQ(s, r, r)
		k.xor(m, r, r, w)
		return r
	}
	var inst func(...Op)
	switch how {
	case shiftLeft:
		inst = k.byBits(nil, k.VPSLLW, k.VPSLLD, k.VPSLLQ)
	case shiftLogical:
		inst = k.byBits(nil, k.VPSRLW, k.VPSRLD, k.VPSRLQ)
	default:
		inst = k.byBits(nil, k.VPSRAW, k.VPSRAD, k.VPSRAQ)
	}
	inst(s, a, r)
	return r
}

// shiftBytes shifts 8-bit lanes as words. Left: the low bytes shifted in
// place and masked, the high bytes masked first and shifted. Right: the
// high bytes shifted in place (logically or arithmetically) and masked, the
// low bytes moved up, shifted, and moved back down logically. A word shift
// by 8 to 15 clears an 8-bit value or fills it with its sign, and by 16 or
// more does the same, as Go's shifts of an 8-bit value by 8 or more.
func (k *x86Kernel) shiftBytes(a, s, r Op, w int, how int) {
	low, high := narrow(k.consts[0], w), narrow(k.consts[1], w)
	even, odd := narrow(k.vec(w), w), narrow(k.vec(w), w)
	if how == shiftLeft {
		k.VPSLLW(s, a, even)
		k.and(low, even, even, w)
		k.and(high, a, odd, w)
		k.VPSLLW(s, odd, odd)
		k.or(odd, even, r, w)
		return
	}
	right := k.VPSRLW
	if how == shiftArith {
		right = k.VPSRAW
	}
	right(s, a, odd)
	k.and(high, odd, odd, w)
	k.VPSLLW(U8(8), a, even)
	right(s, even, even)
	k.VPSRLW(U8(8), even, even)
	k.or(odd, even, r, w)
}

// fixed3 adapts an instruction of three fixed operands to the variadic form.
func fixed3(f func(a, b, c Op)) func(...Op) { return func(o ...Op) { f(o[0], o[1], o[2]) } }
