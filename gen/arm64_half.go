package main

import (
	"fmt"

	"github.com/simdkit/elem/gen/arm64enc"
)

// generateHalfARM64 writes the NEON half-precision conversion kernels
// into dir/half_arm64.s and their stubs into dir/half_arm64.go: the
// kernels of the amd64 ones (see generateHalfAMD64), eight values a step,
// float16 by FCVTN/FCVTL (round to nearest even under Go's FPCR, subnormals
// kept), bfloat16 by integer rounding narrowed with SHRN and widened with
// SHLL.
func generateHalfARM64(dir string) error {
	p, stubs := newARM64File()
	p.Blank()
	// The bfloat16 rounding's constants, four lanes each: 1, 0x7fff, the
	// magnitude mask, +Inf's bits and the quiet bit.
	var consts []uint64
	for _, v := range []uint64{1, 0x7fff, 0x7fffffff, 0x7f800000, 0x00400000} {
		consts = append(consts, v, v, v, v)
	}
	p.StaticData("bf16consts", 4, consts)
	for _, k := range []struct {
		name, doc string
		narrow    bool
		body      func(p *arm64enc.Program)
	}{
		{"f16From32NEON", "float32 to float16", true, func(p *arm64enc.Program) {
			p.VLD1P(hSrc, arm64enc.S4, arm64enc.V0, arm64enc.V1)
			p.Half(arm64enc.FCvtN, false, arm64enc.V2, arm64enc.V0)
			p.Half(arm64enc.FCvtN, true, arm64enc.V2, arm64enc.V1)
			p.VST1P(hDst, arm64enc.H8, arm64enc.V2)
		}},
		{"f16To32NEON", "float16 to float32", false, func(p *arm64enc.Program) {
			p.VLD1P(hSrc, arm64enc.H8, arm64enc.V0)
			p.Half(arm64enc.FCvtL, false, arm64enc.V1, arm64enc.V0)
			p.Half(arm64enc.FCvtL, true, arm64enc.V2, arm64enc.V0)
			p.VST1P(hDst, arm64enc.S4, arm64enc.V1, arm64enc.V2)
		}},
		{"bf16From32NEON", "float32 to bfloat16", true, neonBF16From32},
		{"bf16To32NEON", "bfloat16 to float32", false, func(p *arm64enc.Program) {
			p.VLD1P(hSrc, arm64enc.H8, arm64enc.V0)
			p.Half(arm64enc.ShLL16, false, arm64enc.V1, arm64enc.V0)
			p.Half(arm64enc.ShLL16, true, arm64enc.V2, arm64enc.V0)
			p.VST1P(hDst, arm64enc.S4, arm64enc.V1, arm64enc.V2)
		}},
	} {
		sig := "func(dst *float32, src *uint16, n int)"
		if k.narrow {
			sig = "func(dst *uint16, src *float32, n int)"
		}
		fmt.Fprintf(stubs, "\n// %s converts n values (a multiple of 8) from %s.\n//\n//go:noescape\nfunc %s%s\n", k.name, k.doc, k.name, sig[len("func"):])
		p.Blank()
		p.Comment("%s", sig)
		p.Text(k.name, "NOSPLIT", 0, 24)
		p.LoadArg("dst", 0, hDst)
		p.LoadArg("src", 8, hSrc)
		p.LoadArg("n", 16, hN)
		if k.name == "bf16From32NEON" {
			p.MOVDAddr("bf16consts", 0, hTmp)
			p.VLD1P(hTmp, arm64enc.S4, arm64enc.V16, arm64enc.V17, arm64enc.V18, arm64enc.V19)
			p.VLD1(hTmp, arm64enc.S4, arm64enc.V20)
		}
		p.CBZ(hN, "done")
		p.Label("loop")
		k.body(p)
		p.SUBSImm(hN, hN, 8)
		p.BCond(arm64enc.NE, "loop")
		p.Label("done")
		p.RET()
	}
	return writeARM64File(dir, "half", p, stubs)
}

// The half kernels' registers.
const (
	hDst, hSrc, hN, hTmp = arm64enc.R0, arm64enc.R1, arm64enc.R2, arm64enc.R3
)

// neonBF16From32 rounds eight float32 bit patterns b to their top halves,
// to nearest even, as the amd64 kernel: (b + 0x7fff + bit 16 of b) >> 16,
// a NaN (|b| above Inf's bits) as (b | the quiet bit) >> 16; SHRN does the
// shift and the narrowing at once.
func neonBF16From32(p *arm64enc.Program) {
	one, round, abs, inf, quiet := arm64enc.V16, arm64enc.V17, arm64enc.V18, arm64enc.V19, arm64enc.V20
	p.VLD1P(hSrc, arm64enc.S4, arm64enc.V0, arm64enc.V1)
	for i, b := range []arm64enc.VReg{arm64enc.V0, arm64enc.V1} {
		t, r, m, q := arm64enc.V2, arm64enc.V3+arm64enc.VReg(i), arm64enc.V5, arm64enc.V6
		p.VUSHR(arm64enc.S4, t, b, 16)
		p.Vec(arm64enc.And, arm64enc.B16, t, t, one)
		p.Vec(arm64enc.Add, arm64enc.S4, r, b, t)
		p.Vec(arm64enc.Add, arm64enc.S4, r, r, round)
		p.Vec(arm64enc.And, arm64enc.B16, m, b, abs)
		p.IntVector(arm64enc.CmHi, arm64enc.S4, m, m, inf)
		p.Vec(arm64enc.Orr, arm64enc.B16, q, b, quiet)
		p.Vec(arm64enc.Bit, arm64enc.B16, r, q, m)
	}
	p.Half(arm64enc.ShrN16, false, arm64enc.V7, arm64enc.V3)
	p.Half(arm64enc.ShrN16, true, arm64enc.V7, arm64enc.V4)
	p.VST1P(hDst, arm64enc.H8, arm64enc.V7)
}
