package main

import (
	"fmt"
	"slices"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/gen/registry"
)

// x86Math is the emitter of a math op: its MathProgram, step for step, on
// AVX2 (masks in vector registers, VBLENDVPS) or AVX-512 (masks in opmask
// registers, VBLENDMPS). The fused steps need FMA3 beside AVX2.
//
// A kernel computes several vectors per iteration with their steps
// interleaved (step one of each, then step two of each, ...): a program is
// one long chain of dependent steps, and out-of-order execution alone does
// not look far enough ahead to overlap the chains of successive vectors.
// AVX2 interleaves two, as its sixteen registers hold two programs' values.
func x86Math(name string) x86Emitter {
	prog := func(k *x86Kernel) *registry.MathProgram { return registry.MathProgramOf(registry.FindOp(name), k.t) }
	// The first input stays in memory, read where a step uses it (an L1
	// load folded into the instruction), which spares a register through
	// the whole program.
	return x86Emitter{features: []string{"cpu.X86.HasFMA"}, memInput: 1,
		unroll: func(isa x86ISA, t registry.Type) int {
			return x86MathGroups(isa, registry.MathProgramOf(registry.FindOp(name), t))
		},
		compute: func(k *x86Kernel, in []x86Src, w int) Op {
			return k.mathSteps(prog(k), [][]x86Src{in}, w)[0]
		},
		computeAll: func(k *x86Kernel, ins [][]x86Src, w int) []Op { return k.mathSteps(prog(k), ins, w) },
	}
}

// x86MathGroups is the number of vectors a kernel of program p computes at
// once on isa: as many as its registers hold, up to eight; a block's steps,
// computed one vector after another, need room for one vector's and the
// values the others hold across it.
//
// AVX-512 keeps room for the constants an instruction cannot take from
// memory and for avo's allocator, which does not always find the tightest
// assignment: its counts were measured on a Zen 4 and a Xeon.
//
// AVX2 counts its sixteen registers exactly: allocation that overflows
// them gives registers 16-31, which TestAVX2KernelsStayInVEXRegisters
// rejects. Rounding the estimate down as AVX-512 does gave every AVX2
// program one vector at a time, which on a Zen 1 (family 23 model 1,
// n = 16000, ns/elem, medians of 5 in elembench -math) cost: float64 exp
// 5.6 against 4.1 for two vectors, log 11.9 against 6.3, sigmoid 9.8
// against 5.5; float32 sigmoid 3.4 against 2.4, tanh 4.1 against 3.1.
func x86MathGroups(isa x86ISA, p *registry.MathProgram) int {
	outside, blocks := p.Pressure(1)
	regs, reserve := 16, 0
	if isa.masked {
		regs, reserve = 32, 4
		if len(p.Tables) > 0 {
			regs -= 3 // a lookup's own: the index masked, a second half, a blend's mask
		}
		outside++
	}
	g := max(1, min(8, (regs-reserve)/outside))
	if isa.masked && g == 1 && 2*outside <= regs {
		// Two vectors even without the reserve, where they fit: one
		// at a time leaves the program's chain exposed. Xeon model 167,
		// ns per 16000 elements, medians of 3 interleaved runs, one
		// vector -> two: sin float32 16194 -> 14383, float64 34636 ->
		// 31762; cos 15094 -> 14099 and 34124 -> 30678; pow float32
		// 42695 -> 36505. Two -> three for tanh, log1p, expm1 and
		// ExpSub (regs-2 in place of the reserve) changed nothing.
		g = 2
	}
	for _, bp := range blocks {
		for g > 1 && (g-1)*(bp.Across+1)+bp.Inside+1 > regs-reserve {
			g--
		}
	}
	return g
}

// x86MathTables holds, per assembly file, the constant table of each
// program: every constant as a whole 64-byte vector, so that any width of
// either level reads it as a memory operand of the instruction that uses
// it and no register holds it.
var x86MathTables = map[*build.Context]map[string]Mem{}

// mathTable returns program p's constant table in k's file, adding it on
// first use.
func (k *x86Kernel) mathTable(p *registry.MathProgram) Mem {
	tables := x86MathTables[k.Context]
	if tables == nil {
		tables = map[string]Mem{}
		x86MathTables[k.Context] = tables
	}
	name := mathFuncName(p) + "consts"
	if m, ok := tables[name]; ok {
		return m
	}
	m := k.StaticGlobal(name)
	k.DataAttributes(attr.RODATA | attr.NOPTR)
	for i, c := range p.Consts() {
		for j := 0; j < 64; j += 8 {
			if p.T.Bits == 32 {
				c = c&0xFFFFFFFF | c<<32
			}
			k.AddDatum(64*i+j, U64(c))
		}
	}
	tables[name] = m
	return m
}

// mathLookup is the entries of p's table i at the indices idx (their bits
// modulo the table's length). A table of one vector register's bytes is a
// permutation with the table as its memory operand (VPERMPS, VPERMPD: they
// read the index's low bits only), one of two registers' on AVX-512 a
// two-table permutation (VPERMT2PS, VPERMT2PD), and on AVX2 sixteen
// float32 entries two permutations and a blend on the index's bit 3 (the
// sign bit once shifted); larger tables are gathers of the masked index.
// A gather's destination and mask are written first (the destination is
// read too, the mask cleared), which also keeps them in registers apart
// from the index, as the instruction requires.
func (k *x86Kernel) mathLookup(p *registry.MathProgram, i int, idx Op, w int) Op {
	entries := p.Tables[i].Entries
	name := p.TableSymbol(i)
	tables := x86MathTables[k.Context]
	m, ok := tables[name]
	if !ok {
		m = k.StaticGlobal(name)
		k.DataAttributes(attr.RODATA | attr.NOPTR)
		for j, e := range entries {
			if p.T.Bits == 32 {
				k.AddDatum(4*j, U32(e))
			} else {
				k.AddDatum(8*j, U64(e))
			}
		}
		tables[name] = m
	}
	size := len(entries) * p.T.Size()
	f32 := p.T.Bits == 32
	r := narrow(k.vec(w), w)
	switch {
	case size == w && (f32 || k.isa.masked):
		pick(p.T, k.VPERMPS, k.VPERMPD)(m, idx, r)
		return r
	case size == 2*w && k.isa.masked:
		k.VMOVUPS(m, r) // the first half, which the permutation overwrites
		pick(p.T, k.VPERMT2PS, k.VPERMT2PD)(m.Offset(w), idx, r)
		return r
	case size == 2*w && f32:
		hi := narrow(k.vec(w), w)
		k.VPERMPS(m, idx, r)
		k.VPERMPS(m.Offset(w), idx, hi)
		sel := narrow(k.vec(w), w)
		k.VPSLLD(U8(28), idx, sel)
		k.VBLENDVPS(sel, hi, r, r)
		return r
	}
	base := k.GP64()
	k.LEAQ(m, base)
	masked := narrow(k.vec(w), w)
	k.and(k.indexMask(p.T, len(entries)), idx, masked, w)
	at := Mem{Base: base, Index: masked.(reg.Register), Scale: uint8(p.T.Size())}
	cmpeq, gather := k.VPCMPEQD, k.VPGATHERDD
	if !f32 {
		cmpeq, gather = k.VPCMPEQQ, k.VPGATHERQQ
	}
	if k.isa.masked {
		gm := k.K()
		cmpeq(masked, masked, gm)
		k.VPXORD(masked, masked, r) // r written, not read: no value flows in
		gather(at, gm, r)
		return r
	}
	gm := narrow(k.vec(w), w)
	cmpeq(masked, masked, gm)
	k.VPXOR(masked, masked, r)
	gather(gm, at, r)
	return r
}

// indexMask is a vector of len - 1 in lanes of T's width, in k's file.
func (k *x86Kernel) indexMask(t registry.Type, n int) Mem {
	tables := x86MathTables[k.Context]
	name := fmt.Sprintf("tablemask%d_%d", n, t.Bits)
	if m, ok := tables[name]; ok {
		return m
	}
	m := k.StaticGlobal(name)
	k.DataAttributes(attr.RODATA | attr.NOPTR)
	c := uint64(n - 1)
	if t.Bits == 32 {
		c |= c << 32
	}
	for j := 0; j < 64; j += 8 {
		k.AddDatum(j, U64(c))
	}
	tables[name] = m
	return m
}

// mathSteps emits program p on the inputs at width w and returns the
// result's register. A constant is a memory operand where the instruction
// takes one (its last source) and is loaded otherwise; a step writes into
// the register of an argument it reads for the last time, so that the
// values of a program need few registers (avo does not spill).
func (k *x86Kernel) mathSteps(p *registry.MathProgram, ins [][]x86Src, w int) []Op {
	table := k.mathTable(p)
	last := p.LastUse()
	vals := make([][]Op, len(ins))
	for g := range ins {
		vals[g] = make([]Op, len(p.Steps))
	}
	for i := 0; i < len(p.Steps); i++ {
		bl, ok := p.BlockAt(i)
		if !ok {
			for g, in := range ins {
				k.mathStep(p, i, in, vals[g], last, table, w)
			}
			continue
		}
		// A block one vector after the other: it needs more registers
		// than the steps around it, and runs rarely.
		skip := k.mathBlockStart(p, bl, ins, vals, last, table, w)
		for g, in := range ins {
			for j := bl.Start; j < bl.End; j++ {
				if slices.Contains(bl.Outs, j) {
					k.mathBlockOut(p, j, in, vals[g], table, w)
				} else {
					k.mathStep(p, j, in, vals[g], last, table, w)
				}
			}
		}
		k.Label(skip)
		i = bl.End - 1
	}
	out := make([]Op, len(ins))
	for g, in := range ins {
		out[g] = k.mathValue(p, p.Out, in, vals[g], table, w, true)
	}
	return out
}

// x86MathBlocks numbers the blocks' labels, unique in every function.
var x86MathBlocks int

// mathBlockStart gives the results of block bl their registers, holding
// the values of before the block, and branches past the block when no
// lane of any vector is in its mask; it returns the label to place after
// it.
func (k *x86Kernel) mathBlockStart(p *registry.MathProgram, bl registry.MathBlock, ins [][]x86Src, vals [][]Op, last []int, table Mem, w int) string {
	x86MathBlocks++
	skip := fmt.Sprintf("mathblock%d", x86MathBlocks)
	kmask := k.isa.masked && w == 64
	var any Op
	for g, in := range ins {
		for _, o := range bl.Outs {
			if fb := p.Steps[o].Args[2]; ownsBefore(p, bl, o, last) {
				vals[g][o] = vals[g][fb] // read here for the last time: its register serves
				continue
			}
			r := narrow(k.vec(w), w)
			k.VMOVUPS(k.mathValue(p, p.Steps[o].Args[2], in, vals[g], table, w, true), r)
			vals[g][o] = r
		}
		m := vals[g][bl.Cond]
		switch {
		case g == 0:
			any = m
		case kmask:
			t := k.K()
			k.KORW(any, m, t)
			any = t
		default:
			t := narrow(k.vec(w), w)
			k.or(m, any, t, w)
			any = t
		}
	}
	if kmask {
		k.KORTESTW(any, any)
	} else {
		k.VPTEST(any, any)
	}
	k.JZ(LabelRef(skip))
	return skip
}

// ownsBefore reports whether block result o may take the register of its
// value of before: one computed, read by o for the last time and by no
// other result of the block.
func ownsBefore(p *registry.MathProgram, bl registry.MathBlock, o int, last []int) bool {
	fb := p.Steps[o].Args[2]
	if !p.Computed(fb) || last[fb] != o {
		return false
	}
	for _, other := range bl.Outs {
		if other != o && p.Steps[other].Args[2] == fb {
			return false
		}
	}
	return true
}

// mathBlockOut emits a block's result i: its value in the block where the
// block's mask is set, into the register that holds the value of before.
func (k *x86Kernel) mathBlockOut(p *registry.MathProgram, i int, in []x86Src, vals []Op, table Mem, w int) {
	a := p.Steps[i].Args
	r := vals[i]
	src := func(x int) Op { return k.mathValue(p, x, in, vals, table, w, false) }
	switch {
	case k.isa.masked && w == 64:
		k.mathInst(p, table, w, k.VBLENDMPS, k.VBLENDMPD, k.VBLENDMPS_BCST, k.VBLENDMPD_BCST)(src(a[1]), r, src(a[0]), r)
	case p.T.Bits == 32:
		k.VBLENDVPS(src(a[0]), src(a[1]), r, r)
	default:
		k.VBLENDVPD(src(a[0]), src(a[1]), r, r)
	}
}

// mathValue is step a's value: in a register if reg, else possibly a
// memory operand.
func (k *x86Kernel) mathValue(p *registry.MathProgram, a int, in []x86Src, vals []Op, table Mem, w int, reg bool) Op {
	switch s := p.Steps[a]; s.Op {
	case registry.MConst:
		m := table.Offset(64 * p.ConstIndex(a))
		if !reg {
			return m
		}
		r := narrow(k.vec(w), w)
		switch {
		case w < 64:
			k.VMOVUPS(m, r)
		case p.T.Bits == 32:
			k.VBROADCASTSS(m, r)
		default:
			k.VBROADCASTSD(m, r)
		}
		return r
	case registry.MIn:
		if !reg {
			return in[s.Imm].v
		}
		return k.reg(in[s.Imm], w)
	}
	return vals[a]
}

// mathInst is the instruction that takes the f32 or f64 form by p's type,
// or, in a 64-byte vector with an operand from the constant table, the
// form that broadcasts it from its first 4 or 8 bytes: the linker aligns
// the table to 32 bytes only, and a 64-byte load across two cache lines
// costs two (log10 ran at half log2's speed for its table's address).
func (k *x86Kernel) mathInst(p *registry.MathProgram, table Mem, w int, f32, f64, f32b, f64b func(...Op)) func(...Op) {
	return func(ops ...Op) {
		if w == 64 && slices.ContainsFunc(ops, func(o Op) bool { m, ok := o.(Mem); return ok && m.Symbol == table.Symbol }) {
			pick(p.T, f32b, f64b)(ops...)
			return
		}
		pick(p.T, f32, f64)(ops...)
	}
}

// mathMove copies v (a register, or memory: a constant broadcast) into
// r.
func (k *x86Kernel) mathMove(p *registry.MathProgram, table Mem, w int, v, r Op) {
	k.mathInst(p, table, w, k.VMOVUPS, k.VMOVUPD, k.VBROADCASTSS, k.VBROADCASTSD)(v, r)
}

// mathBits is mathInst of a bitwise op (VPAND.. on AVX2, the D or Q form
// of AVX-512).
func (k *x86Kernel) mathBits(p *registry.MathProgram, table Mem, w int, op registry.MathOp) func(...Op) {
	type forms struct {
		avx2         func(x, y, r Op)
		d, q, db, qb func(...Op)
	}
	f := map[registry.MathOp]forms{
		registry.MAnd: {k.VPAND, k.VPANDD, k.VPANDQ, k.VPANDD_BCST, k.VPANDQ_BCST},
		registry.MOr:  {k.VPOR, k.VPORD, k.VPORQ, k.VPORD_BCST, k.VPORQ_BCST},
		registry.MXor: {k.VPXOR, k.VPXORD, k.VPXORQ, k.VPXORD_BCST, k.VPXORQ_BCST},
	}[op]
	if w < 64 {
		return func(ops ...Op) { f.avx2(ops[0], ops[1], ops[2]) }
	}
	return k.mathInst(p, table, w, f.d, f.q, f.db, f.qb)
}

// mathStep emits step i of program p for one vector, whose values are vals.
func (k *x86Kernel) mathStep(p *registry.MathProgram, i int, in []x86Src, vals []Op, last []int, table Mem, w int) {
	f32 := p.T.Bits == 32
	kmask := k.isa.masked && w == 64 // comparisons into opmask registers
	isConst := func(a int) bool { return p.Steps[a].Op == registry.MConst }
	dies := func(a int) bool { return p.Computed(a) && last[a] == i } // its register is free to write
	src := func(a int) Op { return k.mathValue(p, a, in, vals, table, w, false) }
	reg := func(a int) Op { return k.mathValue(p, a, in, vals, table, w, true) }
	ps := func(f32op, f64op func(...Op)) func(...Op) { return pick(p.T, f32op, f64op) }
	ib := func(f32op, f64op, f32b, f64b func(...Op)) func(...Op) {
		return k.mathInst(p, table, w, f32op, f64op, f32b, f64b)
	}
	s := p.Steps[i]
	if s.Op == registry.MIn || s.Op == registry.MConst {
		return
	}
	// dst is a register for the result: that of an argument computed
	// by the program and read here for the last time, or a new one.
	dst := func(mask bool) Op {
		for _, a := range s.Args {
			if dies(a) && (p.Steps[a].Op.Result() == registry.LaneMask) == mask {
				return vals[a]
			}
		}
		if mask && kmask {
			return k.K()
		}
		return narrow(k.vec(w), w)
	}
	a := s.Args
	var r Op
	switch s.Op {
	case registry.MAdd, registry.MMul, registry.MMin, registry.MMax, registry.MSub, registry.MDiv:
		inst := map[registry.MathOp]func(...Op){
			registry.MAdd: ib(k.VADDPS, k.VADDPD, k.VADDPS_BCST, k.VADDPD_BCST),
			registry.MSub: ib(k.VSUBPS, k.VSUBPD, k.VSUBPS_BCST, k.VSUBPD_BCST),
			registry.MMul: ib(k.VMULPS, k.VMULPD, k.VMULPS_BCST, k.VMULPD_BCST),
			registry.MDiv: ib(k.VDIVPS, k.VDIVPD, k.VDIVPS_BCST, k.VDIVPD_BCST),
			registry.MMin: ib(k.VMINPS, k.VMINPD, k.VMINPS_BCST, k.VMINPD_BCST),
			registry.MMax: ib(k.VMAXPS, k.VMAXPD, k.VMAXPS_BCST, k.VMAXPD_BCST),
		}[s.Op]
		x, y := a[0], a[1]
		if isConst(x) && (s.Op == registry.MAdd || s.Op == registry.MMul) {
			x, y = y, x
		}
		r = dst(false)
		inst(src(y), reg(x), r)
	case registry.MFMA, registry.MFNMA:
		r = k.mathFMA(p, table, s, vals, dies, isConst, src, reg, w)
	case registry.MIAdd, registry.MISub:
		r = dst(false)
		if s.Op == registry.MIAdd {
			x, y := a[0], a[1]
			if isConst(x) {
				x, y = y, x
			}
			ib(k.VPADDD, k.VPADDQ, k.VPADDD_BCST, k.VPADDQ_BCST)(src(y), reg(x), r)
		} else {
			ib(k.VPSUBD, k.VPSUBQ, k.VPSUBD_BCST, k.VPSUBQ_BCST)(src(a[1]), reg(a[0]), r)
		}
	case registry.MAnd, registry.MOr, registry.MXor:
		x, y := a[0], a[1]
		if isConst(x) {
			x, y = y, x
		}
		r = dst(false)
		k.mathBits(p, table, w, s.Op)(src(y), reg(x), r)
	case registry.MShl, registry.MShr:
		inst := ps(k.VPSLLD, k.VPSLLQ)
		if s.Op == registry.MShr {
			inst = ps(k.VPSRLD, k.VPSRLQ)
		}
		r = dst(false)
		inst(U8(uint8(s.Imm)), reg(a[0]), r)
	case registry.MSqrt:
		r = dst(false)
		ib(k.VSQRTPS, k.VSQRTPD, k.VSQRTPS_BCST, k.VSQRTPD_BCST)(src(a[0]), r)
	case registry.MLt, registry.MNLt, registry.MEq, registry.MNaN:
		// LT_OQ, NLT_UQ, EQ_OQ, UNORD_Q: none signals on a quiet NaN.
		pred := map[registry.MathOp]uint8{registry.MLt: 0x11, registry.MNLt: 0x15, registry.MEq: 0x00, registry.MNaN: 0x03}[s.Op]
		x, y := a[0], a[0]
		if len(a) > 1 {
			y = a[1]
		}
		if isConst(x) && !isConst(y) {
			// c < y as y > c (GT_OQ, NGT_UQ): the constant from memory.
			x, y = y, x
			pred = map[uint8]uint8{0x11: 0x1E, 0x15: 0x1A, 0x00: 0x00}[pred]
		}
		if kmask {
			r = k.K()
		} else {
			r = dst(false)
		}
		ib(k.VCMPPS, k.VCMPPD, k.VCMPPS_BCST, k.VCMPPD_BCST)(U8(pred), src(y), reg(x), r)
	case registry.MMaskAnd, registry.MMaskOr:
		r = dst(true)
		switch {
		case kmask && s.Op == registry.MMaskAnd:
			k.KANDW(src(a[0]), src(a[1]), r)
		case kmask:
			k.KORW(src(a[0]), src(a[1]), r)
		case s.Op == registry.MMaskAnd:
			k.and(src(a[0]), src(a[1]), r, w)
		default:
			k.or(src(a[0]), src(a[1]), r, w)
		}
	case registry.MSelect:
		if kmask {
			// avo takes VBLENDMPS's destination for an input too (as
			// with merge masking): it gets the false operand first, so
			// that no register looks live before it is written.
			if dies(a[2]) {
				r = vals[a[2]]
			} else {
				r = narrow(k.vec(w), w)
				k.VMOVUPS(reg(a[2]), r)
			}
			ib(k.VBLENDMPS, k.VBLENDMPD, k.VBLENDMPS_BCST, k.VBLENDMPD_BCST)(src(a[1]), r, src(a[0]), r)
			break
		}
		r = dst(false)
		if f32 {
			k.VBLENDVPS(src(a[0]), src(a[1]), reg(a[2]), r)
		} else {
			k.VBLENDVPD(src(a[0]), src(a[1]), reg(a[2]), r)
		}
	case registry.MTable:
		r = k.mathLookup(p, int(s.Imm), reg(a[0]), w)
	default:
		panic(fmt.Sprintf("gen: %s: no amd64 form of step %d", p.Name, i))
	}
	vals[i] = r
}

// mathFMA emits the fused step s (x*y + z, or z - x*y) into a register it
// may overwrite, choosing among the three forms of the instruction (231:
// z is the destination; 213 and 132: a factor is) one that needs no copy:
// the destination is an argument read here for the last time, else a new
// register into which a constant argument is loaded (a load costs what a
// copy does, and leaves the other arguments where they are), else a copy
// of z. A constant is otherwise the memory operand, which is the form's
// last source.
func (k *x86Kernel) mathFMA(p *registry.MathProgram, table Mem, s registry.MathStep, vals []Op, dies, isConst func(int) bool,
	src, reg func(int) Op, w int) Op {
	ib := func(f32op, f64op, f32b, f64b func(...Op)) func(...Op) {
		return k.mathInst(p, table, w, f32op, f64op, f32b, f64b)
	}
	f231 := ib(k.VFMADD231PS, k.VFMADD231PD, k.VFMADD231PS_BCST, k.VFMADD231PD_BCST)
	f213 := ib(k.VFMADD213PS, k.VFMADD213PD, k.VFMADD213PS_BCST, k.VFMADD213PD_BCST)
	f132 := ib(k.VFMADD132PS, k.VFMADD132PD, k.VFMADD132PS_BCST, k.VFMADD132PD_BCST)
	if s.Op == registry.MFNMA {
		f231 = ib(k.VFNMADD231PS, k.VFNMADD231PD, k.VFNMADD231PS_BCST, k.VFNMADD231PD_BCST)
		f213 = ib(k.VFNMADD213PS, k.VFNMADD213PD, k.VFNMADD213PS_BCST, k.VFNMADD213PD_BCST)
		f132 = ib(k.VFNMADD132PS, k.VFNMADD132PD, k.VFNMADD132PS_BCST, k.VFNMADD132PD_BCST)
	}
	x, y, z := s.Args[0], s.Args[1], s.Args[2]
	if isConst(x) || dies(y) && !dies(x) {
		x, y = y, x // the factor to overwrite first, a constant second
	}
	// onFactor emits dst = dst*y + z with dst holding x's value: y or z
	// from memory.
	onFactor := func(dst Op) Op {
		if isConst(y) && !isConst(z) {
			f132(src(y), reg(z), dst)
		} else {
			f213(src(z), reg(y), dst)
		}
		return dst
	}
	switch {
	case dies(z):
		f231(src(y), reg(x), vals[z])
		return vals[z]
	case dies(x):
		return onFactor(vals[x])
	case isConst(x) || isConst(y):
		if !isConst(x) {
			x, y = y, x
		}
		dst := narrow(k.vec(w), w)
		k.mathMove(p, table, w, src(x), dst)
		return onFactor(dst)
	}
	dst := narrow(k.vec(w), w)
	k.mathMove(p, table, w, src(z), dst)
	f231(src(y), reg(x), dst)
	return dst
}
