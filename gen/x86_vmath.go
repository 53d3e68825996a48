package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

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
// does not always find the tightest assignment), up to four.
func x86MathGroups(isa x86ISA, p *registry.MathProgram) int {
	regs := 16
	if isa.masked {
		regs = 32
	}
	return max(1, min(4, (regs-4)/(p.MaxLive()+1)))
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
	for i := range p.Steps {
		for g, in := range ins {
			k.mathStep(p, i, in, vals[g], last, table, w)
		}
	}
	out := make([]Op, len(ins))
	for g, in := range ins {
		out[g] = k.mathValue(p, p.Out, in, vals[g], table, w, true)
	}
	return out
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
	default:
		panic(fmt.Sprintf("gen: %s: no amd64 form of step %d", p.Name, i))
	}
	vals[i] = r
}
