package arm64enc

import "fmt"

// This file adds to Program what the reduction kernels need beyond the
// elementwise ones: UMAXV (arm64_encode_reduce.go),
// integer loads and compares for searches, scalar floating-point compares
// and moves to general registers, and storing a result.

// UMaxV emits umaxv s<d>, v<n>.4s (see EncodeUMaxV) as a WORD with its
// GNU spelling.
func (p *Program) UMaxV(d, n VReg) {
	enc, err := EncodeUMaxV(d, n)
	if !p.ok(err) {
		return
	}
	if p.inFunction("umaxv") {
		p.word(enc, UMaxVGNU(d, n))
	}
}

// StoreArg stores r to the 8-byte result or argument name at offset off of
// the argument frame: MOVD r, name+off(FP).
func (p *Program) StoreArg(name string, off int, r Reg) {
	if !p.inFunction("StoreArg") || !p.ok(checkIdent("argument name", name)) || !p.ok(r.check()) {
		return
	}
	if off < 0 || off%8 != 0 {
		p.fail(fmt.Errorf("asm: result %s: offset %d is not a non-negative multiple of 8", name, off))
		return
	}
	p.inst("MOVD", r.String(), fmt.Sprintf("%s+%d(FP)", name, off))
}

// loadIntMnemonics are the zero-extending loads by size in bytes.
var loadIntMnemonics = map[int]string{1: "MOVBU", 2: "MOVHU", 4: "MOVWU", 8: "MOVD"}

// LoadInt loads the integer of size bytes (1, 2, 4 or 8) at base into d,
// zero-extended, and with post advances base past it: MOVWU (R2), R4;
// MOVD.P 8(R1), R6.
func (p *Program) LoadInt(size int, d, base Reg, post bool) {
	mnemonic, ok := loadIntMnemonics[size]
	if !ok {
		p.fail(fmt.Errorf("asm: LoadInt: no %d-byte integer load", size))
		return
	}
	if !p.ok(checkRegs(d, base)) {
		return
	}
	addr := "(" + base.String() + ")"
	if post {
		mnemonic += ".P"
		addr = fmt.Sprintf("%d(%s)", size, base)
	}
	p.inst(mnemonic, addr, d.String())
}

// CMPSized compares n with m as integers of size bytes, zero-extended
// (LoadInt's) to 32 bits below 8 bytes: CMPW R4, R6 sets the flags of
// R6 - R4 for n = R6, m = R4.
func (p *Program) CMPSized(size int, n, m Reg) {
	if _, ok := loadIntMnemonics[size]; !ok {
		p.fail(fmt.Errorf("asm: CMPSized: no %d-byte integer compare", size))
		return
	}
	if p.ok(checkRegs(n, m)) {
		p.inst(map[bool]string{true: "CMP", false: "CMPW"}[size == 8], m.String(), n.String())
	}
}

// FCMP compares the scalars n and m of size sz, setting the flags (V for
// unordered: either is NaN): FCMPS F1, F0 for n = F0, m = F1.
func (p *Program) FCMP(sz Size, n, m VReg) {
	if p.ok(sz.check()) && p.ok(checkVRegs(n, m)) {
		p.inst("FCMP"+sz.String(), m.FName(), n.FName())
	}
}

// FMOVToGP moves the low sz bits of v to general register d (the upper
// bits cleared): FMOVS F10, R6.
func (p *Program) FMOVToGP(sz Size, d Reg, v VReg) {
	if p.ok(sz.check()) && p.ok(d.check()) && p.ok(v.check()) {
		p.inst("FMOV"+sz.String(), v.FName(), d.String())
	}
}
