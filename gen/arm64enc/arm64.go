// Package arm64enc writes arm64 Go assembly for the generator, encoding
// itself the vector instructions that the Go arm64 assembler lacks (as WORD
// directives, with their GNU spelling as a comment) and refusing reserved
// registers. Its tests check every encoding against an independent decoder
// (golang.org/x/arch's arm64asm) and GNU as.
package arm64enc

// This file is the arm64 emitter: a Program accumulates the lines of one Go
// assembly file. Everything the Go arm64 assembler understands (loads and
// stores, integer arithmetic, branches, scalar floating point, the vector
// permutes, bitwise operations and selections, vector integer addition,
// subtraction and unsigned min and max, shifts by an immediate and FMLA) is
// printed in Go syntax; the vector instructions it lacks (floating-point
// arithmetic, compares and roundings, NOT, integer multiplication, signed
// min and max, integer compares, shifts by a register, BIC, UADDLP, UMLAL)
// are encoded here (see arm64_encode.go) and printed as WORD directives
// with the GNU spelling of the instruction as a comment.
//
// Go operand order is reversed with respect to the ARM manual: sources come
// first and the destination last, and for a non-commutative operation the
// second source is printed first ("FSUBS F1, F0, F2" is s2 = s0 - s1). The
// methods of Program take the destination first, then the sources in ARM
// order (d, n, m), and print whatever the Go assembler expects.

import (
	"errors"
	"fmt"
	"strings"
)

// Program accumulates one arm64 Go assembly file. Methods append lines; the
// first invalid request (a reserved or out-of-range register, a bad
// immediate, a duplicate or undefined label) is recorded and reported by Err
// and Bytes, and later requests are ignored. A Program is not safe for
// concurrent use.
type Program struct {
	lines   []string
	err     error
	fn      string          // current TEXT symbol, for error messages
	defined map[string]bool // labels defined in the current function
	used    map[string]bool // labels referenced in the current function
}

// NewProgram returns an empty Program.
func NewProgram() *Program {
	return &Program{}
}

// Err returns the first error recorded, including labels of the current
// function that are referenced but not defined.
func (p *Program) Err() error {
	if p.err != nil {
		return p.err
	}
	return p.checkLabels()
}

// Bytes finishes the program and returns its text, or the first error.
func (p *Program) Bytes() ([]byte, error) {
	if err := p.Err(); err != nil {
		return nil, err
	}
	return []byte(strings.Join(p.lines, "\n") + "\n"), nil
}

// Lines returns a copy of the lines emitted so far, without newlines.
func (p *Program) Lines() []string {
	return append([]string(nil), p.lines...)
}

func (p *Program) fail(err error) {
	if p.err == nil {
		if p.fn != "" {
			err = fmt.Errorf("%s: %w", p.fn, err)
		}
		p.err = err
	}
}

// ok reports whether emission should continue, recording err if it is the
// first error.
func (p *Program) ok(err error) bool {
	if err != nil {
		p.fail(err)
	}
	return p.err == nil
}

func (p *Program) emit(line string) {
	if p.err == nil {
		p.lines = append(p.lines, line)
	}
}

// inst emits one instruction in Go syntax: a tab, the mnemonic, a tab and
// the operands.
func (p *Program) inst(mnemonic string, operands ...string) {
	if len(operands) == 0 {
		p.emit("\t" + mnemonic)
		return
	}
	p.emit("\t" + mnemonic + "\t" + strings.Join(operands, ", "))
}

// word emits a 32-bit instruction word with its disassembly as a comment.
// Branches are refused: a branch encoded by hand would escape the Go
// assembler's PC-relative fixups and its knowledge of the control flow.
func (p *Program) word(enc uint32, comment string) {
	if isBranchClass(enc) {
		p.fail(fmt.Errorf("asm: refusing to emit %#08x (%s) as WORD: branches, exceptions and system instructions stay in Go syntax", enc, comment))
		return
	}
	p.emit(fmt.Sprintf("\tWORD\t$0x%08x // %s", enc, comment))
}

// isBranchClass reports whether enc lies in the A64 encoding group "branches,
// exception generating and system instructions" (op0 = x101x in bits 28:25).
func isBranchClass(enc uint32) bool {
	return enc>>26&0b111 == 0b101
}

// Raw appends line verbatim: directives the Program has no method for, such
// as #define. It must not be used for instructions.
func (p *Program) Raw(line string) {
	p.emit(line)
}

// Blank appends an empty line.
func (p *Program) Blank() {
	p.emit("")
}

// Comment appends a // comment line; format and args are as for fmt.Sprintf.
// Inside a function the comment is indented like an instruction.
func (p *Program) Comment(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if strings.ContainsAny(text, "\n\r") {
		p.fail(errors.New("asm: comment contains a newline"))
		return
	}
	indent := ""
	if p.fn != "" {
		indent = "\t"
	}
	p.emit(indent + "// " + text)
}

// Include appends #include "file".
func (p *Program) Include(file string) {
	p.emit(fmt.Sprintf("#include %q", file))
}

// Text starts function name (a Go identifier, printed as ·name(SB)) with the
// given flags (as in textflag.h, e.g. "NOSPLIT"), frame size and argument
// size. Labels are scoped to the function, as in the Go assembler; Text fails
// if the previous function referenced a label it never defined.
func (p *Program) Text(name, flags string, frameSize, argSize int) {
	if !p.ok(p.checkLabels()) {
		return
	}
	if !p.ok(checkIdent("function name", name)) {
		return
	}
	if frameSize < 0 || argSize < 0 {
		p.fail(fmt.Errorf("asm: TEXT %s: negative frame or argument size", name))
		return
	}
	p.fn = name
	p.defined = map[string]bool{}
	p.used = map[string]bool{}
	if flags == "" {
		p.emit(fmt.Sprintf("TEXT ·%s(SB), $%d-%d", name, frameSize, argSize))
		return
	}
	p.emit(fmt.Sprintf("TEXT ·%s(SB), %s, $%d-%d", name, flags, frameSize, argSize))
}

func (p *Program) checkLabels() error {
	var missing []string
	for l := range p.used {
		if !p.defined[l] {
			missing = append(missing, l)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	// Report the smallest name so that the error is deterministic.
	first := missing[0]
	for _, l := range missing[1:] {
		if l < first {
			first = l
		}
	}
	return fmt.Errorf("asm: %s: label %q is referenced but not defined", p.fn, first)
}

func (p *Program) inFunction(what string) bool {
	if p.fn == "" {
		p.fail(fmt.Errorf("asm: %s outside a TEXT block", what))
		return false
	}
	return p.err == nil
}

// Label defines label name at the current position of the current function.
func (p *Program) Label(name string) {
	if !p.inFunction("label " + name) {
		return
	}
	if !p.ok(checkIdent("label", name)) {
		return
	}
	if p.defined[name] {
		p.fail(fmt.Errorf("asm: label %q defined twice", name))
		return
	}
	p.defined[name] = true
	p.emit(name + ":")
}

func (p *Program) branchTarget(label string) bool {
	if !p.inFunction("branch to " + label) {
		return false
	}
	if !p.ok(checkIdent("label", label)) {
		return false
	}
	p.used[label] = true
	return true
}

// RET returns to the caller.
func (p *Program) RET() {
	if p.inFunction("RET") {
		p.inst("RET")
	}
}

// B branches unconditionally to label.
func (p *Program) B(label string) {
	if p.branchTarget(label) {
		p.inst("B", label)
	}
}

// Cond is an A64 condition code for BCond.
type Cond uint8

// Condition codes, after a flag-setting instruction such as SUBS or CMP
// (signed comparisons: LT, GE, GT, LE; unsigned: LO, HS, HI, LS).
const (
	EQ Cond = iota // equal
	NE             // not equal
	HS             // unsigned higher or same (carry set)
	LO             // unsigned lower (carry clear)
	MI             // negative
	PL             // positive or zero
	VS             // overflow
	VC             // no overflow
	HI             // unsigned higher
	LS             // unsigned lower or same
	GE             // signed greater than or equal
	LT             // signed less than
	GT             // signed greater than
	LE             // signed less than or equal
)

var condNames = [...]string{"EQ", "NE", "HS", "LO", "MI", "PL", "VS", "VC", "HI", "LS", "GE", "LT", "GT", "LE"}

// String returns the Go assembler suffix of c ("EQ").
func (c Cond) String() string {
	if int(c) < len(condNames) {
		return condNames[c]
	}
	return fmt.Sprintf("Cond(%d)", uint8(c))
}

func (c Cond) check() error {
	if int(c) >= len(condNames) {
		return fmt.Errorf("asm: invalid condition %d", uint8(c))
	}
	return nil
}

// BCond branches to label if condition c holds (Go syntax BEQ, BLT, ...).
func (p *Program) BCond(c Cond, label string) {
	if p.ok(c.check()) && p.branchTarget(label) {
		p.inst("B"+c.String(), label)
	}
}

// CBZ branches to label if r is zero.
func (p *Program) CBZ(r Reg, label string) {
	if p.ok(r.check()) && p.branchTarget(label) {
		p.inst("CBZ", r.String(), label)
	}
}

// CBNZ branches to label if r is not zero.
func (p *Program) CBNZ(r Reg, label string) {
	if p.ok(r.check()) && p.branchTarget(label) {
		p.inst("CBNZ", r.String(), label)
	}
}

// TBZ branches to label if bit (0..63) of r is zero.
func (p *Program) TBZ(bit int, r Reg, label string) {
	p.testBit("TBZ", bit, r, label)
}

// TBNZ branches to label if bit (0..63) of r is one.
func (p *Program) TBNZ(bit int, r Reg, label string) {
	p.testBit("TBNZ", bit, r, label)
}

func (p *Program) testBit(mnemonic string, bit int, r Reg, label string) {
	if bit < 0 || bit > 63 {
		p.fail(fmt.Errorf("asm: %s bit %d out of range 0..63", mnemonic, bit))
		return
	}
	if p.ok(r.check()) && p.branchTarget(label) {
		p.inst(mnemonic, fmt.Sprintf("$%d", bit), r.String(), label)
	}
}

// LoadArg loads the 8-byte argument name at offset off from the argument
// frame into r: MOVD name+off(FP), r. go vet checks name and offset against
// the Go declaration.
func (p *Program) LoadArg(name string, off int, r Reg) {
	if !p.inFunction("LoadArg") || !p.ok(checkIdent("argument name", name)) || !p.ok(r.check()) {
		return
	}
	if off < 0 || off%8 != 0 {
		p.fail(fmt.Errorf("asm: argument %s: offset %d is not a non-negative multiple of 8", name, off))
		return
	}
	p.inst("MOVD", fmt.Sprintf("%s+%d(FP)", name, off), r.String())
}

// MOVD copies general register src to dst.
func (p *Program) MOVD(src, dst Reg) {
	if p.ok(checkRegs(src, dst)) {
		p.inst("MOVD", src.String(), dst.String())
	}
}

// ADD sets d = n + m.
func (p *Program) ADD(d, n, m Reg) {
	p.reg3("ADD", d, n, m)
}

// SUB sets d = n - m.
func (p *Program) SUB(d, n, m Reg) {
	p.reg3("SUB", d, n, m)
}

func (p *Program) reg3(mnemonic string, d, n, m Reg) {
	if p.ok(checkRegs(d, n, m)) {
		p.inst(mnemonic, m.String(), n.String(), d.String())
	}
}

// ADDImm sets d = n + imm, 0 <= imm <= 4095.
func (p *Program) ADDImm(d, n Reg, imm int) {
	p.regImm("ADD", d, n, imm)
}

// SUBImm sets d = n - imm, 0 <= imm <= 4095.
func (p *Program) SUBImm(d, n Reg, imm int) {
	p.regImm("SUB", d, n, imm)
}

// SUBSImm sets d = n - imm, 0 <= imm <= 4095, and the condition flags.
func (p *Program) SUBSImm(d, n Reg, imm int) {
	p.regImm("SUBS", d, n, imm)
}

// ADDSImm sets d = n + imm, 0 <= imm <= 4095, and the condition flags.
func (p *Program) ADDSImm(d, n Reg, imm int) {
	p.regImm("ADDS", d, n, imm)
}

// regImm emits an add/subtract (immediate) instruction. The immediate is
// limited to the 12 bits that one instruction encodes, so the Go assembler
// never materialises it through REGTMP (R27).
func (p *Program) regImm(mnemonic string, d, n Reg, imm int) {
	if !p.ok(checkRegs(d, n)) || !p.ok(checkImm12(mnemonic, imm)) {
		return
	}
	p.inst(mnemonic, fmt.Sprintf("$%d", imm), n.String(), d.String())
}

// CMPImm compares n with imm, 0 <= imm <= 4095, setting the flags as SUBS.
func (p *Program) CMPImm(n Reg, imm int) {
	if p.ok(n.check()) && p.ok(checkImm12("CMP", imm)) {
		p.inst("CMP", fmt.Sprintf("$%d", imm), n.String())
	}
}

// CMP compares n with m (flags of n - m).
func (p *Program) CMP(n, m Reg) {
	if p.ok(checkRegs(n, m)) {
		p.inst("CMP", m.String(), n.String())
	}
}

// ANDMask sets d = n & (2^bits - 1), 1 <= bits <= 63: a logical
// immediate that one instruction encodes.
func (p *Program) ANDMask(d, n Reg, bits int) {
	if !p.ok(checkRegs(d, n)) {
		return
	}
	if bits < 1 || bits > 63 {
		p.fail(fmt.Errorf("asm: AND mask of %d bits out of range 1..63", bits))
		return
	}
	p.inst("AND", fmt.Sprintf("$%#x", uint64(1)<<bits-1), n.String(), d.String())
}

// LSLImm sets d = n << shift, 0 <= shift <= 63.
func (p *Program) LSLImm(d, n Reg, shift int) {
	if !p.ok(checkRegs(d, n)) {
		return
	}
	if shift < 0 || shift > 63 {
		p.fail(fmt.Errorf("asm: LSL shift %d out of range 0..63", shift))
		return
	}
	p.inst("LSL", fmt.Sprintf("$%d", shift), n.String(), d.String())
}

// Load loads the 8 bytes at base into d: MOVD (R5), R15.
func (p *Program) Load(d, base Reg) {
	if p.ok(checkRegs(d, base)) {
		p.inst("MOVD", "("+base.String()+")", d.String())
	}
}

// MOVImm sets d = imm, 0 <= imm <= 65535: one instruction (MOVZ, or ORR
// when imm is a bitmask immediate), never a literal pool.
func (p *Program) MOVImm(d Reg, imm int) {
	if !p.ok(d.check()) {
		return
	}
	if imm < 0 || imm > 0xffff {
		p.fail(fmt.Errorf("asm: MOVD immediate %d out of range 0..65535", imm))
		return
	}
	p.inst("MOVD", fmt.Sprintf("$%d", imm), d.String())
}

// CSEL sets d = n if condition c holds, else m.
func (p *Program) CSEL(c Cond, d, n, m Reg) {
	if p.ok(c.check()) && p.ok(checkRegs(d, n, m)) {
		p.inst("CSEL", c.String(), n.String(), m.String(), d.String())
	}
}

// NEG sets d = -m.
func (p *Program) NEG(d, m Reg) {
	if p.ok(checkRegs(d, m)) {
		p.inst("NEG", m.String(), d.String())
	}
}

// VLD1P loads len(regs) consecutive registers (1 to 4, numbers ascending
// modulo 32) of arrangement arr from base and post-increments base by the
// number of bytes loaded: VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4].
func (p *Program) VLD1P(base Reg, arr Arrangement, regs ...VReg) {
	p.vecList("VLD1.P", base, arr, regs, true, false)
}

// VST1P stores len(regs) consecutive registers (1 to 4) of arrangement arr
// to base and post-increments base by the number of bytes stored:
// VST1.P [V0.S4, V1.S4], 32(R9).
func (p *Program) VST1P(base Reg, arr Arrangement, regs ...VReg) {
	p.vecList("VST1.P", base, arr, regs, true, true)
}

// VLD1 loads len(regs) consecutive registers (1 to 4) of arrangement arr
// from base without changing base: VLD1 (R1), [V0.S4].
func (p *Program) VLD1(base Reg, arr Arrangement, regs ...VReg) {
	p.vecList("VLD1", base, arr, regs, false, false)
}

// VST1 stores len(regs) consecutive registers (1 to 4) of arrangement arr
// to base without changing base: VST1 [V0.S4], (R9).
func (p *Program) VST1(base Reg, arr Arrangement, regs ...VReg) {
	p.vecList("VST1", base, arr, regs, false, true)
}

func (p *Program) vecList(mnemonic string, base Reg, arr Arrangement, regs []VReg, post, store bool) {
	if !p.ok(base.check()) || !p.ok(arr.check()) {
		return
	}
	if len(regs) < 1 || len(regs) > 4 {
		p.fail(fmt.Errorf("asm: %s: %d registers in the list, want 1 to 4", mnemonic, len(regs)))
		return
	}
	names := make([]string, len(regs))
	for i, r := range regs {
		if !p.ok(r.check()) {
			return
		}
		if i > 0 && r != (regs[i-1]+1)%32 {
			p.fail(fmt.Errorf("asm: %s: registers %s and %s are not consecutive", mnemonic, regs[i-1], r))
			return
		}
		names[i] = r.String() + "." + arr.String()
	}
	list := "[" + strings.Join(names, ", ") + "]"
	addr := "(" + base.String() + ")"
	if post {
		addr = fmt.Sprintf("%d(%s)", len(regs)*arr.Bytes(), base)
	}
	if store {
		p.inst(mnemonic, list, addr)
	} else {
		p.inst(mnemonic, addr, list)
	}
}

// MOVDAddr puts the address of byte off of the file's static symbol sym
// into d: MOVD $sym<>+8(SB), R20.
func (p *Program) MOVDAddr(sym string, off int, d Reg) {
	if p.ok(checkIdent("symbol", sym)) && p.ok(d.check()) {
		p.inst("MOVD", fmt.Sprintf("$%s<>+%d(SB)", sym, off), d.String())
	}
}

// StaticData defines the file's read-only static symbol sym: each value of
// vals, size bytes each (4 or 8).
func (p *Program) StaticData(sym string, size int, vals []uint64) {
	if !p.ok(checkIdent("symbol", sym)) {
		return
	}
	if size != 4 && size != 8 {
		p.fail(fmt.Errorf("asm: %s: data of %d bytes", sym, size))
		return
	}
	for i, v := range vals {
		p.emit(fmt.Sprintf("DATA %s<>+%d(SB)/%d, $%#x", sym, i*size, size, v))
	}
	p.emit(fmt.Sprintf("GLOBL %s<>(SB), RODATA|NOPTR, $%d", sym, size*len(vals)))
}

// VLD1R loads one element from base and replicates it into every lane of d:
// VLD1R (R7), [V31.S4].
func (p *Program) VLD1R(base Reg, arr Arrangement, d VReg) {
	if p.ok(base.check()) && p.ok(arr.check()) && p.ok(d.check()) {
		p.inst("VLD1R", "("+base.String()+")", "["+d.String()+"."+arr.String()+"]")
	}
}

// VDUPGen replicates the low element of general register r into every lane
// of d: VDUP R1, V0.S4.
func (p *Program) VDUPGen(arr Arrangement, d VReg, r Reg) {
	if p.ok(r.check()) && p.ok(arr.check()) && p.ok(d.check()) {
		p.inst("VDUP", r.String(), d.String()+"."+arr.String())
	}
}

// VDUPElem replicates lane idx of n into every lane of d: VDUP V1.S[0], V0.S4.
func (p *Program) VDUPElem(arr Arrangement, d, n VReg, idx int) {
	if !p.ok(arr.check()) || !p.ok(checkVRegs(d, n)) {
		return
	}
	if idx < 0 || idx >= 16/arr.ElemBytes() {
		p.fail(fmt.Errorf("asm: VDUP lane index %d out of range for %s elements", idx, arr.elemName()))
		return
	}
	p.inst("VDUP", fmt.Sprintf("%s.%s[%d]", n, arr.elemName(), idx), d.String()+"."+arr.String())
}

// FLoad loads one scalar of size sz from base into d: FMOVS (R1), F0.
func (p *Program) FLoad(sz Size, d VReg, base Reg) {
	p.fmov(sz, d, base, false, false)
}

// FLoadP loads one scalar of size sz from base into d and advances base by
// its size: FMOVS.P 4(R1), F0.
func (p *Program) FLoadP(sz Size, d VReg, base Reg) {
	p.fmov(sz, d, base, true, false)
}

// FStore stores the scalar of size sz in s to base: FMOVS F0, (R1).
func (p *Program) FStore(sz Size, s VReg, base Reg) {
	p.fmov(sz, s, base, false, true)
}

// FStoreP stores the scalar of size sz in s to base and advances base by its
// size: FMOVS.P F0, 4(R1).
func (p *Program) FStoreP(sz Size, s VReg, base Reg) {
	p.fmov(sz, s, base, true, true)
}

func (p *Program) fmov(sz Size, v VReg, base Reg, post, store bool) {
	if !p.ok(sz.check()) || !p.ok(v.check()) || !p.ok(base.check()) {
		return
	}
	mnemonic := "FMOV" + sz.String()
	addr := "(" + base.String() + ")"
	if post {
		mnemonic += ".P"
		addr = fmt.Sprintf("%d(%s)", sz.Bytes(), base)
	}
	if store {
		p.inst(mnemonic, v.FName(), addr)
	} else {
		p.inst(mnemonic, addr, v.FName())
	}
}

// FScalar emits the scalar floating-point operation d = n op m on size sz in
// Go syntax: FSUBS F1, F0, F2 for d = F2, n = F0, m = F1.
func (p *Program) FScalar(op FPOp, sz Size, d, n, m VReg) {
	stem, err := op.goScalar()
	if !p.ok(err) || !p.ok(sz.check()) || !p.ok(checkVRegs(d, n, m)) {
		return
	}
	p.inst(stem+sz.String(), m.FName(), n.FName(), d.FName())
}

// FVector emits the vector floating-point operation d = n op m, lane by lane
// on arrangement arr, as a WORD with its GNU disassembly as a comment: the
// Go assembler has no mnemonic for it.
func (p *Program) FVector(op FPOp, arr Arrangement, d, n, m VReg) {
	enc, err := EncodeFPVector(op, arr, d, n, m)
	p.encoded(enc, err, FPVectorGNU(op, arr, d, n, m))
}

// VUnary emits the vector operation d = op(n), lane by lane on arrangement
// arr, as a WORD with its GNU disassembly as a comment: the Go assembler
// has no mnemonic for it.
func (p *Program) VUnary(op UnaryOp, arr Arrangement, d, n VReg) {
	enc, err := EncodeUnary(op, arr, d, n)
	p.encoded(enc, err, UnaryGNU(op, arr, d, n))
}

// IntVector emits the vector integer operation d = n op m, lane by lane on
// arrangement arr, as a WORD with its GNU disassembly as a comment: the Go
// assembler has no mnemonic for it.
func (p *Program) IntVector(op IntOp, arr Arrangement, d, n, m VReg) {
	enc, err := EncodeIntVector(op, arr, d, n, m)
	p.encoded(enc, err, IntVectorGNU(op, arr, d, n, m))
}

// UMLAL emits d += n * m, the unsigned lanes of n and m (8B, 4H or 2S)
// multiplied into lanes of twice their width, as a WORD with its GNU
// disassembly as a comment: the Go assembler has no mnemonic for it.
func (p *Program) UMLAL(arr Arrangement, d, n, m VReg) {
	enc, err := EncodeUMLAL(arr, d, n, m)
	p.encoded(enc, err, UMLALGNU(arr, d, n, m))
}

// encoded emits the encoder's word enc, spelt gnu, or records its error.
func (p *Program) encoded(enc uint32, err error, gnu string) {
	if p.ok(err) && p.inFunction(gnu) {
		p.word(enc, gnu)
	}
}

// The arrangements that the Go assembler's vector instructions take.
var (
	byteArrangements  = []Arrangement{B8, B16}
	allArrangements   = []Arrangement{B8, B16, H4, H8, S2, S4, D2}
	sub64Arrangements = []Arrangement{B8, B16, H4, H8, S2, S4} // lanes narrower than 64 bits
)

// VecOp is a vector instruction of three registers, d and the sources n and
// m, that the Go assembler has.
type VecOp uint8

// The vector instructions of three registers.
const (
	Zip1  VecOp = iota + 1 // d = n[0], m[0], n[1], m[1], ...: the low halves interleaved
	Zip2                   // the high halves of n and m interleaved
	Uzp1                   // d = the even-numbered lanes of n, then those of m
	Uzp2                   // d = the odd-numbered lanes of n, then those of m
	Cmtst                  // each lane of d all ones where n & m is not zero, else zero
	Bsl                    // bitwise select by d: d = n where d is one, m where it is zero
	Bit                    // insert the bits of n into d where m is one
	Bif                    // insert the bits of n into d where m is zero
	Fmla                   // d += n * m on floating-point lanes, rounded once
	Fmls                   // d -= n * m on floating-point lanes, rounded once
	Add                    // d = n + m on integer lanes
	Sub                    // d = n - m on integer lanes
	And                    // d = n & m
	Orr                    // d = n | m
	Eor                    // d = n ^ m
	UMax                   // d = max(n, m), unsigned
	UMin                   // d = min(n, m), unsigned
)

// lastVecOp is the last VecOp, for range checks.
const lastVecOp = UMin

// vecOpInfo gives the Go mnemonic of each VecOp and the arrangements it
// takes.
var vecOpInfo = [...]struct {
	name string
	arrs []Arrangement
}{
	Zip1:  {"VZIP1", allArrangements},
	Zip2:  {"VZIP2", allArrangements},
	Uzp1:  {"VUZP1", allArrangements},
	Uzp2:  {"VUZP2", allArrangements},
	Cmtst: {"VCMTST", allArrangements},
	Bsl:   {"VBSL", byteArrangements},
	Bit:   {"VBIT", byteArrangements},
	Bif:   {"VBIF", byteArrangements},
	Fmla:  {"VFMLA", floatArrangements},
	Fmls:  {"VFMLS", floatArrangements},
	Add:   {"VADD", allArrangements},
	Sub:   {"VSUB", allArrangements},
	And:   {"VAND", byteArrangements},
	Orr:   {"VORR", byteArrangements},
	Eor:   {"VEOR", byteArrangements},
	UMax:  {"VUMAX", sub64Arrangements},
	UMin:  {"VUMIN", sub64Arrangements},
}

func (op VecOp) check() error { return checkOp(op, Zip1, lastVecOp, "vector operation") }

// String returns the Go mnemonic of op ("VZIP1").
func (op VecOp) String() string {
	if op.check() != nil {
		return fmt.Sprintf("VecOp(%d)", uint8(op))
	}
	return vecOpInfo[op].name
}

// Vec emits the vector instruction op on d, n and m with arrangement arr,
// in Go syntax: sources reversed, then the destination ("VZIP1 V3.B16,
// V2.B16, V1.B16" for zip1 v1.16b, v2.16b, v3.16b).
func (p *Program) Vec(op VecOp, arr Arrangement, d, n, m VReg) {
	if !p.ok(op.check()) {
		return
	}
	info := vecOpInfo[op]
	if !p.ok(checkOperands(info.name, arr, info.arrs, d, n, m)) {
		return
	}
	t := "." + arr.String()
	p.inst(info.name, m.String()+t, n.String()+t, d.String()+t)
}

// VUSHR shifts each lane of n right by shift (1 to the lane's width in
// bits), filling with zeros, into d.
func (p *Program) VUSHR(arr Arrangement, d, n VReg, shift int) {
	p.shiftImm("VUSHR", arr, d, n, shift, 1)
}

// VSHL shifts each lane of n left by shift (0 to the lane's width in bits
// minus one) into d.
func (p *Program) VSHL(arr Arrangement, d, n VReg, shift int) {
	p.shiftImm("VSHL", arr, d, n, shift, 0)
}

// shiftImm emits a shift by an immediate from lo to lo plus the lane's
// width minus one.
func (p *Program) shiftImm(mnemonic string, arr Arrangement, d, n VReg, shift, lo int) {
	if !p.ok(checkOperands(mnemonic, arr, allArrangements, d, n)) {
		return
	}
	if hi := lo + 8*arr.ElemBytes() - 1; shift < lo || shift > hi {
		p.fail(fmt.Errorf("asm: %s shift %d out of range %d..%d", mnemonic, shift, lo, hi))
		return
	}
	p.inst(mnemonic, fmt.Sprintf("$%d", shift), n.String()+"."+arr.String(), d.String()+"."+arr.String())
}

// VREV64 reverses the order of the lanes of n within each 64-bit half into
// d: with S4, the two 32-bit halves of every doubleword swap places.
func (p *Program) VREV64(arr Arrangement, d, n VReg) {
	if p.ok(checkOperands("VREV64", arr, sub64Arrangements, d, n)) {
		t := "." + arr.String()
		p.inst("VREV64", n.String()+t, d.String()+t)
	}
}

// VMOV copies the 128 bits of n to d.
func (p *Program) VMOV(d, n VReg) {
	if p.ok(checkVRegs(d, n)) {
		p.inst("VMOV", n.String()+".B16", d.String()+".B16")
	}
}

// VLD1Lane loads one element of arr's lane size from base into lane lane
// of d, leaving the other lanes as they were: VLD1 (R1), V0.H[0].
func (p *Program) VLD1Lane(base Reg, arr Arrangement, d VReg, lane int) {
	p.laneAccess("VLD1", base, arr, d, lane, false, false)
}

// VLD1LaneP is VLD1Lane advancing base by the element's size:
// VLD1.P 2(R1), V0.H[0].
func (p *Program) VLD1LaneP(base Reg, arr Arrangement, d VReg, lane int) {
	p.laneAccess("VLD1.P", base, arr, d, lane, true, false)
}

// VST1Lane stores lane lane of s, of arr's lane size, to base:
// VST1 V0.B[0], (R1).
func (p *Program) VST1Lane(base Reg, arr Arrangement, s VReg, lane int) {
	p.laneAccess("VST1", base, arr, s, lane, false, true)
}

// VST1LaneP is VST1Lane advancing base by the element's size:
// VST1.P V0.S[0], 4(R1).
func (p *Program) VST1LaneP(base Reg, arr Arrangement, s VReg, lane int) {
	p.laneAccess("VST1.P", base, arr, s, lane, true, true)
}

func (p *Program) laneAccess(mnemonic string, base Reg, arr Arrangement, v VReg, lane int, post, store bool) {
	if !p.ok(base.check()) || !p.laneOK(mnemonic, arr, v, lane) {
		return
	}
	elem := fmt.Sprintf("%s.%s[%d]", v, arr.elemName(), lane)
	addr := "(" + base.String() + ")"
	if post {
		addr = fmt.Sprintf("%d(%s)", arr.ElemBytes(), base)
	}
	if store {
		p.inst(mnemonic, elem, addr)
	} else {
		p.inst(mnemonic, addr, elem)
	}
}

func checkIdent(what, s string) error {
	if s == "" {
		return fmt.Errorf("asm: empty %s", what)
	}
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return fmt.Errorf("asm: %s %q is not an identifier", what, s)
		}
	}
	return nil
}

func checkImm12(mnemonic string, imm int) error {
	if imm < 0 || imm > 4095 {
		return fmt.Errorf("asm: %s immediate %d out of range 0..4095", mnemonic, imm)
	}
	return nil
}

// VMOVToGP copies lane lane of n, of arr's lane size (S or D), to the
// general register d (UMOV): VMOV V1.S[2], R3.
func (p *Program) VMOVToGP(arr Arrangement, d Reg, n VReg, lane int) {
	if p.laneOK("VMOV", arr, n, lane) && p.ok(d.check()) {
		p.inst("VMOV", fmt.Sprintf("%s.%s[%d]", n, arr.elemName(), lane), d.String())
	}
}

// VMOVFromGP copies the general register n into lane lane of d, of arr's
// lane size (INS): VMOV R3, V1.S[2].
func (p *Program) VMOVFromGP(arr Arrangement, d VReg, lane int, n Reg) {
	if p.laneOK("VMOV", arr, d, lane) && p.ok(n.check()) {
		p.inst("VMOV", n.String(), fmt.Sprintf("%s.%s[%d]", d, arr.elemName(), lane))
	}
}

// LoadIndexed loads the size bytes (4 or 8) at base + idx*size into d,
// zero-extended: MOVWU (R1)(R2<<2), R3.
func (p *Program) LoadIndexed(size int, d, base, idx Reg) {
	if !p.ok(checkRegs(d, base, idx)) {
		return
	}
	switch size {
	case 4:
		p.inst("MOVWU", fmt.Sprintf("(%s)(%s<<2)", base, idx), d.String())
	case 8:
		p.inst("MOVD", fmt.Sprintf("(%s)(%s<<3)", base, idx), d.String())
	default:
		p.fail(fmt.Errorf("asm: an indexed load of %d bytes", size))
	}
}

// laneOK checks a lane operand: a vector register and a lane index of
// arr's lane size.
func (p *Program) laneOK(mnemonic string, arr Arrangement, v VReg, lane int) bool {
	if !p.ok(arr.check()) || !p.ok(v.check()) {
		return false
	}
	if lane < 0 || lane >= 16/arr.ElemBytes() {
		p.fail(fmt.Errorf("asm: %s lane index %d out of range for %s elements", mnemonic, lane, arr.elemName()))
		return false
	}
	return true
}
