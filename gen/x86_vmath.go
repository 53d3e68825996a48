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
	return x86Emitter{features: []string{"cpu.X86.HasFMA"},
		unroll: func(isa x86ISA) int {
			return x86MathGroups(isa, registry.MathProgramOf(registry.FindOp(name), registry.Float64))
		},
		compute: func(k *x86Kernel, in []x86Src, w int) Op {
			return k.mathSteps(prog(k), [][]x86Src{in}, w)[0]
		},
		computeAll: func(k *x86Kernel, ins [][]x86Src, w int) []Op { return k.mathSteps(prog(k), ins, w) },
	}
}

// x86MathGroups is the number of vectors a kernel of program p computes at
// once on isa: as many as its registers hold (with room for the constants
// an instruction cannot take from memory and for avo's allocator, which
// does not always find the tightest assignment), up to four; a block's
// steps, computed one vector after another, need room for one vector's
// and the values the others hold across it.
func x86MathGroups(isa x86ISA, p *registry.MathProgram) int {
	regs := 16
	if isa.masked {
		regs = 32
	}
	outside, blocks := p.Pressure()
	g := max(1, min(4, (regs-4)/(outside+1)))
	for _, bp := range blocks {
		for g > 1 && (g-1)*(bp.Across+1)+bp.Inside+1 > regs-4 {
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

// mathLookup gathers the entries of p's table i at the indices idx. The
// gather's destination and mask are written first (the destination is
// read too, the mask cleared), which also keeps them in registers apart
// from the index, as the instruction requires.
func (k *x86Kernel) mathLookup(p *registry.MathProgram, i int, idx Op, w int) Op {
	name := p.TableSymbol(i)
	tables := x86MathTables[k.Context]
	m, ok := tables[name]
	if !ok {
		m = k.StaticGlobal(name)
		k.DataAttributes(attr.RODATA | attr.NOPTR)
		for j, e := range p.Tables[i].Entries {
			if p.T.Bits == 32 {
				k.AddDatum(4*j, U32(e))
			} else {
				k.AddDatum(8*j, U64(e))
			}
		}
		tables[name] = m
	}
	base := k.GP64()
	k.LEAQ(m, base)
	at := Mem{Base: base, Index: idx.(reg.Register), Scale: uint8(p.T.Size())}
	r := narrow(k.vec(w), w)
	cmpeq, gather := k.VPCMPEQD, k.VPGATHERDD
	if p.T.Bits == 64 {
		cmpeq, gather = k.VPCMPEQQ, k.VPGATHERQQ
	}
	if k.isa.masked {
		mask := k.K()
		cmpeq(idx, idx, mask)
		k.VPXORD(idx, idx, r)
		gather(at, mask, r)
		return r
	}
	mask := narrow(k.vec(w), w)
	cmpeq(idx, idx, mask)
	k.VPXOR(idx, idx, r)
	gather(mask, at, r)
	return r
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
		pick(p.T, k.VBLENDMPS, k.VBLENDMPD)(src(a[1]), r, src(a[0]), r)
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
		k.VMOVUPS(m, r)
		return r
	case registry.MIn:
		return k.reg(in[s.Imm], w)
	}
	return vals[a]
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
			registry.MAdd: ps(k.VADDPS, k.VADDPD), registry.MSub: ps(k.VSUBPS, k.VSUBPD),
			registry.MMul: ps(k.VMULPS, k.VMULPD), registry.MDiv: ps(k.VDIVPS, k.VDIVPD),
			registry.MMin: ps(k.VMINPS, k.VMINPD), registry.MMax: ps(k.VMAXPS, k.VMAXPD),
		}[s.Op]
		x, y := a[0], a[1]
		if isConst(x) && (s.Op == registry.MAdd || s.Op == registry.MMul) {
			x, y = y, x
		}
		r = dst(false)
		inst(src(y), reg(x), r)
	case registry.MFMA, registry.MFNMA:
		x, y, z := a[0], a[1], a[2]
		if isConst(x) {
			x, y = y, x
		}
		f213 := ps(k.VFMADD213PS, k.VFMADD213PD)
		f231 := ps(k.VFMADD231PS, k.VFMADD231PD)
		if s.Op == registry.MFNMA {
			f213 = ps(k.VFNMADD213PS, k.VFNMADD213PD)
			f231 = ps(k.VFNMADD231PS, k.VFNMADD231PD)
		}
		switch {
		case isConst(z) || isConst(x):
			// r = x; r = r*y + z, z from memory.
			if dies(x) && x != y {
				r = vals[x]
			} else {
				r = narrow(k.vec(w), w)
				k.VMOVUPS(reg(x), r)
			}
			f213(src(z), reg(y), r)
		default:
			// r = z; r = x*y + r, y from memory.
			r = narrow(k.vec(w), w)
			if dies(z) && z != x && z != y {
				r = vals[z]
			} else {
				k.VMOVUPS(reg(z), r)
			}
			f231(src(y), reg(x), r)
		}
	case registry.MIAdd, registry.MISub:
		r = dst(false)
		if s.Op == registry.MIAdd {
			x, y := a[0], a[1]
			if isConst(x) {
				x, y = y, x
			}
			ps(k.VPADDD, k.VPADDQ)(src(y), reg(x), r)
		} else {
			ps(k.VPSUBD, k.VPSUBQ)(src(a[1]), reg(a[0]), r)
		}
	case registry.MAnd, registry.MOr, registry.MXor:
		x, y := a[0], a[1]
		if isConst(x) {
			x, y = y, x
		}
		r = dst(false)
		map[registry.MathOp]func(x, y, r Op, w int){registry.MAnd: k.and, registry.MOr: k.or, registry.MXor: k.xor}[s.Op](src(y), reg(x), r, w)
	case registry.MShl, registry.MShr:
		inst := ps(k.VPSLLD, k.VPSLLQ)
		if s.Op == registry.MShr {
			inst = ps(k.VPSRLD, k.VPSRLQ)
		}
		r = dst(false)
		inst(U8(uint8(s.Imm)), reg(a[0]), r)
	case registry.MSqrt:
		r = dst(false)
		ps(k.VSQRTPS, k.VSQRTPD)(src(a[0]), r)
	case registry.MLt, registry.MEq, registry.MNaN:
		pred := map[registry.MathOp]uint8{registry.MLt: 0x11, registry.MEq: 0x00, registry.MNaN: 0x03}[s.Op]
		y := a[0]
		if len(a) > 1 {
			y = a[1]
		}
		if kmask {
			r = k.K()
		} else {
			r = dst(false)
		}
		ps(k.VCMPPS, k.VCMPPD)(U8(pred), src(y), reg(a[0]), r)
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
			ps(k.VBLENDMPS, k.VBLENDMPD)(src(a[1]), r, src(a[0]), r)
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
