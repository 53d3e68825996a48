package main

import (
	"fmt"

	"github.com/simdkit/elem/gen/arm64enc"
)

// generateComplexARM64 writes the NEON complex product kernels of the
// amd64 ones (see generateComplexAMD64): mul[Conj]C64NEON and
// mul[Conj]C128NEON(dst, a, b, n), n a multiple of 4 (complex64) or 2
// (complex128), and the fused dot products dot[Conj]C64NEON and
// dot[Conj]C128NEON(acc, a, b, n), n a multiple of 16. The parts are
// split into real and imaginary registers (UZP1, UZP2), multiplied and
// added with every product rounded, and interleaved again (ZIP1, ZIP2).
func generateComplexARM64(dir string) error {
	p, stubs := newARM64File()
	p.Blank()
	p.StaticData("complexnan32", 4, []uint64{0x7fc00000, 0x7fc00000, 0x7fc00000, 0x7fc00000})
	p.StaticData("complexnan64", 8, []uint64{0x7ff8000000000000, 0x7ff8000000000000})
	for _, bits := range []int{64, 128} {
		for _, conj := range []bool{false, true} {
			k := neonComplex{p: p, arr: arm64enc.S4, single: bits == 64, conj: conj}
			if !k.single {
				k.arr = arm64enc.D2
			}
			what, infix := "a[i]*b[i]", ""
			if conj {
				what, infix = "a[i]*conj(b[i])", "Conj"
			}
			name := fmt.Sprintf("mul%sC%dNEON", infix, bits)
			sig := fmt.Sprintf("func(dst, a, b *complex%d, n int)", bits)
			fmt.Fprintf(stubs, "\n// %s sets dst[i] = %s for i < n, n a multiple of %d.\n//\n//go:noescape\nfunc %s%s\n", name, what, k.values(), name, sig[len("func"):])
			p.Blank()
			p.Comment("%s", sig)
			p.Text(name, "NOSPLIT", 0, 32)
			k.mul()

			name = fmt.Sprintf("dot%sC%dNEON", infix, bits)
			sig = fmt.Sprintf("func(acc *float%d, a, b *complex%d, n int)", bits/2, bits)
			fmt.Fprintf(stubs, "\n// %s adds the parts of %s into acc[j] for part j mod 32, n a multiple of 16: Sum's lanes over the products.\n//\n//go:noescape\nfunc %s%s\n", name, what, name, sig[len("func"):])
			p.Blank()
			p.Comment("%s", sig)
			p.Text(name, "NOSPLIT", 0, 32)
			k.dot()
		}
	}
	p.StaticData("magbounds", 8, []uint64{0x3810000000000000, 0x3810000000000000, 0x47e0000000000000, 0x47e0000000000000})
	p.StaticData("maginf32", 4, []uint64{0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000})
	fmt.Fprintf(stubs, "\n// magC64NEON sets dst[i] = |a[i]| for i < n, n a multiple of 4 (see neonMagnitude).\n//\n//go:noescape\nfunc magC64NEON(dst *float32, a *complex64, n int)\n")
	p.Blank()
	p.Comment("func(dst *float32, a *complex64, n int)")
	p.Text("magC64NEON", "NOSPLIT", 0, 24)
	neonMagnitude(p)
	return writeARM64File(dir, "complex", p, stubs)
}

// neonMagnitude writes the complex64 magnitude loop of the amd64 kernel
// (see magnitude), four values a step, every lane by both roots blended by
// its range test, and the special values in registers rather than by the
// caller: +Inf where a part is infinite, else the quiet NaN where s is a
// NaN.
func neonMagnitude(p *arm64enc.Program) {
	const (
		lo, hi, inf, nan = arm64enc.V20, arm64enc.V21, arm64enc.V22, arm64enc.V31
	)
	p.LoadArg("dst", 0, cxDst)
	p.LoadArg("a", 8, cxA)
	p.LoadArg("n", 16, cxN)
	p.MOVDAddr("magbounds", 0, cxTmp)
	p.VLD1P(cxTmp, arm64enc.D2, lo, hi)
	p.MOVDAddr("maginf32", 0, cxTmp)
	p.VLD1(cxTmp, arm64enc.S4, inf)
	p.MOVDAddr("complexnan32", 0, cxTmp)
	p.VLD1(cxTmp, arm64enc.S4, nan)
	p.CBZ(cxN, "done")
	p.Label("loop")
	p.VLD1P(cxA, arm64enc.S4, arm64enc.V0, arm64enc.V1)
	re, im := arm64enc.V2, arm64enc.V3
	p.Vec(arm64enc.Uzp1, arm64enc.S4, re, arm64enc.V0, arm64enc.V1)
	p.Vec(arm64enc.Uzp2, arm64enc.S4, im, arm64enc.V0, arm64enc.V1)
	// s = re² + im² in float64, the low two values and the high two; the
	// squares are exact, so FMLA rounds as the addition would.
	var sums, masks [2]arm64enc.VReg
	for h, high := range []bool{false, true} {
		r, i, sum, mask := arm64enc.V4+arm64enc.VReg(2*h), arm64enc.V5+arm64enc.VReg(2*h), arm64enc.V16+arm64enc.VReg(h), arm64enc.V18+arm64enc.VReg(h)
		p.Half(arm64enc.FCvtLD, high, r, re)
		p.Half(arm64enc.FCvtLD, high, i, im)
		p.FVector(arm64enc.FMul, arm64enc.D2, sum, r, r)
		p.Vec(arm64enc.Fmla, arm64enc.D2, sum, i, i)
		p.FVector(arm64enc.FCmGe, arm64enc.D2, mask, sum, lo)
		p.FVector(arm64enc.FCmGe, arm64enc.D2, arm64enc.V30, hi, sum)
		p.Vec(arm64enc.And, arm64enc.B16, mask, mask, arm64enc.V30)
		sums[h], masks[h] = sum, mask
	}
	fast, slow, pick := arm64enc.V25, arm64enc.V26, arm64enc.V27
	p.Half(arm64enc.FCvtND, false, fast, sums[0])
	p.Half(arm64enc.FCvtND, true, fast, sums[1])
	p.VUnary(arm64enc.FSqrt, arm64enc.S4, fast, fast)
	for h, sum := range sums {
		p.VUnary(arm64enc.FSqrt, arm64enc.D2, sum, sum)
		p.Half(arm64enc.FCvtND, h == 1, slow, sum)
	}
	// The masks narrowed: the low halves of their 64-bit lanes.
	p.Vec(arm64enc.Uzp1, arm64enc.S4, pick, masks[0], masks[1])
	p.Vec(arm64enc.Bsl, arm64enc.B16, pick, fast, slow)
	p.FVector(arm64enc.FCmEq, arm64enc.S4, arm64enc.V28, pick, pick)
	p.Vec(arm64enc.Bif, arm64enc.B16, pick, nan, arm64enc.V28)
	p.VUnary(arm64enc.FAbs, arm64enc.S4, arm64enc.V29, re)
	p.FVector(arm64enc.FCmEq, arm64enc.S4, arm64enc.V29, arm64enc.V29, inf)
	p.VUnary(arm64enc.FAbs, arm64enc.S4, arm64enc.V30, im)
	p.FVector(arm64enc.FCmEq, arm64enc.S4, arm64enc.V30, arm64enc.V30, inf)
	p.Vec(arm64enc.Orr, arm64enc.B16, arm64enc.V29, arm64enc.V29, arm64enc.V30)
	p.Vec(arm64enc.Bit, arm64enc.B16, pick, inf, arm64enc.V29)
	p.VST1P(cxDst, arm64enc.S4, pick)
	p.SUBSImm(cxN, cxN, 4)
	p.BCond(arm64enc.NE, "loop")
	p.Label("done")
	p.RET()
}

// neonComplex is one complex kernel being written.
type neonComplex struct {
	p      *arm64enc.Program
	arr    arm64enc.Arrangement // arm64enc.S4 for complex64's parts, arm64enc.D2 for complex128's
	single bool
	conj   bool
}

// The complex kernels' registers: the arguments, the operands, the
// products' temporaries and the quiet NaN.
const (
	cxDst, cxA, cxB, cxN, cxTmp = arm64enc.R0, arm64enc.R1, arm64enc.R2, arm64enc.R3, arm64enc.R4
	cxNaN                       = arm64enc.V31
)

// values is the complex values of two registers of parts.
func (k neonComplex) values() int {
	if k.single {
		return 4
	}
	return 2
}

// product loads the next values() values of a and b and leaves their
// products' real parts in re and imaginary parts in im: ar·br − ai·bi and
// ar·bi + ai·br, every product rounded (bi negated first for Conj).
func (k neonComplex) product(re, im arm64enc.VReg) {
	p := k.p
	p.VLD1P(cxA, k.arr, arm64enc.V0, arm64enc.V1)
	p.VLD1P(cxB, k.arr, arm64enc.V2, arm64enc.V3)
	ar, ai, br, bi := arm64enc.V4, arm64enc.V5, arm64enc.V6, arm64enc.V7
	p.Vec(arm64enc.Uzp1, k.arr, ar, arm64enc.V0, arm64enc.V1)
	p.Vec(arm64enc.Uzp2, k.arr, ai, arm64enc.V0, arm64enc.V1)
	p.Vec(arm64enc.Uzp1, k.arr, br, arm64enc.V2, arm64enc.V3)
	p.Vec(arm64enc.Uzp2, k.arr, bi, arm64enc.V2, arm64enc.V3)
	if k.conj {
		p.VUnary(arm64enc.FNeg, k.arr, bi, bi)
	}
	t, u := arm64enc.V24, arm64enc.V25
	p.FVector(arm64enc.FMul, k.arr, t, ar, br)
	p.FVector(arm64enc.FMul, k.arr, u, ai, bi)
	p.FVector(arm64enc.FSub, k.arr, re, t, u)
	p.FVector(arm64enc.FMul, k.arr, t, ar, bi)
	p.FVector(arm64enc.FMul, k.arr, u, ai, br)
	p.FVector(arm64enc.FAdd, k.arr, im, t, u)
}

// args loads the arguments (first, a, b, n): first is dst or acc.
func (k neonComplex) args(first string) {
	k.p.LoadArg(first, 0, cxDst)
	k.p.LoadArg("a", 8, cxA)
	k.p.LoadArg("b", 16, cxB)
	k.p.LoadArg("n", 24, cxN)
}

// mul writes the product loop: a NaN part becomes the quiet NaN, lanes
// not equal to themselves replaced by it.
func (k neonComplex) mul() {
	p := k.p
	k.args("dst")
	if k.single {
		p.MOVDAddr("complexnan32", 0, cxTmp)
	} else {
		p.MOVDAddr("complexnan64", 0, cxTmp)
	}
	p.VLD1(cxTmp, k.arr, cxNaN)
	p.CBZ(cxN, "done")
	p.Label("loop")
	re, im, m := arm64enc.V16, arm64enc.V17, arm64enc.V18
	k.product(re, im)
	for _, v := range []arm64enc.VReg{re, im} {
		p.FVector(arm64enc.FCmEq, k.arr, m, v, v)
		p.Vec(arm64enc.Bif, arm64enc.B16, v, cxNaN, m)
	}
	p.Vec(arm64enc.Zip1, k.arr, arm64enc.V26, re, im)
	p.Vec(arm64enc.Zip2, k.arr, arm64enc.V27, re, im)
	p.VST1P(cxDst, k.arr, arm64enc.V26, arm64enc.V27)
	p.SUBSImm(cxN, cxN, k.values())
	p.BCond(arm64enc.NE, "loop")
	p.Label("done")
	p.RET()
}

// dot writes the fused dot product: the 32 accumulators in registers
// (8 of float32, 16 of float64, from arm64enc.V8), each group's products
// interleaved again and added into the next two.
func (k neonComplex) dot() {
	p := k.p
	k.args("acc")
	regs := 8
	if !k.single {
		regs = 16
	}
	acc := func(i int) arm64enc.VReg { return arm64enc.V8 + arm64enc.VReg(i) }
	p.MOVD(cxDst, cxTmp)
	for i := 0; i < regs; i += 4 {
		p.VLD1P(cxTmp, k.arr, acc(i), acc(i+1), acc(i+2), acc(i+3))
	}
	p.CBZ(cxN, "done")
	p.Label("loop")
	for g := 0; g < regs; g += 2 {
		re, im := arm64enc.V26, arm64enc.V27
		k.product(re, im)
		p.Vec(arm64enc.Zip1, k.arr, arm64enc.V28, re, im)
		p.Vec(arm64enc.Zip2, k.arr, arm64enc.V29, re, im)
		p.FVector(arm64enc.FAdd, k.arr, acc(g), acc(g), arm64enc.V28)
		p.FVector(arm64enc.FAdd, k.arr, acc(g+1), acc(g+1), arm64enc.V29)
	}
	p.SUBSImm(cxN, cxN, 16)
	p.BCond(arm64enc.NE, "loop")
	p.Label("done")
	p.MOVD(cxDst, cxTmp)
	for i := 0; i < regs; i += 4 {
		p.VST1P(cxTmp, k.arr, acc(i), acc(i+1), acc(i+2), acc(i+3))
	}
	p.RET()
}
