package main

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/simdkit/elem/gen/arm64enc"
	"github.com/simdkit/elem/gen/registry"
)

// The general registers of the math kernels: the address of one constant
// (which VLD1R then replicates into a vector register) or of a table, and
// a table index, then its entry.
const (
	rConst = arm64enc.R19
	rIndex = arm64enc.R20
)

// neonMath is the emitter of a math op: its MathProgram, step for step.
// Values live in the scratch registers V16..V28, allocated as steps define
// them and freed after their last use; a constant is loaded from the
// program's table where it is used.
func neonMath(name string) neonEmitter {
	return neonEmitter{compute: func(k *neonKernel, arr arm64enc.Arrangement, out arm64enc.VReg, in []neonValue) arm64enc.VReg {
		p := registry.MathProgramOf(registry.FindOp(name), k.t)
		k.mathSteps(p, arr, out, in)
		return out
	}}
}

// neonMathTables writes the constant tables of family f's math ops, which
// the kernels address by name.
func neonMathTables(p *arm64enc.Program, f *registry.Family) {
	written := map[string]bool{}
	for _, o := range registry.OpsOf(f) {
		if !o.Math {
			continue
		}
		for _, t := range o.Types {
			mp := registry.MathProgramOf(o, t)
			p.StaticData(mathFuncName(mp)+"consts", t.Size(), mp.Consts())
			for i, tab := range mp.Tables {
				if name := mp.TableSymbol(i); !written[name] {
					written[name] = true
					p.StaticData(name, t.Size(), tab.Entries)
				}
			}
		}
	}
}

// mathSteps emits program p on the inputs, leaving the result in out.
func (k *neonKernel) mathSteps(p *registry.MathProgram, arr arm64enc.Arrangement, out arm64enc.VReg, in []neonValue) {
	// The scratch registers, and those of the inputs the kernel does not
	// have (inputs' values are in V0..V11, four each).
	var free []arm64enc.VReg
	for v := vTemp; v <= arm64enc.V28; v++ {
		free = append(free, v)
	}
	for v := arm64enc.VReg(4 * len(in)); v < vOut; v++ {
		free = append(free, v)
	}
	alloc := func() arm64enc.VReg {
		if len(free) == 0 {
			panic(fmt.Sprintf("gen: %s: the NEON scratch registers ran out", p.Name))
		}
		v := free[0]
		free = free[1:]
		return v
	}
	vals := make([]arm64enc.VReg, len(p.Steps))
	last := p.LastUse()
	table := mathFuncName(p) + "consts"
	b16 := bytesOf(arr)
	// value is step x's register, a constant loaded into a new one
	// (listed in temps).
	value := func(x int, temps *[]arm64enc.VReg) arm64enc.VReg {
		switch xs := p.Steps[x]; xs.Op {
		case registry.MConst:
			v := alloc()
			k.p.MOVDAddr(table, p.ConstIndex(x)*p.T.Size(), rConst)
			k.p.VLD1R(rConst, arr, v)
			*temps = append(*temps, v)
			return v
		case registry.MIn:
			return in[xs.Imm].reg
		}
		return vals[x]
	}
	var block registry.MathBlock
	skip := ""
	for i, s := range p.Steps {
		if bl, ok := p.BlockAt(i); ok {
			// The results take the values of before; the block is
			// skipped when no lane is in its mask.
			block = bl
			neonMathBlocks++
			skip = fmt.Sprintf("mathblock%d", neonMathBlocks)
			for _, o := range bl.Outs {
				if ownsBefore(p, bl, o, last) {
					vals[o] = vals[p.Steps[o].Args[2]]
					continue
				}
				var temps []arm64enc.VReg
				vals[o] = alloc()
				k.p.VMOV(vals[o], value(p.Steps[o].Args[2], &temps))
				free = append(free, temps...)
			}
			t := alloc()
			k.p.UMaxV(t, vals[bl.Cond])
			k.p.FMOVToGP(arm64enc.Single, rIndex, t)
			free = append(free, t)
			k.p.CBZ(rIndex, skip)
		}
		if s.Op == registry.MIn || s.Op == registry.MConst {
			continue
		}
		if skip != "" && slices.Contains(block.Outs, i) {
			var temps []arm64enc.VReg
			t := alloc()
			k.p.VMOV(t, vals[s.Args[0]])
			k.p.Vec(arm64enc.Bsl, b16, t, value(s.Args[1], &temps), vals[i])
			k.p.VMOV(vals[i], t)
			free = append(free, t)
			free = append(free, temps...)
			if i == block.End-1 {
				k.p.Label(skip)
				skip = ""
			}
			k.freeLast(p, i, last, vals, &free)
			continue
		}
		var a, temps []arm64enc.VReg
		for _, x := range s.Args {
			a = append(a, value(x, &temps))
		}
		d := alloc()
		switch s.Op {
		case registry.MAdd, registry.MSub, registry.MMul, registry.MDiv, registry.MMin, registry.MMax:
			op := map[registry.MathOp]arm64enc.FPOp{registry.MAdd: arm64enc.FAdd, registry.MSub: arm64enc.FSub,
				registry.MMul: arm64enc.FMul, registry.MDiv: arm64enc.FDiv, registry.MMin: arm64enc.FMin, registry.MMax: arm64enc.FMax}[s.Op]
			k.p.FVector(op, arr, d, a[0], a[1])
		case registry.MFMA, registry.MFNMA:
			k.p.VMOV(d, a[2])
			op := arm64enc.Fmla
			if s.Op == registry.MFNMA {
				op = arm64enc.Fmls
			}
			k.p.Vec(op, arr, d, a[0], a[1])
		case registry.MIAdd:
			k.p.Vec(arm64enc.Add, arr, d, a[0], a[1])
		case registry.MISub:
			k.p.Vec(arm64enc.Sub, arr, d, a[0], a[1])
		case registry.MAnd, registry.MMaskAnd:
			k.p.Vec(arm64enc.And, b16, d, a[0], a[1])
		case registry.MOr, registry.MMaskOr:
			k.p.Vec(arm64enc.Orr, b16, d, a[0], a[1])
		case registry.MXor:
			k.p.Vec(arm64enc.Eor, b16, d, a[0], a[1])
		case registry.MShl:
			k.p.VSHL(arr, d, a[0], int(s.Imm))
		case registry.MShr:
			k.p.VUSHR(arr, d, a[0], int(s.Imm))
		case registry.MLt:
			k.p.FVector(arm64enc.FCmGt, arr, d, a[1], a[0])
		case registry.MNLt:
			k.p.FVector(arm64enc.FCmGt, arr, d, a[1], a[0])
			k.p.VUnary(arm64enc.Not, b16, d, d)
		case registry.MEq:
			k.p.FVector(arm64enc.FCmEq, arr, d, a[0], a[1])
		case registry.MSqrt:
			k.p.VUnary(arm64enc.FSqrt, arr, d, a[0])
		case registry.MNaN:
			k.p.FVector(arm64enc.FCmEq, arr, d, a[0], a[0])
			k.p.VUnary(arm64enc.Not, b16, d, d)
		case registry.MTable:
			// No gather: lane by lane, through a general register, the
			// index masked to the table's length.
			k.p.MOVDAddr(p.TableSymbol(int(s.Imm)), 0, rConst)
			for lane := range 16 / p.T.Size() {
				k.p.VMOVToGP(arr, rIndex, a[0], lane)
				k.p.ANDMask(rIndex, rIndex, bits.TrailingZeros(uint(len(p.Tables[s.Imm].Entries))))
				k.p.LoadIndexed(p.T.Size(), rIndex, rConst, rIndex)
				k.p.VMOVFromGP(arr, d, lane, rIndex)
			}
		case registry.MSelect:
			k.p.VMOV(d, a[0])
			k.p.Vec(arm64enc.Bsl, b16, d, a[1], a[2])
		default:
			panic(fmt.Sprintf("gen: %s: no NEON form of step %d", p.Name, i))
		}
		vals[i] = d
		free = append(free, temps...)
		k.freeLast(p, i, last, vals, &free)
	}
	k.p.VMOV(out, vals[p.Out])
}

// neonMathBlocks numbers the blocks' labels, unique in every file.
var neonMathBlocks int

// freeLast frees the registers of the values step i reads for the last
// time.
func (k *neonKernel) freeLast(p *registry.MathProgram, i int, last []int, vals []arm64enc.VReg, free *[]arm64enc.VReg) {
	s := p.Steps[i]
	for j, x := range s.Args {
		if p.Computed(x) && last[x] == i && !slices.Contains(s.Args[:j], x) && vals[x] != vals[i] {
			*free = append(*free, vals[x])
		}
	}
}
