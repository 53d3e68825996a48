package main

import (
	"github.com/simdkit/elem/gen/arm64enc"
	"github.com/simdkit/elem/gen/registry"
)

// The NEON form of the extremes' one-pass searches (FindMax, FindMin; see
// x86_argmax.go): four registers of best values and of the steps that
// gave them, a lane mask of the elements that were not NaN, and the lanes
// combined at the end. NEON has no masked loads: the kernel takes whole
// registers, and its piece folds the last elements with the generic loop
// (neonExtremeVectors). FindGreatest and FindLeast keep no positions
// (extremeValue).

// neonExtremeData adds the constants the extremes read to p: the start
// values (-Inf for a max, +Inf for a min), the element offsets of the
// lanes of the four registers, and the largest index, per lane width.
func neonExtremeData(p *arm64enc.Program) {
	p.StaticData("argstart32", 4, []uint64{0xff800000, 0x7f800000})
	p.StaticData("argstart64", 8, []uint64{0xfff0000000000000, 0x7ff0000000000000})
	var iota32, iota64 []uint64
	for i := range 16 {
		iota32 = append(iota32, uint64(i))
	}
	for i := range 8 {
		iota64 = append(iota64, uint64(i))
	}
	p.StaticData("argiota32", 4, iota32)
	p.StaticData("argiota64", 8, iota64)
	p.StaticData("argnone32", 4, []uint64{0x7fffffff})
	p.StaticData("argnone64", 8, []uint64{0x7fffffffffffffff})
}

// neonExtremeVectors is the number of elements a NEON extreme takes from a
// slice of n: whole registers.
func neonExtremeVectors(t registry.Type) int { return 16 / t.Size() }

// The registers of the NEON extremes.
const (
	vxBest  = arm64enc.V0  // V0..V3: the best values
	vxIdx   = arm64enc.V4  // V4..V7: their steps, then their indices
	vxOK    = arm64enc.V8  // all ones in the lanes that met no NaN
	vxJ     = arm64enc.V9  // the step's first index in every lane
	vxX     = arm64enc.V16 // V16..V19: loaded elements, then the offsets
	vxMask  = arm64enc.V20 // V20..V23
	vxEq    = arm64enc.V24
	vxE     = arm64enc.V25 // the extreme in every lane
	vxT1    = arm64enc.V26
	vxT2    = arm64enc.V27
	vxNone  = arm64enc.V28 // the largest index in every lane
	vxLeast = arm64enc.V29
)

// extreme emits FindMax or FindMin on the whole registers of a[:n] (n a
// multiple of the lanes) and stores the result at ret.
func (k *neonReduce) extreme(ret int) {
	p := k.p
	q, lanes := k.q, k.q.Lanes()
	bits := "32"
	if k.t.Bits == 64 {
		bits = "64"
	}
	start := 0
	if k.r.Fold == registry.FindMin {
		start = k.t.Size()
	}
	p.MOVDAddr("argstart"+bits, start, rdTmp)
	p.VLD1R(rdTmp, q, vxBest)
	for u := arm64enc.VReg(1); u < 4; u++ {
		p.VMOV(vxBest+u, vxBest)
	}
	for u := range arm64enc.VReg(4) {
		p.Vec(arm64enc.Eor, arm64enc.B16, vxIdx+u, vxIdx+u, vxIdx+u)
	}
	p.VUnary(arm64enc.Not, arm64enc.B16, vxOK, vxIdx) // all ones
	p.MOVD(rdN, rdCnt)
	p.SUB(rdJ, rdN, rdN) // j = 0
	update := func(u arm64enc.VReg) {
		x, m := vxX+u, vxMask+u
		if k.r.Fold == registry.FindMax {
			p.FVector(arm64enc.FCmGt, q, m, x, vxBest+u) // x > best, false for a NaN
		} else {
			p.FVector(arm64enc.FCmGt, q, m, vxBest+u, x) // best > x
		}
		p.Vec(arm64enc.Bit, arm64enc.B16, vxBest+u, x, m)
		p.Vec(arm64enc.Bit, arm64enc.B16, vxIdx+u, vxJ, m)
		p.FVector(arm64enc.FCmEq, q, vxEq, x, x) // not a NaN
		p.Vec(arm64enc.And, arm64enc.B16, vxOK, vxOK, vxEq)
	}
	k.extremeLoop(func(count int) {
		p.VDUPGen(q, vxJ, rdJ)
		p.VLD1P(rdA, q, regs(vxX, count)...)
		for u := range arm64enc.VReg(count) {
			update(u)
		}
		p.ADDImm(rdJ, rdJ, count*lanes)
	})
	p.Label("combine")
	p.VUnary(arm64enc.Not, arm64enc.B16, vxT1, vxOK)
	p.UMaxV(vxT2, vxT1)
	p.FMOVToGP(arm64enc.Single, rdTmp, vxT2)
	p.CBNZ(rdTmp, "nan")
	// The extreme of every lane (no NaN is left, so FMAX and FMIN are
	// exact), in every lane: the halves folded by unzipping.
	op := arm64enc.FMax
	if k.r.Fold == registry.FindMin {
		op = arm64enc.FMin
	}
	p.FVector(op, q, vxE, vxBest, vxBest+1)
	p.FVector(op, q, vxE, vxE, vxBest+2)
	p.FVector(op, q, vxE, vxE, vxBest+3)
	k.across(vxE, func(d, n, m arm64enc.VReg) { p.FVector(op, q, d, n, m) })
	// The least index among the lanes holding it: the others offer the
	// largest index.
	p.MOVDAddr("argiota"+bits, 0, rdTmp)
	p.VLD1(rdTmp, q, regs(vxX, 4)...)
	p.MOVDAddr("argnone"+bits, 0, rdTmp)
	p.VLD1R(rdTmp, q, vxNone)
	p.VMOV(vxLeast, vxNone)
	for u := range arm64enc.VReg(4) {
		p.Vec(arm64enc.Add, q, vxIdx+u, vxIdx+u, vxX+u) // the step plus the lane's offset
		p.FVector(arm64enc.FCmEq, q, vxEq, vxBest+u, vxE)
		p.VMOV(vxT1, vxNone)
		p.Vec(arm64enc.Bit, arm64enc.B16, vxT1, vxIdx+u, vxEq)
		k.leastIndex(vxLeast, vxLeast, vxT1)
	}
	k.across(vxLeast, k.leastIndex)
	p.VMOVToGP(q, rdTmp, vxLeast, 0)
	p.StoreArg("ret", ret, rdTmp)
	p.RET()
	p.Label("nan")
	p.MOVImm(rdTmp, 1)
	p.NEG(rdTmp, rdTmp)
	p.StoreArg("ret", ret, rdTmp)
	p.RET()
}

// extremeLoop emits the extremes' loops over rdCnt elements: steps of four
// registers while they last, then of one, each emitted by step (which
// loads from rdA), then on to "combine".
func (k *neonReduce) extremeLoop(step func(count int)) {
	p, lanes := k.p, k.q.Lanes()
	for _, count := range []int{4, 1} {
		loop, next := "block", "single"
		if count == 1 {
			loop, next = "single", "combine"
		}
		p.Label(loop)
		p.CMPImm(rdCnt, count*lanes)
		p.BCond(arm64enc.LT, next)
		step(count)
		p.SUBImm(rdCnt, rdCnt, count*lanes)
		p.B(loop)
	}
}

// leastIndex emits d = the lane-wise signed minimum of the indices n and
// m: SMIN on 32-bit lanes; on 64-bit lanes, which have none, the lanes
// where n > m take m's bits (CMGT, BIT).
func (k *neonReduce) leastIndex(d, n, m arm64enc.VReg) {
	p := k.p
	if k.t.Bits == 32 {
		p.IntVector(arm64enc.SMin, k.q, d, n, m)
		return
	}
	p.IntVector(arm64enc.CmGt, k.q, vxEq, n, m) // vxEq is free by now
	if d != n {
		p.VMOV(d, n)
	}
	p.Vec(arm64enc.Bit, arm64enc.B16, d, m, vxEq)
}

// across folds the lanes of v with op, leaving the result in every lane:
// the even and odd lanes unzipped and folded, twice for 32-bit lanes.
func (k *neonReduce) across(v arm64enc.VReg, op func(d, n, m arm64enc.VReg)) {
	for range log2i(k.q.Lanes()) {
		k.p.Vec(arm64enc.Uzp1, k.q, vxT1, v, v)
		k.p.Vec(arm64enc.Uzp2, k.q, vxT2, v, v)
		op(v, vxT1, vxT2)
	}
}

// extremeValue emits FindGreatest or FindLeast on the whole registers of
// a[:n] (n a multiple of the lanes) and stores the result at ret: FMAX
// (FMIN) into four registers, which carries a NaN through to the end, the
// lanes folded, and the result's bits, with +0's for a zero of either sign.
func (k *neonReduce) extremeValue(ret int) {
	p := k.p
	q := k.q
	bits, start, op := "32", 0, arm64enc.FMax
	if k.t.Bits == 64 {
		bits = "64"
	}
	if k.r.Fold.Least() {
		start, op = k.t.Size(), arm64enc.FMin
	}
	p.MOVDAddr("argstart"+bits, start, rdTmp)
	p.VLD1R(rdTmp, q, vxBest)
	for u := arm64enc.VReg(1); u < 4; u++ {
		p.VMOV(vxBest+u, vxBest)
	}
	p.MOVD(rdN, rdCnt)
	k.extremeLoop(func(count int) {
		p.VLD1P(rdA, q, regs(vxX, count)...)
		for u := range arm64enc.VReg(count) {
			p.FVector(op, q, vxBest+u, vxBest+u, vxX+u)
		}
	})
	p.Label("combine")
	p.FVector(op, q, vxE, vxBest, vxBest+1)
	p.FVector(op, q, vxE, vxE, vxBest+2)
	p.FVector(op, q, vxE, vxE, vxBest+3)
	k.across(vxE, func(d, n, m arm64enc.VReg) { p.FVector(op, q, d, n, m) })
	p.FVector(arm64enc.FCmEq, q, vxEq, vxE, vxE) // all zeros for a NaN
	p.VUnary(arm64enc.Not, arm64enc.B16, vxT1, vxEq)
	p.VMOVToGP(q, rdTmp, vxT1, 0)
	p.CBNZ(rdTmp, "nan")
	p.Vec(arm64enc.Eor, arm64enc.B16, vxT2, vxT2, vxT2)
	p.FVector(arm64enc.FCmEq, q, vxEq, vxE, vxT2) // a zero of either sign
	p.IntVector(arm64enc.Bic, arm64enc.B16, vxE, vxE, vxEq)
	p.VMOVToGP(q, rdTmp, vxE, 0)
	p.StoreArg("ret", ret, rdTmp)
	p.RET()
	p.Label("nan")
	p.MOVImm(rdTmp, 1)
	p.NEG(rdTmp, rdTmp)
	p.StoreArg("ret", ret, rdTmp)
	p.RET()
}
