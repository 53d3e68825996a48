package registry

import (
	"fmt"
	"math"
	"math/big"
	"slices"
)

// A MathProgram is the algorithm of one math function (exp, log, ...) on one
// float type: a straight-line sequence of lane-wise steps that every back
// end translates step for step. The generic Go function, the AVX2 and
// AVX-512 sequences and the NEON one are all emitted from the same steps, so
// they round the same values in the same order and agree bit for bit by
// construction (the tests check it too). There are no branches: special
// inputs and the ends of the range are handled by selects, so a vector of
// lanes takes one path, and every NaN that leaves a program is made by a
// select (the NaN an instruction makes differs between instruction sets).
type MathProgram struct {
	Name   string // the op's name: "exp"
	T      Type   // float32 or float64
	Inputs int
	Steps  []MathStep
	Out    int // the step whose value is the result
	// Tables are the lookup tables the MTable steps read, by Imm.
	Tables []MathTable
	// Blocks are the runs of steps that only some lanes need.
	Blocks []MathBlock
}

// A MathBlock is a run of steps, Start to End (exclusive), whose results
// only the lanes of mask Cond use: a back end may skip it when no lane of
// a vector is in Cond (the generic code skips it per element). Its
// results are its last steps, Outs, each a select (Cond, a value of the
// block, a value from before it); no later step reads any other of its
// steps, so that a skipped block leaves the values from before it.
type MathBlock struct {
	Cond       int
	Start, End int
	Outs       []int
}

// BlockAt returns the block that starts at step i, if any.
func (p *MathProgram) BlockAt(i int) (MathBlock, bool) {
	for _, bl := range p.Blocks {
		if bl.Start == i {
			return bl, true
		}
	}
	return MathBlock{}, false
}

// MathTable is a lookup table: its entries, T's width each, and a name
// that back ends give the symbol (with T's width: "rempio2_0_64"), shared
// by the programs that use the same table.
type MathTable struct {
	Name    string
	Entries []uint64
}

// MathStep is one step: an operation on the values of earlier steps.
type MathStep struct {
	Op   MathOp
	Args []int  // earlier steps
	Imm  uint64 // a constant's bits, a shift's count, an input's index
}

// MathOp is the operation of a step. Values are lanes of T's width, read as
// a float or as its bits (an unsigned integer, wrapping), or masks (one
// bool per lane) made by comparisons.
type MathOp uint8

// The operations. The float ones round once, as IEEE 754 says; Min and Max
// are only ever given operands that are not NaN and not both zero where the
// lane's result is used (instruction sets differ there).
const (
	MIn      MathOp = iota // input Imm
	MConst                 // the lane bits Imm
	MAdd                   // a + b
	MSub                   // a - b
	MMul                   // a * b
	MDiv                   // a / b
	MFMA                   // a*b + c, rounded once
	MFNMA                  // c - a*b, rounded once
	MMin                   // min(a, b)
	MMax                   // max(a, b)
	MIAdd                  // a + b on the bits
	MISub                  // a - b on the bits
	MAnd                   // a & b
	MOr                    // a | b
	MXor                   // a ^ b
	MShl                   // a << Imm
	MShr                   // a >> Imm, logical
	MLt                    // a < b, false for NaN
	MNLt                   // !(a < b): true for NaN
	MEq                    // a == b, false for NaN
	MNaN                   // a is NaN
	MMaskAnd               // masks a && b
	MMaskOr                // masks a || b
	MSelect                // a where mask m, else b (Args m, a, b)
	MSqrt                  // the square root of a, correctly rounded
	MTable                 // entry a mod len (a's bits) of table Imm, whose length is a power of two
)

// Lane is what a value holds.
type Lane uint8

// The kinds of value.
const (
	LaneFloat Lane = iota
	LaneBits
	LaneMask
)

// Result is the kind of value op makes (MSelect: its second argument's).
func (op MathOp) Result() Lane {
	switch {
	case op == MConst:
		return LaneBits
	case op >= MIAdd && op <= MShr:
		return LaneBits
	case op >= MLt && op <= MMaskOr:
		return LaneMask
	case op == MTable:
		return LaneBits
	}
	// MSqrt, like the arithmetic, is a float.
	return LaneFloat
}

// Lanes lists the kind of every step's value: a constant is bits unless a
// float operation reads it (then both views are the same bits), a select
// takes its second argument's kind.
func (p *MathProgram) Lanes() []Lane {
	ls := make([]Lane, len(p.Steps))
	for i, s := range p.Steps {
		ls[i] = s.Op.Result()
		if s.Op == MSelect {
			ls[i] = ls[s.Args[1]]
		}
	}
	return ls
}

// LastUse lists, for every step, the last step that reads its value (the
// step itself if none does; the result is read at the end).
func (p *MathProgram) LastUse() []int {
	last := make([]int, len(p.Steps))
	for i, s := range p.Steps {
		last[i] = i
		for _, a := range s.Args {
			last[a] = i
		}
	}
	last[p.Out] = len(p.Steps)
	return last
}

// Computed reports whether step a's value is computed by the program (not
// an input or a constant): a back end may write over its register once
// it is read for the last time.
func (p *MathProgram) Computed(a int) bool {
	op := p.Steps[a].Op
	return op != MIn && op != MConst
}

// Consts lists the distinct constants of the program, in order of
// appearance: a back end keeps them in a table.
func (p *MathProgram) Consts() []uint64 {
	var cs []uint64
	for _, s := range p.Steps {
		if s.Op == MConst {
			cs = append(cs, s.Imm)
		}
	}
	return cs
}

// ConstIndex is the position of step i's constant in Consts.
func (p *MathProgram) ConstIndex(i int) int {
	n := 0
	for _, s := range p.Steps[:i] {
		if s.Op == MConst {
			n++
		}
	}
	return n
}

// mathBuilder writes a program.
type mathBuilder struct {
	p      *MathProgram
	consts map[uint64]int
}

func newMath(name string, t Type, inputs int) *mathBuilder {
	b := &mathBuilder{p: &MathProgram{Name: name, T: t, Inputs: inputs}, consts: map[uint64]int{}}
	for i := range inputs {
		b.step(MIn, uint64(i))
	}
	return b
}

func (b *mathBuilder) step(op MathOp, imm uint64, args ...int) int {
	b.p.Steps = append(b.p.Steps, MathStep{Op: op, Args: args, Imm: imm})
	return len(b.p.Steps) - 1
}

// bits is the constant with lane bits v (one step per distinct constant).
func (b *mathBuilder) bits(v uint64) int {
	if i, ok := b.consts[v]; ok {
		return i
	}
	i := b.step(MConst, v)
	b.consts[v] = i
	return i
}

// f is the constant x rounded to T; it must be exact there.
func (b *mathBuilder) f(x float64) int {
	if b.p.T.Bits == 32 {
		if float64(float32(x)) != x {
			panic(fmt.Sprintf("registry: %s: constant %v is not a float32", b.p.Name, x))
		}
		return b.bits(uint64(math.Float32bits(float32(x))))
	}
	return b.bits(math.Float64bits(x))
}

// c is the constant x rounded to T: a coefficient.
func (b *mathBuilder) c(x float64) int {
	if b.p.T.Bits == 32 {
		return b.f(float64(float32(x)))
	}
	return b.f(x)
}

func (b *mathBuilder) in(i int) int         { return i }
func (b *mathBuilder) add(x, y int) int     { return b.step(MAdd, 0, x, y) }
func (b *mathBuilder) sub(x, y int) int     { return b.step(MSub, 0, x, y) }
func (b *mathBuilder) mul(x, y int) int     { return b.step(MMul, 0, x, y) }
func (b *mathBuilder) div(x, y int) int     { return b.step(MDiv, 0, x, y) }
func (b *mathBuilder) fma(x, y, z int) int  { return b.step(MFMA, 0, x, y, z) }
func (b *mathBuilder) fnma(x, y, z int) int { return b.step(MFNMA, 0, x, y, z) }
func (b *mathBuilder) min(x, y int) int     { return b.step(MMin, 0, x, y) }
func (b *mathBuilder) max(x, y int) int     { return b.step(MMax, 0, x, y) }
func (b *mathBuilder) iadd(x, y int) int    { return b.step(MIAdd, 0, x, y) }
func (b *mathBuilder) isub(x, y int) int    { return b.step(MISub, 0, x, y) }
func (b *mathBuilder) and(x, y int) int     { return b.step(MAnd, 0, x, y) }
func (b *mathBuilder) or(x, y int) int      { return b.step(MOr, 0, x, y) }
func (b *mathBuilder) shl(x, n int) int     { return b.step(MShl, uint64(n), x) }
func (b *mathBuilder) shr(x, n int) int     { return b.step(MShr, uint64(n), x) }
func (b *mathBuilder) lt(x, y int) int      { return b.step(MLt, 0, x, y) }
func (b *mathBuilder) nlt(x, y int) int     { return b.step(MNLt, 0, x, y) }
func (b *mathBuilder) eq(x, y int) int      { return b.step(MEq, 0, x, y) }
func (b *mathBuilder) isNaN(x int) int      { return b.step(MNaN, 0, x) }
func (b *mathBuilder) sel(m, x, y int) int  { return b.step(MSelect, 0, m, x, y) }
func (b *mathBuilder) sqrt(x int) int       { return b.step(MSqrt, 0, x) }
func (b *mathBuilder) or2(m, n int) int     { return b.step(MMaskOr, 0, m, n) }
func (b *mathBuilder) and2(m, n int) int    { return b.step(MMaskAnd, 0, m, n) }

// block adds the steps body makes as a block that only the lanes of cond
// need: its results are body's values where cond, else the values of
// before (a step each).
func (b *mathBuilder) block(cond int, before []int, body func() []int) []int {
	start := len(b.p.Steps)
	vals := body()
	outs := make([]int, len(vals))
	for i, v := range vals {
		outs[i] = b.sel(cond, v, before[i])
	}
	bl := MathBlock{Cond: cond, Start: start, End: len(b.p.Steps), Outs: outs}
	b.p.Blocks = append(b.p.Blocks, bl)
	return outs
}

// prune removes the steps whose values nothing reads (a helper may make
// more than a program uses), renumbering the rest, and blocks left empty.
func (p *MathProgram) prune() {
	live := make([]bool, len(p.Steps))
	live[p.Out] = true
	for i := len(p.Steps) - 1; i >= 0; i-- {
		if live[i] || p.Steps[i].Op == MIn {
			live[i] = true
			for _, a := range p.Steps[i].Args {
				live[a] = true
			}
		}
	}
	at := make([]int, len(p.Steps))
	var steps []MathStep
	for i, st := range p.Steps {
		at[i] = len(steps)
		if live[i] {
			args := make([]int, len(st.Args))
			for j, a := range st.Args {
				args[j] = at[a]
			}
			st.Args = args
			steps = append(steps, st)
		}
	}
	var blocks []MathBlock
	for _, bl := range p.Blocks {
		var outs []int
		for _, o := range bl.Outs {
			if live[o] {
				outs = append(outs, at[o])
			}
		}
		if len(outs) == 0 {
			continue
		}
		end := at[bl.End-1]
		if live[bl.End-1] {
			end++
		}
		blocks = append(blocks, MathBlock{Cond: at[bl.Cond], Start: at[bl.Start], End: end, Outs: outs})
	}
	p.Steps, p.Blocks, p.Out = steps, blocks, at[p.Out]
}

// checkBlocks panics if a step after a block reads a value computed in it
// other than its results.
func (p *MathProgram) checkBlocks() {
	for _, bl := range p.Blocks {
		for i := bl.End; i < len(p.Steps); i++ {
			for _, a := range p.Steps[i].Args {
				if a >= bl.Start && a < bl.End && p.Computed(a) && !slices.Contains(bl.Outs, a) {
					panic(fmt.Sprintf("registry: %s: step %d reads step %d inside a block", p.Name, i, a))
				}
			}
		}
	}
}

// table is the entry at index idx (its bits modulo the length, a power of
// two) of the lookup table name with entries. A table of 64 bytes or 128
// is a register permutation on AVX-512 (and of 32 or 64 bytes on AVX2),
// which takes the index's low bits as they are.
func (b *mathBuilder) table(name string, idx int, entries []uint64) int {
	if n := len(entries); n&(n-1) != 0 {
		panic(fmt.Sprintf("registry: %s: table %s of %d entries", b.p.Name, name, n))
	}
	b.p.Tables = append(b.p.Tables, MathTable{Name: name, Entries: entries})
	return b.step(MTable, uint64(len(b.p.Tables)-1), idx)
}

// TableSymbol is the name of table i of p: its name and T's width.
func (p *MathProgram) TableSymbol(i int) string {
	return fmt.Sprintf("%s_%d", p.Tables[i].Name, p.T.Bits)
}

// horner evaluates c[0] + x*(c[1] + x*(c[2] + ...)) with fused steps.
func (b *mathBuilder) horner(x int, c ...float64) int {
	p := b.c(c[len(c)-1])
	for i := len(c) - 2; i >= 0; i-- {
		p = b.fma(p, x, b.c(c[i]))
	}
	return p
}

// floatBits describes T's encoding for the programs.
type floatBits struct {
	mant     int    // fraction bits: 23, 52
	bias     int    // 127, 1023
	quiet    uint64 // the quiet bit of a NaN
	defNaN   uint64 // the NaN of a domain error: Go's math.NaN() in T
	mantMask uint64
	inf      float64
}

func bitsOf(t Type) floatBits {
	if t.Bits == 32 {
		return floatBits{mant: 23, bias: 127, quiet: 1 << 22, defNaN: 0x7FC00000, mantMask: 1<<23 - 1, inf: math.Inf(1)}
	}
	return floatBits{mant: 52, bias: 1023, quiet: 1 << 51, defNaN: 0x7FF8000000000001, mantMask: 1<<52 - 1, inf: math.Inf(1)}
}

// finish returns the program with result r, a NaN input passed through
// quieted (its sign and payload kept; the same bits everywhere, where an
// instruction's own NaN propagation would differ between sets).
func (b *mathBuilder) finish(r int) *MathProgram {
	x := b.in(0)
	fb := bitsOf(b.p.T)
	b.p.Out = b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)
	return b.p
}

// MathPrograms are the programs of the math ops, by op name.
var MathPrograms = map[string]func(t Type) *MathProgram{
	"exp":     expProgram,
	"exp2":    exp2Program,
	"expm1":   expm1Program,
	"log":     logProgramOf("log"),
	"log2":    logProgramOf("log2"),
	"log10":   logProgramOf("log10"),
	"log1p":   log1pProgram,
	"sigmoid": sigmoidProgram,
	"tanh":    tanhProgram,
	"erf":     erfProgram,
	"hypot":   hypotProgram,
	"atan2":   atan2Program,
	"sin":     sinCosProgram(false),
	"cos":     sinCosProgram(true),
	"pow":     powProgram,
	"expsub":  expSubProgram,
}

// mathProgramCache holds every program built, by op name and type: the
// back ends ask for one per kernel and vector.
var mathProgramCache = map[string]*MathProgram{}

// MathProgramOf returns op o's program on t.
func MathProgramOf(o Op, t Type) *MathProgram {
	key := o.Name + t.Short
	if p, ok := mathProgramCache[key]; ok {
		return p
	}
	p := MathPrograms[o.Name](t)
	p.prune()
	p.checkBlocks()
	mathProgramCache[key] = p
	return p
}

// expParts are e^x (or 2^x) as (s + lo) * s1 * s2: s = 1 + r rounded,
// lo the small rest, s1 and s2 powers of two.
type expParts struct{ s, lo, s1, s2 int }

// expCore reduces x for e^x (2^x if base2): x = n*ln2 + r with n =
// round(x/ln 2) and r in two parts (Cody and Waite: x - n*ln2hi is exact,
// r its sum with -n*ln2lo rounded, and c what that rounding lost; for 2^x,
// r = x - n exactly, times ln 2 in two parts), then e^r = 1 + r +
// r^2*q(r) with q the Taylor polynomial of (e^r - 1 - r)/r^2 to degree 8
// (float32) or 13 (float64), whose truncation error is far below an ulp on
// |r| <= ln(2)/2. The sum is s = 1 + r plus, in one small term lo, the
// rounding error of s (exact: 1 - s + r), r^2*q and c*(1+r), so that only
// the last addition rounds at the result's scale. n comes from adding
// 1.5*2^mant, which rounds to an integer, ties to even, and leaves it in the
// sum's low bits. 2^n is applied as two factors 2^floor(n/2) and 2^(n -
// floor(n/2)), both normal over the whole clamped range, so that a first
// product is exact and the second rounds once: subnormal results are
// correctly rounded values of the computed sum, and the clamp's ends
// overflow to +Inf and underflow to +0 on their own.
func (b *mathBuilder) expCore(x int, base2 bool) expParts { return b.expCoreLo(x, -1, base2) }

// expCoreLo is expCore of x + lo for a small lo (e only, lo >= 0 a step).
func (b *mathBuilder) expCoreLo(x, lo int, base2 bool) expParts {
	fb := bitsOf(b.p.T)
	shifter := math.Ldexp(1.5, fb.mant)
	var ln2hi, ln2lo float64
	deg := 13
	// exp's bounds: e^-105 < 2^-150, half the least subnormal; e^89 > the
	// largest float32 (float64: -746, 710).
	bounds := expBounds[expKey(b.p.T, false)]
	xlo, xhi := bounds[2], bounds[1]
	if b.p.T.Bits == 32 {
		ln2hi, ln2lo = float64(math.Float32frombits(0x3F317200)), float64(math.Float32frombits(0x35BFBE8E))
		deg = 8
	} else {
		ln2hi, ln2lo = math.Float64frombits(0x3FE62E42FEE00000), math.Float64frombits(0x3DEA39EF35793C76)
	}
	if base2 {
		xlo, xhi = math.Round(xlo*math.Log2E), math.Round(xhi*math.Log2E)
	}
	xc := b.min(b.max(x, b.f(xlo)), b.f(xhi))
	var k, r, c int
	if base2 {
		k = b.add(xc, b.f(shifter))
		n := b.sub(k, b.f(shifter))
		rn := b.sub(xc, n)
		ln2, ln2l := splitConst(b.p.T, bigLn2())
		r = b.mul(rn, b.f(ln2))
		c = b.fma(rn, b.f(ln2l), b.fma(rn, b.f(ln2), b.neg(r)))
	} else {
		k = b.fma(xc, b.c(math.Log2E), b.f(shifter))
		n := b.sub(k, b.f(shifter))
		r1 := b.fnma(n, b.f(ln2hi), xc)
		r = b.fnma(n, b.f(ln2lo), r1)
		c = b.fnma(n, b.f(ln2lo), b.sub(r1, r))
		if lo >= 0 {
			// lo joins r, not c: c*(1+r) stands for c*e^r only while c is
			// far below an ulp of r, and lo may be 2^-44 (pow).
			var e int
			r, e = b.twoSum(r, lo)
			c = b.add(c, e)
		}
	}
	coef := make([]float64, deg-1)
	fact := 2.0
	for i := range coef {
		coef[i] = 1 / fact
		fact *= float64(i + 3)
	}
	q := b.horner(r, coef...)
	t1 := b.fma(q, b.mul(r, r), b.fma(c, r, c))
	one := b.f(1)
	s := b.add(one, r)
	rest := b.add(b.add(b.sub(one, s), r), t1)
	// k's bits are those of 1.5*2^mant plus n; u = n + 2*(bias+1) > 0.
	off := uint64(2 * (fb.bias + 1))
	u := b.isub(k, b.bits(b.constBits(shifter)-off))
	h := b.shr(u, 1)
	s1 := b.shl(b.isub(h, b.bits(1)), fb.mant)
	s2 := b.shl(b.isub(b.isub(u, h), b.bits(1)), fb.mant)
	return expParts{s: s, lo: rest, s1: s1, s2: s2}
}

// perType is f32 for float32 and f64 for float64: a program's constant
// that depends on T's precision.
func perType(t Type, f32, f64 float64) float64 {
	if t.Bits == 64 {
		return f64
	}
	return f32
}

// scale is v * s1 * s2, rounded once.
func (b *mathBuilder) scale(v int, e expParts) int { return b.mul(b.mul(v, e.s1), e.s2) }

// abs is |x|, exactly: the sign bit cleared.
func (b *mathBuilder) abs(x int) int { return b.and(x, b.bits(^b.signBit()&(1<<b.p.T.Bits-1))) }

// neg is -x, exactly.
func (b *mathBuilder) neg(x int) int { return b.xor(x, b.bits(b.signBit())) }

func (b *mathBuilder) xor(x, y int) int { return b.step(MXor, 0, x, y) }

func (b *mathBuilder) signBit() uint64 { return 1 << (b.p.T.Bits - 1) }

// twoSum is x + y rounded and its rounding error, exactly (Knuth).
func (b *mathBuilder) twoSum(x, y int) (int, int) {
	s := b.add(x, y)
	bb := b.sub(s, x)
	aa := b.sub(s, bb)
	return s, b.add(b.sub(x, aa), b.sub(y, bb))
}

// fastTwoSum is x + y rounded and its rounding error, exactly, for |x| >=
// |y| (Dekker), lo (if any, >= 0) added to the error.
func (b *mathBuilder) fastTwoSum(x, y, lo int) (int, int) {
	s := b.add(x, y)
	e := b.add(b.sub(x, s), y)
	if lo < 0 {
		return s, e
	}
	return s, b.add(e, lo)
}

// divParts is the quotient y0 of the high parts by way of q = 1/dh, and
// the rest r = nh - y0*dh (exact, fused) + nl - y0*dl, which r*q corrects.
func (b *mathBuilder) divParts(nh, nl, dh, dl int) (y0, r, q int) {
	q = b.div(b.f(1), dh)
	y0 = b.mul(nh, q)
	rem := b.fnma(y0, dh, nh)
	return y0, b.fnma(y0, dl, b.add(rem, nl)), q
}

// expm1HL is e^x - 1 as hi + lo, lo small: p = s + lo rounded (its error
// kept), 2^n*p - 1 summed exactly (its rounding error kept), the errors
// scaled and added, so that a small result keeps its relative accuracy.
func (b *mathBuilder) expm1HL(x int) (int, int) {
	e := b.expCore(x, false)
	p, pe := b.fastTwoSum(e.s, e.lo, -1)
	h, err := b.twoSum(b.scale(p, e), b.f(-1))
	return h, b.add(err, b.scale(pe, e))
}

// expm1Program is e^x - 1 (see expm1HL), relatively accurate near 0.
// From -sigmoidOne down, where e^x is under half an ulp of -1 and the
// result -1, x is taken as -sigmoidOne: e^x would be subnormal further
// down, which costs Intel CPUs a microcode assist per step (expm1 over
// [-97.5, -80] ran 5.7 ns per element on a Xeon model 167, 0.57 over
// [-10, 10]).
func expm1Program(t Type) *MathProgram {
	b := newMath("expm1", t, 1)
	x := b.in(0)
	h, l := b.expm1HL(b.max(x, b.f(-sigmoidOne(t))))
	inf := b.f(bitsOf(t).inf)
	r := b.sel(b.eq(h, inf), inf, b.add(h, l)) // Inf - 1 has no rounding error
	return b.finish(b.sel(b.eq(x, b.f(0)), x, r))
}

// constBits is the bits of x in T.
func (b *mathBuilder) constBits(x float64) uint64 {
	return b.p.Steps[b.f(x)].Imm
}

// logReduce finds x = 2^k * (1+f) with 1+f in [sqrt(2)/2, sqrt(2)) by
// integer steps on the bits, a subnormal x scaled into the normal range
// first. k is a float (the biased exponent's bits under those of 2^mant,
// minus 2^mant + bias, + scale for a scaled subnormal).
func (b *mathBuilder) logReduce(x int) (k, f int) {
	fb := bitsOf(b.p.T)
	scale, sqrtHalf := uint64(25), uint64(0x3F3504F3)
	if b.p.T.Bits == 64 {
		scale, sqrtHalf = 54, 0x3FE6A09E667F3BCD
	}
	sub := b.lt(x, b.f(math.Ldexp(1, 1-fb.bias)))
	xs := b.sel(sub, b.mul(x, b.f(math.Ldexp(1, int(scale)))), x)
	ix := b.iadd(xs, b.bits(b.constBits(1)-sqrtHalf))
	magic := math.Ldexp(1, fb.mant)
	e := b.or(b.shr(ix, fb.mant), b.bits(b.constBits(magic)))
	k = b.sub(e, b.sel(sub, b.f(magic+float64(fb.bias)+float64(scale)), b.f(magic+float64(fb.bias))))
	m := b.iadd(b.and(ix, b.bits(fb.mantMask)), b.bits(sqrtHalf))
	return k, b.sub(m, b.f(1))
}

// mathBinaryOp is the row of a math function of two operands.
func mathBinaryOp(name, named, formula, doc string) Op {
	return Op{Name: name, Formula: formula, Family: Binary, Types: Floats, Math: true, Compute: true, Named: named, Doc: doc,
		Expr:   "{T}(" + name + "64(float64({a}), float64({b})))",
		Expr32: "{T}(" + name + "32(float32({a}), float32({b})))"}
}

// mathOp is the row of a unary math function: its generic kernels call
// the Go function emitted from its program (exp32, exp64).
func mathOp(name, named, formula, doc string) Op {
	return Op{Name: name, Formula: formula, Family: Unary, Types: Floats, Math: true, Compute: true, Named: named, Doc: doc,
		Expr:   "{T}(" + name + "64(float64({a})))",
		Expr32: "{T}(" + name + "32(float32({a})))"}
}

// Pressure is what a back end needs to know to interleave the steps of
// several vectors: the most values live at once outside the blocks, and,
// for a block computed one vector after another, the most live inside it
// plus, for every other vector, the values live across it (a vector's
// values from before a block that it still reads during or after it).
// The first inMemory inputs hold no register (a back end reads them from
// memory where they are used).
func (p *MathProgram) Pressure(inMemory int) (outside int, block []BlockPressure) {
	last := p.LastUse()
	holds := func(j int) bool {
		s := p.Steps[j]
		return s.Op != MConst && !(s.Op == MIn && int(s.Imm) < inMemory)
	}
	live := func(i int) int {
		n := 0
		for j := 0; j <= i; j++ {
			if holds(j) && last[j] >= i {
				n++
			}
		}
		return n
	}
	inBlock := make([]bool, len(p.Steps))
	for _, bl := range p.Blocks {
		bp := BlockPressure{}
		for i := bl.Start; i < bl.End; i++ {
			inBlock[i] = true
			bp.Inside = max(bp.Inside, live(i))
		}
		for j := 0; j < bl.Start; j++ {
			if holds(j) && last[j] >= bl.Start {
				bp.Across++
			}
		}
		block = append(block, bp)
	}
	for i := range p.Steps {
		if !inBlock[i] {
			outside = max(outside, live(i))
		}
	}
	return outside, block
}

// BlockPressure is the register need of a block (see Pressure).
type BlockPressure struct{ Inside, Across int }

// erfProgram is fdlibm's erf (Go's math.Erf), branch-free: every lane
// computes the three approximations and selects its own. On [0, 0.84375)
// x + x*P(x^2)/Q(x^2) (one fused step, which also rounds subnormal x
// right); on [0.84375, 1.25) erx + P(s)/Q(s), s = |x| - 1; on [1.25, 6)
// 1 - e^(-z^2 - 0.5625 + (z-x)(z+x) + R/S)/|x| with z = |x| cut to half
// its bits (z^2 exact) and the rational function's coefficients selected
// per lane (two sets, split at 1/0.35); the exponential takes its argument
// in two parts (see expCoreLo); 1 from 6 on. The sign is x's.
func erfProgram(t Type) *MathProgram {
	if t.Bits == 32 {
		return erf32Program(t)
	}
	b := newMath("erf", t, 1)
	x := b.in(0)
	sign := b.bits(b.signBit())
	ax := b.abs(x)
	one := b.f(1)
	// |x| cut to [1, 6] for [1.25, 6), whose results are not used
	// outside: the exponential of a larger |x| would be subnormal, and a
	// subnormal product costs Intel CPUs a microcode assist, as would the
	// square of a tiny one.
	ac := b.min(b.max(ax, one), b.f(6))
	z := b.mul(ac, ac)
	// The two intervals below 1.25 are blocks, which vectors with no lane
	// in them skip (each costs a division). [1.25, 6), where most
	// arguments fall, is not: a block runs one vector after another, and
	// its long steps would lose the interleaving of vectors.
	// [1.25, 6)
	s2 := b.div(one, z)
	far := b.lt(b.c(1/0.35), ac)
	R := b.hornerSel(s2, far,
		[]float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00},
		[]float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02, 0})
	S := b.hornerSel(s2, far,
		[]float64{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02},
		[]float64{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01, 0})
	cut := uint64(0xFFFFE000)
	if t.Bits == 64 {
		cut = 0xFFFFFFFF00000000
	}
	zc := b.and(ac, b.bits(cut))
	hi := b.fnma(zc, zc, b.f(-0.5625)) // -z^2 - 0.5625, exact
	lo := b.fma(b.sub(zc, ac), b.add(zc, ac), b.div(R, S))
	arg := b.add(hi, lo)
	e := b.expCoreLo(arg, b.add(b.sub(hi, arg), lo), false)
	erfc := b.div(b.scale(b.add(e.s, e.lo), e), ac)
	r := b.sel(b.lt(ax, b.f(6)), b.sub(one, erfc), one)
	// [0.84375, 1.25)
	r = b.block(b.lt(ax, b.f(1.25)), []int{r}, func() []int {
		s1 := b.sub(ax, one)
		pa := b.horner(s1, -2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03)
		qa := b.horner(s1, 1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02)
		return []int{b.add(b.c(8.45062911510467529297e-01), b.div(pa, qa))}
	})[0]
	// [0, 0.84375)
	r = b.block(b.lt(ax, b.f(0.84375)), []int{r}, func() []int {
		// x^2 of |x| at least 2^-28: below, P and Q are P(0) and Q(0)
		// all the same.
		xs := b.max(ax, b.f(0x1p-28))
		z := b.mul(xs, xs)
		pp := b.horner(z, 1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05)
		qq := b.horner(z, 1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06)
		return []int{b.fma(ax, b.div(pp, qq), ax)}
	})[0]
	return b.finish(b.or(r, b.and(x, sign)))
}

// hypotProgram is sqrt(a^2 + b^2) without overflow or underflow: the
// larger magnitude decides a power of two that brings both into a range
// where the squares are safe (exact scalings), the sum of squares is kept
// in two parts (each square's exact error by a fused step), and the square
// root is corrected by the remainder r^2 - s, exact in a fused step, then
// scaled back. +Inf if either is infinite, NaN if either is NaN and
// neither infinite.
func hypotProgram(t Type) *MathProgram {
	b := newMath("hypot", t, 2)
	p, q := b.in(0), b.in(1)
	ap, aq := b.abs(p), b.abs(q)
	big, small := b.max(ap, aq), b.min(ap, aq)
	hiAt, loAt, down, up := 50.0, -50.0, -70, 90
	if t.Bits == 64 {
		hiAt, loAt, down, up = 500, -500, -600, 600
	}
	one := b.f(1)
	isBig, isSmall := b.lt(b.f(math.Ldexp(1, int(hiAt))), big), b.lt(big, b.f(math.Ldexp(1, int(loAt))))
	k := b.sel(isBig, b.f(math.Ldexp(1, down)), b.sel(isSmall, b.f(math.Ldexp(1, up)), one))
	kinv := b.sel(isBig, b.f(math.Ldexp(1, -down)), b.sel(isSmall, b.f(math.Ldexp(1, -up)), one))
	x, y := b.mul(big, k), b.mul(small, k)
	x2, y2 := b.mul(x, x), b.mul(y, y)
	lo := b.add(b.fma(x, x, b.neg(x2)), b.fma(y, y, b.neg(y2)))
	s, sl := b.fastTwoSum(x2, y2, lo)
	r := b.sqrt(s)
	h := b.add(r, b.div(b.add(b.fnma(r, r, s), sl), b.add(r, r)))
	h = b.sel(b.eq(s, b.f(0)), b.f(0), h) // 0/0 in the correction
	res := b.mul(h, kinv)
	fb := bitsOf(t)
	inf := b.f(fb.inf)
	res = b.sel(b.isNaN(q), b.or(q, b.bits(fb.quiet)), res)
	res = b.sel(b.isNaN(p), b.or(p, b.bits(fb.quiet)), res)
	b.p.Out = b.sel(b.or2(b.eq(ap, inf), b.eq(aq, inf)), inf, res)
	return b.p
}

// divHL2 is (nh + nl) / (dh + dl) for small nl, dl as the quotient of the
// high parts and its correction (exact remainder and low parts, times
// 1/dh), not yet added: callers fold it into their own sums.
func (b *mathBuilder) divHL2(nh, nl, dh, dl int) (int, int) {
	y0, r, q := b.divParts(nh, nl, dh, dl)
	return y0, b.mul(r, q)
}

// twoSumLo is (x + y) + lo as a rounded sum and a small rest.
func (b *mathBuilder) twoSumLo(x, y, lo int) (int, int) {
	s, e := b.twoSum(x, y)
	return s, b.add(e, lo)
}

// atan2Program is the angle of (x, y): t = min(|x|,|y|)/max(|x|,|y|) as a
// quotient and its exact correction (both scaled up first when tiny), then
// Cephes's atan (Go's math.atan): t itself up to 0.66, else pi/4 +
// atan((t-1)/(t+1)), the quotient again in two parts; atan(u) = u +
// u*z*P(z)/Q(z), the correction of u weighted by 1 - u^2; then pi/2 - a
// where |y| > |x| and pi - a where x's sign is set, each sum exact with
// its small terms added to its error, and y's sign. Go's special cases by
// selects (zeros, infinities: pi/4 for two, NaN first from y).
func atan2Program(t Type) *MathProgram {
	b := newMath("atan2", t, 2)
	y, x := b.in(0), b.in(1)
	fb := bitsOf(t)
	sign := b.bits(b.signBit())
	ax, ay := b.abs(x), b.abs(y)
	inf := b.f(fb.inf)
	one := b.f(1)
	bothInf := b.and2(b.eq(ax, inf), b.eq(ay, inf))
	swap := b.lt(ax, ay)
	num := b.sel(bothInf, one, b.sel(swap, ax, ay))
	den := b.sel(bothInf, one, b.sel(swap, ay, ax))
	tinyAt, up := -100, 60
	if t.Bits == 64 {
		tinyAt, up = -900, 500
	}
	k := b.sel(b.lt(den, b.f(math.Ldexp(1, tinyAt))), b.f(math.Ldexp(1, up)), one)
	num, den = b.mul(num, k), b.mul(den, k)
	tq := b.div(num, den)
	tl := b.sel(b.eq(den, inf), b.f(0), b.div(b.fnma(tq, den, num), den))
	// u = t, or (t - 1)/(t + 1) above 0.66.
	far := b.lt(b.c(0.66), tq)
	dh, dl := b.fastTwoSum(one, tq, tl)
	qh, ql := b.divHL2(b.sub(tq, one), tl, dh, dl)
	uh, ul := b.sel(far, qh, tq), b.sel(far, ql, tl)
	z := b.mul(uh, uh)
	P := b.horner(z, -6.485021904942025371773e+01, -1.228866684490136173410e+02, -7.500855792314704667340e+01, -1.615753718733365076637e+01, -8.750608600031904122785e-01)
	Q := b.horner(z, 1.945506571482613964425e+02, 4.853903996359136964868e+02, 4.328810604912902668951e+02, 1.650270098316988542046e+02, 2.485846490142306297962e+01, 1)
	w := b.div(b.mul(z, P), Q)
	small := b.fma(uh, w, b.fnma(ul, z, ul))
	pi := newBig().Add(newBig().SetFloat64(math.Pi), newBig().SetFloat64(1.2246467991473532e-16))
	pi4h, pi4l := splitConst(t, newBig().Quo(pi, newBig().SetInt64(4)))
	pi2h, pi2l := splitConst(t, newBig().Quo(pi, newBig().SetInt64(2)))
	pih, pil := splitConst(t, pi)
	zero := b.f(0)
	ah, al := b.twoSumLo(b.sel(far, b.f(pi4h), zero), uh, b.add(b.sel(far, b.f(pi4l), zero), small))
	rh, rl := b.twoSumLo(b.f(pi2h), b.neg(ah), b.sub(b.f(pi2l), al))
	ah, al = b.sel(swap, rh, ah), b.sel(swap, rl, al)
	xneg := b.lt(b.or(one, b.and(x, sign)), zero) // x's sign bit, -0 too: ±1 with it
	ch, cl := b.twoSumLo(b.f(pih), b.neg(ah), b.sub(b.f(pil), al))
	ah, al = b.sel(xneg, ch, ah), b.sel(xneg, cl, al)
	r := b.add(ah, al)
	// y = ±0: 0, or pi where x's sign is set.
	r = b.sel(b.eq(ay, zero), b.sel(xneg, b.f(pih), zero), r)
	r = b.or(r, b.and(y, sign))
	r = b.sel(b.isNaN(x), b.or(x, b.bits(fb.quiet)), r)
	b.p.Out = b.sel(b.isNaN(y), b.or(y, b.bits(fb.quiet)), r)
	return b.p
}

// hornerSel is horner with each coefficient chosen per lane: cb where
// mask, else ca.
func (b *mathBuilder) hornerSel(x, mask int, ca, cb []float64) int {
	n := len(ca) - 1
	p := b.sel(mask, b.c(cb[n]), b.c(ca[n]))
	for i := n - 1; i >= 0; i-- {
		p = b.fma(p, x, b.sel(mask, b.c(cb[i]), b.c(ca[i])))
	}
	return p
}

// mathPrec is the precision of the exact constants, in bits.
const mathPrec = 200

func newBig() *big.Float { return new(big.Float).SetPrec(mathPrec) }

// bigLn2 is ln 2 = sum 1/(k 2^k).
func bigLn2() *big.Float {
	sum := newBig()
	for k := 1; k < mathPrec+20; k++ {
		term := newBig().SetMantExp(newBig().SetInt64(1), -k)
		sum.Add(sum, term.Quo(term, newBig().SetInt64(int64(k))))
	}
	return sum
}

// bigLn10 is ln 10 = 3 ln 2 + 2 atanh(1/9).
func bigLn10() *big.Float {
	z := newBig().Quo(newBig().SetInt64(1), newBig().SetInt64(9))
	z2 := newBig().Mul(z, z)
	sum, pow := newBig().Set(z), newBig().Set(z)
	for k := int64(3); k < 200; k += 2 {
		pow.Mul(pow, z2)
		sum.Add(sum, newBig().Quo(pow, newBig().SetInt64(k)))
	}
	sum.Mul(sum, newBig().SetInt64(2))
	return sum.Add(sum, newBig().Mul(bigLn2(), newBig().SetInt64(3)))
}

// splitConst is the exact constant c as hi + lo in T: hi = c rounded to
// T, lo = c - hi rounded.
func splitConst(t Type, c *big.Float) (float64, float64) {
	round := func(x *big.Float) float64 {
		if t.Bits == 32 {
			f, _ := x.Float32()
			return float64(f)
		}
		f, _ := x.Float64()
		return f
	}
	hi := round(c)
	return hi, round(newBig().Sub(c, newBig().SetFloat64(hi)))
}

// splitConstBits is c as hi + lo in T with hi of at most bits significant
// bits, so that hi times an integer of (mant+1-bits) bits is exact.
func splitConstBits(t Type, c *big.Float, bits int) (float64, float64) {
	f, _ := c.Float64()
	_, e := math.Frexp(f)
	hi := math.Ldexp(math.Round(math.Ldexp(f, bits-e)), e-bits)
	lo, _ := splitConst(t, newBig().Sub(c, newBig().SetFloat64(hi)))
	return hi, lo
}
