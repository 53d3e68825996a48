package asm

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
	{"VDUPElem_S4", func(p *Program) { p.VDUPElem(S4, V17, V19, 3) }, "\tVDUP\tV19.S[3], V17.S4", "dup v17.4s, v19.s[3]"},
	{"VDUPElem_D2", func(p *Program) { p.VDUPElem(D2, V1, V2, 1) }, "\tVDUP\tV2.D[1], V1.D2", "dup v1.2d, v2.d[1]"},
	{"VDUPElem_S2", func(p *Program) { p.VDUPElem(S2, V1, V2, 0) }, "\tVDUP\tV2.S[0], V1.S2", "dup v1.2s, v2.s[0]"},

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
		for _, sz := range []Size{Single, Double} {
			op, sz := op, sz
			r := strings.ToLower(sz.String())
			fs = append(fs, form{
				name: fmt.Sprintf("%s%s", op.goScalar(), sz),
				emit: func(p *Program) { p.FScalar(op, sz, V2, V0, V31) },
				goAs: fmt.Sprintf("\t%s%s\tF31, F0, F2", op.goScalar(), sz),
				gnu:  fmt.Sprintf("%s %s2, %s0, %s31", op, r, r, r),
			})
		}
	}
	return fs
}

// vectorForms lists every vector floating-point operation on every
// arrangement, with every register number in every operand position.
func vectorForms() []form {
	var fs []form
	for _, op := range []FPOp{FAdd, FSub, FMul, FDiv, FMin, FMax} {
		for _, arr := range []Arrangement{S2, S4, D2} {
			for i := range 32 {
				op, arr := op, arr
				d, n, m := VReg(i), VReg((i+7)%32), VReg((i+20)%32)
				enc, err := EncodeFPVector(op, arr, d, n, m)
				if err != nil {
					panic(err)
				}
				gnu := fmt.Sprintf("%s v%d.%s, v%d.%s, v%d.%s", op, d, arr.GNU(), n, arr.GNU(), m, arr.GNU())
				fs = append(fs, form{
					name: fmt.Sprintf("%s_%s_%d", op, arr, i),
					emit: func(p *Program) { p.FVector(op, arr, d, n, m) },
					goAs: fmt.Sprintf("\tWORD\t$0x%08x // %s", enc, gnu),
					gnu:  gnu,
				})
			}
		}
	}
	return fs
}

func allForms() []form {
	fs := append([]form(nil), goForms...)
	fs = append(fs, scalarForms()...)
	return append(fs, vectorForms()...)
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

// TestEncodeFPVectorDecode decodes every vector encoding with arm64asm.
func TestEncodeFPVectorDecode(t *testing.T) {
	for _, f := range vectorForms() {
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

// TestEncodeFPVectorKnown pins a few encodings to values from the ARM manual
// and the Go assembler's own test data.
func TestEncodeFPVectorKnown(t *testing.T) {
	tests := []struct {
		op      FPOp
		arr     Arrangement
		d, n, m VReg
		want    uint32
	}{
		{FAdd, S4, V2, V0, V1, 0x4e21d402},
		{FAdd, D2, V21, V10, V21, 0x4e75d555},
		{FMin, D2, V7, V30, V19, 0x4ef3f7c7},
		{FMul, S2, V0, V0, V0, 0x2e20dc00},
		{FDiv, S4, V31, V31, V31, 0x6e3fffff},
	}
	for _, tt := range tests {
		got, err := EncodeFPVector(tt.op, tt.arr, tt.d, tt.n, tt.m)
		require.NoError(t, err)
		assert.Equalf(t, tt.want, got, "%s", FPVectorGNU(tt.op, tt.arr, tt.d, tt.n, tt.m))
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
		"LoadArg":  func(p *Program, r Reg) { p.LoadArg("n", 0, r) },
		"MOVD src": func(p *Program, r Reg) { p.MOVD(r, R0) },
		"MOVD dst": func(p *Program, r Reg) { p.MOVD(R0, r) },
		"ADD d":    func(p *Program, r Reg) { p.ADD(r, R0, R1) },
		"ADD n":    func(p *Program, r Reg) { p.ADD(R0, r, R1) },
		"ADD m":    func(p *Program, r Reg) { p.ADD(R0, R1, r) },
		"SUB m":    func(p *Program, r Reg) { p.SUB(R0, R1, r) },
		"ADDImm":   func(p *Program, r Reg) { p.ADDImm(r, R0, 1) },
		"SUBImm":   func(p *Program, r Reg) { p.SUBImm(R0, r, 1) },
		"SUBSImm":  func(p *Program, r Reg) { p.SUBSImm(r, r, 1) },
		"ADDSImm":  func(p *Program, r Reg) { p.ADDSImm(R0, r, 1) },
		"CMPImm":   func(p *Program, r Reg) { p.CMPImm(r, 1) },
		"CMP":      func(p *Program, r Reg) { p.CMP(R0, r) },
		"LSLImm":   func(p *Program, r Reg) { p.LSLImm(r, R0, 1) },
		"VLD1P":    func(p *Program, r Reg) { p.VLD1P(r, S4, V0) },
		"VST1P":    func(p *Program, r Reg) { p.VST1P(r, S4, V0) },
		"VLD1":     func(p *Program, r Reg) { p.VLD1(r, S4, V0) },
		"VST1":     func(p *Program, r Reg) { p.VST1(r, S4, V0) },
		"VLD1R":    func(p *Program, r Reg) { p.VLD1R(r, S4, V0) },
		"VDUPGen":  func(p *Program, r Reg) { p.VDUPGen(S4, V0, r) },
		"FLoad":    func(p *Program, r Reg) { p.FLoad(Single, V0, r) },
		"FLoadP":   func(p *Program, r Reg) { p.FLoadP(Double, V0, r) },
		"FStore":   func(p *Program, r Reg) { p.FStore(Single, V0, r) },
		"FStoreP":  func(p *Program, r Reg) { p.FStoreP(Double, V0, r) },
		"CBZ":      func(p *Program, r Reg) { p.CBZ(r, "next") },
		"CBNZ":     func(p *Program, r Reg) { p.CBNZ(r, "next") },
		"TBZ":      func(p *Program, r Reg) { p.TBZ(1, r, "next") },
		"TBNZ":     func(p *Program, r Reg) { p.TBNZ(1, r, "next") },
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
		{"vector op high", func(p *Program) { p.FVector(FMax+1, S4, V0, V0, V1) }, "invalid floating-point operation"},
		{"arrangement", func(p *Program) { p.FVector(FAdd, Arrangement(0), V0, V0, V1) }, "invalid arrangement"},
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
