package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/gen/registry"
)

// x86Reducer is the amd64 form of one reduction: for a fold, how the term
// of one vector of each input is computed. An entry with none set runs the
// generic kernel on amd64.
type x86Reducer struct {
	none bool
	// mul says the term is a product: on 8-bit integers it needs the word
	// masks of the emulated multiply.
	mul bool
	// term emits the term of the inputs at m (one address per input) into
	// a register of width w and returns it; load loads an input, and where
	// mem is set an instruction may read one from memory itself.
	term func(k *x86Reduce, m []Mem, load func(Mem) Op, w int, mem bool) Op
}

// x86Reducers maps every reduction of the registry to its amd64 form; the
// generator refuses a reduction without an entry. The finds need no term.
var x86Reducers = map[string]x86Reducer{
	"sum":      {term: x86Load},
	"dot":      {term: x86Product(0, 1), mul: true},
	"sumsq":    {term: x86Product(0, 0), mul: true},
	"sqdev":    {term: x86SquaredDeviation},
	"minof":    {term: x86Load},
	"maxof":    {term: x86Load},
	"findbits": {},
	"findnan":  {},
	"argmax":   {},
	"argmin":   {},
	"greatest": {},
	"least":    {},
}

// x86ReduceEmitted tells whether r has an amd64 kernel on t.
func x86ReduceEmitted(r registry.Reduction, t registry.Type) bool {
	return !x86Reducers[r.Name].none && r.Supports(t)
}

// x86WholeRounds tells whether a fold's kernel on t for isa takes only
// whole rounds of the accumulators, its caller folding the last partial
// round with the generic kernel: AVX2 has masked loads of 32- and 64-bit
// lanes only (VMASKMOVPS/PD), so 8- and 16-bit lanes cannot load a
// partial register without reading past the slice.
func x86WholeRounds(t registry.Type, isa *registry.ISA) bool { return isa.Vector == 32 && t.Bits < 32 }

// x86Load is the term of a plain sum: the element itself.
func x86Load(k *x86Reduce, m []Mem, load func(Mem) Op, w int, mem bool) Op { return load(m[0]) }

// x86Product is the term x*y of inputs i and j, rounded (a separate
// multiply: the sum adds it with its own rounding, on every CPU).
func x86Product(i, j int) func(k *x86Reduce, m []Mem, load func(Mem) Op, w int, mem bool) Op {
	return func(k *x86Reduce, m []Mem, load func(Mem) Op, w int, mem bool) Op {
		x := load(m[i])
		var y Op = x
		switch {
		case i != j && mem:
			y = m[j]
		case i != j:
			y = load(m[j])
		}
		if !k.t.Float {
			e := k.elem()
			return k.intMul([]x86Src{{v: x, elem: e}, {v: y, elem: e}}, w)
		}
		r := narrow(k.vec(w), w)
		pick(k.t, k.VMULPS, k.VMULPD)(y, x, r)
		return r
	}
}

// x86SquaredDeviation is the term (x - v)*(x - v) of a shifted fold (on
// floats only), the difference and the product each rounded, v in every
// lane of k.shift.
func x86SquaredDeviation(k *x86Reduce, m []Mem, load func(Mem) Op, w int, mem bool) Op {
	x := load(m[0])
	d := narrow(k.vec(w), w)
	pick(k.t, k.VSUBPS, k.VSUBPD)(narrow(k.shift, w), x, d)
	pick(k.t, k.VMULPS, k.VMULPD)(d, d, d)
	return d
}

// x86Reduce is one reduction kernel being generated. It borrows the
// elementwise kernel's helpers (registers, bitwise ops, Go's min).
type x86Reduce struct {
	*x86Kernel
	r     registry.Reduction
	rd    x86Reducer
	w     int // register width in bytes
	lanes int // elements per register
	n     reg.Register
	j     reg.GPVirtual // element index
	ins   []reg.Register
	acc   []reg.VecVirtual
	shift reg.VecVirtual // v in every lane, for a shifted fold
}

// generateReduceAMD64 writes every reduction kernel of every amd64 level
// into dir/reduce_amd64.s and its stubs into dir/reduce_amd64.go.
func generateReduceAMD64(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	addTailMask(c)
	addArgIota(c)
	laneMask := c.StaticGlobal("lanemask")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := range 16 {
		c.AddDatum(4*i, U32(map[bool]uint32{true: 0xffffffff}[i < 8]))
	}
	needs := map[string][]string{}
	for _, isa := range x86ISAs() {
		for _, t := range registry.ReduceTypes {
			for _, r := range registry.Reductions {
				rd, ok := x86Reducers[r.Name]
				if !ok {
					return fmt.Errorf("reduction %s has no amd64 form (give it one, or x86Reducer{none: true})", r.Name)
				}
				if !x86ReduceEmitted(r, t) {
					continue
				}
				// 8-bit integer folds run on 256-bit registers at every
				// level: the 32 accumulators fill one, and Zen 4 splits a
				// 512-bit operation into two 256-bit halves anyway.
				w := isa.Vector
				if !r.Fold.Finds() {
					w = min(w, registry.ReduceLanes*t.Size())
				}
				k := &x86Reduce{x86Kernel: &x86Kernel{Context: c, isa: isa, t: t}, r: r, rd: rd, w: w, lanes: w / t.Size()}
				k.name = registry.ReduceKernelName(r, t, isa.ISA)
				k.generate(laneMask)
				needs[k.name] = isa.Features
			}
		}
	}
	addArgColumns(c, needs)
	addColumnSums(c, needs)
	return writeAvo(c, dir, "reduce", needs)
}

// generate emits the kernel.
func (k *x86Reduce) generate(laneMask Mem) {
	k.Function(k.name)
	k.Attributes(attr.NOSPLIT)
	k.SignatureExpr(registry.ReduceSignature(k.r, k.t))
	k.Pragma("noescape")
	k.Doc(fmt.Sprintf("%s %s with %s.", k.name, k.r.Doc, k.isa.Name))
	k.n = k.Load(k.Param("n"), k.GP64())
	for _, in := range k.r.Inputs {
		k.ins = append(k.ins, k.Load(k.Param(in), k.GP64()))
	}
	k.j = k.GP64()
	k.XORQ(k.j, k.j)
	switch {
	case k.r.Fold.Extreme() || k.r.Fold.Valued():
		k.extreme(laneMask)
	case k.r.Fold.Finds():
		k.find()
	default:
		k.fold(laneMask)
	}
}

// elem is T's moves at this level.
func (k *x86Reduce) elem() x86Elem {
	return x86Elem{Type: k.t, float: k.t.Float, evex: k.isa.masked}
}

// move copies a whole register of elements, from or to memory or between
// registers.
func (k *x86Reduce) move(src, dst Op) {
	switch {
	case k.t.Float:
		pick(k.t, k.VMOVUPS, k.VMOVUPD)(src, dst)
	case k.isa.masked:
		k.VMOVDQU64(src, dst)
	default:
		k.VMOVDQU(src, dst)
	}
}

// foldConsts are the constants a fold reads: the sign bit for a float max
// (run on negated values), the word masks of an 8-bit product, the sign
// flip of AVX2's unsigned 64-bit min and max.
func (k *x86Reduce) foldConsts() []reg.VecVirtual {
	switch {
	case k.t.Float && k.r.Fold == registry.FoldMax:
		return signConsts(k.x86Kernel)
	case k.t.Float:
		return nil
	case k.rd.mul:
		return byteMasks(k.x86Kernel)
	case k.r.Fold != registry.FoldSum:
		return signFlip(k.x86Kernel)
	}
	return nil
}

// at addresses element j + disp of input i.
func (k *x86Reduce) at(i, disp int) Mem {
	return Mem{Base: k.ins[i], Index: k.j, Scale: uint8(k.t.Size()), Disp: disp * k.t.Size()}
}

// loopHead emits the label loop and a jump to next when fewer than elems
// elements are left after j.
func (k *x86Reduce) loopHead(loop, next string, elems int) {
	k.Label(loop)
	cnt := k.GP64()
	k.MOVQ(k.n, cnt)
	k.SUBQ(k.j, cnt)
	k.CMPQ(cnt, U32(uint32(elems)))
	k.JB(LabelRef(next))
}

// ats addresses element j + disp of every input.
func (k *x86Reduce) ats(disp int) []Mem {
	var ms []Mem
	for i := range k.ins {
		ms = append(ms, k.at(i, disp))
	}
	return ms
}

// fold emits a fold: the accumulators in registers (lane j of the
// registers in order is accumulator j), whole rounds of them, then the
// last partial round under lane masks, so that element i always meets
// accumulator i mod ReduceLanes.
func (k *x86Reduce) fold(laneMask Mem) {
	w := k.w
	state := k.Load(k.Param("acc"), k.GP64())
	k.consts = k.foldConsts()
	if k.r.Shifted {
		k.shift = k.vec(w)
		k.elem().broadcast(k.Context, Mem{Base: k.Load(k.Param("v"), k.GP64())}, narrow(k.shift, w))
	}
	for q := range registry.ReduceLanes * k.t.Size() / w {
		a := k.vec(w)
		k.acc = append(k.acc, a)
		k.move(Mem{Base: state, Disp: q * w}, narrow(a, w))
		k.flip(a)
	}
	round := registry.ReduceLanes
	// Float min and max take twice the rounds per iteration: their terms
	// are combined with one another first, off the accumulators' chains.
	// (Integer terms are too, but registers run out before the rounds.)
	unroll := 8 / len(k.acc)
	if k.r.Fold != registry.FoldSum && k.t.Float {
		unroll *= 2
	}
	steps := []int{unroll}
	if unroll > 1 {
		steps = append(steps, 1)
	}
	for _, rounds := range steps {
		loop, next := fmt.Sprintf("%s_loop%d", k.name, rounds), fmt.Sprintf("%s_after%d", k.name, rounds)
		k.loopHead(loop, next, rounds*round)
		load := func(m Mem) Op {
			x := narrow(k.vec(w), w)
			k.move(m, x)
			return x
		}
		for q, a := range k.acc {
			var terms []Op
			for u := range rounds {
				terms = append(terms, k.rd.term(k, k.ats(u*round+q*k.lanes), load, w, true))
			}
			k.combineAll(a, terms, w)
		}
		k.ADDQ(U32(uint32(rounds*round)), k.j)
		k.JMP(LabelRef(loop))
		k.Label(next)
	}
	if !x86WholeRounds(k.t, k.isa.ISA) {
		k.lastRound(laneMask)
	}
	for q, a := range k.acc {
		k.flip(a)
		k.move(narrow(a, w), Mem{Base: state, Disp: q * w})
	}
	k.VZEROUPPER()
	k.RET()
}

// flip negates an accumulator of a max, which runs as the min of the
// negated values (Go's own max is -min(-x, -y)), on loading and storing.
func (k *x86Reduce) flip(a reg.VecVirtual) {
	if k.r.Fold == registry.FoldMax && k.t.Float {
		k.negate(narrow(a, k.isa.Vector), narrow(a, k.isa.Vector), k.isa.Vector)
	}
}

// combine emits acc = fold(acc, x).
func (k *x86Reduce) combine(acc reg.VecVirtual, x Op, w int) {
	a := narrow(acc, w)
	if k.r.Fold == registry.FoldSum && k.t.Float {
		pick(k.t, k.VADDPS, k.VADDPD)(x, a, a)
		return
	}
	k.fold2(a, k.prepared(x, w), a, w)
}

// fold2 emits r = fold(x, y) on prepared values: Go's min for the floats'
// min and max (a max runs on negated values), the wrapping add, min or max
// for the integers.
func (k *x86Reduce) fold2(x, y, r Op, w int) {
	switch {
	case k.t.Float:
		k.goMin(x, y, r, w)
	case k.r.Fold == registry.FoldSum:
		k.byBits(k.VPADDB, k.VPADDW, k.VPADDD, k.VPADDQ)(y, x, r)
	default:
		k.intMinMaxInto(x, x86Src{v: y, elem: k.elem()}, r, w, k.r.Fold == registry.FoldMax)
	}
}

// prepared is x as a min or max folds it: negated for a float max.
func (k *x86Reduce) prepared(x Op, w int) Op {
	if k.r.Fold != registry.FoldMax || !k.t.Float {
		return x
	}
	nx := narrow(k.vec(w), w)
	k.negate(x, nx, w)
	return nx
}

// combineAll folds the terms of one accumulator register: in order for a
// float sum; for a min or max, or an integer sum, whose order does not
// matter, with one another in a tree first, so that the accumulator waits
// for one step of the fold a round.
func (k *x86Reduce) combineAll(acc reg.VecVirtual, terms []Op, w int) {
	if k.r.Fold == registry.FoldSum && k.t.Float {
		for _, x := range terms {
			k.combine(acc, x, w)
		}
		return
	}
	var ps []Op
	for _, x := range terms {
		ps = append(ps, k.prepared(x, w))
	}
	for len(ps) > 1 {
		var next []Op
		for i := 0; i+1 < len(ps); i += 2 {
			r := narrow(k.vec(w), w)
			k.fold2(ps[i], ps[i+1], r, w)
			next = append(next, r)
		}
		if len(ps)%2 == 1 {
			next = append(next, ps[len(ps)-1])
		}
		ps = next
	}
	k.fold2(narrow(acc, w), ps[0], narrow(acc, w), w)
}

// lastRound folds the cnt = n - j < ReduceLanes elements left into the
// first cnt accumulators: for each register, a mask of its lanes that get
// an element, masked loads (which read nothing, and so never fault, under
// a clear lane), the fold computed on the whole register, and the result
// kept in the masked lanes only.
func (k *x86Reduce) lastRound(laneMask Mem) {
	w := k.w
	rem, c, full := k.GP64(), k.GP64(), k.GP64()
	k.MOVQ(k.n, rem)
	k.SUBQ(k.j, rem)
	k.JZ(LabelRef(k.name + "_store"))
	k.MOVQ(U32(uint32(k.lanes)), full)
	table := k.GP64()
	for q, a := range k.acc {
		k.MOVQ(rem, c)
		k.CMPQ(c, full)
		k.CMOVQGT(full, c)
		if q > 0 {
			k.TESTQ(c, c)
			k.JZ(LabelRef(k.name + "_store")) // so do all later registers
		}
		k.SUBQ(c, rem)
		var load func(Mem) Op
		var keep func(x Op)
		if k.isa.masked {
			mask := k.K()
			k.LEAQ(x86TailMask, table)
			k.KMOVQ(Mem{Base: table, Index: c, Scale: 8}, mask)
			load = func(m Mem) Op {
				x := narrow(k.vec(w), w)
				x86ElemOf(k.t).loadMasked(k.Context, m, mask, x)
				return x
			}
			keep = func(x Op) {
				if k.t.Float {
					pick(k.t, k.VMOVAPS, k.VMOVAPD)(x, mask, a)
				} else {
					k.byBits(k.VMOVDQU8, k.VMOVDQU16, k.VMOVDQA32, k.VMOVDQA64)(x, mask, narrow(a, w))
				}
			}
		} else {
			// lanemask is 8 lanes of ones then 8 of zeros: the c*size bytes
			// of ones end at offset 32.
			mask := k.vec(w)
			k.LEAQ(laneMask, table)
			k.SHLQ(U8(log2(k.t.Size())), c)
			k.SUBQ(c, table)
			k.VMOVDQU(Mem{Base: table, Disp: 32}, mask)
			load = func(m Mem) Op {
				x := narrow(k.vec(w), w)
				if k.t.Bits == 32 {
					k.VMASKMOVPS(m, mask, x)
				} else {
					k.VMASKMOVPD(m, mask, x)
				}
				return x
			}
			keep = func(x Op) { k.blendv(mask, x, narrow(a, w), narrow(a, w)) }
		}
		t := k.vec(w)
		k.move(narrow(a, w), narrow(t, w))
		k.combine(t, k.rd.term(k, k.ats(q*k.lanes), load, w, false), w)
		keep(narrow(t, w))
	}
	k.Label(k.name + "_store")
}

// find emits a search: blocks of four registers, each compared into a lane
// mask, the masks combined and tested once; then single registers; a block
// with a hit, and the last elements, go to the scalar loop, which stops at
// the first hit.
func (k *x86Reduce) find() {
	w := k.w
	var bc reg.VecVirtual
	var vbits reg.GPVirtual
	if k.r.Fold == registry.FindBits {
		vbits = k.GP64()
		v := k.Load(k.Param("v"), k.GP64())
		bc = k.vec(w)
		x86ElemOf(k.t).broadcast(k.Context, Mem{Base: v}, bc)
		k.scalarBits(k.MOVB, k.MOVW, k.MOVL, k.MOVQ)(Mem{Base: v}, vbits)
	}
	scalar := k.name + "_scalar"
	for _, count := range []int{4, 1} {
		loop, next := fmt.Sprintf("%s_loop%d", k.name, count), fmt.Sprintf("%s_after%d", k.name, count)
		k.loopHead(loop, next, count*k.lanes)
		var hits []Op
		for v := range count {
			hits = append(hits, k.hits(k.at(0, v*k.lanes), bc))
		}
		k.anyHit(hits, scalar)
		k.ADDQ(U32(uint32(count*k.lanes)), k.j)
		k.JMP(LabelRef(loop))
		k.Label(next)
	}
	k.Label(scalar)
	k.CMPQ(k.j, k.n)
	k.JAE(LabelRef(k.name + "_none"))
	found := LabelRef(k.name + "_found")
	switch {
	case k.r.Fold == registry.FindNaN:
		x := k.XMM()
		x86ElemOf(k.t).load(k.Context, k.t.Size(), k.at(0, 0), x)
		if k.t.Bits == 32 {
			k.UCOMISS(x, x)
		} else {
			k.UCOMISD(x, x)
		}
		k.JPS(found) // unordered: x is NaN
	default:
		k.scalarBits(k.CMPB, k.CMPW, k.CMPL, k.CMPQ)(k.at(0, 0), vbits)
		k.JEQ(found)
	}
	k.INCQ(k.j)
	k.JMP(LabelRef(scalar))
	k.Label(k.name + "_none")
	k.Store(k.n, k.ReturnIndex(0))
	k.VZEROUPPER()
	k.RET()
	k.Label(k.name + "_found")
	k.Store(k.j, k.ReturnIndex(0))
	k.VZEROUPPER()
	k.RET()
}

// hits compares one register of elements at m: an opmask (AVX-512) or a
// lane mask of ones where the element has v's bits, or is NaN.
func (k *x86Reduce) hits(m Mem, bc reg.VecVirtual) Op {
	w := k.w
	var h Op = k.vec(w)
	if k.isa.masked {
		h = k.K()
	}
	if k.r.Fold == registry.FindNaN {
		x := k.vec(w)
		pick(k.t, k.VMOVUPS, k.VMOVUPD)(m, x)
		pick(k.t, k.VCMPPS, k.VCMPPD)(U8(0x03), x, x, h) // UNORD_Q
		return h
	}
	k.byBits(k.VPCMPEQB, k.VPCMPEQW, k.VPCMPEQD, k.VPCMPEQQ)(m, bc, h)
	return h
}

// scalarBits returns inst, the instruction of T's width among the four
// given, on a memory operand and the low bits of a register.
func (k *x86Reduce) scalarBits(b8, b16, b32, b64 func(m, r Op)) func(m Mem, r reg.GPVirtual) {
	return func(m Mem, r reg.GPVirtual) {
		switch k.t.Bits {
		case 8:
			b8(m, r.As8())
		case 16:
			b16(m, r.As16())
		case 32:
			b32(m, r.As32())
		default:
			b64(m, r)
		}
	}
}

// anyHit jumps to label when any of the hit masks has a lane set.
func (k *x86Reduce) anyHit(hits []Op, label string) {
	all := hits[0]
	wide := k.lanes > 16 // more lanes than a 16-bit opmask holds
	for _, h := range hits[1:] {
		switch {
		case k.isa.masked && wide:
			k.KORQ(h, all, all)
		case k.isa.masked:
			k.KORW(h, all, all)
		default:
			k.VPOR(h, all, all)
		}
	}
	switch {
	case k.isa.masked && wide:
		k.KORTESTQ(all, all)
	case k.isa.masked:
		k.KORTESTW(all, all)
	default:
		k.VPTEST(all, all)
	}
	k.JNE(LabelRef(label))
}
