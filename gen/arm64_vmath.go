package main

import (
	"fmt"
	"slices"

	"github.com/simdkit/elem/gen/arm64enc"
	"github.com/simdkit/elem/gen/registry"
)

// The general registers of the math kernels' constant loads: the address
// of one constant, which VLD1R then replicates into a vector register.
const rConst = arm64enc.R19

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
	for _, o := range registry.OpsOf(f) {
		if !o.Math {
			continue
		}
		for _, t := range o.Types {
			mp := registry.MathProgramOf(o, t)
			p.StaticData(mathFuncName(mp)+"consts", t.Size(), mp.Consts())
		}
	}
}

// mathSteps emits program p on the inputs, leaving the result in out.
func (k *neonKernel) mathSteps(p *registry.MathProgram, arr arm64enc.Arrangement, out arm64enc.VReg, in []neonValue) {
	var free []arm64enc.VReg
	for v := vTemp; v <= arm64enc.V28; v++ {
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
	for i, s := range p.Steps {
		if s.Op == registry.MIn || s.Op == registry.MConst {
			continue
		}
		var a, temps []arm64enc.VReg
		for _, x := range s.Args {
			switch xs := p.Steps[x]; xs.Op {
			case registry.MConst:
				v := alloc()
				k.p.MOVDAddr(table, p.ConstIndex(x)*p.T.Size(), rConst)
				k.p.VLD1R(rConst, arr, v)
				a, temps = append(a, v), append(temps, v)
			case registry.MIn:
				a = append(a, in[xs.Imm].reg)
			default:
				a = append(a, vals[x])
			}
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
		case registry.MEq:
			k.p.FVector(arm64enc.FCmEq, arr, d, a[0], a[1])
		case registry.MSqrt:
			k.p.VUnary(arm64enc.FSqrt, arr, d, a[0])
		case registry.MNaN:
			k.p.FVector(arm64enc.FCmEq, arr, d, a[0], a[0])
			k.p.VUnary(arm64enc.Not, b16, d, d)
		case registry.MSelect:
			k.p.VMOV(d, a[0])
			k.p.Vec(arm64enc.Bsl, b16, d, a[1], a[2])
		default:
			panic(fmt.Sprintf("gen: %s: no NEON form of step %d", p.Name, i))
		}
		vals[i] = d
		free = append(free, temps...)
		for j, x := range s.Args {
			if p.Computed(x) && last[x] == i && !slices.Contains(s.Args[:j], x) {
				free = append(free, vals[x])
			}
		}
	}
	k.p.VMOV(out, vals[p.Out])
}
