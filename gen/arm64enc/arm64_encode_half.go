package arm64enc

import "fmt"

// HalfOp is a conversion between four 32-bit lanes and four 16-bit ones,
// or two 64-bit lanes and two 32-bit ones, in the low or (the "2" forms)
// high half of a register: the half-precision conversions' instructions,
// and float32's widening to float64 and narrowing back.
type HalfOp uint8

// The HalfOps.
const (
	FCvtL  HalfOp = iota + 1 // float16 lanes to float32: fcvtl v.4s, v.4h
	FCvtN                    // float32 lanes to float16, rounded: fcvtn v.4h, v.4s
	ShLL16                   // 16-bit lanes to 32-bit ones shifted left by 16: shll v.4s, v.4h, #16
	ShrN16                   // 32-bit lanes shifted right by 16, narrowed: shrn v.4h, v.4s, #16
	FCvtLD                   // float32 lanes to float64: fcvtl v.2d, v.2s
	FCvtND                   // float64 lanes to float32, rounded: fcvtn v.2s, v.2d
)

// halfOpInfo is each HalfOp's GNU mnemonic, its encoding with Q, Rn and
// Rd zero, and whether it narrows (16-bit destination lanes):
//
//	fcvtl, fcvtn: 0 Q 0 01110 0 sz 10000 1011x 10 Rn Rd (sz 0: float16 and
//	              float32, 1: float32 and float64)
//	shll:         0 Q 1 01110 01  10000 10011 10 Rn Rd (size 01: 16-bit)
//	shrn:         0 Q 0 011110 0010 000 100001 Rn Rd (immh:immb = 32 - 16)
var halfOpInfo = [...]struct {
	name   string
	enc    uint32
	narrow bool
	shift  bool
	double bool // float32 and float64 lanes, not float16 and float32
}{
	FCvtL:  {"fcvtl", 0x0e217800, false, false, false},
	FCvtN:  {"fcvtn", 0x0e216800, true, false, false},
	ShLL16: {"shll", 0x2e613800, false, true, false},
	ShrN16: {"shrn", 0x0f108400, true, true, false},
	FCvtLD: {"fcvtl", 0x0e617800, false, false, true},
	FCvtND: {"fcvtn", 0x0e616800, true, false, true},
}

func (op HalfOp) check() error { return checkOp(op, FCvtL, FCvtND, "half conversion") }

// EncodeHalf encodes op from register n to d: on the low half of the
// 16-bit side, or on its high half (fcvtl2, fcvtn2, ...) when high is set
// (for example fcvtl v1.4s, v2.4h is 0x0e217841).
func EncodeHalf(op HalfOp, high bool, d, n VReg) (uint32, error) {
	if err := op.check(); err != nil {
		return 0, err
	}
	if err := checkVRegs(d, n); err != nil {
		return 0, err
	}
	var q uint32
	if high {
		q = 1
	}
	return halfOpInfo[op].enc | q<<30 | uint32(n)<<5 | uint32(d), nil
}

// HalfGNU returns the GNU assembler spelling of the instruction that
// EncodeHalf encodes: "fcvtl2 v1.4s, v2.8h".
func HalfGNU(op HalfOp, high bool, d, n VReg) string {
	if op.check() != nil {
		return fmt.Sprintf("HalfOp(%d)", uint8(op))
	}
	info := halfOpInfo[op]
	name, half, wide := info.name, "4h", "4s"
	if high {
		name, half = name+"2", "8h"
	}
	if info.double {
		half, wide = "2s", "2d"
		if high {
			half = "4s"
		}
	}
	dt, nt := wide, half
	if info.narrow {
		dt, nt = half, wide
	}
	s := fmt.Sprintf("%s v%d.%s, v%d.%s", name, d, dt, n, nt)
	if info.shift {
		s += ", #16"
	}
	return s
}

// Half emits the conversion op from n to d (see HalfOp) as a WORD with its
// GNU disassembly as a comment: the Go assembler has no mnemonic for it.
func (p *Program) Half(op HalfOp, high bool, d, n VReg) {
	enc, err := EncodeHalf(op, high, d, n)
	p.encoded(enc, err, HalfGNU(op, high, d, n))
}

// name is op's GNU mnemonic.
func (op HalfOp) name() string { return halfOpInfo[op].name }
