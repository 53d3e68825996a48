package registry

import (
	"fmt"
	"math"
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
	MAndNot                // a &^ b
	MShl                   // a << Imm
	MShr                   // a >> Imm, logical
	MLt                    // a < b, false for NaN
	MLe                    // a <= b, false for NaN
	MEq                    // a == b, false for NaN
	MNaN                   // a is NaN
	MMaskAnd               // masks a && b
	MMaskOr                // masks a || b
	MSelect                // a where mask m, else b (Args m, a, b)
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
	}
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
func (b *mathBuilder) eq(x, y int) int      { return b.step(MEq, 0, x, y) }
func (b *mathBuilder) isNaN(x int) int      { return b.step(MNaN, 0, x) }
func (b *mathBuilder) sel(m, x, y int) int  { return b.step(MSelect, 0, m, x, y) }

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
	"exp": expProgram,
	"log": logProgram,
}

// MathProgramOf returns op o's program on t.
func MathProgramOf(o Op, t Type) *MathProgram {
	return MathPrograms[o.Name](t)
}

// expProgram: e^x = 2^n * e^r, n = round(x/ln 2), r = x - n*ln 2 in two
// parts (Cody and Waite: x - n*ln2hi is exact, r its sum with -n*ln2lo
// rounded, and c what that rounding lost), e^r = 1 + r + r^2*q(r) with q
// the Taylor polynomial of (e^r - 1 - r)/r^2 to degree 8 (float32) or 13
// (float64), whose truncation error is far below an ulp on |r| <=
// ln(2)/2. The sum is formed as s = 1 + r plus, in one small term, the
// rounding error of s (exact: 1 - s + r), r^2*q and c*(1+r), so that only
// the last addition rounds at the result's scale: about half an ulp. n comes from adding 1.5*2^mant, which rounds
// to an integer, ties to even, and leaves it in the sum's low bits. 2^n is
// applied as two factors 2^floor(n/2) and 2^(n - floor(n/2)), both normal
// over the whole clamped range, so that the first product is exact and the
// second rounds once: subnormal results are correctly rounded values of
// the computed e^r * 2^n, and the clamp's ends overflow to +Inf and
// underflow to +0 on their own.
func expProgram(t Type) *MathProgram {
	b := newMath("exp", t, 1)
	fb := bitsOf(t)
	x := b.in(0)
	shifter := math.Ldexp(1.5, fb.mant)
	var lo, hi, ln2hi, ln2lo float64
	deg := 13
	if t.Bits == 32 {
		// e^-105 < 2^-150, half the least subnormal; e^89 > the largest
		// float32.
		lo, hi = -105, 89
		ln2hi, ln2lo = float64(math.Float32frombits(0x3F317200)), float64(math.Float32frombits(0x35BFBE8E))
		deg = 8
	} else {
		lo, hi = -746, 710
		ln2hi, ln2lo = math.Float64frombits(0x3FE62E42FEE00000), math.Float64frombits(0x3DEA39EF35793C76)
	}
	xc := b.min(b.max(x, b.f(lo)), b.f(hi))
	k := b.fma(xc, b.c(math.Log2E), b.f(shifter))
	n := b.sub(k, b.f(shifter))
	r1 := b.fnma(n, b.f(ln2hi), xc)
	r := b.fnma(n, b.f(ln2lo), r1)
	c := b.fnma(n, b.f(ln2lo), b.sub(r1, r))
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
	p := b.add(s, b.add(b.add(b.sub(one, s), r), t1))
	// k's bits are those of 1.5*2^mant plus n; u = n + 2*(bias+1) > 0.
	off := uint64(2 * (fb.bias + 1))
	u := b.isub(k, b.bits(b.constBits(shifter)-off))
	h := b.shr(u, 1)
	s1 := b.shl(b.isub(h, b.bits(1)), fb.mant)
	s2 := b.shl(b.isub(b.isub(u, h), b.bits(1)), fb.mant)
	return b.finish(b.mul(b.mul(p, s1), s2))
}

// constBits is the bits of x in T.
func (b *mathBuilder) constBits(x float64) uint64 {
	return b.p.Steps[b.f(x)].Imm
}

// logProgram is fdlibm's log (Go's math.Log), branch-free: x = 2^k * m
// with m in [sqrt(2)/2, sqrt(2)) found by integer steps on the bits (a
// subnormal x scaled into the normal range first), f = m - 1, s =
// f/(2+f), and log(1+f) = f - hfsq + s*(hfsq+R) with R a polynomial in
// s^2; k*ln2 enters in two parts, the high one in a final fused step
// (exact product, one rounding).
func logProgram(t Type) *MathProgram {
	b := newMath("log", t, 1)
	fb := bitsOf(t)
	x := b.in(0)
	var scale, sqrtHalf uint64
	var lg []float64
	var ln2hi, ln2lo float64
	if t.Bits == 32 {
		scale, sqrtHalf = 25, 0x3F3504F3
		lg = []float64{0.66666662693, 0.40000972152, 0.28498786688, 0.24279078841}
		ln2hi, ln2lo = float64(math.Float32frombits(0x3F317180)), float64(math.Float32frombits(0x3717F7D1))
	} else {
		scale, sqrtHalf = 54, 0x3FE6A09E667F3BCD
		lg = []float64{6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
			2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01}
		ln2hi, ln2lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	}
	minNormal := math.Ldexp(1, 1-fb.bias)
	sub := b.lt(x, b.f(minNormal))
	xs := b.sel(sub, b.mul(x, b.f(math.Ldexp(1, int(scale)))), x)
	one := b.constBits(1)
	ix := b.iadd(xs, b.bits(one-sqrtHalf))
	// The biased exponent of 2^k, as a float: its bits under those of
	// 2^mant, minus 2^mant + bias (+ scale for a scaled subnormal).
	magic := math.Ldexp(1, fb.mant)
	e := b.or(b.shr(ix, fb.mant), b.bits(b.constBits(magic)))
	k := b.sub(e, b.sel(sub, b.f(magic+float64(fb.bias)+float64(scale)), b.f(magic+float64(fb.bias))))
	m := b.iadd(b.and(ix, b.bits(fb.mantMask)), b.bits(sqrtHalf))
	f := b.sub(m, b.f(1))
	s := b.div(f, b.add(b.f(2), f))
	z := b.mul(s, s)
	w := b.mul(z, z)
	var odd, even []float64 // lg1, lg3, ... and lg2, lg4, ...
	for i, c := range lg {
		if i%2 == 0 {
			odd = append(odd, c)
		} else {
			even = append(even, c)
		}
	}
	t1 := b.mul(w, b.horner(w, even...))
	t2 := b.mul(z, b.horner(w, odd...))
	R := b.add(t2, t1)
	hfsq := b.mul(b.mul(b.f(0.5), f), f)
	inner := b.fma(s, b.add(hfsq, R), b.mul(k, b.c(ln2lo)))
	r := b.fma(k, b.c(ln2hi), b.sub(f, b.sub(hfsq, inner)))
	zero := b.f(0)
	r = b.sel(b.eq(x, zero), b.f(-fb.inf), r)
	r = b.sel(b.lt(x, zero), b.bits(fb.defNaN), r)
	r = b.sel(b.eq(x, b.f(fb.inf)), b.f(fb.inf), r)
	return b.finish(r)
}

// mathOp is the row of a unary math function: its generic kernels call
// the Go function emitted from its program (exp32, exp64).
func mathOp(name, named, formula, doc string) Op {
	return Op{Name: name, Formula: formula, Family: Unary, Types: Floats, Math: true, Compute: true, Named: named, Doc: doc,
		Expr:   "{T}(" + name + "64(float64({a})))",
		Expr32: "{T}(" + name + "32(float32({a})))"}
}

// MaxLive is the largest number of values (inputs and results of steps,
// constants not counted) live at once: what a back end's registers must
// hold per vector in flight.
func (p *MathProgram) MaxLive() int {
	last := p.LastUse()
	best := 0
	for i := range p.Steps {
		live := 0
		for j := 0; j <= i; j++ {
			if p.Steps[j].Op != MConst && last[j] >= i {
				live++
			}
		}
		best = max(best, live)
	}
	return best
}
