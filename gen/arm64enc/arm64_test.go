package arm64enc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/arch/arm64/arm64asm"
)

// form is one instruction form that the Program can emit: the call, the Go
// assembly line it must print, and the GNU disassembly of the machine word
// it must stand for (as printed by arm64asm.GNUSyntax, which GNU as also
// accepts). A branch form branches to the label "next", which the harness
// defines right after it, so its target is .+0x4.
type form struct {
	name string
	emit func(p *Program)
	goAs string
	gnu  string
}

// goForms are the instructions printed in Go syntax.
var goForms = []form{
	{"LoadArg", func(p *Program) { p.LoadArg("n", 16, R2) }, "\tMOVD\tn+16(FP), R2", "ldr x2, [sp,#24]"},
	{"MOVD", func(p *Program) { p.MOVD(R3, R9) }, "\tMOVD\tR3, R9", "mov x9, x3"},
	{"ADD", func(p *Program) { p.ADD(R3, R3, R4) }, "\tADD\tR4, R3, R3", "add x3, x3, x4"},
	{"ADD3", func(p *Program) { p.ADD(R9, R10, R25) }, "\tADD\tR25, R10, R9", "add x9, x10, x25"},
	{"SUB", func(p *Program) { p.SUB(R1, R2, R3) }, "\tSUB\tR3, R2, R1", "sub x1, x2, x3"},
	{"ADDImm", func(p *Program) { p.ADDImm(R12, R12, 16) }, "\tADD\t$16, R12, R12", "add x12, x12, #0x10"},
	{"SUBImm", func(p *Program) { p.SUBImm(R1, R1, 4095) }, "\tSUB\t$4095, R1, R1", "sub x1, x1, #0xfff"},
	{"SUBSImm", func(p *Program) { p.SUBSImm(R12, R2, 16) }, "\tSUBS\t$16, R2, R12", "subs x12, x2, #0x10"},
	{"ADDSImm", func(p *Program) { p.ADDSImm(R12, R12, 1) }, "\tADDS\t$1, R12, R12", "adds x12, x12, #0x1"},
	{"CMPImm", func(p *Program) { p.CMPImm(R0, 5) }, "\tCMP\t$5, R0", "cmp x0, #0x5"},
	{"CMP", func(p *Program) { p.CMP(R1, R2) }, "\tCMP\tR2, R1", "cmp x1, x2"},
	{"LSLImm", func(p *Program) { p.LSLImm(R4, R4, 2) }, "\tLSL\t$2, R4, R4", "lsl x4, x4, #2"},
	{"LSLImm3", func(p *Program) { p.LSLImm(R6, R7, 3) }, "\tLSL\t$3, R7, R6", "lsl x6, x7, #3"},
	{"Load", func(p *Program) { p.Load(R15, R5) }, "\tMOVD\t(R5), R15", "ldr x15, [x5]"},
	{"MOVImm", func(p *Program) { p.MOVImm(R16, 64) }, "\tMOVD\t$64, R16", "orr x16, xzr, #0x40"},
	{"MOVImmMOVZ", func(p *Program) { p.MOVImm(R16, 100) }, "\tMOVD\t$100, R16", "mov x16, #0x64"},
	{"MOVImmMax", func(p *Program) { p.MOVImm(R0, 65535) }, "\tMOVD\t$65535, R0", "mov x0, #0xffff"},
	{"CSEL", func(p *Program) { p.CSEL(HI, R15, R16, R15) }, "\tCSEL\tHI, R16, R15, R15", "csel x15, x16, x15, hi"},
	{"CSEL_LT", func(p *Program) { p.CSEL(LT, R1, R2, R3) }, "\tCSEL\tLT, R2, R3, R1", "csel x1, x2, x3, lt"},
	{"NEG", func(p *Program) { p.NEG(R15, R14) }, "\tNEG\tR14, R15", "neg x15, x14"},

	{"VLD1P_S4x4", func(p *Program) { p.VLD1P(R1, S4, V0, V1, V2, V3) }, "\tVLD1.P\t64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]", "ld1 {v0.4s-v3.4s}, [x1],#64"},
	{"VLD1P_S4x2", func(p *Program) { p.VLD1P(R10, S4, V4, V5) }, "\tVLD1.P\t32(R10), [V4.S4, V5.S4]", "ld1 {v4.4s, v5.4s}, [x10],#32"},
	{"VLD1P_S4x1", func(p *Program) { p.VLD1P(R11, S4, V31) }, "\tVLD1.P\t16(R11), [V31.S4]", "ld1 {v31.4s}, [x11],#16"},
	{"VLD1P_S4x3wrap", func(p *Program) { p.VLD1P(R0, S4, V30, V31, V0) }, "\tVLD1.P\t48(R0), [V30.S4, V31.S4, V0.S4]", "ld1 {v30.4s, v31.4s, v0.4s}, [x0],#48"},
	{"VLD1P_S2", func(p *Program) { p.VLD1P(R10, S2, V0) }, "\tVLD1.P\t8(R10), [V0.S2]", "ld1 {v0.2s}, [x10],#8"},
	{"VLD1P_D2x4", func(p *Program) { p.VLD1P(R5, D2, V16, V17, V18, V19) }, "\tVLD1.P\t64(R5), [V16.D2, V17.D2, V18.D2, V19.D2]", "ld1 {v16.2d-v19.2d}, [x5],#64"},
	{"VST1P_S4x4", func(p *Program) { p.VST1P(R9, S4, V0, V1, V2, V3) }, "\tVST1.P\t[V0.S4, V1.S4, V2.S4, V3.S4], 64(R9)", "st1 {v0.4s-v3.4s}, [x9],#64"},
	{"VST1P_S2", func(p *Program) { p.VST1P(R9, S2, V8) }, "\tVST1.P\t[V8.S2], 8(R9)", "st1 {v8.2s}, [x9],#8"},
	{"VST1P_D2x2", func(p *Program) { p.VST1P(R3, D2, V6, V7) }, "\tVST1.P\t[V6.D2, V7.D2], 32(R3)", "st1 {v6.2d, v7.2d}, [x3],#32"},
	{"VLD1_S4", func(p *Program) { p.VLD1(R1, S4, V2) }, "\tVLD1\t(R1), [V2.S4]", "ld1 {v2.4s}, [x1]"},
	{"VST1_D2", func(p *Program) { p.VST1(R1, D2, V2, V3) }, "\tVST1\t[V2.D2, V3.D2], (R1)", "st1 {v2.2d, v3.2d}, [x1]"},
	{"VLD1R_S4", func(p *Program) { p.VLD1R(R7, S4, V31) }, "\tVLD1R\t(R7), [V31.S4]", "ld1r {v31.4s}, [x7]"},
	{"VLD1R_D2", func(p *Program) { p.VLD1R(R7, D2, V30) }, "\tVLD1R\t(R7), [V30.D2]", "ld1r {v30.2d}, [x7]"},
	{"VLD1R_S2", func(p *Program) { p.VLD1R(R5, S2, V1) }, "\tVLD1R\t(R5), [V1.S2]", "ld1r {v1.2s}, [x5]"},
	{"VDUPGen_S4", func(p *Program) { p.VDUPGen(S4, V0, R1) }, "\tVDUP\tR1, V0.S4", "dup v0.4s, w1"},
	{"VDUPGen_D2", func(p *Program) { p.VDUPGen(D2, V11, R22) }, "\tVDUP\tR22, V11.D2", "dup v11.2d, x22"},
	{"VDUPGen_B16", func(p *Program) { p.VDUPGen(B16, V30, R15) }, "\tVDUP\tR15, V30.B16", "dup v30.16b, w15"},
	{"VDUPGen_H8", func(p *Program) { p.VDUPGen(H8, V30, R15) }, "\tVDUP\tR15, V30.H8", "dup v30.8h, w15"},
	{"VDUPElem_S4", func(p *Program) { p.VDUPElem(S4, V17, V19, 3) }, "\tVDUP\tV19.S[3], V17.S4", "dup v17.4s, v19.s[3]"},
	{"VDUPElem_D2", func(p *Program) { p.VDUPElem(D2, V1, V2, 1) }, "\tVDUP\tV2.D[1], V1.D2", "dup v1.2d, v2.d[1]"},
	{"VDUPElem_S2", func(p *Program) { p.VDUPElem(S2, V1, V2, 0) }, "\tVDUP\tV2.S[0], V1.S2", "dup v1.2s, v2.s[0]"},

	{"VLD1P_B16", func(p *Program) { p.VLD1P(R11, B16, V0) }, "\tVLD1.P\t16(R11), [V0.B16]", "ld1 {v0.16b}, [x11],#16"},
	{"VLD1P_B8", func(p *Program) { p.VLD1P(R12, B8, V4) }, "\tVLD1.P\t8(R12), [V4.B8]", "ld1 {v4.8b}, [x12],#8"},
	{"VST1P_B16", func(p *Program) { p.VST1P(R10, B16, V12) }, "\tVST1.P\t[V12.B16], 16(R10)", "st1 {v12.16b}, [x10],#16"},
	{"VST1P_H8x2", func(p *Program) { p.VST1P(R10, H8, V12, V13) }, "\tVST1.P\t[V12.H8, V13.H8], 32(R10)", "st1 {v12.8h, v13.8h}, [x10],#32"},
	{"VLD1R_B16", func(p *Program) { p.VLD1R(R4, B16, V31) }, "\tVLD1R\t(R4), [V31.B16]", "ld1r {v31.16b}, [x4]"},
	{"VLD1R_H8", func(p *Program) { p.VLD1R(R6, H8, V30) }, "\tVLD1R\t(R6), [V30.H8]", "ld1r {v30.8h}, [x6]"},
	{"VLD1LaneP_B", func(p *Program) { p.VLD1LaneP(R11, B16, V0, 0) }, "\tVLD1.P\t1(R11), V0.B[0]", "ld1 {v0.b}[0], [x11],#1"},
	{"VLD1LaneP_H", func(p *Program) { p.VLD1LaneP(R11, H8, V4, 7) }, "\tVLD1.P\t2(R11), V4.H[7]", "ld1 {v4.h}[7], [x11],#2"},
	{"VLD1LaneP_S", func(p *Program) { p.VLD1LaneP(R13, S4, V8, 0) }, "\tVLD1.P\t4(R13), V8.S[0]", "ld1 {v8.s}[0], [x13],#4"},
	{"VLD1Lane_B", func(p *Program) { p.VLD1Lane(R12, B8, V31, 15) }, "\tVLD1\t(R12), V31.B[15]", "ld1 {v31.b}[15], [x12]"},
	{"VST1LaneP_S", func(p *Program) { p.VST1LaneP(R10, S2, V12, 0) }, "\tVST1.P\tV12.S[0], 4(R10)", "st1 {v12.s}[0], [x10],#4"},
	{"VST1LaneP_H", func(p *Program) { p.VST1LaneP(R10, H4, V12, 1) }, "\tVST1.P\tV12.H[1], 2(R10)", "st1 {v12.h}[1], [x10],#2"},
	{"VST1Lane_B", func(p *Program) { p.VST1Lane(R10, B16, V12, 0) }, "\tVST1\tV12.B[0], (R10)", "st1 {v12.b}[0], [x10]"},
	{"VMOVToGP_S", func(p *Program) { p.VMOVToGP(S4, R20, V3, 2) }, "\tVMOV\tV3.S[2], R20", "mov w20, v3.s[2]"},
	{"VMOVToGP_D", func(p *Program) { p.VMOVToGP(D2, R20, V17, 1) }, "\tVMOV\tV17.D[1], R20", "mov x20, v17.d[1]"},
	{"VMOVFromGP_S", func(p *Program) { p.VMOVFromGP(S4, V18, 3, R20) }, "\tVMOV\tR20, V18.S[3]", "mov v18.s[3], w20"},
	{"VMOVFromGP_D", func(p *Program) { p.VMOVFromGP(D2, V2, 0, R21) }, "\tVMOV\tR21, V2.D[0]", "mov v2.d[0], x21"},
	{"LoadIndexed_4", func(p *Program) { p.LoadIndexed(4, R20, R19, R20) }, "\tMOVWU\t(R19)(R20<<2), R20", "ldr w20, [x19,x20,lsl #2]"},
	{"LoadIndexed_8", func(p *Program) { p.LoadIndexed(8, R21, R19, R20) }, "\tMOVD\t(R19)(R20<<3), R21", "ldr x21, [x19,x20,lsl #3]"},
	{"VST1Lane_D", func(p *Program) { p.VST1Lane(R9, D2, V1, 1) }, "\tVST1\tV1.D[1], (R9)", "st1 {v1.d}[1], [x9]"},
	{"VZIP1_B16", func(p *Program) { p.Vec(Zip1, B16, V1, V2, V3) }, "\tVZIP1\tV3.B16, V2.B16, V1.B16", "zip1 v1.16b, v2.16b, v3.16b"},
	{"VZIP2_H8", func(p *Program) { p.Vec(Zip2, H8, V3, V1, V1) }, "\tVZIP2\tV1.H8, V1.H8, V3.H8", "zip2 v3.8h, v1.8h, v1.8h"},
	{"VZIP1_S4", func(p *Program) { p.Vec(Zip1, S4, V2, V1, V1) }, "\tVZIP1\tV1.S4, V1.S4, V2.S4", "zip1 v2.4s, v1.4s, v1.4s"},
	{"VUZP1_H8", func(p *Program) { p.Vec(Uzp1, H8, V12, V12, V13) }, "\tVUZP1\tV13.H8, V12.H8, V12.H8", "uzp1 v12.8h, v12.8h, v13.8h"},
	{"VUZP1_S4", func(p *Program) { p.Vec(Uzp1, S4, V13, V14, V15) }, "\tVUZP1\tV15.S4, V14.S4, V13.S4", "uzp1 v13.4s, v14.4s, v15.4s"},
	{"VUZP1_B16", func(p *Program) { p.Vec(Uzp1, B16, V0, V30, V31) }, "\tVUZP1\tV31.B16, V30.B16, V0.B16", "uzp1 v0.16b, v30.16b, v31.16b"},
	{"VUZP2_S4", func(p *Program) { p.Vec(Uzp2, S4, V13, V14, V15) }, "\tVUZP2\tV15.S4, V14.S4, V13.S4", "uzp2 v13.4s, v14.4s, v15.4s"},
	{"VUZP2_D2", func(p *Program) { p.Vec(Uzp2, D2, V1, V2, V3) }, "\tVUZP2\tV3.D2, V2.D2, V1.D2", "uzp2 v1.2d, v2.2d, v3.2d"},
	{"VCMTST_B16", func(p *Program) { p.Vec(Cmtst, B16, V0, V0, V0) }, "\tVCMTST\tV0.B16, V0.B16, V0.B16", "cmtst v0.16b, v0.16b, v0.16b"},
	{"VCMTST_S4", func(p *Program) { p.Vec(Cmtst, S4, V1, V2, V3) }, "\tVCMTST\tV3.S4, V2.S4, V1.S4", "cmtst v1.4s, v2.4s, v3.4s"},
	{"VBSL_B16", func(p *Program) { p.Vec(Bsl, B16, V0, V4, V8) }, "\tVBSL\tV8.B16, V4.B16, V0.B16", "bsl v0.16b, v4.16b, v8.16b"},
	{"VBIT_B8", func(p *Program) { p.Vec(Bit, B8, V8, V4, V0) }, "\tVBIT\tV0.B8, V4.B8, V8.B8", "bit v8.8b, v4.8b, v0.8b"},
	{"VBIF_B16", func(p *Program) { p.Vec(Bif, B16, V4, V8, V31) }, "\tVBIF\tV31.B16, V8.B16, V4.B16", "bif v4.16b, v8.16b, v31.16b"},
	{"VFMLA_S4", func(p *Program) { p.Vec(Fmla, S4, V8, V4, V0) }, "\tVFMLA\tV0.S4, V4.S4, V8.S4", "fmla v8.4s, v4.4s, v0.4s"},
	{"VFMLA_S2", func(p *Program) { p.Vec(Fmla, S2, V12, V0, V30) }, "\tVFMLA\tV30.S2, V0.S2, V12.S2", "fmla v12.2s, v0.2s, v30.2s"},
	{"VFMLA_D2", func(p *Program) { p.Vec(Fmla, D2, V31, V1, V2) }, "\tVFMLA\tV2.D2, V1.D2, V31.D2", "fmla v31.2d, v1.2d, v2.2d"},
	{"VFMLS_S4", func(p *Program) { p.Vec(Fmls, S4, V8, V4, V0) }, "\tVFMLS\tV0.S4, V4.S4, V8.S4", "fmls v8.4s, v4.4s, v0.4s"},
	{"VFMLS_D2", func(p *Program) { p.Vec(Fmls, D2, V31, V1, V2) }, "\tVFMLS\tV2.D2, V1.D2, V31.D2", "fmls v31.2d, v1.2d, v2.2d"},
	{"VUSHR_B16", func(p *Program) { p.VUSHR(B16, V12, V12, 7) }, "\tVUSHR\t$7, V12.B16, V12.B16", "ushr v12.16b, v12.16b, #7"},
	{"VUSHR_D2", func(p *Program) { p.VUSHR(D2, V1, V2, 64) }, "\tVUSHR\t$64, V2.D2, V1.D2", "ushr v1.2d, v2.2d, #64"},
	{"VSHL_D2", func(p *Program) { p.VSHL(D2, V12, V12, 32) }, "\tVSHL\t$32, V12.D2, V12.D2", "shl v12.2d, v12.2d, #32"},
	{"VSHL_B8", func(p *Program) { p.VSHL(B8, V1, V2, 7) }, "\tVSHL\t$7, V2.B8, V1.B8", "shl v1.8b, v2.8b, #7"},
	{"VSHL_S4_0", func(p *Program) { p.VSHL(S4, V1, V2, 0) }, "\tVSHL\t$0, V2.S4, V1.S4", "shl v1.4s, v2.4s, #0"},
	{"VREV64_S4", func(p *Program) { p.VREV64(S4, V12, V4) }, "\tVREV64\tV4.S4, V12.S4", "rev64 v12.4s, v4.4s"},
	{"VREV64_B8", func(p *Program) { p.VREV64(B8, V1, V31) }, "\tVREV64\tV31.B8, V1.B8", "rev64 v1.8b, v31.8b"},
	{"VMOV", func(p *Program) { p.VMOV(V12, V29) }, "\tVMOV\tV29.B16, V12.B16", "mov v12.16b, v29.16b"},

	{"FLoadS", func(p *Program) { p.FLoad(Single, V0, R10) }, "\tFMOVS\t(R10), F0", "ldr s0, [x10]"},
	{"FLoadD", func(p *Program) { p.FLoad(Double, V31, R11) }, "\tFMOVD\t(R11), F31", "ldr d31, [x11]"},
	{"FLoadPS", func(p *Program) { p.FLoadP(Single, V4, R10) }, "\tFMOVS.P\t4(R10), F4", "ldr s4, [x10],#4"},
	{"FLoadPD", func(p *Program) { p.FLoadP(Double, V4, R10) }, "\tFMOVD.P\t8(R10), F4", "ldr d4, [x10],#8"},
	{"FStoreS", func(p *Program) { p.FStore(Single, V0, R9) }, "\tFMOVS\tF0, (R9)", "str s0, [x9]"},
	{"FStoreD", func(p *Program) { p.FStore(Double, V2, R9) }, "\tFMOVD\tF2, (R9)", "str d2, [x9]"},
	{"FStorePS", func(p *Program) { p.FStoreP(Single, V0, R9) }, "\tFMOVS.P\tF0, 4(R9)", "str s0, [x9],#4"},
	{"FStorePD", func(p *Program) { p.FStoreP(Double, V0, R9) }, "\tFMOVD.P\tF0, 8(R9)", "str d0, [x9],#8"},

	{"B", func(p *Program) { p.B("next") }, "\tB\tnext", "b .+0x4"},
	{"BEQ", func(p *Program) { p.BCond(EQ, "next") }, "\tBEQ\tnext", "b.eq .+0x4"},
	{"BNE", func(p *Program) { p.BCond(NE, "next") }, "\tBNE\tnext", "b.ne .+0x4"},
	{"BHS", func(p *Program) { p.BCond(HS, "next") }, "\tBHS\tnext", "b.cs .+0x4"},
	{"BLO", func(p *Program) { p.BCond(LO, "next") }, "\tBLO\tnext", "b.cc .+0x4"},
	{"BMI", func(p *Program) { p.BCond(MI, "next") }, "\tBMI\tnext", "b.mi .+0x4"},
	{"BPL", func(p *Program) { p.BCond(PL, "next") }, "\tBPL\tnext", "b.pl .+0x4"},
	{"BVS", func(p *Program) { p.BCond(VS, "next") }, "\tBVS\tnext", "b.vs .+0x4"},
	{"BVC", func(p *Program) { p.BCond(VC, "next") }, "\tBVC\tnext", "b.vc .+0x4"},
	{"BHI", func(p *Program) { p.BCond(HI, "next") }, "\tBHI\tnext", "b.hi .+0x4"},
	{"BLS", func(p *Program) { p.BCond(LS, "next") }, "\tBLS\tnext", "b.ls .+0x4"},
	{"BGE", func(p *Program) { p.BCond(GE, "next") }, "\tBGE\tnext", "b.ge .+0x4"},
	{"BLT", func(p *Program) { p.BCond(LT, "next") }, "\tBLT\tnext", "b.lt .+0x4"},
	{"BGT", func(p *Program) { p.BCond(GT, "next") }, "\tBGT\tnext", "b.gt .+0x4"},
	{"BLE", func(p *Program) { p.BCond(LE, "next") }, "\tBLE\tnext", "b.le .+0x4"},
	{"CBZ", func(p *Program) { p.CBZ(R1, "next") }, "\tCBZ\tR1, next", "cbz x1, .+0x4"},
	{"CBNZ", func(p *Program) { p.CBNZ(R25, "next") }, "\tCBNZ\tR25, next", "cbnz x25, .+0x4"},
	{"TBZ", func(p *Program) { p.TBZ(3, R12, "next") }, "\tTBZ\t$3, R12, next", "tbz w12, #3, .+0x4"},
	{"TBNZ", func(p *Program) { p.TBNZ(0, R12, "next") }, "\tTBNZ\t$0, R12, next", "tbnz w12, #0, .+0x4"},
	{"TBZ63", func(p *Program) { p.TBZ(63, R2, "next") }, "\tTBZ\t$63, R2, next", "tbz x2, #63, .+0x4"},
	{"RET", func(p *Program) { p.RET() }, "\tRET", "ret"},
}

// scalarForms lists every scalar floating-point operation in both sizes.
func scalarForms() []form {
	var fs []form
	for _, op := range []FPOp{FAdd, FSub, FMul, FDiv, FMin, FMax} {
		stem, err := op.goScalar()
		if err != nil {
			panic(err)
		}
		for _, sz := range []Size{Single, Double} {
			op, sz := op, sz
			r := strings.ToLower(sz.String())
			fs = append(fs, form{
				name: fmt.Sprintf("%s%s", stem, sz),
				emit: func(p *Program) { p.FScalar(op, sz, V2, V0, V31) },
				goAs: fmt.Sprintf("\t%s%s\tF31, F0, F2", stem, sz),
				gnu:  fmt.Sprintf("%s %s2, %s0, %s31", op, r, r, r),
			})
		}
	}
	return fs
}

// regForms lists one encoded instruction with every register number in
// every operand position: d runs over all 32, n and m follow it at
// distances dn and dm (a unary instruction ignores m). gnu is the spelling
// the test expects, independent of the encoder's.
func regForms(name string, dn, dm int, gnu func(d, n, m VReg) string, encode func(d, n, m VReg) (uint32, error), emit func(p *Program, d, n, m VReg)) []form {
	var fs []form
	for i := range 32 {
		d, n, m := VReg(i), VReg((i+dn)%32), VReg((i+dm)%32)
		enc, err := encode(d, n, m)
		if err != nil {
			panic(err)
		}
		g := gnu(d, n, m)
		fs = append(fs, form{
			name: fmt.Sprintf("%s_%d", name, i),
			emit: func(p *Program) { emit(p, d, n, m) },
			goAs: fmt.Sprintf("\tWORD\t$0x%08x // %s", enc, g),
			gnu:  g,
		})
	}
	return fs
}

// sameGNU spells an instruction whose three registers share arrangement arr.
func sameGNU(mnemonic string, arr Arrangement) func(d, n, m VReg) string {
	return func(d, n, m VReg) string {
		t := arr.GNU()
		return fmt.Sprintf("%s v%d.%s, v%d.%s, v%d.%s", mnemonic, d, t, n, t, m, t)
	}
}

// vectorForms lists every vector floating-point operation on every
// arrangement.
func vectorForms() []form {
	var fs []form
	for _, op := range []FPOp{FAdd, FSub, FMul, FDiv, FMin, FMax, FCmEq, FCmGe, FCmGt} {
		for _, arr := range floatArrangements {
			fs = append(fs, regForms(fmt.Sprintf("%s_%s", op, arr), 7, 20, sameGNU(op.String(), arr),
				func(d, n, m VReg) (uint32, error) { return EncodeFPVector(op, arr, d, n, m) },
				func(p *Program, d, n, m VReg) { p.FVector(op, arr, d, n, m) })...)
		}
	}
	return fs
}

// unaryForms lists every two-register miscellaneous operation on every
// arrangement it takes.
func unaryForms() []form {
	var fs []form
	// The long operations' destination lanes, twice as wide.
	long := map[Arrangement]string{B8: "4h", B16: "8h", H4: "2s", H8: "4s", S4: "2d"}
	for op := FNeg; op <= lastUnaryOp; op++ {
		for _, arr := range unaryOpInfo[op].arrs {
			dst := arr.GNU()
			if unaryOpInfo[op].long {
				dst = long[arr]
			}
			gnu := func(d, n, _ VReg) string { return fmt.Sprintf("%s v%d.%s, v%d.%s", op, d, dst, n, arr.GNU()) }
			fs = append(fs, regForms(fmt.Sprintf("%s_%s", op, arr), 13, 0, gnu,
				func(d, n, _ VReg) (uint32, error) { return EncodeUnary(op, arr, d, n) },
				func(p *Program, d, n, _ VReg) { p.VUnary(op, arr, d, n) })...)
		}
	}
	return fs
}

// nativeIntForms lists the Go assembler's vector integer and bitwise
// instructions on every arrangement they take.
func nativeIntForms() []form {
	gnuNames := map[VecOp]string{Add: "add", Sub: "sub", And: "and", Orr: "orr", Eor: "eor", UMax: "umax", UMin: "umin"}
	var fs []form
	for op := Add; op <= lastVecOp; op++ {
		for i, arr := range vecOpInfo[op].arrs {
			d, n, m := VReg(i), VReg(i+9), VReg(31-i)
			fs = append(fs, form{
				name: fmt.Sprintf("%s_%s", op, arr),
				emit: func(p *Program) { p.Vec(op, arr, d, n, m) },
				goAs: fmt.Sprintf("\t%s\t%s.%s, %s.%s, %s.%s", op, m, arr, n, arr, d, arr),
				gnu:  sameGNU(gnuNames[op], arr)(d, n, m),
			})
		}
	}
	return fs
}

// intForms lists every vector integer operation on every arrangement it
// takes.
func intForms() []form {
	var fs []form
	for op := Mul; op <= lastIntOp; op++ {
		for _, arr := range intOpInfo[op].arrs {
			fs = append(fs, regForms(fmt.Sprintf("%s_%s", op, arr), 11, 29, sameGNU(op.String(), arr),
				func(d, n, m VReg) (uint32, error) { return EncodeIntVector(op, arr, d, n, m) },
				func(p *Program, d, n, m VReg) { p.IntVector(op, arr, d, n, m) })...)
		}
	}
	return fs
}

// umlalForms lists UMLAL on every arrangement.
func umlalForms() []form {
	wide := map[Arrangement]string{B8: "8h", H4: "4s", S2: "2d"}
	var fs []form
	for _, arr := range longArrangements {
		gnu := func(d, n, m VReg) string {
			return fmt.Sprintf("umlal v%d.%s, v%d.%s, v%d.%s", d, wide[arr], n, arr.GNU(), m, arr.GNU())
		}
		fs = append(fs, regForms(fmt.Sprintf("umlal_%s", arr), 5, 17, gnu,
			func(d, n, m VReg) (uint32, error) { return EncodeUMLAL(arr, d, n, m) },
			func(p *Program, d, n, m VReg) { p.UMLAL(arr, d, n, m) })...)
	}
	return fs
}

// halfForms lists the half-precision conversions, low and high halves.
func halfForms() []form {
	var fs []form
	for op := FCvtL; op <= FCvtND; op++ {
		for _, high := range []bool{false, true} {
			fs = append(fs, regForms(fmt.Sprintf("%s_%v", op.name(), high), 9, 0,
				func(d, n, _ VReg) string { return HalfGNU(op, high, d, n) },
				func(d, n, _ VReg) (uint32, error) { return EncodeHalf(op, high, d, n) },
				func(p *Program, d, n, _ VReg) { p.Half(op, high, d, n) })...)
		}
	}
	return fs
}

// wordForms are the forms printed as WORD directives.
func wordForms() []form {
	fs := append(vectorForms(), unaryForms()...)
	fs = append(fs, intForms()...)
	fs = append(fs, halfForms()...)
	return append(fs, umlalForms()...)
}

func allForms() []form {
	fs := append([]form(nil), goForms...)
	fs = append(fs, scalarForms()...)
	fs = append(fs, reduceForms()...)
	fs = append(fs, nativeIntForms()...)
	return append(fs, wordForms()...)
}

// formProgram emits every form as its own function ·f<i>, followed by the
// label "next" and RET.
func formProgram(t *testing.T, fs []form) []byte {
	t.Helper()
	p := NewProgram()
	p.Include("textflag.h")
	for i, f := range fs {
		p.Blank()
		p.Text(fmt.Sprintf("f%d", i), "NOSPLIT", 0, 24)
		f.emit(p)
		p.Label("next")
		p.RET()
	}
	src, err := p.Bytes()
	require.NoError(t, err)
	return src
}

func decodeWord(t *testing.T, w uint32) arm64asm.Inst {
	t.Helper()
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], w)
	inst, err := arm64asm.Decode(b[:])
	require.NoError(t, err, "decoding %#08x", w)
	return inst
}

// TestFormText checks the Go assembly line that every form prints.
func TestFormText(t *testing.T) {
	for _, f := range allForms() {
		t.Run(f.name, func(t *testing.T) {
			p := NewProgram()
			p.Text("f", "NOSPLIT", 0, 0)
			f.emit(p)
			p.Label("next")
			require.NoError(t, p.Err())
			lines := p.Lines()
			require.Len(t, lines, 3)
			assert.Equal(t, f.goAs, lines[1])
		})
	}
}

// TestEncodeDecode decodes every encoding of the encoder with arm64asm.
func TestEncodeDecode(t *testing.T) {
	for _, f := range wordForms() {
		t.Run(f.name, func(t *testing.T) {
			_, rest, ok := strings.Cut(f.goAs, "$")
			require.True(t, ok)
			hex, _, _ := strings.Cut(rest, " ")
			w, err := strconv.ParseUint(hex, 0, 32)
			require.NoError(t, err)
			inst := decodeWord(t, uint32(w))
			assert.Equal(t, f.gnu, arm64asm.GNUSyntax(inst))
			assert.False(t, isBranchClass(uint32(w)))
		})
	}
}

// encoding is an encoder's result.
type encoding struct {
	word uint32
	err  error
}

func encoded(word uint32, err error) encoding { return encoding{word, err} }

// TestEncodeKnown pins a few encodings of every encoder to values from the
// ARM manual, the Go assembler's own test data and GNU as.
func TestEncodeKnown(t *testing.T) {
	tests := []struct {
		gnu  string
		got  encoding
		want uint32
	}{
		{"fadd v2.4s, v0.4s, v1.4s", encoded(EncodeFPVector(FAdd, S4, V2, V0, V1)), 0x4e21d402},
		{"fcvtl v1.4s, v2.4h", encoded(EncodeHalf(FCvtL, false, V1, V2)), 0x0e217841},
		{"fcvtn2 v3.8h, v4.4s", encoded(EncodeHalf(FCvtN, true, V3, V4)), 0x4e216883},
		{"shll v5.4s, v6.4h, #16", encoded(EncodeHalf(ShLL16, false, V5, V6)), 0x2e6138c5},
		{"shrn v7.4h, v8.4s, #16", encoded(EncodeHalf(ShrN16, false, V7, V8)), 0x0f108507},
		{"fcvtl v1.2d, v2.2s", encoded(EncodeHalf(FCvtLD, false, V1, V2)), 0x0e617841},
		{"fcvtn2 v3.4s, v4.2d", encoded(EncodeHalf(FCvtND, true, V3, V4)), 0x4e616883},
		{"fadd v21.2d, v10.2d, v21.2d", encoded(EncodeFPVector(FAdd, D2, V21, V10, V21)), 0x4e75d555},
		{"fmin v7.2d, v30.2d, v19.2d", encoded(EncodeFPVector(FMin, D2, V7, V30, V19)), 0x4ef3f7c7},
		{"fmul v0.2s, v0.2s, v0.2s", encoded(EncodeFPVector(FMul, S2, V0, V0, V0)), 0x2e20dc00},
		{"fdiv v31.4s, v31.4s, v31.4s", encoded(EncodeFPVector(FDiv, S4, V31, V31, V31)), 0x6e3fffff},
		{"fcmeq v1.4s, v2.4s, v3.4s", encoded(EncodeFPVector(FCmEq, S4, V1, V2, V3)), 0x4e23e441},
		{"fcmge v1.2d, v2.2d, v3.2d", encoded(EncodeFPVector(FCmGe, D2, V1, V2, V3)), 0x6e63e441},
		{"fcmgt v1.2s, v2.2s, v3.2s", encoded(EncodeFPVector(FCmGt, S2, V1, V2, V3)), 0x2ea3e441},

		{"fneg v1.4s, v2.4s", encoded(EncodeUnary(FNeg, S4, V1, V2)), 0x6ea0f841},
		{"fabs v1.2d, v2.2d", encoded(EncodeUnary(FAbs, D2, V1, V2)), 0x4ee0f841},
		{"fsqrt v1.2s, v2.2s", encoded(EncodeUnary(FSqrt, S2, V1, V2)), 0x2ea1f841},
		{"frintn v1.4s, v2.4s", encoded(EncodeUnary(FRintN, S4, V1, V2)), 0x4e218841},
		{"frintm v1.4s, v2.4s", encoded(EncodeUnary(FRintM, S4, V1, V2)), 0x4e219841},
		{"frintp v1.4s, v2.4s", encoded(EncodeUnary(FRintP, S4, V1, V2)), 0x4ea18841},
		{"frintz v1.4s, v2.4s", encoded(EncodeUnary(FRintZ, S4, V1, V2)), 0x4ea19841},
		{"frinta v1.2d, v2.2d", encoded(EncodeUnary(FRintA, D2, V1, V2)), 0x6e618841},
		{"mvn v1.16b, v2.16b", encoded(EncodeUnary(Not, B16, V1, V2)), 0x6e205841},
		{"mvn v1.8b, v2.8b", encoded(EncodeUnary(Not, B8, V1, V2)), 0x2e205841},
		{"uaddlp v1.2d, v2.4s", encoded(EncodeUnary(UAddLP, S4, V1, V2)), 0x6ea02841},
		{"uaddlp v1.4h, v2.8b", encoded(EncodeUnary(UAddLP, B8, V1, V2)), 0x2e202841},
		{"abs v1.4s, v2.4s", encoded(EncodeUnary(Abs, S4, V1, V2)), 0x4ea0b841},
		{"abs v3.16b, v4.16b", encoded(EncodeUnary(Abs, B16, V3, V4)), 0x4e20b883},
		{"abs v1.2d, v2.2d", encoded(EncodeUnary(Abs, D2, V1, V2)), 0x4ee0b841},
		{"neg v1.2d, v2.2d", encoded(EncodeUnary(Neg, D2, V1, V2)), 0x6ee0b841},
		{"neg v5.8h, v6.8h", encoded(EncodeUnary(Neg, H8, V5, V6)), 0x6e60b8c5},

		{"mul v0.4s, v1.4s, v2.4s", encoded(EncodeIntVector(Mul, S4, V0, V1, V2)), 0x4ea29c20},
		{"mul v1.16b, v2.16b, v3.16b", encoded(EncodeIntVector(Mul, B16, V1, V2, V3)), 0x4e239c41},
		{"smax v1.8h, v2.8h, v3.8h", encoded(EncodeIntVector(SMax, H8, V1, V2, V3)), 0x4e636441},
		{"smin v1.2s, v2.2s, v3.2s", encoded(EncodeIntVector(SMin, S2, V1, V2, V3)), 0x0ea36c41},
		{"cmgt v1.2d, v2.2d, v3.2d", encoded(EncodeIntVector(CmGt, D2, V1, V2, V3)), 0x4ee33441},
		{"cmhi v1.2d, v2.2d, v3.2d", encoded(EncodeIntVector(CmHi, D2, V1, V2, V3)), 0x6ee33441},
		{"sshl v1.4s, v2.4s, v3.4s", encoded(EncodeIntVector(SShl, S4, V1, V2, V3)), 0x4ea34441},
		{"ushl v1.16b, v2.16b, v3.16b", encoded(EncodeIntVector(UShl, B16, V1, V2, V3)), 0x6e234441},
		{"bic v1.16b, v2.16b, v3.16b", encoded(EncodeIntVector(Bic, B16, V1, V2, V3)), 0x4e631c41},

		{"umlal v0.2d, v1.2s, v2.2s", encoded(EncodeUMLAL(S2, V0, V1, V2)), 0x2ea28020},
		{"umlal v3.8h, v4.8b, v5.8b", encoded(EncodeUMLAL(B8, V3, V4, V5)), 0x2e258083},
	}
	for _, tt := range tests {
		require.NoError(t, tt.got.err, tt.gnu)
		assert.Equalf(t, tt.want, tt.got.word, "%s", tt.gnu)
		assert.Equal(t, tt.gnu, arm64asm.GNUSyntax(decodeWord(t, tt.want)))
	}
}

// lookTool finds an external tool or skips the test.
func lookTool(t *testing.T, name, why string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found on PATH (%s); skipping", name, why)
	}
	return path
}

func run(t *testing.T, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), stderr.String())
	return out
}

// goAssemble assembles src with the Go arm64 assembler and returns the first
// instruction word of every function ·f<i>, read back with go tool objdump.
func goAssemble(t *testing.T, src []byte, n int) []uint32 {
	t.Helper()
	goTool := lookTool(t, "go", "the Go toolchain assembles the emitted text")
	dir := t.TempDir()
	s := filepath.Join(dir, "forms.s")
	o := filepath.Join(dir, "forms.o")
	require.NoError(t, os.WriteFile(s, src, 0o644))
	goroot := strings.TrimSpace(string(run(t, nil, goTool, "env", "GOROOT")))
	env := []string{"GOOS=linux", "GOARCH=arm64"}
	run(t, env, goTool, "tool", "asm", "-p", "main", "-I", filepath.Join(goroot, "pkg", "include"), "-o", o, s)
	dump := run(t, env, goTool, "tool", "objdump", o)

	words := make([]uint32, n)
	found := make([]bool, n)
	fn := -1
	sc := bufio.NewScanner(bytes.NewReader(dump))
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "TEXT main.f"); ok {
			idx, _, _ := strings.Cut(name, "(")
			i, err := strconv.Atoi(idx)
			require.NoError(t, err, line)
			fn = i
			continue
		}
		fields := strings.Fields(line)
		if fn < 0 || found[fn] || len(fields) < 3 {
			continue
		}
		w, err := strconv.ParseUint(fields[2], 16, 32)
		require.NoError(t, err, line)
		words[fn], found[fn] = uint32(w), true
	}
	for i, ok := range found {
		require.True(t, ok, "no instruction found for function f%d", i)
	}
	return words
}

// TestGoAssembler assembles every form with the Go arm64 assembler and
// checks that the machine word it produced decodes to the intended
// instruction; for WORD forms the word must be the encoder's.
func TestGoAssembler(t *testing.T) {
	fs := allForms()
	words := goAssemble(t, formProgram(t, fs), len(fs))
	for i, f := range fs {
		t.Run(f.name, func(t *testing.T) {
			inst := decodeWord(t, words[i])
			assert.Equal(t, f.gnu, arm64asm.GNUSyntax(inst), "word %#08x", words[i])
			if strings.HasPrefix(f.goAs, "\tWORD\t") {
				assert.Contains(t, f.goAs, fmt.Sprintf("$0x%08x ", words[i]))
			}
		})
	}
}

// TestGNUAssembler assembles the GNU spelling of every form with
// aarch64-linux-gnu-as and compares the bytes with those of the Go
// assembler (which, for WORD forms, are the encoder's).
func TestGNUAssembler(t *testing.T) {
	as := lookTool(t, "aarch64-linux-gnu-as", "install binutils-aarch64-linux-gnu to compare encodings with GNU as")
	objcopy := lookTool(t, "aarch64-linux-gnu-objcopy", "install binutils-aarch64-linux-gnu to compare encodings with GNU as")
	fs := allForms()

	var src strings.Builder
	for _, f := range fs {
		src.WriteString(f.gnu + "\n")
	}
	dir := t.TempDir()
	s := filepath.Join(dir, "forms.s")
	o := filepath.Join(dir, "forms.o")
	bin := filepath.Join(dir, "forms.bin")
	require.NoError(t, os.WriteFile(s, []byte(src.String()), 0o644))
	run(t, nil, as, "-o", o, s)
	run(t, nil, objcopy, "-O", "binary", "-j", ".text", o, bin)
	code, err := os.ReadFile(bin)
	require.NoError(t, err)
	require.Len(t, code, 4*len(fs))

	words := goAssemble(t, formProgram(t, fs), len(fs))
	for i, f := range fs {
		gnu := binary.LittleEndian.Uint32(code[4*i:])
		assert.Equalf(t, gnu, words[i], "%s: GNU as %#08x, Go %#08x (%s)", f.name, gnu, words[i], f.gnu)
	}
}

// TestReservedRegisters checks that every method taking a general register
// refuses the reserved ones, as base, source and destination.
func TestReservedRegisters(t *testing.T) {
	uses := map[string]func(p *Program, r Reg){
		"LoadArg":     func(p *Program, r Reg) { p.LoadArg("n", 0, r) },
		"MOVD src":    func(p *Program, r Reg) { p.MOVD(r, R0) },
		"MOVD dst":    func(p *Program, r Reg) { p.MOVD(R0, r) },
		"ADD d":       func(p *Program, r Reg) { p.ADD(r, R0, R1) },
		"ADD n":       func(p *Program, r Reg) { p.ADD(R0, r, R1) },
		"ADD m":       func(p *Program, r Reg) { p.ADD(R0, R1, r) },
		"SUB m":       func(p *Program, r Reg) { p.SUB(R0, R1, r) },
		"ADDImm":      func(p *Program, r Reg) { p.ADDImm(r, R0, 1) },
		"SUBImm":      func(p *Program, r Reg) { p.SUBImm(R0, r, 1) },
		"SUBSImm":     func(p *Program, r Reg) { p.SUBSImm(r, r, 1) },
		"ADDSImm":     func(p *Program, r Reg) { p.ADDSImm(R0, r, 1) },
		"CMPImm":      func(p *Program, r Reg) { p.CMPImm(r, 1) },
		"CMP":         func(p *Program, r Reg) { p.CMP(R0, r) },
		"LSLImm":      func(p *Program, r Reg) { p.LSLImm(r, R0, 1) },
		"Load d":      func(p *Program, r Reg) { p.Load(r, R0) },
		"Load base":   func(p *Program, r Reg) { p.Load(R0, r) },
		"MOVImm":      func(p *Program, r Reg) { p.MOVImm(r, 1) },
		"CSEL d":      func(p *Program, r Reg) { p.CSEL(HI, r, R0, R1) },
		"CSEL m":      func(p *Program, r Reg) { p.CSEL(HI, R0, R1, r) },
		"NEG":         func(p *Program, r Reg) { p.NEG(R0, r) },
		"VLD1P":       func(p *Program, r Reg) { p.VLD1P(r, S4, V0) },
		"VST1P":       func(p *Program, r Reg) { p.VST1P(r, S4, V0) },
		"VLD1":        func(p *Program, r Reg) { p.VLD1(r, S4, V0) },
		"VST1":        func(p *Program, r Reg) { p.VST1(r, S4, V0) },
		"VLD1R":       func(p *Program, r Reg) { p.VLD1R(r, S4, V0) },
		"VDUPGen":     func(p *Program, r Reg) { p.VDUPGen(S4, V0, r) },
		"VLD1Lane":    func(p *Program, r Reg) { p.VLD1Lane(r, B16, V0, 0) },
		"VMOVToGP":    func(p *Program, r Reg) { p.VMOVToGP(S4, r, V0, 0) },
		"LoadIndexed": func(p *Program, r Reg) { p.LoadIndexed(8, R0, r, R1) },
		"VLD1LaneP":   func(p *Program, r Reg) { p.VLD1LaneP(r, H8, V0, 0) },
		"VST1Lane":    func(p *Program, r Reg) { p.VST1Lane(r, S4, V0, 0) },
		"VST1LaneP":   func(p *Program, r Reg) { p.VST1LaneP(r, B8, V0, 0) },
		"FLoad":       func(p *Program, r Reg) { p.FLoad(Single, V0, r) },
		"FLoadP":      func(p *Program, r Reg) { p.FLoadP(Double, V0, r) },
		"FStore":      func(p *Program, r Reg) { p.FStore(Single, V0, r) },
		"FStoreP":     func(p *Program, r Reg) { p.FStoreP(Double, V0, r) },
		"CBZ":         func(p *Program, r Reg) { p.CBZ(r, "next") },
		"CBNZ":        func(p *Program, r Reg) { p.CBNZ(r, "next") },
		"TBZ":         func(p *Program, r Reg) { p.TBZ(1, r, "next") },
		"TBNZ":        func(p *Program, r Reg) { p.TBNZ(1, r, "next") },
	}
	for _, r := range []Reg{R18, R26, R27, R28, R29, R30} {
		assert.True(t, r.Reserved(), "%s", r)
		for name, use := range uses {
			t.Run(fmt.Sprintf("%s/%s", r, name), func(t *testing.T) {
				p := NewProgram()
				p.Text("f", "NOSPLIT", 0, 0)
				p.Label("next")
				use(p, r)
				err := p.Err()
				require.Error(t, err)
				assert.Contains(t, err.Error(), r.String()+" is reserved")
				_, err = p.Bytes()
				assert.Error(t, err)
				assert.Len(t, p.Lines(), 2, "nothing is emitted after the error")
			})
		}
	}
	for r := R0; r <= R30; r++ {
		if !r.Reserved() {
			p := NewProgram()
			p.Text("f", "NOSPLIT", 0, 0)
			p.MOVD(r, r)
			assert.NoError(t, p.Err(), "%s", r)
		}
	}
	p := NewProgram()
	p.Text("f", "NOSPLIT", 0, 0)
	p.MOVD(Reg(31), R0)
	assert.ErrorContains(t, p.Err(), "out of range")
}

// TestNoBranchWord checks that the WORD path refuses every encoding in the
// branch, exception and system group, whatever its origin.
func TestNoBranchWord(t *testing.T) {
	for _, w := range []uint32{
		0x14000001, // b .+4
		0x54000040, // b.eq .+8
		0xb4000041, // cbz x1, .+8
		0x36180040, // tbz w0, #3, .+8
		0xd65f03c0, // ret
		0x94000000, // bl .
		0xd4000001, // svc #0
		0xd503201f, // nop
	} {
		inst := decodeWord(t, w)
		p := NewProgram()
		p.Text("f", "NOSPLIT", 0, 0)
		p.word(w, arm64asm.GNUSyntax(inst))
		assert.ErrorContains(t, p.Err(), "refusing", "%#08x %s", w, arm64asm.GNUSyntax(inst))
		assert.Len(t, p.Lines(), 1)
	}
}

// TestInvalidOperands checks the other refusals of the emitter and encoder.
func TestInvalidOperands(t *testing.T) {
	tests := []struct {
		name string
		emit func(p *Program)
		want string
	}{
		{"vector register", func(p *Program) { p.FVector(FAdd, S4, 32, V0, V1) }, "out of range"},
		{"vector op", func(p *Program) { p.FVector(FPOp(0), S4, V0, V0, V1) }, "invalid floating-point operation"},
		{"vector op high", func(p *Program) { p.FVector(FCmGt+1, S4, V0, V0, V1) }, "invalid floating-point operation"},
		{"arrangement", func(p *Program) { p.FVector(FAdd, Arrangement(0), V0, V0, V1) }, "invalid arrangement"},
		{"arrangement high", func(p *Program) { p.Vec(Zip1, H8+1, V0, V0, V1) }, "invalid arrangement"},
		{"vector op on bytes", func(p *Program) { p.FVector(FCmEq, B16, V0, V0, V1) }, "fcmeq does not take arrangement B16"},
		{"scalar compare", func(p *Program) { p.FScalar(FCmGt, Single, V0, V0, V1) }, "fcmgt has no scalar form"},
		{"unary op", func(p *Program) { p.VUnary(UnaryOp(0), S4, V0, V1) }, "invalid unary operation"},
		{"unary op high", func(p *Program) { p.VUnary(lastUnaryOp+1, S4, V0, V1) }, "invalid unary operation"},
		{"uaddlp to 1d", func(p *Program) { p.VUnary(UAddLP, S2, V0, V1) }, "uaddlp does not take arrangement S2"},
		{"int op", func(p *Program) { p.IntVector(IntOp(0), S4, V0, V1, V2) }, "invalid integer operation"},
		{"int op high", func(p *Program) { p.IntVector(lastIntOp+1, S4, V0, V1, V2) }, "invalid integer operation"},
		{"mul on doublewords", func(p *Program) { p.IntVector(Mul, D2, V0, V1, V2) }, "mul does not take arrangement D2"},
		{"smax on doublewords", func(p *Program) { p.IntVector(SMax, D2, V0, V1, V2) }, "smax does not take arrangement D2"},
		{"bic on words", func(p *Program) { p.IntVector(Bic, S4, V0, V1, V2) }, "bic does not take arrangement S4"},
		{"int register", func(p *Program) { p.IntVector(UShl, D2, V0, V1, 32) }, "out of range"},
		{"umlal full", func(p *Program) { p.UMLAL(S4, V0, V1, V2) }, "umlal does not take arrangement S4"},
		{"umlal register", func(p *Program) { p.UMLAL(S2, 32, V1, V2) }, "out of range"},
		{"umax on doublewords", func(p *Program) { p.Vec(UMax, D2, V0, V1, V2) }, "VUMAX does not take arrangement D2"},
		{"and on words", func(p *Program) { p.Vec(And, S4, V0, V1, V2) }, "VAND does not take arrangement S4"},
		{"rev64 on doublewords", func(p *Program) { p.VREV64(D2, V0, V1) }, "VREV64 does not take arrangement D2"},
		{"shl wide", func(p *Program) { p.VSHL(D2, V0, V1, 64) }, "out of range 0..63"},
		{"shl negative", func(p *Program) { p.VSHL(B16, V0, V1, -1) }, "out of range 0..7"},
		{"mov imm", func(p *Program) { p.MOVImm(R0, 65536) }, "out of range 0..65535"},
		{"mov imm negative", func(p *Program) { p.MOVImm(R0, -1) }, "out of range"},
		{"csel condition", func(p *Program) { p.CSEL(Cond(14), R0, R1, R2) }, "invalid condition"},
		{"unary fp on bytes", func(p *Program) { p.VUnary(FSqrt, B8, V0, V1) }, "fsqrt does not take arrangement B8"},
		{"not on floats", func(p *Program) { p.VUnary(Not, S4, V0, V1) }, "mvn does not take arrangement S4"},
		{"unary register", func(p *Program) { p.VUnary(FNeg, S4, V0, 32) }, "out of range"},
		{"bsl on words", func(p *Program) { p.Vec(Bsl, S4, V0, V1, V2) }, "VBSL does not take arrangement S4"},
		{"fmla on bytes", func(p *Program) { p.Vec(Fmla, B16, V0, V1, V2) }, "VFMLA does not take arrangement B16"},
		{"zip register", func(p *Program) { p.Vec(Zip2, B16, V0, V1, 40) }, "out of range"},
		{"vec op", func(p *Program) { p.Vec(VecOp(0), B16, V0, V1, V2) }, "invalid vector operation"},
		{"vec op high", func(p *Program) { p.Vec(lastVecOp+1, S4, V0, V1, V2) }, "invalid vector operation"},
		{"ushr zero", func(p *Program) { p.VUSHR(B16, V0, V1, 0) }, "out of range 1..8"},
		{"ushr wide", func(p *Program) { p.VUSHR(S4, V0, V1, 33) }, "out of range 1..32"},
		{"lane index", func(p *Program) { p.VLD1LaneP(R1, H8, V0, 8) }, "lane index 8 out of range"},
		{"lane negative", func(p *Program) { p.VST1Lane(R1, B16, V0, -1) }, "out of range"},
		{"mov register", func(p *Program) { p.VMOV(V0, 32) }, "out of range"},
		{"scalar size", func(p *Program) { p.FScalar(FAdd, Size(3), V0, V0, V1) }, "invalid scalar size"},
		{"scalar register", func(p *Program) { p.FScalar(FAdd, Single, V0, 40, V1) }, "out of range"},
		{"list empty", func(p *Program) { p.VLD1P(R1, S4) }, "want 1 to 4"},
		{"list long", func(p *Program) { p.VLD1P(R1, S4, V0, V1, V2, V3, V4) }, "want 1 to 4"},
		{"list gap", func(p *Program) { p.VST1P(R1, S4, V0, V2) }, "not consecutive"},
		{"dup index", func(p *Program) { p.VDUPElem(D2, V0, V1, 2) }, "out of range"},
		{"imm high", func(p *Program) { p.ADDImm(R0, R0, 4096) }, "out of range"},
		{"imm negative", func(p *Program) { p.SUBSImm(R0, R0, -1) }, "out of range"},
		{"cmp imm", func(p *Program) { p.CMPImm(R0, 5000) }, "out of range"},
		{"shift", func(p *Program) { p.LSLImm(R0, R0, 64) }, "out of range"},
		{"tbz bit", func(p *Program) { p.TBZ(64, R0, "next") }, "out of range"},
		{"condition", func(p *Program) { p.BCond(Cond(99), "next") }, "invalid condition"},
		{"label name", func(p *Program) { p.B("1x") }, "not an identifier"},
		{"duplicate label", func(p *Program) { p.Label("next") }, "defined twice"},
		{"undefined label", func(p *Program) { p.B("nowhere") }, `"nowhere" is referenced but not defined`},
		{"arg offset", func(p *Program) { p.LoadArg("n", 4, R0) }, "multiple of 8"},
		{"comment newline", func(p *Program) { p.Comment("a\nb") }, "newline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProgram()
			p.Text("f", "NOSPLIT", 0, 0)
			p.Label("next")
			tt.emit(p)
			assert.ErrorContains(t, p.Err(), tt.want)
			_, err := p.Bytes()
			assert.ErrorContains(t, err, tt.want)
		})
	}

	_, err := EncodeFPVector(FAdd, D2, V0, V1, 32)
	assert.Error(t, err)
	_, err = EncodeUnary(FNeg, D2, 32, V1)
	assert.Error(t, err)
	_, err = EncodeIntVector(CmGt, D2, V0, 32, V1)
	assert.Error(t, err)
	_, err = EncodeUMLAL(H4, V0, V1, 32)
	assert.Error(t, err)

	p := NewProgram()
	p.RET()
	assert.ErrorContains(t, p.Err(), "outside a TEXT block")

	p = NewProgram()
	p.Text("f", "NOSPLIT", 0, 0)
	p.B("later")
	p.Text("g", "NOSPLIT", 0, 0)
	assert.ErrorContains(t, p.Err(), `f: label "later"`)
}

// TestProgramBytes pins the layout of a small program.
func TestProgramBytes(t *testing.T) {
	p := NewProgram()
	p.Comment("Code generated by hand. DO NOT EDIT.")
	p.Blank()
	p.Include("textflag.h")
	p.Blank()
	p.Comment("func f(n int, x *float32)")
	p.Text("f", "NOSPLIT", 0, 16)
	p.LoadArg("n", 0, R0)
	p.LoadArg("x", 8, R1)
	p.Comment("double x[0]")
	p.CBZ(R0, "done")
	p.FLoad(Single, V0, R1)
	p.FVector(FAdd, S2, V0, V0, V0)
	p.FStore(Single, V0, R1)
	p.Label("done")
	p.RET()
	got, err := p.Bytes()
	require.NoError(t, err)
	assert.Equal(t, `// Code generated by hand. DO NOT EDIT.

#include "textflag.h"

// func f(n int, x *float32)
TEXT ·f(SB), NOSPLIT, $0-16
	MOVD	n+0(FP), R0
	MOVD	x+8(FP), R1
	// double x[0]
	CBZ	R0, done
	FMOVS	(R1), F0
	WORD	$0x0e20d400 // fadd v0.2s, v0.2s, v0.2s
	FMOVS	F0, (R1)
done:
	RET
`, string(got))
}
