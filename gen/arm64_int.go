package main

import "github.com/simdkit/elem/gen/asm"

// neonIntEmitters maps every op defined on the integer types to its NEON
// sequence for them: two's-complement wrap-around, as Go's operators. The
// generator refuses an integer op without an entry.
var neonIntEmitters = map[string]neonEmitter{
	"add": neonLanes(neonVec(asm.Add)),
	"sub": neonLanes(neonVec(asm.Sub)),
	"mul": neonLanes(neonIntMul),
	"min": neonMinMax(false),
	"max": neonMinMax(true),

	"and": neonLanes(neonBytes(asm.And)),
	"or":  neonLanes(neonBytes(asm.Orr)),
	"xor": neonLanes(neonBytes(asm.Eor)),
	// a &^ b is BIC a, b.
	"andnot": neonLanes(func(k *neonKernel, arr asm.Arrangement, d, n, m asm.VReg) {
		k.p.IntVector(asm.Bic, bytesOf(arr), d, n, m)
	}),

	"shl": neonShift(false),
	"shr": neonShift(true),
}

// neonVec emits the Go assembler's vector instruction op on T's lanes.
func neonVec(op asm.VecOp) func(k *neonKernel, arr asm.Arrangement, d, n, m asm.VReg) {
	return func(k *neonKernel, arr asm.Arrangement, d, n, m asm.VReg) { k.p.Vec(op, arr, d, n, m) }
}

// neonBytes emits the bitwise instruction op, which takes byte lanes alone.
func neonBytes(op asm.VecOp) func(k *neonKernel, arr asm.Arrangement, d, n, m asm.VReg) {
	return func(k *neonKernel, arr asm.Arrangement, d, n, m asm.VReg) { k.p.Vec(op, bytesOf(arr), d, n, m) }
}

// neonIntMul emits d = a*b, the low half of the product. Lanes narrower than
// 64 bits have MUL; 64-bit lanes, which have none, are built from 32-bit
// partial products, as compilers do: a*b mod 2^64 is lo(a)lo(b) +
// (lo(a)hi(b) + hi(a)lo(b))<<32, seven instructions per register of two
// lanes against a scalar loop's load, load, MUL, store and loop control
// per element.
func neonIntMul(k *neonKernel, arr asm.Arrangement, d, a, b asm.VReg) {
	if k.t.Bits < 64 {
		k.p.IntVector(asm.Mul, arr, d, a, b)
		return
	}
	// Scratch registers of their own for each result register, so that the
	// steps of a block need not wait for one another.
	alo := vTemp + 2*(d-vOut)
	blo := alo + 1
	k.p.VREV64(asm.S4, d, b)                // the halves of each lane of b swapped: hi(b), lo(b)
	k.p.IntVector(asm.Mul, asm.S4, d, d, a) // lo(a)hi(b), hi(a)lo(b), each mod 2^32
	k.p.VUnary(asm.UAddLP, asm.S4, d, d)    // their sum, in each 64-bit lane
	k.p.VSHL(asm.D2, d, d, 32)              // moved to the high half, its carry out dropped
	k.p.Vec(asm.Uzp1, asm.S4, alo, a, a)    // lo(a) of both lanes, in the low half
	k.p.Vec(asm.Uzp1, asm.S4, blo, b, b)    // lo(b)
	k.p.UMLAL(asm.S2, d, alo, blo)          // plus lo(a)lo(b), 64 bits
}

// neonMinMax emits Go's min or max: SMIN, SMAX, UMIN or UMAX on lanes
// narrower than 64 bits; 64-bit lanes, which have none of them, compare
// a > b (CMGT signed, CMHI unsigned) and select by the mask with BSL: a
// where a > b for max, b for min.
func neonMinMax(isMax bool) neonEmitter {
	return neonLanes(func(k *neonKernel, arr asm.Arrangement, d, a, b asm.VReg) {
		if k.t.Bits < 64 {
			switch {
			case k.t.Signed && isMax:
				k.p.IntVector(asm.SMax, arr, d, a, b)
			case k.t.Signed:
				k.p.IntVector(asm.SMin, arr, d, a, b)
			case isMax:
				k.p.Vec(asm.UMax, arr, d, a, b)
			default:
				k.p.Vec(asm.UMin, arr, d, a, b)
			}
			return
		}
		gt := asm.CmHi
		if k.t.Signed {
			gt = asm.CmGt
		}
		k.p.IntVector(gt, arr, d, a, b)
		if isMax {
			k.p.Vec(asm.Bsl, bytesOf(arr), d, a, b)
		} else {
			k.p.Vec(asm.Bsl, bytesOf(arr), d, b, a)
		}
	})
}

// neonShift emits a << s or a >> s by the row's count, which the kernel
// has clamped to T's width and, for a right shift, negated (see
// shiftCount): USHL shifts left, and right logically (unsigned types);
// SSHL right arithmetically (signed types).
func neonShift(right bool) neonEmitter {
	em := neonLanes(func(k *neonKernel, arr asm.Arrangement, d, a, s asm.VReg) {
		op := asm.UShl
		if right && k.t.Signed {
			op = asm.SShl
		}
		k.p.IntVector(op, arr, d, a, s)
	})
	em.rightShift = right
	return em
}
