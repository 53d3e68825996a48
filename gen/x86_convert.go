package main

import (
	"slices"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/gen/registry"
)

// x86Conversions are the conversions with amd64 kernels, by registry.Conversion
// key, with the levels that have them; every other pair runs the generic
// loop. The sequences give the bits of the generic conversion: Go's
// conversion, and for a float to an integer, truncation with NaN to 0 and
// out-of-range values saturated (Go leaves those implementation-defined).
var x86Conversions = map[string]x86Conversion{
	"int32>float32":   {compute: func(k *x86Kernel, x Op, w int) Op { return k.cvt(k.VCVTDQ2PS, x, w) }},
	"float32>int32":   {consts: satConsts, compute: (*x86Kernel).floatToInt32},
	"float32>float64": {compute: func(k *x86Kernel, x Op, w int) Op { return k.cvt(k.VCVTPS2PD, x, w) }},
	"float64>float32": {compute: (*x86Kernel).narrowDoubles},
	"int32>float64":   {compute: func(k *x86Kernel, x Op, w int) Op { return k.cvt(k.VCVTDQ2PD, x, w) }},
	"int8>float32":    {compute: func(k *x86Kernel, x Op, w int) Op { return k.widenThenFloat(k.VPMOVSXBD, x, w) }},
	"uint8>float32":   {compute: func(k *x86Kernel, x Op, w int) Op { return k.widenThenFloat(k.VPMOVZXBD, x, w) }},
	"int16>float32":   {compute: func(k *x86Kernel, x Op, w int) Op { return k.widenThenFloat(k.VPMOVSXWD, x, w) }},
	"uint16>float32":  {compute: func(k *x86Kernel, x Op, w int) Op { return k.widenThenFloat(k.VPMOVZXWD, x, w) }},
	"float32>int8":    {consts: satConsts, compute: (*x86Kernel).floatToNarrow},
	"float32>uint8":   {consts: satConsts, compute: (*x86Kernel).floatToNarrow},
	"float32>int16":   {consts: satConsts, compute: (*x86Kernel).floatToNarrow},
	"float32>uint16":  {consts: satConsts, compute: (*x86Kernel).floatToNarrow},
	"int64>float64":   {avx512Only: true, compute: func(k *x86Kernel, x Op, w int) Op { return k.cvt(k.VCVTQQ2PD, x, w) }},
	"float64>int64":   {avx512Only: true, consts: satConsts, compute: (*x86Kernel).floatToInt64},
	"uint32>float32":  {consts: u32Consts, compute: (*x86Kernel).uint32ToFloat},
}

// x86Conversion is the amd64 sequence of one conversion: compute converts
// the source lanes x (a register at the source's width for the kernel's
// lanes) and returns the destination lanes.
type x86Conversion struct {
	avx512Only bool // AVX2 lacks the instruction, and emulating it does not pay
	consts     func(k *x86Kernel) []reg.VecVirtual
	compute    func(k *x86Kernel, x Op, w int) Op
}

// generateConvertAMD64 writes the conversion kernels of every amd64 level
// into dir/convert_amd64.s and their stubs into dir/convert_amd64.go.
func generateConvertAMD64(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	addTailMask(c)
	needs := map[string][]string{}
	for _, isa := range x86ISAs() {
		for _, cv := range registry.Conversions() {
			conv, ok := x86Conversions[cv.Key()]
			if !ok || conv.avx512Only && !isa.masked {
				continue
			}
			wide := max(cv.From.Size(), cv.To.Size())
			modes := []bool{false}
			if cv.To.Size() == wide {
				modes = append(modes, true)
			}
			for _, stream := range modes {
				em := x86Emitter{memInput: 1, consts: conv.consts, compute: func(k *x86Kernel, in []x86Src, w int) Op {
					return conv.compute(k, k.reg(in[0], k.width(in[0].elem, w/k.wide)), w)
				}}
				if cv.From.Size() != wide {
					em.memInput = 0 // the narrower source is loaded at its own width
				}
				k := &x86Kernel{Context: c, isa: isa, op: convertOp, em: em, kind: registry.Convert.Kinds[0],
					t: cv.From, dt: cv.To, stream: stream, name: cv.KernelName(isa.ISA)}
				if stream {
					k.name += streamSuffix
				}
				k.generate()
				needs[k.name] = slices.Clone(isa.Features)
			}
		}
	}
	return writeAvo(c, dir, "convert", needs)
}

// convertOp stands for the conversion in the kernel skeleton.
var convertOp = registry.Op{Name: "convert", Family: registry.Convert, Formula: "D({src})"}

// cvt emits one conversion instruction.
func (k *x86Kernel) cvt(inst func(...Op), x Op, w int) Op {
	r := k.outReg(w)
	inst(x, r)
	return r
}

// outReg allocates the register of a conversion's result in a step of
// width w (the wider type's bytes): the destination's elements of the
// step's lanes.
func (k *x86Kernel) outReg(w int) Op {
	dw := k.width(x86ElemOf(k.dt), w/k.wide)
	return narrow(k.vec(dw), dw)
}

// narrowDoubles converts float64 lanes to float32: VCVTPD2PS, whose Go
// spelling names the source width.
func (k *x86Kernel) narrowDoubles(x Op, w int) Op {
	r := k.outReg(w)
	switch w {
	case 64:
		k.VCVTPD2PS(x, r)
	case 32:
		k.VCVTPD2PSY(x, r)
	default:
		k.VCVTPD2PSX(x, r)
	}
	return r
}

// widenThenFloat sign- or zero-extends 8- or 16-bit lanes to 32 bits and
// converts them: every such value is exact in float32.
func (k *x86Kernel) widenThenFloat(widen func(...Op), x Op, w int) Op {
	i := narrow(k.vec(w), w)
	widen(x, i)
	r := narrow(k.vec(w), w)
	k.VCVTDQ2PS(i, r)
	return r
}

// satConsts are 2^31 (or 2^63) as the source float, where truncation to
// int32 (int64) starts to overflow.
func satConsts(k *x86Kernel) []reg.VecVirtual {
	return []reg.VecVirtual{k.constant(0x4f000000, 0x43e0000000000000)}
}

// floatToInt32 truncates float32 lanes to int32 with elem's rule: VCVTTPS2DQ
// gives 0x80000000 for NaN and for every value out of range, which is right
// for those below -2^31; those at or above 2^31 become 0x7fffffff (the
// overflow mask flips every bit) and NaNs become 0.
func (k *x86Kernel) floatToInt32(x Op, w int) Op {
	t := narrow(k.vec(w), w)
	k.VCVTTPS2DQ(x, t)
	return k.saturate(x, t, w, k.VCMPPS)
}

// floatToInt64 is floatToInt32 for float64 to int64, on AVX-512.
func (k *x86Kernel) floatToInt64(x Op, w int) Op {
	t := narrow(k.vec(w), w)
	k.VCVTTPD2QQ(x, t)
	return k.saturate(x, t, w, k.VCMPPD)
}

// saturate fixes the lanes t the truncation of x got wrong: at or above the
// positive limit, the maximum; NaN, 0.
func (k *x86Kernel) saturate(x, t Op, w int, cmp func(...Op)) Op {
	limit := narrow(k.consts[0], w)
	r := narrow(k.vec(w), w)
	const ge, ord = 0x1d, 0x07 // GE_OQ, ORD_Q
	if w == 64 {
		over, num := k.K(), k.K()
		cmp(U8(ge), limit, x, over)
		cmp(U8(ord), x, x, num)
		flip := narrow(k.vec(w), w)
		k.VPTERNLOGD(U8(0xff), flip, flip, flip) // all ones
		if k.dt.Bits == 64 {                     // masks of qword lanes
			k.VPXORQ(flip, t, over, t)
			k.VMOVDQA64_Z(t, num, r)
			return r
		}
		k.VPXORD(flip, t, over, t) // merge-masked: flip the overflowed lanes
		k.VMOVDQA32_Z(t, num, r)   // and zero the NaNs
		return r
	}
	over, nan := narrow(k.vec(w), w), narrow(k.vec(w), w)
	cmp(U8(ge), limit, x, over)
	cmp(U8(0x03), x, x, nan) // UNORD_Q
	k.xor(over, t, t, w)
	k.andNot(nan, t, r, w)
	return r
}

// floatToNarrow converts float32 lanes to 8- or 16-bit integers: to int32
// with saturation first, then narrowed with saturation (the int32 result is
// already saturated at ±2^31, and narrowing saturates again at the type's
// range). AVX2 packs (signed to int16 first for the 8-bit types, since the
// unsigned 8-bit pack reads its input as signed words); AVX-512 narrows
// with VPMOV*, clamping below at 0 first for the unsigned types.
func (k *x86Kernel) floatToNarrow(x Op, w int) Op {
	t := k.floatToInt32(x, w)
	r := k.XMM()
	if w == 64 {
		if !k.dt.Signed {
			z := narrow(k.vec(w), w)
			k.xor(z, z, z, w)
			k.VPMAXSD(z, t, t)
		}
		switch {
		case k.dt.Bits == 8 && k.dt.Signed:
			k.VPMOVSDB(t, r)
		case k.dt.Bits == 8:
			k.VPMOVUSDB(t, r)
		case k.dt.Signed:
			rr := k.YMM()
			k.VPMOVSDW(t, rr)
			return rr
		default:
			rr := k.YMM()
			k.VPMOVUSDW(t, rr)
			return rr
		}
		return r
	}
	lo, hi := t.(reg.Register), Op(nil)
	if w == 32 {
		h := k.XMM()
		k.VEXTRACTI128(U8(1), t, h)
		lo, hi = lowHalf(t), h
	} else {
		hi = t
	}
	words := k.XMM()
	if k.dt.Bits == 16 && !k.dt.Signed {
		k.VPACKUSDW(hi, lo, words)
		return words
	}
	k.VPACKSSDW(hi, lo, words)
	switch {
	case k.dt.Bits == 16:
		return words
	case k.dt.Signed:
		k.VPACKSSWB(words, words, r)
	default:
		k.VPACKUSWB(words, words, r)
	}
	return r
}

// lowHalf is the XMM register under a YMM one.
func lowHalf(y Op) reg.Register { return y.(reg.Virtual).(interface{ AsX() reg.Register }).AsX() }

// u32Consts are 65536.0 and the low-half mask for uint32 to float32 on AVX2.
func u32Consts(k *x86Kernel) []reg.VecVirtual {
	if k.isa.masked {
		return nil
	}
	return []reg.VecVirtual{k.constant(0x47800000, 0), k.constant(0x0000ffff, 0)}
}

// uint32ToFloat converts uint32 lanes: VCVTUDQ2PS on AVX-512; on AVX2 the
// two 16-bit halves, each exact in float32, and hi*65536 + lo (exact
// product) rounded once by the add, which is the correctly rounded result.
func (k *x86Kernel) uint32ToFloat(x Op, w int) Op {
	r := narrow(k.vec(w), w)
	if w == 64 {
		k.VCVTUDQ2PS(x, r)
		return r
	}
	hi, lo := narrow(k.vec(w), w), narrow(k.vec(w), w)
	k.VPSRLD(U8(16), x, hi)
	k.VCVTDQ2PS(hi, hi)
	k.VMULPS(narrow(k.consts[0], w), hi, hi)
	k.and(narrow(k.consts[1], w), x, lo, w)
	k.VCVTDQ2PS(lo, lo)
	k.VADDPS(lo, hi, r)
	return r
}
