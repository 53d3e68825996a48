package main

import "github.com/simdkit/elem/gen/arm64enc"

// neonIntEmitters maps every op defined on the integer types to its NEON
// sequence for them: two's-complement wrap-around, as Go's operators. The
// generator refuses an integer op without an entry.
var neonIntEmitters = map[string]neonEmitter{
	"add": neonLanes(neonVec(arm64enc.Add)),
	"sub": neonLanes(neonVec(arm64enc.Sub)),
	"mul": neonLanes(neonIntMul),
	"min": neonMinMax(false),
	"max": neonMinMax(true),

	"and": neonLanes(neonBytes(arm64enc.And)),
	"or":  neonLanes(neonBytes(arm64enc.Orr)),
	"xor": neonLanes(neonBytes(arm64enc.Eor)),
	// a &^ b is BIC a, b.
	"andnot": neonLanes(func(k *neonKernel, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) {
		k.p.IntVector(arm64enc.Bic, bytesOf(arr), d, n, m)
	}),

	"shl": neonShift(false),
	"shr": neonShift(true),

	"eq": neonIntCompare(arm64enc.CmEq, false, false),
	"ne": neonIntCompare(arm64enc.CmEq, false, true),
	"lt": neonIntCompare(arm64enc.CmGt, true, false),
	"le": neonIntCompare(arm64enc.CmGt, false, true), // not a > b
	"gt": neonIntCompare(arm64enc.CmGt, false, false),
	"ge": neonIntCompare(arm64enc.CmGt, true, true), // not b > a

	"neg":    neonUnary(arm64enc.Neg),
	"abs":    neonIntAbs,
	"clamp":  neonIntClamp,
	"select": neonSelect,
}

// neonIntCompare is the emitter of an integer comparison: gt on (a, b), or
// on (b, a) when swap is set, or its complement when complement is set (the
// store flips the narrowed bytes). gt is CMGT for the signed types and CMHI
// for the unsigned ones; CMEQ is either.
func neonIntCompare(gt arm64enc.IntOp, swap, complement bool) neonEmitter {
	em := neonLanes(func(k *neonKernel, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) {
		op := gt
		if op == arm64enc.CmGt && !k.t.Signed {
			op = arm64enc.CmHi
		}
		if swap {
			n, m = m, n
		}
		k.p.IntVector(op, arr, d, n, m)
	})
	em.complement = complement
	return em
}

// neonIntAbs is ABS, which wraps as Go's -a does (the most negative value
// stays); an unsigned value is its own absolute value.
var neonIntAbs = neonEmitter{compute: func(k *neonKernel, arr arm64enc.Arrangement, out arm64enc.VReg, in []neonValue) arm64enc.VReg {
	if !k.t.Signed {
		return in[0].reg
	}
	k.p.VUnary(arm64enc.Abs, arr, out, in[0].reg)
	return out
}}

// neonIntClamp is min(max(a, lo), hi) by Go's integer min and max (see
// neonMinMax), through a scratch register of the result's own.
var neonIntClamp = neonEmitter{compute: func(k *neonKernel, arr arm64enc.Arrangement, out arm64enc.VReg, in []neonValue) arm64enc.VReg {
	maxOf, minOf := neonMinMax(true).compute, neonMinMax(false).compute
	t := vTemp + (out - vOut)
	maxOf(k, arr, t, []neonValue{in[0], in[1]})
	return minOf(k, arr, out, []neonValue{{reg: t}, in[2]})
}}

// neonVec emits the Go assembler's vector instruction op on T's lanes.
func neonVec(op arm64enc.VecOp) func(k *neonKernel, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) {
	return func(k *neonKernel, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) { k.p.Vec(op, arr, d, n, m) }
}

// neonBytes emits the bitwise instruction op, which takes byte lanes alone.
func neonBytes(op arm64enc.VecOp) func(k *neonKernel, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) {
	return func(k *neonKernel, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) {
		k.p.Vec(op, bytesOf(arr), d, n, m)
	}
}

// neonIntMul emits d = a*b, the low half of the product. Lanes narrower than
// 64 bits have MUL; 64-bit lanes, which have none, are built from 32-bit
// partial products, as compilers do: a*b mod 2^64 is lo(a)lo(b) +
// (lo(a)hi(b) + hi(a)lo(b))<<32, seven instructions per register of two
// lanes against a scalar loop's load, load, MUL, store and loop control
// per element.
func neonIntMul(k *neonKernel, arr arm64enc.Arrangement, d, a, b arm64enc.VReg) {
	if k.t.Bits < 64 {
		k.p.IntVector(arm64enc.Mul, arr, d, a, b)
		return
	}
	// Scratch registers of their own for each result register, so that the
	// steps of a block need not wait for one another.
	alo := vTemp + 2*(d-vOut)
	blo := alo + 1
	k.p.VREV64(arm64enc.S4, d, b)                     // the halves of each lane of b swapped: hi(b), lo(b)
	k.p.IntVector(arm64enc.Mul, arm64enc.S4, d, d, a) // lo(a)hi(b), hi(a)lo(b), each mod 2^32
	k.p.VUnary(arm64enc.UAddLP, arm64enc.S4, d, d)    // their sum, in each 64-bit lane
	k.p.VSHL(arm64enc.D2, d, d, 32)                   // moved to the high half, its carry out dropped
	k.p.Vec(arm64enc.Uzp1, arm64enc.S4, alo, a, a)    // lo(a) of both lanes, in the low half
	k.p.Vec(arm64enc.Uzp1, arm64enc.S4, blo, b, b)    // lo(b)
	k.p.UMLAL(arm64enc.S2, d, alo, blo)               // plus lo(a)lo(b), 64 bits
}

// neonMinMax emits Go's min or max: SMIN, SMAX, UMIN or UMAX on lanes
// narrower than 64 bits; 64-bit lanes, which have none of them, compare
// a > b (CMGT signed, CMHI unsigned) and select by the mask with BSL: a
// where a > b for max, b for min.
func neonMinMax(isMax bool) neonEmitter {
	return neonLanes(func(k *neonKernel, arr arm64enc.Arrangement, d, a, b arm64enc.VReg) {
		if k.t.Bits < 64 {
			switch {
			case k.t.Signed && isMax:
				k.p.IntVector(arm64enc.SMax, arr, d, a, b)
			case k.t.Signed:
				k.p.IntVector(arm64enc.SMin, arr, d, a, b)
			case isMax:
				k.p.Vec(arm64enc.UMax, arr, d, a, b)
			default:
				k.p.Vec(arm64enc.UMin, arr, d, a, b)
			}
			return
		}
		gt := arm64enc.CmHi
		if k.t.Signed {
			gt = arm64enc.CmGt
		}
		k.p.IntVector(gt, arr, d, a, b)
		if isMax {
			k.p.Vec(arm64enc.Bsl, bytesOf(arr), d, a, b)
		} else {
			k.p.Vec(arm64enc.Bsl, bytesOf(arr), d, b, a)
		}
	})
}

// neonShift emits a << s or a >> s by the row's count, which the kernel
// has clamped to T's width and, for a right shift, negated (see
// shiftCount): USHL shifts left, and right logically (unsigned types);
// SSHL right arithmetically (signed types).
func neonShift(right bool) neonEmitter {
	em := neonLanes(func(k *neonKernel, arr arm64enc.Arrangement, d, a, s arm64enc.VReg) {
		op := arm64enc.UShl
		if right && k.t.Signed {
			op = arm64enc.SShl
		}
		k.p.IntVector(op, arr, d, a, s)
	})
	em.rightShift = right
	return em
}
