package arm64enc

// This file holds the arm64 register and operand types and the encoder of
// the A64 instructions that the Go assembler lacks.

import (
	"fmt"
	"math/bits"
	"strings"
)

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

// The arrangements. The 8-byte ones (B8, H4, S2) use the low 64 bits of the
// register (a D register) and clear the upper half when written.
const (
	S2  Arrangement = iota + 1 // two 32-bit lanes, 8 bytes
	S4                         // four 32-bit lanes, 16 bytes
	D2                         // two 64-bit lanes, 16 bytes
	B8                         // eight bytes
	B16                        // sixteen bytes
	H4                         // four 16-bit lanes, 8 bytes
	H8                         // eight 16-bit lanes, 16 bytes
)

// arrangements describes every Arrangement: its Go suffix, its lane count
// and its lane size in bytes.
var arrangements = [...]struct {
	name  string
	lanes int
	elem  int
}{
	S2:  {"S2", 2, 4},
	S4:  {"S4", 4, 4},
	D2:  {"D2", 2, 8},
	B8:  {"B8", 8, 1},
	B16: {"B16", 16, 1},
	H4:  {"H4", 4, 2},
	H8:  {"H8", 8, 2},
}

// floatArrangements are the arrangements of float32 and float64 lanes, the
// only ones the floating-point instructions take.
var floatArrangements = []Arrangement{S2, S4, D2}

func (a Arrangement) check() error {
	if a < S2 || a > H8 {
		return fmt.Errorf("asm: invalid arrangement %d", uint8(a))
	}
	return nil
}

// checkOp refuses an operation outside first..last, the values of its
// type, called what in the error.
func checkOp[T ~uint8](op, first, last T, what string) error {
	if op < first || op > last {
		return fmt.Errorf("asm: invalid %s %d", what, uint8(op))
	}
	return nil
}

// checkOperands refuses an arrangement that the instruction mnemonic does
// not take, and invalid registers.
func checkOperands(mnemonic string, arr Arrangement, allowed []Arrangement, regs ...VReg) error {
	if err := arr.checkIn(mnemonic, allowed); err != nil {
		return err
	}
	return checkVRegs(regs...)
}

// checkIn refuses an arrangement that the instruction mnemonic does not
// take.
func (a Arrangement) checkIn(mnemonic string, allowed []Arrangement) error {
	if err := a.check(); err != nil {
		return err
	}
	for _, b := range allowed {
		if a == b {
			return nil
		}
	}
	return fmt.Errorf("asm: %s does not take arrangement %s", mnemonic, a)
}

// ArrangementOf returns the arrangement of lanes of elem bytes (1, 2, 4 or
// 8) in a register of bytes bytes (8 or 16), if there is one.
func ArrangementOf(elem, bytes int) (Arrangement, bool) {
	for a := S2; a <= H8; a++ {
		if a.ElemBytes() == elem && a.Bytes() == bytes {
			return a, true
		}
	}
	return 0, false
}

// String returns the Go assembler suffix of a ("S4").
func (a Arrangement) String() string {
	if a.check() != nil {
		return fmt.Sprintf("Arrangement(%d)", uint8(a))
	}
	return arrangements[a].name
}

// GNU returns the GNU assembler suffix of a ("4s").
func (a Arrangement) GNU() string {
	if a.check() != nil {
		return fmt.Sprintf("arrangement(%d)", uint8(a))
	}
	return fmt.Sprintf("%d%s", a.Lanes(), strings.ToLower(a.elemName()))
}

// Lanes returns the number of lanes of a.
func (a Arrangement) Lanes() int {
	if a.check() != nil {
		return 0
	}
	return arrangements[a].lanes
}

// ElemBytes returns the size in bytes of one lane of a.
func (a Arrangement) ElemBytes() int {
	if a.check() != nil {
		return 0
	}
	return arrangements[a].elem
}

// Bytes returns the size in bytes of a register of arrangement a.
func (a Arrangement) Bytes() int {
	return a.Lanes() * a.ElemBytes()
}

// elemName is the Go and (in lower case) GNU name of one lane: "S".
func (a Arrangement) elemName() string {
	switch a.ElemBytes() {
	case 1:
		return "B"
	case 2:
		return "H"
	case 4:
		return "S"
	case 8:
		return "D"
	}
	return "?"
}

// q returns the Q bit of a: 1 for a full 128-bit register.
func (a Arrangement) q() uint32 {
	if a.Bytes() == 16 {
		return 1
	}
	return 0
}

// fpSize returns the sz bit of a floating-point arrangement: 1 for float64
// lanes.
func (a Arrangement) fpSize() uint32 {
	if a == D2 {
		return 1
	}
	return 0
}

// sizeCode returns the size field of an integer arrangement: log2 of its
// lane size in bytes.
func (a Arrangement) sizeCode() uint32 {
	return uint32(bits.TrailingZeros(uint(a.ElemBytes())))
}

// widened returns the arrangement of lanes twice as wide as a's in a
// register of bytes bytes: 8H for 16B in 16, 4H for 8B in 8.
func (a Arrangement) widened(bytes int) Arrangement {
	w, _ := ArrangementOf(2*a.ElemBytes(), bytes)
	return w
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
// FMINNM and FMAXNM, which are deliberately absent). The comparisons set a
// lane to all ones where the relation holds and to zero where it does not,
// a NaN operand included; they have no scalar form here (the scalar FCMP
// sets the condition flags).
const (
	FAdd  FPOp = iota + 1 // n + m
	FSub                  // n - m
	FMul                  // n * m
	FDiv                  // n / m
	FMin                  // min(n, m)
	FMax                  // max(n, m)
	FCmEq                 // n == m
	FCmGe                 // n >= m
	FCmGt                 // n > m
)

// fpOpInfo is the "Advanced SIMD three same" encoding of an FPOp: the U bit
// (29), the high size bit a (23) and the opcode (15:11), and the Go
// mnemonic stem of its scalar form, if it has one.
var fpOpInfo = [...]struct {
	name   string // GNU mnemonic
	u, a   uint32
	opcode uint32
	scalar string
}{
	FAdd:  {"fadd", 0, 0, 0b11010, "FADD"},
	FSub:  {"fsub", 0, 1, 0b11010, "FSUB"},
	FMul:  {"fmul", 1, 0, 0b11011, "FMUL"},
	FDiv:  {"fdiv", 1, 0, 0b11111, "FDIV"},
	FMin:  {"fmin", 0, 1, 0b11110, "FMIN"},
	FMax:  {"fmax", 0, 0, 0b11110, "FMAX"},
	FCmEq: {"fcmeq", 0, 0, 0b11100, ""},
	FCmGe: {"fcmge", 1, 0, 0b11100, ""},
	FCmGt: {"fcmgt", 1, 1, 0b11100, ""},
}

func (op FPOp) check() error { return checkOp(op, FAdd, FCmGt, "floating-point operation") }

// String returns the GNU mnemonic of op ("fadd").
func (op FPOp) String() string {
	if op.check() != nil {
		return fmt.Sprintf("FPOp(%d)", uint8(op))
	}
	return fpOpInfo[op].name
}

// goScalar returns the Go mnemonic stem of the scalar form ("FADD"), or an
// error for an operation without one.
func (op FPOp) goScalar() (string, error) {
	if err := op.check(); err != nil {
		return "", err
	}
	if fpOpInfo[op].scalar == "" {
		return "", fmt.Errorf("asm: %s has no scalar form", op)
	}
	return fpOpInfo[op].scalar, nil
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
	if err := checkOperands(op.String(), arr, floatArrangements, d, n, m); err != nil {
		return 0, err
	}
	info := fpOpInfo[op]
	return threeSame(arr, info.u, info.a<<1|arr.fpSize(), info.opcode, d, n, m), nil
}

// threeSame lays out an "Advanced SIMD three same" instruction: the Q bit
// from arr, the U bit, the size field (the lane size of an integer
// operation; a and sz of a floating-point one) and the opcode.
func threeSame(arr Arrangement, u, size, opcode uint32, d, n, m VReg) uint32 {
	return arr.q()<<30 | u<<29 | 0b01110<<24 | size<<22 | 1<<21 |
		uint32(m)<<16 | opcode<<11 | 1<<10 | uint32(n)<<5 | uint32(d)
}

// FPVectorGNU returns the GNU assembler spelling of the instruction that
// EncodeFPVector encodes: "fadd v2.4s, v0.4s, v1.4s".
func FPVectorGNU(op FPOp, arr Arrangement, d, n, m VReg) string {
	t := arr.GNU()
	return fmt.Sprintf("%s v%d.%s, v%d.%s, v%d.%s", op, d, t, n, t, m, t)
}

// UnaryOp is a vector operation of one operand in the A64 class "Advanced
// SIMD two-register miscellaneous" that the Go assembler lacks.
type UnaryOp uint8

// The unary operations. FNeg and FAbs change the sign bit alone (a NaN
// keeps its payload and stays signalling); FSqrt and the roundings to an
// integral value (FRINTN ties to even, FRINTM toward -inf, FRINTP toward
// +inf, FRINTZ toward zero, FRINTA ties away from zero) process NaNs as
// arithmetic does, quieting a signalling one. Not is the bitwise
// complement, on bytes. UAddLP adds each pair of adjacent lanes, unsigned,
// into a lane of twice the width: its arrangement is that of n, and d's
// lanes, in a register of the same size, are twice as wide and half as many
// (uaddlp v1.2d, v2.4s; not from 2S, whose 1D this package does not name).
// Abs and Neg are the integer |n| and -n with two's-complement wrap-around
// (the most negative value is its own absolute value and negation).
const (
	FNeg   UnaryOp = iota + 1 // -n
	FAbs                      // |n|
	FSqrt                     // sqrt(n)
	FRintN                    // n rounded to nearest, ties to even
	FRintM                    // floor(n)
	FRintP                    // ceil(n)
	FRintZ                    // trunc(n)
	FRintA                    // n rounded to nearest, ties away from zero
	Not                       // ^n
	UAddLP                    // n[2i] + n[2i+1], widened
	Abs                       // |n|, integer
	Neg                       // -n, integer
)

// lastUnaryOp is the last UnaryOp, for range checks.
const lastUnaryOp = Neg

// unaryOpInfo is the "two-register miscellaneous" encoding of a UnaryOp:
// the U bit (29), the opcode (16:12) and the arrangements it takes. The
// size field (23:22) of a floating-point operation is its high bit a and
// the sz bit (float64); an integer operation's is its lane size (Not's is
// 00, bytes). A long operation writes lanes twice as wide as it reads, in a
// register of the same size.
var unaryOpInfo = [...]struct {
	name   string // GNU mnemonic, as disassemblers print it
	u, a   uint32
	opcode uint32
	arrs   []Arrangement
	fp     bool
	long   bool
}{
	FNeg:   {"fneg", 1, 1, 0b01111, floatArrangements, true, false},
	FAbs:   {"fabs", 0, 1, 0b01111, floatArrangements, true, false},
	FSqrt:  {"fsqrt", 1, 1, 0b11111, floatArrangements, true, false},
	FRintN: {"frintn", 0, 0, 0b11000, floatArrangements, true, false},
	FRintM: {"frintm", 0, 0, 0b11001, floatArrangements, true, false},
	FRintP: {"frintp", 0, 1, 0b11000, floatArrangements, true, false},
	FRintZ: {"frintz", 0, 1, 0b11001, floatArrangements, true, false},
	FRintA: {"frinta", 1, 0, 0b11000, floatArrangements, true, false},
	Not:    {"mvn", 1, 0, 0b00101, byteArrangements, false, false}, // NOT, printed as its alias MVN
	UAddLP: {"uaddlp", 1, 0, 0b00010, []Arrangement{B8, B16, H4, H8, S4}, false, true},
	Abs:    {"abs", 0, 0, 0b01011, allArrangements, false, false},
	Neg:    {"neg", 1, 0, 0b01011, allArrangements, false, false},
}

func (op UnaryOp) check() error { return checkOp(op, FNeg, lastUnaryOp, "unary operation") }

// String returns the GNU mnemonic of op ("fneg").
func (op UnaryOp) String() string {
	if op.check() != nil {
		return fmt.Sprintf("UnaryOp(%d)", uint8(op))
	}
	return unaryOpInfo[op].name
}

// EncodeUnary encodes the A64 "Advanced SIMD two-register miscellaneous"
// instruction d = op(n.arr) (for example fneg v1.4s, v2.4s, which is
// 0x6ea0f841):
//
//	31 30 29 28..24 23..22 21..17 16..12 11 10 9..5 4..0
//	 0  Q  U 01110   size  10000   opcode  1  0  Rn   Rd
func EncodeUnary(op UnaryOp, arr Arrangement, d, n VReg) (uint32, error) {
	if err := op.check(); err != nil {
		return 0, err
	}
	info := unaryOpInfo[op]
	if err := checkOperands(op.String(), arr, info.arrs, d, n); err != nil {
		return 0, err
	}
	size := arr.sizeCode()
	if info.fp {
		size = info.a<<1 | arr.fpSize()
	}
	enc := arr.q()<<30 | info.u<<29 | 0b01110<<24 | size<<22 | 0b10000<<17 |
		info.opcode<<12 | 0b10<<10 | uint32(n)<<5 | uint32(d)
	return enc, nil
}

// UnaryGNU returns the GNU assembler spelling of the instruction that
// EncodeUnary encodes: "fneg v1.4s, v2.4s".
func UnaryGNU(op UnaryOp, arr Arrangement, d, n VReg) string {
	dst := arr
	if op.check() == nil && unaryOpInfo[op].long {
		dst = arr.widened(arr.Bytes())
	}
	return fmt.Sprintf("%s v%d.%s, v%d.%s", op, d, dst.GNU(), n, arr.GNU())
}

// IntOp is a vector integer operation of two operands in the A64 class
// "Advanced SIMD three same" that the Go assembler lacks.
type IntOp uint8

// The integer operations, lane by lane with two's-complement wrap-around.
// The comparisons set a lane to all ones where the relation holds and to
// zero where it does not. The shifts shift each lane of n by the signed
// low byte of the same lane of m: left for a positive count, right for a
// negative one (SShl arithmetic, UShl logical), and a count of the lane's
// width or more, either way, shifts every bit out (SShl right leaves the
// sign in every bit). Mul, SMax and SMin have no 64-bit lanes; Bic works
// on bytes.
const (
	Mul  IntOp = iota + 1 // n * m, the low half of the product
	SMax                  // max(n, m), signed
	SMin                  // min(n, m), signed
	CmGt                  // n > m, signed
	CmHi                  // n > m, unsigned
	CmEq                  // n == m, bit for bit
	SShl                  // n << m, or n >> -m arithmetic
	UShl                  // n << m, or n >> -m logical
	Bic                   // n &^ m
)

// lastIntOp is the last IntOp, for range checks.
const lastIntOp = Bic

// logicalOpcode is the opcode of the bitwise "three same" operations,
// whose size field selects the operation instead of a lane size.
const logicalOpcode = 0b00011

// intOpInfo is the "three same" encoding of an IntOp: the U bit (29), the
// opcode (15:11), the arrangements it takes, and for a bitwise operation
// its size field.
var intOpInfo = [...]struct {
	name      string // GNU mnemonic
	u, opcode uint32
	arrs      []Arrangement
	logical   uint32
}{
	Mul:  {"mul", 0, 0b10011, sub64Arrangements, 0},
	SMax: {"smax", 0, 0b01100, sub64Arrangements, 0},
	SMin: {"smin", 0, 0b01101, sub64Arrangements, 0},
	CmGt: {"cmgt", 0, 0b00110, allArrangements, 0},
	CmHi: {"cmhi", 1, 0b00110, allArrangements, 0},
	CmEq: {"cmeq", 1, 0b10001, allArrangements, 0},
	SShl: {"sshl", 0, 0b01000, allArrangements, 0},
	UShl: {"ushl", 1, 0b01000, allArrangements, 0},
	Bic:  {"bic", 0, logicalOpcode, byteArrangements, 0b01},
}

func (op IntOp) check() error { return checkOp(op, Mul, lastIntOp, "integer operation") }

// String returns the GNU mnemonic of op ("mul").
func (op IntOp) String() string {
	if op.check() != nil {
		return fmt.Sprintf("IntOp(%d)", uint8(op))
	}
	return intOpInfo[op].name
}

// EncodeIntVector encodes the A64 "Advanced SIMD three same" integer
// instruction d.arr = n.arr op m.arr (for example mul v0.4s, v1.4s, v2.4s,
// which is 0x4ea29c20), in the layout of EncodeFPVector with the lane size
// in bits 23:22.
func EncodeIntVector(op IntOp, arr Arrangement, d, n, m VReg) (uint32, error) {
	if err := op.check(); err != nil {
		return 0, err
	}
	info := intOpInfo[op]
	if err := checkOperands(op.String(), arr, info.arrs, d, n, m); err != nil {
		return 0, err
	}
	size := arr.sizeCode()
	if info.opcode == logicalOpcode {
		size = info.logical
	}
	return threeSame(arr, info.u, size, info.opcode, d, n, m), nil
}

// IntVectorGNU returns the GNU assembler spelling of the instruction that
// EncodeIntVector encodes: "mul v0.4s, v1.4s, v2.4s".
func IntVectorGNU(op IntOp, arr Arrangement, d, n, m VReg) string {
	t := arr.GNU()
	return fmt.Sprintf("%s v%d.%s, v%d.%s, v%d.%s", op, d, t, n, t, m, t)
}

// longArrangements are the sources of the long multiplications: the low
// halves of registers, whose products fill a whole one.
var longArrangements = []Arrangement{B8, H4, S2}

// EncodeUMLAL encodes the A64 "Advanced SIMD three different" instruction
// umlal d, n.arr, m.arr: d += n * m, the unsigned lanes of n and m (arr is
// 8B, 4H or 2S, the low halves) multiplied into products of twice their
// width, each added to a lane of d (for example umlal v0.2d, v1.2s, v2.2s,
// which is 0x2ea28020):
//
//	31 30 29 28..24 23..22 21 20..16 15..12 11 10 9..5 4..0
//	 0  Q  U 01110   size   1   Rm    opcode  0  0  Rn   Rd
func EncodeUMLAL(arr Arrangement, d, n, m VReg) (uint32, error) {
	if err := checkOperands("umlal", arr, longArrangements, d, n, m); err != nil {
		return 0, err
	}
	const u, opcode = 1, 0b1000
	enc := arr.q()<<30 | u<<29 | 0b01110<<24 | arr.sizeCode()<<22 | 1<<21 |
		uint32(m)<<16 | opcode<<12 | uint32(n)<<5 | uint32(d)
	return enc, nil
}

// UMLALGNU returns the GNU assembler spelling of the instruction that
// EncodeUMLAL encodes: "umlal v0.2d, v1.2s, v2.2s".
func UMLALGNU(arr Arrangement, d, n, m VReg) string {
	t := arr.GNU()
	return fmt.Sprintf("umlal v%d.%s, v%d.%s, v%d.%s", d, arr.widened(16).GNU(), n, t, m, t)
}
