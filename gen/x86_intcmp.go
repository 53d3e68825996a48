package main

import (
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The integer comparisons, selection, clamp, negation and absolute value:
// the entries of x86IntEmitters for the ops that began on floats.
func init() {
	for name, em := range map[string]x86Emitter{
		"eq":     x86IntCompare(cmpEq),
		"ne":     x86IntCompare(cmpNe),
		"lt":     x86IntCompare(cmpLt),
		"le":     x86IntCompare(cmpLe),
		"gt":     x86IntCompare(cmpGt),
		"ge":     x86IntCompare(cmpGe),
		"select": {consts: zeroConsts, compute: (*x86Kernel).intSelect},
		"clamp": {memInput: 2, consts: signFlip, compute: func(k *x86Kernel, in []x86Src, w int) Op {
			m, r := narrow(k.vec(w), w), narrow(k.vec(w), w)
			k.intMinMaxInto(k.reg(in[0], w), in[1], m, w, true)
			k.intMinMaxInto(m, in[2], r, w, false)
			return r
		}},
		// 0 - a, which wraps as Go's -a.
		"neg": {memInput: 1, consts: zeroConsts, compute: func(k *x86Kernel, in []x86Src, w int) Op {
			r := narrow(k.vec(w), w)
			k.byBits(k.VPSUBB, k.VPSUBW, k.VPSUBD, k.VPSUBQ)(in[0].v, narrow(k.consts[0], w), r)
			return r
		}},
		"abs": {memInput: 1, consts: zeroConsts, compute: (*x86Kernel).intAbs},
	} {
		x86IntEmitters[name] = em
	}
}

// intAbs emits a, or -a where a < 0: VPABS*, which wraps as Go's -a (the
// most negative value stays), but for 64-bit lanes on AVX2, which lack
// VPABSQ: there -a is picked by the sign of a (VBLENDVPD reads sign bits).
// The unsigned types are never below 0: a itself.
func (k *x86Kernel) intAbs(in []x86Src, w int) Op {
	if !k.t.Signed {
		return k.reg(in[0], w)
	}
	r := narrow(k.vec(w), w)
	if k.t.Bits < 64 || k.isa.masked {
		k.byBits(k.VPABSB, k.VPABSW, k.VPABSD, k.VPABSQ)(in[0].v, r)
		return r
	}
	a, neg := k.reg(in[0], w), narrow(k.vec(w), w)
	k.VPSUBQ(a, narrow(k.consts[0], w), neg)
	k.VBLENDVPD(a, neg, a, r)
	return r
}

// intSelect emits a where cond, else b, as selectLanes does for floats:
// on 512-bit vectors an opmask of the nonzero cond bytes and a masked
// blend; otherwise the bytes widened to T's lanes (8-bit lanes are the
// bytes), compared with zero and blended bytewise.
func (k *x86Kernel) intSelect(in []x86Src, w int) Op {
	cond, a, b := in[0].v, k.reg(in[1], w), k.reg(in[2], w)
	r := narrow(k.vec(w), w)
	if w == 64 {
		m := k.K()
		k.VPTESTMB(cond, cond, m)
		k.VMOVDQU64(a, r) // defines r: see selectLanes
		k.byBits(k.VPBLENDMB, k.VPBLENDMW, k.VPBLENDMD, k.VPBLENDMQ)(a, b, m, r)
		return r
	}
	wide := narrow(k.vec(w), w)
	switch k.t.Bits {
	case 8:
		k.VPCMPEQB(narrow(k.consts[0], w), cond, wide)
	case 16:
		k.VPMOVZXBW(cond, wide)
		k.VPCMPEQW(narrow(k.consts[0], w), wide, wide)
	case 32:
		k.VPMOVZXBD(cond, wide)
		k.VPCMPEQD(narrow(k.consts[0], w), wide, wide)
	default:
		k.VPMOVZXBQ(cond, wide)
		k.VPCMPEQQ(narrow(k.consts[0], w), wide, wide)
	}
	k.VPBLENDVB(wide, b, a, r) // cond == 0: b
	return r
}

// intPredicate is a comparison of integers.
type intPredicate int

const (
	cmpEq intPredicate = iota
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

// avx512 is the predicate immediate of VPCMP[U]B/W/D/Q.
func (p intPredicate) avx512() uint8 {
	return [...]uint8{cmpEq: 0, cmpNe: 4, cmpLt: 1, cmpLe: 2, cmpGt: 6, cmpGe: 5}[p]
}

// x86IntCompare is the emitter of an integer comparison. On 512-bit vectors
// VPCMP[U]* with the predicate into an opmask, made bytes as the float
// comparisons do. On AVX2, which compares for equal and signed greater
// only, a mask of the relation or of its complement:
//   - signed: a == b, a > b, b > a; ne, le and ge are the complements of eq,
//     gt and lt;
//   - unsigned, narrower than 64 bits: a <= b is min(a, b) == a and a >= b
//     is max(a, b) == a; lt and gt are their complements;
//   - unsigned 64-bit, which has no min: both sign bits flipped, then the
//     signed comparison.
//
// The mask becomes bool bytes: 8-bit lanes are bytes already, 16-bit ones
// are packed to bytes (VPACKSSWB keeps 0 and -1), 0xff is 1 (VPABSB) and the
// complement's 0xff is 0 (adding 1); 32- and 64-bit lanes' sign bits
// (VMOVMSKPS/PD, complemented in a general register) index the table of
// bool bytes, as for floats.
func x86IntCompare(p intPredicate) x86Emitter {
	return x86Emitter{memInput: 2, consts: intCompareConsts, compute: func(k *x86Kernel, in []x86Src, w int) Op {
		if w == 64 {
			m, r := k.K(), k.vec(k.width(x86Bool, k.lanes))
			var inst func(...Op)
			if k.t.Signed {
				inst = k.byBits(k.VPCMPB, k.VPCMPW, k.VPCMPD, k.VPCMPQ)
			} else {
				inst = k.byBits(k.VPCMPUB, k.VPCMPUW, k.VPCMPUD, k.VPCMPUQ)
			}
			inst(U8(p.avx512()), in[1].v, k.reg(in[0], w), m)
			k.VPMOVM2B(m, r)
			k.VPABSB(r, r)
			return r
		}
		mask, complement := k.intCompareMask(p, in, w)
		return k.maskBytes(mask, complement, w)
	}}
}

// intCompareConsts are the AVX2 comparisons' constants: bytes of 1 (for
// the complements of 8- and 16-bit masks) or the bool-byte table, and the
// 64-bit sign bits that turn unsigned order into signed order.
func intCompareConsts(k *x86Kernel) []reg.VecVirtual {
	if k.isa.masked {
		return nil
	}
	ones := reg.VecVirtual(nil)
	if k.t.Bits <= 16 {
		ones = k.intConst(0x0101010101010101)
	} else {
		bitBytesTable(k)
	}
	return append([]reg.VecVirtual{ones}, signFlip(k)...)
}

// intCompareMask emits the AVX2 lane mask of predicate p on (a, b), or of
// its complement, which it reports.
func (k *x86Kernel) intCompareMask(p intPredicate, in []x86Src, w int) (reg.VecVirtual, bool) {
	a, b := k.reg(in[0], w), in[1]
	full := k.vec(w)
	mask := narrow(full, w)
	eq := k.byBits(k.VPCMPEQB, k.VPCMPEQW, k.VPCMPEQD, k.VPCMPEQQ)
	gt := k.byBits(k.VPCMPGTB, k.VPCMPGTW, k.VPCMPGTD, k.VPCMPGTQ)
	switch {
	case p == cmpEq || p == cmpNe:
		eq(b.v, a, mask)
		return full, p == cmpNe
	case k.t.Signed || k.t.Bits == 64:
		x, y := a, k.reg(b, w)
		if !k.t.Signed {
			x, y = narrow(k.vec(w), w), narrow(k.vec(w), w)
			k.xor(narrow(k.consts[1], w), a, x, w)
			k.xor(narrow(k.consts[1], w), k.reg(b, w), y, w)
		}
		if p == cmpGt || p == cmpLe {
			gt(y, x, mask) // a > b
		} else {
			gt(x, y, mask) // b > a
		}
		return full, p == cmpLe || p == cmpGe
	}
	// Unsigned: a <= b where min(a, b) == a, a >= b where max(a, b) == a.
	isMax := p == cmpGe || p == cmpLt
	k.intMinMaxInto(a, b, mask, w, isMax)
	eq(a, mask, mask)
	return full, p == cmpLt || p == cmpGt
}

// maskBytes turns an AVX2 lane mask (all ones or zero per lane of T) into
// bool bytes, complemented if complement is set.
func (k *x86Kernel) maskBytes(mask reg.VecVirtual, complement bool, w int) Op {
	if k.t.Bits <= 16 {
		bytes, bw := narrow(mask, w), w // 8-bit lanes are bytes already
		if k.t.Bits == 16 {
			r := k.XMM()
			if w == 32 {
				k.VEXTRACTI128(U8(1), mask.AsY(), r)
				k.VPACKSSWB(r, mask.AsX(), r)
			} else {
				k.VPACKSSWB(mask.AsX(), mask.AsX(), r)
			}
			bytes, bw = r, 16
		}
		if complement {
			k.VPADDB(narrow(k.consts[0], bw), bytes, bytes)
		} else {
			k.VPABSB(bytes, bytes)
		}
		return bytes
	}
	bits, r := k.GP32(), k.XMM()
	if k.t.Bits == 32 {
		k.VMOVMSKPS(narrow(mask, w), bits)
	} else {
		k.VMOVMSKPD(narrow(mask, w), bits)
	}
	if complement {
		k.XORL(U32(1<<(w/k.t.Size())-1), bits)
	}
	k.VMOVQ(Mem{Base: k.table, Index: bits.As64(), Scale: 8}, r)
	return r
}
