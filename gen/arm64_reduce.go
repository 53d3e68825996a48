package main

import (
	"fmt"
	"strings"

	"github.com/simdkit/elem/gen/arm64enc"
	"github.com/simdkit/elem/gen/registry"
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
	term func(k *neonReduce, arr arm64enc.Arrangement, a, b, t arm64enc.VReg) arm64enc.VReg
}

// neonReducers maps every reduction of the registry to its NEON form; the
// generator refuses a reduction without an entry. The finds need no term.
var neonReducers = map[string]neonReducer{
	"sum": {term: neonElement},
	"dot": {mul: true, term: func(k *neonReduce, arr arm64enc.Arrangement, a, b, t arm64enc.VReg) arm64enc.VReg {
		return k.mul(arr, a, b, t)
	}},
	"sumsq": {mul: true, term: func(k *neonReduce, arr arm64enc.Arrangement, a, _, t arm64enc.VReg) arm64enc.VReg {
		return k.mul(arr, a, a, t)
	}},
	"sqdev": {term: func(k *neonReduce, arr arm64enc.Arrangement, a, _, _ arm64enc.VReg) arm64enc.VReg {
		neonOp(k.p, arm64enc.FSub, arr, a, a, vdV)
		neonOp(k.p, arm64enc.FMul, arr, a, a, a)
		return a
	}},
	"minof":    {term: neonElement},
	"maxof":    {term: neonElement},
	"findbits": {},
	"findnan":  {},
	"argmax":   {},
	"argmin":   {},
	"greatest": {},
	"least":    {},
}

// neonElement is the term of a plain sum, min or max: the element.
func neonElement(_ *neonReduce, _ arm64enc.Arrangement, a, _, _ arm64enc.VReg) arm64enc.VReg {
	return a
}

// neonReduceEmitted tells whether r has a NEON kernel on t.
func neonReduceEmitted(r registry.Reduction, t registry.Type) bool {
	return !neonReducers[r.Name].none && r.Supports(t)
}

// neonWholeRounds tells whether a NEON fold on t takes whole rounds only
// (see reduceWholeRounds): the integer ones do, the order of their terms
// not mattering, so that they need no steps of halving size.
func neonWholeRounds(t registry.Type, _ *registry.ISA) bool { return !t.Float }

// mul emits the product a*b on arrangement arr into a and returns it; on
// 64-bit integer lanes, which have no MUL, it is built in t from 32-bit
// partial products as neonIntMul builds it (a and b are overwritten) and t
// is returned.
func (k *neonReduce) mul(arr arm64enc.Arrangement, a, b, t arm64enc.VReg) arm64enc.VReg {
	switch {
	case k.t.Float: // a vector, or for a scalar step a scalar, multiply
		neonOp(k.p, arm64enc.FMul, arr, a, a, b)
	case k.t.Bits < 64:
		k.p.IntVector(arm64enc.Mul, arr, a, a, b)
	default:
		p := k.p
		p.VREV64(arm64enc.S4, t, b)                     // hi(b), lo(b) swapped in each lane
		p.IntVector(arm64enc.Mul, arm64enc.S4, t, t, a) // lo(a)hi(b), hi(a)lo(b), mod 2^32
		p.VUnary(arm64enc.UAddLP, arm64enc.S4, t, t)    // their sum in each 64-bit lane
		p.VSHL(arm64enc.D2, t, t, 32)                   // moved to the high half
		p.Vec(arm64enc.Uzp1, arm64enc.S4, a, a, a)      // lo(a) of both lanes, low half
		if b != a {
			p.Vec(arm64enc.Uzp1, arm64enc.S4, b, b, b) // lo(b)
		}
		p.UMLAL(arm64enc.S2, t, a, b) // plus lo(a)lo(b), 64 bits
		return t
	}
	return a
}

// neonOp emits d = n op m on arrangement arr, or on scalars of sz when
// arr is one of the scalarArr values.
func neonOp(p *arm64enc.Program, op arm64enc.FPOp, arr arm64enc.Arrangement, d, n, m arm64enc.VReg) {
	switch arr {
	case scalarS:
		p.FScalar(op, arm64enc.Single, d, n, m)
	case scalarD:
		p.FScalar(op, arm64enc.Double, d, n, m)
	default:
		p.FVector(op, arr, d, n, m)
	}
}

// scalarS and scalarD stand for one float32 or float64 scalar where an
// arrangement is expected: the last element of a fold's last round.
const (
	scalarS arm64enc.Arrangement = 100 + iota
	scalarD
)

// The register assignment of the NEON reduction kernels: the accumulator
// registers (32 lanes: eight of float32, sixteen of float64), then a's and
// b's loaded registers, eight each.
const (
	rdN     = arm64enc.R0 // n
	rdAcc   = arm64enc.R1 // the state
	rdA     = arm64enc.R2 // a's cursor
	rdB     = arm64enc.R3 // b's cursor (dot), or v (findbits, sqdev)
	rdCnt   = arm64enc.R4 // elements left, minus a block
	rdState = arm64enc.R5 // the state's cursor in the last round
	rdJ     = arm64enc.R6 // a search's index
	rdBits  = arm64enc.R7 // v's bits
	rdTmp   = arm64enc.R8

	vdAcc = arm64enc.V0  // V0..V15
	vdA   = arm64enc.V16 // V16..V23
	vdB   = arm64enc.V24 // V24..V31
	vdV   = arm64enc.V31 // v in every lane
)

// neonReduce is one reduction kernel being generated.
type neonReduce struct {
	p    *arm64enc.Program
	r    registry.Reduction
	rd   neonReducer
	t    registry.Type
	q    arm64enc.Arrangement // a full register of T
	sz   arm64enc.Size
	name string
}

// neonFull is the arrangement of a full register of lanes of each width.
var neonFull = map[int]arm64enc.Arrangement{8: arm64enc.B16, 16: arm64enc.H8, 32: arm64enc.S4, 64: arm64enc.D2}

// generateReduceARM64 writes the NEON reduction kernels into
// dir/reduce_arm64.s and their stubs into dir/reduce_arm64.go.
func generateReduceARM64(dir string) error {
	p, stubs := newARM64File()
	neonExtremeData(p)
	for _, isa := range registry.ISAsOf("arm64") {
		for _, t := range registry.ReduceTypes {
			for _, r := range registry.Reductions {
				rd, ok := neonReducers[r.Name]
				if !ok {
					return fmt.Errorf("reduction %s has no arm64 form (give it one, or neonReducer{none: true})", r.Name)
				}
				if !neonReduceEmitted(r, t) {
					continue
				}
				name := registry.ReduceKernelName(r, t, isa)
				sig := strings.Replace(registry.ReduceSignature(r, t), "func(", "func "+name+"(", 1)
				fmt.Fprintf(stubs, "\n// %s %s with %s.\n//\n//go:noescape\n%s\n", name, r.Doc, isa.Name, sig)
				p.Blank()
				p.Comment("%s", sig)
				k := &neonReduce{p: p, r: r, rd: rd, t: t, name: name, q: neonFull[t.Bits], sz: arm64enc.Single}
				if t.Bits == 64 {
					k.sz = arm64enc.Double
				}
				k.generate()
			}
		}
	}
	return writeARM64File(dir, "reduce", p, stubs)
}

// generate emits the kernel.
func (k *neonReduce) generate() {
	params := registry.ReduceParams(k.r, k.t)
	frame := registry.Offset(len(params))
	if k.r.Fold.Finds() {
		frame += 8 // the result
	}
	k.p.Text(k.name, "NOSPLIT", 0, frame)
	regs := []arm64enc.Reg{rdN}
	if !k.r.Fold.Finds() {
		regs = append(regs, rdAcc)
	}
	regs = append(regs, rdA, rdB)
	for i, prm := range params {
		k.p.LoadArg(prm.Name, registry.Offset(i), regs[i])
	}
	switch {
	case k.r.Fold.Extreme():
		k.extreme(registry.Offset(len(params)))
	case k.r.Fold.Valued():
		k.extremeValue(registry.Offset(len(params)))
	case k.r.Fold.Finds():
		k.find(registry.Offset(len(params)))
	default:
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
	round := registry.ReduceLanes
	nacc := registry.ReduceLanes * k.t.Size() / 16
	p.MOVD(rdAcc, rdState)
	k.state(false, nacc)
	if k.r.Shifted { // v in every lane of vdV, a register of b's the fold leaves free
		p.VLD1R(rdB, k.q, vdV)
	}
	p.Comment("%s: whole rounds of %d elements, then the low bits of the count", rdCnt, round)
	p.SUBSImm(rdCnt, rdN, round)
	p.BCond(arm64enc.LT, "last")
	p.Label("loop")
	k.step(k.q, nacc, vdAcc)
	p.SUBSImm(rdCnt, rdCnt, round)
	p.BCond(arm64enc.GE, "loop")
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
			p.VLD1(rdState, arm64enc.S2, vdAcc)
			k.step(arm64enc.S2, 1, vdAcc)
			p.VST1P(rdState, arm64enc.S2, vdAcc)
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
func (k *neonReduce) moveState(base arm64enc.Reg, store bool, count int) {
	for i := 0; i < count; i += 4 {
		rs := regs(vdAcc+arm64enc.VReg(i), min(4, count-i))
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
func (k *neonReduce) step(arr arm64enc.Arrangement, count int, acc arm64enc.VReg) {
	p := k.p
	batch := 8
	if !k.t.Float && k.t.Bits == 64 && (k.rd.mul || k.r.Fold != registry.FoldSum) {
		batch = 4
	}
	for c := 0; c < count; c += batch {
		for i := c; i < min(c+batch, count); i += 4 {
			n := min(4, count-i)
			p.VLD1P(rdA, arr, regs(vdA+arm64enc.VReg(i-c), n)...)
			if len(k.r.Inputs) == 2 {
				p.VLD1P(rdB, arr, regs(vdB+arm64enc.VReg(i-c), n)...)
			}
		}
		for i := range arm64enc.VReg(min(batch, count-c)) {
			x := k.rd.term(k, arr, vdA+i, vdB+i, vdA+4+i)
			k.combine(arr, acc+arm64enc.VReg(c)+i, x, vdA+4+i)
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
func (k *neonReduce) combine(arr arm64enc.Arrangement, acc, x, t arm64enc.VReg) {
	p := k.p
	isMax := k.r.Fold == registry.FoldMax
	switch {
	case k.t.Float:
		op := map[registry.Fold]arm64enc.FPOp{registry.FoldSum: arm64enc.FAdd, registry.FoldMin: arm64enc.FMin, registry.FoldMax: arm64enc.FMax}[k.r.Fold]
		neonOp(p, op, arr, acc, acc, x)
	case k.r.Fold == registry.FoldSum:
		p.Vec(arm64enc.Add, arr, acc, acc, x)
	case k.t.Bits < 64 && k.t.Signed:
		p.IntVector(map[bool]arm64enc.IntOp{false: arm64enc.SMin, true: arm64enc.SMax}[isMax], arr, acc, acc, x)
	case k.t.Bits < 64:
		p.Vec(map[bool]arm64enc.VecOp{false: arm64enc.UMin, true: arm64enc.UMax}[isMax], arr, acc, acc, x)
	default:
		gt := arm64enc.CmHi
		if k.t.Signed {
			gt = arm64enc.CmGt
		}
		if isMax {
			p.IntVector(gt, arr, t, x, acc) // x > acc
		} else {
			p.IntVector(gt, arr, t, acc, x) // acc > x
		}
		p.Vec(arm64enc.Bit, arm64enc.B16, acc, x, t)
	}
}

// find emits a search: blocks of four registers compared into lane masks
// (all ones for a hit), the masks combined and their greatest lane tested;
// a block with a hit, and the last elements, go to the scalar loop, which
// stops at the first hit.
func (k *neonReduce) find(ret int) {
	p := k.p
	block := 4 * k.q.Lanes()
	if k.r.Fold == registry.FindBits {
		p.VLD1R(rdB, k.q, vdV)
		p.LoadInt(k.t.Size(), rdBits, rdB, false)
	}
	p.MOVD(rdN, rdCnt)
	p.SUB(rdJ, rdN, rdN) // j = 0
	p.Label("block")
	p.CMPImm(rdCnt, block)
	p.BCond(arm64enc.LT, "scalar")
	p.VLD1P(rdA, k.q, regs(arm64enc.V0, 4)...)
	for i := range arm64enc.VReg(4) {
		if k.r.Fold == registry.FindBits {
			p.IntVector(arm64enc.CmEq, k.q, arm64enc.V4+i, arm64enc.V0+i, vdV)
		} else {
			p.FVector(arm64enc.FCmEq, k.q, arm64enc.V4+i, arm64enc.V0+i, arm64enc.V0+i)
		}
	}
	combine := arm64enc.Orr
	if k.r.Fold == registry.FindNaN {
		combine = arm64enc.And // a NaN is the lane that is not equal to itself
	}
	p.Vec(combine, arm64enc.B16, arm64enc.V8, arm64enc.V4, arm64enc.V5)
	p.Vec(combine, arm64enc.B16, arm64enc.V9, arm64enc.V6, arm64enc.V7)
	p.Vec(combine, arm64enc.B16, arm64enc.V8, arm64enc.V8, arm64enc.V9)
	if k.r.Fold == registry.FindNaN {
		p.VUnary(arm64enc.Not, arm64enc.B16, arm64enc.V8, arm64enc.V8)
	}
	p.UMaxV(arm64enc.V10, arm64enc.V8)
	p.FMOVToGP(arm64enc.Single, rdTmp, arm64enc.V10)
	p.CBNZ(rdTmp, "hit")
	p.ADDImm(rdJ, rdJ, block)
	p.SUBImm(rdCnt, rdCnt, block)
	p.B("block")
	p.Label("hit")
	p.SUBImm(rdA, rdA, block*k.t.Size())
	p.Label("scalar")
	p.CBZ(rdCnt, "none")
	if k.r.Fold == registry.FindBits {
		p.LoadInt(k.t.Size(), rdTmp, rdA, true)
		p.CMPSized(k.t.Size(), rdTmp, rdBits)
		p.BCond(arm64enc.EQ, "found")
	} else {
		p.FLoadP(k.sz, arm64enc.V0, rdA)
		p.FCMP(k.sz, arm64enc.V0, arm64enc.V0)
		p.BCond(arm64enc.VS, "found") // unordered: a NaN
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
