package asm

// This file holds the arm64 register and operand types and the encoder of
// the A64 instructions that the Go assembler lacks.

import "fmt"

// Reg is an arm64 general-purpose register, R0 to R30, as a 64-bit X
// register.
type Reg uint8

// The general-purpose registers. R18 (platform register), R26 (closure
// context), R27 (REGTMP, the assembler's scratch register), R28 (g), R29
// (frame pointer) and R30 (link register) exist so that they can be named in
// diagnostics, but every method and encoder refuses them.
const (
	R0 Reg = iota
	R1
	R2
	R3
	R4
	R5
	R6
	R7
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
	R16
	R17
	R18
	R19
	R20
	R21
	R22
	R23
	R24
	R25
	R26
	R27
	R28
	R29
	R30
)

// String returns the Go assembler name of r ("R7").
func (r Reg) String() string {
	return fmt.Sprintf("R%d", uint8(r))
}

// reservedRegs says why a general register may not be used by generated code.
var reservedRegs = map[Reg]string{
	R18: "the platform register",
	R26: "the closure context register",
	R27: "REGTMP, the Go assembler's scratch register",
	R28: "g, the current goroutine",
	R29: "the frame pointer",
	R30: "the link register",
}

// Reserved reports whether r is reserved by the platform or the Go runtime
// and therefore refused by the emitter.
func (r Reg) Reserved() bool {
	_, ok := reservedRegs[r]
	return ok
}

func (r Reg) check() error {
	if r > R30 {
		return fmt.Errorf("asm: general register %d out of range R0..R30", uint8(r))
	}
	if why, ok := reservedRegs[r]; ok {
		return fmt.Errorf("asm: %s is reserved (%s)", r, why)
	}
	return nil
}

func checkRegs(regs ...Reg) error {
	for _, r := range regs {
		if err := r.check(); err != nil {
			return err
		}
	}
	return nil
}

// VReg is a SIMD and floating-point register, V0 to V31. As a scalar it is
// printed F0 to F31 in Go syntax (S0/D0 in the ARM manual).
type VReg uint8

// The SIMD and floating-point registers. All of them may be clobbered by an
// assembly function in Go's ABI0.
const (
	V0 VReg = iota
	V1
	V2
	V3
	V4
	V5
	V6
	V7
	V8
	V9
	V10
	V11
	V12
	V13
	V14
	V15
	V16
	V17
	V18
	V19
	V20
	V21
	V22
	V23
	V24
	V25
	V26
	V27
	V28
	V29
	V30
	V31
)

// String returns the Go assembler name of v as a vector ("V7").
func (v VReg) String() string {
	return fmt.Sprintf("V%d", uint8(v))
}

// FName returns the Go assembler name of v as a scalar register ("F7").
func (v VReg) FName() string {
	return fmt.Sprintf("F%d", uint8(v))
}

func (v VReg) check() error {
	if v > V31 {
		return fmt.Errorf("asm: vector register %d out of range V0..V31", uint8(v))
	}
	return nil
}

func checkVRegs(regs ...VReg) error {
	for _, v := range regs {
		if err := v.check(); err != nil {
			return err
		}
	}
	return nil
}

// Arrangement is the lane layout of a vector operand.
type Arrangement uint8

// The arrangements of 32- and 64-bit lanes. S2 uses the low 64 bits of the
// register (a D register) and clears the upper half when written.
const (
	S2 Arrangement = iota + 1 // two 32-bit lanes, 8 bytes
	S4                        // four 32-bit lanes, 16 bytes
	D2                        // two 64-bit lanes, 16 bytes
)

func (a Arrangement) check() error {
	if a < S2 || a > D2 {
		return fmt.Errorf("asm: invalid arrangement %d", uint8(a))
	}
	return nil
}

// String returns the Go assembler suffix of a ("S4").
func (a Arrangement) String() string {
	switch a {
	case S2:
		return "S2"
	case S4:
		return "S4"
	case D2:
		return "D2"
	}
	return fmt.Sprintf("Arrangement(%d)", uint8(a))
}

// GNU returns the GNU assembler suffix of a ("4s").
func (a Arrangement) GNU() string {
	switch a {
	case S2:
		return "2s"
	case S4:
		return "4s"
	case D2:
		return "2d"
	}
	return fmt.Sprintf("arrangement(%d)", uint8(a))
}

// Lanes returns the number of lanes of a.
func (a Arrangement) Lanes() int {
	switch a {
	case S2, D2:
		return 2
	case S4:
		return 4
	}
	return 0
}

// ElemBytes returns the size in bytes of one lane of a.
func (a Arrangement) ElemBytes() int {
	switch a {
	case S2, S4:
		return 4
	case D2:
		return 8
	}
	return 0
}

// Bytes returns the size in bytes of a register of arrangement a.
func (a Arrangement) Bytes() int {
	return a.Lanes() * a.ElemBytes()
}

// Elem returns the scalar size of one lane of a.
func (a Arrangement) Elem() Size {
	if a == D2 {
		return Double
	}
	return Single
}

func (a Arrangement) elemName() string {
	return a.Elem().String()
}

// q returns the Q bit of a: 1 for a full 128-bit register.
func (a Arrangement) q() uint32 {
	if a == S2 {
		return 0
	}
	return 1
}

// Size is the size of a scalar floating-point operand.
type Size uint8

// Scalar sizes.
const (
	Single Size = iota + 1 // float32: S registers, FMOVS, FADDS
	Double                 // float64: D registers, FMOVD, FADDD
)

func (s Size) check() error {
	if s != Single && s != Double {
		return fmt.Errorf("asm: invalid scalar size %d", uint8(s))
	}
	return nil
}

// String returns the Go assembler suffix of s ("S" or "D").
func (s Size) String() string {
	switch s {
	case Single:
		return "S"
	case Double:
		return "D"
	}
	return fmt.Sprintf("Size(%d)", uint8(s))
}

// Bytes returns the size of s in bytes.
func (s Size) Bytes() int {
	switch s {
	case Single:
		return 4
	case Double:
		return 8
	}
	return 0
}

// FPOp is a binary floating-point operation of the A64 instruction set.
type FPOp uint8

// The floating-point operations. FMin and FMax return NaN when either operand
// is NaN and order -0 below +0, as Go's builtin min and max do (unlike
// FMINNM and FMAXNM, which are deliberately absent).
const (
	FAdd FPOp = iota + 1 // n + m
	FSub                 // n - m
	FMul                 // n * m
	FDiv                 // n / m
	FMin                 // min(n, m)
	FMax                 // max(n, m)
)

// fpOpInfo is the "Advanced SIMD three same" encoding of an FPOp: the U bit
// (29), the high size bit a (23) and the opcode (15:11).
var fpOpInfo = [...]struct {
	name   string // GNU mnemonic
	u, a   uint32
	opcode uint32
}{
	FAdd: {"fadd", 0, 0, 0b11010},
	FSub: {"fsub", 0, 1, 0b11010},
	FMul: {"fmul", 1, 0, 0b11011},
	FDiv: {"fdiv", 1, 0, 0b11111},
	FMin: {"fmin", 0, 1, 0b11110},
	FMax: {"fmax", 0, 0, 0b11110},
}

func (op FPOp) check() error {
	if op < FAdd || op > FMax {
		return fmt.Errorf("asm: invalid floating-point operation %d", uint8(op))
	}
	return nil
}

// String returns the GNU mnemonic of op ("fadd").
func (op FPOp) String() string {
	if op.check() != nil {
		return fmt.Sprintf("FPOp(%d)", uint8(op))
	}
	return fpOpInfo[op].name
}

// goScalar returns the Go mnemonic stem of the scalar form ("FADD").
func (op FPOp) goScalar() string {
	switch op {
	case FAdd:
		return "FADD"
	case FSub:
		return "FSUB"
	case FMul:
		return "FMUL"
	case FDiv:
		return "FDIV"
	case FMin:
		return "FMIN"
	case FMax:
		return "FMAX"
	}
	return ""
}

// EncodeFPVector encodes the A64 "Advanced SIMD three same" floating-point
// instruction d.arr = n.arr op m.arr (for example fadd v2.4s, v0.4s, v1.4s,
// which is 0x4e21d402):
//
//	31 30 29 28..24 23 22 21 20..16 15..11 10 9..5 4..0
//	 0  Q  U 01110  a sz  1   Rm    opcode  1  Rn   Rd
func EncodeFPVector(op FPOp, arr Arrangement, d, n, m VReg) (uint32, error) {
	if err := op.check(); err != nil {
		return 0, err
	}
	if err := arr.check(); err != nil {
		return 0, err
	}
	if err := checkVRegs(d, n, m); err != nil {
		return 0, err
	}
	info := fpOpInfo[op]
	var sz uint32
	if arr == D2 {
		sz = 1
	}
	enc := arr.q()<<30 | info.u<<29 | 0b01110<<24 | info.a<<23 | sz<<22 | 1<<21 |
		uint32(m)<<16 | info.opcode<<11 | 1<<10 | uint32(n)<<5 | uint32(d)
	return enc, nil
}

// FPVectorGNU returns the GNU assembler spelling of the instruction that
// EncodeFPVector encodes: "fadd v2.4s, v0.4s, v1.4s".
func FPVectorGNU(op FPOp, arr Arrangement, d, n, m VReg) string {
	t := arr.GNU()
	return fmt.Sprintf("%s v%d.%s, v%d.%s, v%d.%s", op, d, t, n, t, m, t)
}
