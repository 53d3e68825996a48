package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"

	"github.com/simdkit/elem/gen/asm"
)

// neonReducer is the NEON form of one reduction: for a fold, the term of
// loaded registers. An entry with none set runs the generic kernel on
// arm64.
type neonReducer struct {
	none bool
	// mul says the term is a product, which on 64-bit integer lanes needs
	// a scratch register.
	mul bool
	// term emits the term of register i of a step (a's loaded value, b's
	// beside it) on arrangement arr and returns the register holding it: a,
	// or for an emulated 64-bit product the scratch register t.
	term func(k *neonReduce, arr asm.Arrangement, a, b, t asm.VReg) asm.VReg
}

// neonReducers maps every reduction of the registry to its NEON form; the
// generator refuses a reduction without an entry. The finds need no term.
var neonReducers = map[string]neonReducer{
	"sum":      {term: neonElement},
	"dot":      {mul: true, term: func(k *neonReduce, arr asm.Arrangement, a, b, t asm.VReg) asm.VReg { return k.mul(arr, a, b, t) }},
	"sumsq":    {mul: true, term: func(k *neonReduce, arr asm.Arrangement, a, _, t asm.VReg) asm.VReg { return k.mul(arr, a, a, t) }},
	"minof":    {term: neonElement},
	"maxof":    {term: neonElement},
	"findbits": {},
	"findnan":  {},
}

// neonElement is the term of a plain sum, min or max: the element.
func neonElement(_ *neonReduce, _ asm.Arrangement, a, _, _ asm.VReg) asm.VReg { return a }

// neonReduceEmitted tells whether r has a NEON kernel on t.
func neonReduceEmitted(r asm.Reduction, t asm.Type) bool {
	return !neonReducers[r.Name].none && r.Supports(t)
}

// neonWholeRounds tells whether a NEON fold on t takes whole rounds only
// (see reduceWholeRounds): the integer ones do, the order of their terms
// not mattering, so that they need no steps of halving size.
func neonWholeRounds(t asm.Type, _ *asm.ISA) bool { return !t.Float }

// mul emits the product a*b on arrangement arr into a and returns it; on
// 64-bit integer lanes, which have no MUL, it is built in t from 32-bit
// partial products as neonIntMul builds it (a and b are overwritten) and t
// is returned.
func (k *neonReduce) mul(arr asm.Arrangement, a, b, t asm.VReg) asm.VReg {
	switch {
	case k.t.Float: // a vector, or for a scalar step a scalar, multiply
		neonOp(k.p, asm.FMul, arr, a, a, b)
	case k.t.Bits < 64:
		k.p.IntVector(asm.Mul, arr, a, a, b)
	default:
		p := k.p
		p.VREV64(asm.S4, t, b)                // hi(b), lo(b) swapped in each lane
		p.IntVector(asm.Mul, asm.S4, t, t, a) // lo(a)hi(b), hi(a)lo(b), mod 2^32
		p.VUnary(asm.UAddLP, asm.S4, t, t)    // their sum in each 64-bit lane
		p.VSHL(asm.D2, t, t, 32)              // moved to the high half
		p.Vec(asm.Uzp1, asm.S4, a, a, a)      // lo(a) of both lanes, low half
		if b != a {
			p.Vec(asm.Uzp1, asm.S4, b, b, b) // lo(b)
		}
		p.UMLAL(asm.S2, t, a, b) // plus lo(a)lo(b), 64 bits
		return t
	}
	return a
}

// neonOp emits d = n op m on arrangement arr, or on scalars of sz when
// arr is one of the scalarArr values.
func neonOp(p *asm.Program, op asm.FPOp, arr asm.Arrangement, d, n, m asm.VReg) {
	switch arr {
	case scalarS:
		p.FScalar(op, asm.Single, d, n, m)
	case scalarD:
		p.FScalar(op, asm.Double, d, n, m)
	default:
		p.FVector(op, arr, d, n, m)
	}
}

// scalarS and scalarD stand for one float32 or float64 scalar where an
// arrangement is expected: the last element of a fold's last round.
const (
	scalarS asm.Arrangement = 100 + iota
	scalarD
)

// The register assignment of the NEON reduction kernels: the accumulator
// registers (32 lanes: eight of float32, sixteen of float64), then a's and
// b's loaded registers, eight each.
const (
	rdN     = asm.R0 // n
	rdAcc   = asm.R1 // the state
	rdA     = asm.R2 // a's cursor
	rdB     = asm.R3 // b's cursor (dot), or v (findbits)
	rdCnt   = asm.R4 // elements left, minus a block
	rdState = asm.R5 // the state's cursor in the last round
	rdJ     = asm.R6 // a search's index
	rdBits  = asm.R7 // v's bits
	rdTmp   = asm.R8

	vdAcc = asm.V0  // V0..V15
	vdA   = asm.V16 // V16..V23
	vdB   = asm.V24 // V24..V31
	vdV   = asm.V31 // v in every lane
)

// neonReduce is one reduction kernel being generated.
type neonReduce struct {
	p    *asm.Program
	r    asm.Reduction
	rd   neonReducer
	t    asm.Type
	q    asm.Arrangement // a full register of T
	sz   asm.Size
	name string
}

// neonFull is the arrangement of a full register of lanes of each width.
var neonFull = map[int]asm.Arrangement{8: asm.B16, 16: asm.H8, 32: asm.S4, 64: asm.D2}

// generateReduceARM64 writes the NEON reduction kernels into
// dir/reduce_arm64.s and their stubs into dir/reduce_arm64.go.
func generateReduceARM64(dir string) error {
	p := asm.NewProgram()
	p.Raw(arm64Header)
	p.Blank()
	p.Raw("//go:build !purego")
	p.Blank()
	p.Include("textflag.h")
	var stubs bytes.Buffer
	stubs.WriteString(arm64Header + "\n\n//go:build !purego\n\npackage kernel\n")
	for _, isa := range asm.ISAsOf("arm64") {
		for _, t := range asm.ReduceTypes {
			for _, r := range asm.Reductions {
				rd, ok := neonReducers[r.Name]
				if !ok {
					return fmt.Errorf("reduction %s has no arm64 form (give it one, or neonReducer{none: true})", r.Name)
				}
				if !neonReduceEmitted(r, t) {
					continue
				}
				name := asm.ReduceKernelName(r, t, isa)
				sig := strings.Replace(asm.ReduceSignature(r, t), "func(", "func "+name+"(", 1)
				fmt.Fprintf(&stubs, "\n// %s %s with %s.\n//\n//go:noescape\n%s\n", name, r.Doc, isa.Name, sig)
				p.Blank()
				p.Comment("%s", sig)
				k := &neonReduce{p: p, r: r, rd: rd, t: t, name: name, q: neonFull[t.Bits], sz: asm.Single}
				if t.Bits == 64 {
					k.sz = asm.Double
				}
				k.generate()
			}
		}
	}
	src, err := p.Bytes()
	if err != nil {
		return fmt.Errorf("reduce_arm64.s: %w", err)
	}
	goSrc, err := format.Source(stubs.Bytes())
	if err != nil {
		return fmt.Errorf("reduce_arm64.go: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reduce_arm64.s"), src, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "reduce_arm64.go"), goSrc, 0o644)
}

// generate emits the kernel.
func (k *neonReduce) generate() {
	params := asm.ReduceParams(k.r, k.t)
	frame := asm.Offset(len(params))
	if k.r.Fold.Finds() {
		frame += 8 // the result
	}
	k.p.Text(k.name, "NOSPLIT", 0, frame)
	regs := []asm.Reg{rdN}
	if !k.r.Fold.Finds() {
		regs = append(regs, rdAcc)
	}
	regs = append(regs, rdA, rdB)
	for i, prm := range params {
		k.p.LoadArg(prm.Name, asm.Offset(i), regs[i])
	}
	if k.r.Fold.Finds() {
		k.find(asm.Offset(len(params)))
	} else {
		k.fold()
	}
}

// fold emits a fold: the accumulators in V0.. (lane j of them in order is
// accumulator j), whole rounds of them, then, with the accumulators back
// in the state, the last partial round as steps of halving size on the
// state in memory, so that element i always meets accumulator i mod
// ReduceLanes.
func (k *neonReduce) fold() {
	p := k.p
	round := asm.ReduceLanes
	nacc := asm.ReduceLanes * k.t.Size() / 16
	p.MOVD(rdAcc, rdState)
	k.state(false, nacc)
	p.Comment("%s: whole rounds of %d elements, then the low bits of the count", rdCnt, round)
	p.SUBSImm(rdCnt, rdN, round)
	p.BCond(asm.LT, "last")
	p.Label("loop")
	k.step(k.q, nacc, vdAcc)
	p.SUBSImm(rdCnt, rdCnt, round)
	p.BCond(asm.GE, "loop")
	p.Label("last")
	p.MOVD(rdAcc, rdState)
	k.state(true, nacc)
	if neonWholeRounds(k.t, nil) {
		p.RET()
		return
	}
	p.MOVD(rdAcc, rdState)
	var steps []int
	for elems := round / 2; elems >= 1; elems /= 2 {
		steps = append(steps, elems)
	}
	for i, elems := range steps {
		skip := "done"
		if i+1 < len(steps) {
			skip = fmt.Sprintf("last%d", steps[i+1])
		}
		p.TBZ(log2i(elems), rdCnt, skip)
		bytes := elems * k.t.Size()
		switch {
		case bytes >= 16:
			p.MOVD(rdState, rdTmp)
			k.moveState(rdTmp, false, bytes/16)
			k.step(k.q, bytes/16, vdAcc)
			k.moveState(rdState, true, bytes/16)
		case bytes == 8 && k.t.Bits == 32: // two float32 lanes
			p.VLD1(rdState, asm.S2, vdAcc)
			k.step(asm.S2, 1, vdAcc)
			p.VST1P(rdState, asm.S2, vdAcc)
		default:
			k.scalarStep()
		}
		if i+1 < len(steps) {
			p.Label(skip)
		}
	}
	p.Label("done")
	p.RET()
}

// state loads (or with store, stores) count accumulator registers from
// (to) the state at rdState, which it advances past them.
func (k *neonReduce) state(store bool, count int) { k.moveState(rdState, store, count) }

// moveState loads or stores count accumulator registers at base, four at
// a time, advancing base.
func (k *neonReduce) moveState(base asm.Reg, store bool, count int) {
	for i := 0; i < count; i += 4 {
		rs := regs(vdAcc+asm.VReg(i), min(4, count-i))
		if store {
			k.p.VST1P(base, k.q, rs...)
		} else {
			k.p.VLD1P(base, k.q, rs...)
		}
	}
}

// log2i is the bit index of a power of two.
func log2i(n int) int { return int(log2(n)) }

// step loads count registers of arrangement arr of each input, advancing
// the cursors, and folds their terms into the count registers from acc.
// It loads eight registers of each input at a time, or four where the
// fold needs scratch registers (64-bit integer products, min and max): the
// upper four of a's eight.
func (k *neonReduce) step(arr asm.Arrangement, count int, acc asm.VReg) {
	p := k.p
	batch := 8
	if !k.t.Float && k.t.Bits == 64 && (k.rd.mul || k.r.Fold != asm.FoldSum) {
		batch = 4
	}
	for c := 0; c < count; c += batch {
		for i := c; i < min(c+batch, count); i += 4 {
			n := min(4, count-i)
			p.VLD1P(rdA, arr, regs(vdA+asm.VReg(i-c), n)...)
			if len(k.r.Inputs) == 2 {
				p.VLD1P(rdB, arr, regs(vdB+asm.VReg(i-c), n)...)
			}
		}
		for i := range asm.VReg(min(batch, count-c)) {
			x := k.rd.term(k, arr, vdA+i, vdB+i, vdA+4+i)
			k.combine(arr, acc+asm.VReg(c)+i, x, vdA+4+i)
		}
	}
}

// scalarStep folds the last element: scalar loads, the term and the fold
// on scalars, the accumulator stored back.
func (k *neonReduce) scalarStep() {
	p := k.p
	arr := scalarS
	if k.t.Bits == 64 {
		arr = scalarD
	}
	p.FLoad(k.sz, vdAcc, rdState)
	p.FLoadP(k.sz, vdA, rdA)
	if len(k.r.Inputs) == 2 {
		p.FLoadP(k.sz, vdB, rdB)
	}
	k.combine(arr, vdAcc, k.rd.term(k, arr, vdA, vdB, vdA+4), vdA+4)
	p.FStore(k.sz, vdAcc, rdState)
}

// combine emits acc = fold(acc, x): FADD, or FMIN and FMAX, which are Go's
// min and max exactly; on integers ADD, or SMIN, SMAX, UMIN, UMAX, which
// 64-bit lanes lack: there the mask of the lanes where x wins, in scratch
// register t (CMGT signed, CMHI unsigned), inserts x into acc (BIT).
func (k *neonReduce) combine(arr asm.Arrangement, acc, x, t asm.VReg) {
	p := k.p
	isMax := k.r.Fold == asm.FoldMax
	switch {
	case k.t.Float:
		op := map[asm.Fold]asm.FPOp{asm.FoldSum: asm.FAdd, asm.FoldMin: asm.FMin, asm.FoldMax: asm.FMax}[k.r.Fold]
		neonOp(p, op, arr, acc, acc, x)
	case k.r.Fold == asm.FoldSum:
		p.Vec(asm.Add, arr, acc, acc, x)
	case k.t.Bits < 64 && k.t.Signed:
		p.IntVector(map[bool]asm.IntOp{false: asm.SMin, true: asm.SMax}[isMax], arr, acc, acc, x)
	case k.t.Bits < 64:
		p.Vec(map[bool]asm.VecOp{false: asm.UMin, true: asm.UMax}[isMax], arr, acc, acc, x)
	default:
		gt := asm.CmHi
		if k.t.Signed {
			gt = asm.CmGt
		}
		if isMax {
			p.IntVector(gt, arr, t, x, acc) // x > acc
		} else {
			p.IntVector(gt, arr, t, acc, x) // acc > x
		}
		p.Vec(asm.Bit, asm.B16, acc, x, t)
	}
}

// find emits a search: blocks of four registers compared into lane masks
// (all ones for a hit), the masks combined and their greatest lane tested;
// a block with a hit, and the last elements, go to the scalar loop, which
// stops at the first hit.
func (k *neonReduce) find(ret int) {
	p := k.p
	block := 4 * k.q.Lanes()
	if k.r.Fold == asm.FindBits {
		p.VLD1R(rdB, k.q, vdV)
		p.LoadInt(k.t.Size(), rdBits, rdB, false)
	}
	p.MOVD(rdN, rdCnt)
	p.SUB(rdJ, rdN, rdN) // j = 0
	p.Label("block")
	p.CMPImm(rdCnt, block)
	p.BCond(asm.LT, "scalar")
	p.VLD1P(rdA, k.q, regs(asm.V0, 4)...)
	for i := range asm.VReg(4) {
		if k.r.Fold == asm.FindBits {
			p.IntVector(asm.CmEq, k.q, asm.V4+i, asm.V0+i, vdV)
		} else {
			p.FVector(asm.FCmEq, k.q, asm.V4+i, asm.V0+i, asm.V0+i)
		}
	}
	combine := asm.Orr
	if k.r.Fold == asm.FindNaN {
		combine = asm.And // a NaN is the lane that is not equal to itself
	}
	p.Vec(combine, asm.B16, asm.V8, asm.V4, asm.V5)
	p.Vec(combine, asm.B16, asm.V9, asm.V6, asm.V7)
	p.Vec(combine, asm.B16, asm.V8, asm.V8, asm.V9)
	if k.r.Fold == asm.FindNaN {
		p.VUnary(asm.Not, asm.B16, asm.V8, asm.V8)
	}
	p.UMaxV(asm.V10, asm.V8)
	p.FMOVToGP(asm.Single, rdTmp, asm.V10)
	p.CBNZ(rdTmp, "hit")
	p.ADDImm(rdJ, rdJ, block)
	p.SUBImm(rdCnt, rdCnt, block)
	p.B("block")
	p.Label("hit")
	p.SUBImm(rdA, rdA, block*k.t.Size())
	p.Label("scalar")
	p.CBZ(rdCnt, "none")
	if k.r.Fold == asm.FindBits {
		p.LoadInt(k.t.Size(), rdTmp, rdA, true)
		p.CMPSized(k.t.Size(), rdTmp, rdBits)
		p.BCond(asm.EQ, "found")
	} else {
		p.FLoadP(k.sz, asm.V0, rdA)
		p.FCMP(k.sz, asm.V0, asm.V0)
		p.BCond(asm.VS, "found") // unordered: a NaN
	}
	p.ADDImm(rdJ, rdJ, 1)
	p.SUBImm(rdCnt, rdCnt, 1)
	p.B("scalar")
	p.Label("none")
	p.StoreArg("ret", ret, rdN)
	p.RET()
	p.Label("found")
	p.StoreArg("ret", ret, rdJ)
	p.RET()
}
