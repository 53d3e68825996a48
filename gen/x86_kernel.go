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

// x86ISA adds the code-shape choices of one amd64 level to its registry row.
type x86ISA struct {
	*registry.ISA
	unroll int  // vectors per main-loop iteration
	masked bool // tails through opmask loads and stores; otherwise step-down pieces
}

// x86ISAs are the amd64 levels of the registry, in its order.
func x86ISAs() []x86ISA {
	var isas []x86ISA
	for _, isa := range registry.ISAsOf("amd64") {
		isas = append(isas, x86ISA{ISA: isa, unroll: 4, masked: isa.Vector == 64})
	}
	return isas
}

// x86Operand is one operand of a kernel being generated: dst, or an input
// read along the row from memory, or an input with one value per row, broadcast into
// bc (and the op's per-row preparations of it, prep) at the start of a row.
type x86Operand struct {
	elem     x86Elem
	vector   bool
	base, ld reg.Register // the row's first element; the leading stride in bytes
	bc       reg.VecVirtual
	prep     []reg.VecVirtual
}

// x86Src is one input value at one position of a row, as an emitter sees
// it: a vector register, or for a vector input possibly its memory
// operand (see x86Emitter.fold); for a per-row input, its preparations.
type x86Src struct {
	v    Op
	prep []Op
	elem x86Elem
}

// x86Kernel is one kernel being generated: the op on one kind, element type
// and level, with ordinary or streaming stores.
type x86Kernel struct {
	*build.Context
	isa    x86ISA
	op     registry.Op
	em     x86Emitter
	kind   registry.Kind
	t      registry.Type // the element type T, or S for a conversion
	dt     registry.Type // a conversion's destination type D
	stream bool
	name   string

	out    x86Operand
	ins    []*x86Operand
	lanes  int // elements per full vector: the vector over the widest element
	wide   int // the widest element's size in bytes
	j, cnt reg.GPVirtual
	consts []reg.VecVirtual
	table  reg.GPVirtual // a table an op reads, when it has one
}

// vec allocates a vector register of width bytes (16, 32 or 64).
func (k *x86Kernel) vec(width int) reg.VecVirtual {
	switch {
	case width <= 16:
		return k.XMM()
	case width == 32:
		return k.YMM()
	}
	return k.ZMM()
}

// narrow views r at width bytes.
func narrow(r reg.VecVirtual, width int) Op {
	switch {
	case width <= 16:
		return r.AsX()
	case width == 32:
		return r.AsY()
	}
	return r.AsZ()
}

// width is the register width, in bytes, that holds lanes elements of e.
func (k *x86Kernel) width(e x86Elem, lanes int) int {
	if e == x86Count {
		return 16
	}
	return max(16, lanes*e.Size())
}

// reg returns s as a register at width w, loading it if it is memory.
func (k *x86Kernel) reg(s x86Src, w int) Op {
	if m, ok := s.v.(Mem); ok {
		r := k.vec(w)
		s.elem.load(k.Context, w, m, r)
		return narrow(r, w)
	}
	return s.v
}

// at addresses element j + disp lanes of operand o.
func (k *x86Kernel) at(o *x86Operand, disp int) Mem {
	return Mem{Base: o.base, Index: k.j, Scale: uint8(o.elem.Size()), Disp: disp * o.elem.Size()}
}

// bitwise emits r = x op y in the integer domain of the level: the AVX2
// forms (VPOR) on 256 bits and less, the EVEX forms (VPORD) on 512.
func (k *x86Kernel) or(x, y, r Op, w int) {
	if w == 64 {
		k.VPORD(x, y, r)
	} else {
		k.VPOR(x, y, r)
	}
}

func (k *x86Kernel) xor(x, y, r Op, w int) {
	if w == 64 {
		k.VPXORD(x, y, r)
	} else {
		k.VPXOR(x, y, r)
	}
}

func (k *x86Kernel) and(x, y, r Op, w int) {
	if w == 64 {
		k.VPANDD(x, y, r)
	} else {
		k.VPAND(x, y, r)
	}
}

// x86KernelDoc documents a kernel.
func x86KernelDoc(name string, o registry.Op, kd registry.Kind, isa string, stream bool) string {
	if stream {
		return fmt.Sprintf("%s is %s writing the aligned part of each row with non-temporal stores, which it leaves unordered: Fence orders them.", name, name[:len(name)-len(streamSuffix)])
	}
	return fmt.Sprintf("%s computes dst[r*ldd+j] = %s for r < m, j < n with %s.", name, kindExpr(o, kd), isa)
}

// streamSuffix ends the names of the kernels that write with non-temporal
// stores: the same computation for outputs far larger than the caches, whose
// lines would only evict useful data and cost a read for ownership.
const streamSuffix = "NT"

// kindExpr is the per-element expression of op o on kind kd, for docs:
// "a[r*lda+j] + b[r*ldb]".
func kindExpr(o registry.Op, kd registry.Kind) string {
	var xs []string
	for i, in := range o.Family.Inputs {
		x := fmt.Sprintf("%s[r*ld%s]", in.Name, in.Name)
		if kd.Vector[i] {
			x = fmt.Sprintf("%s[r*ld%s+j]", in.Name, in.Name)
		}
		xs = append(xs, x)
	}
	return o.FormulaOf(xs...)
}

// generate emits the whole kernel.
func (k *x86Kernel) generate() {
	f := k.op.Family
	k.Function(k.name)
	k.Attributes(attr.NOSPLIT)
	if f == registry.Convert {
		k.SignatureExpr(registry.Conversion{From: k.t, To: k.dt}.Signature())
	} else {
		k.SignatureExpr(registry.Signature(f, k.t))
	}
	k.Pragma("noescape")
	k.Doc(x86KernelDoc(k.name, k.op, k.kind, k.isa.Name, k.stream))

	m := k.Load(k.Param("m"), k.GP64())
	n := k.Load(k.Param("n"), k.GP64())
	done := k.name + "_done"
	k.TESTQ(m, m)
	k.JLE(LabelRef(done))
	k.TESTQ(n, n)
	k.JLE(LabelRef(done))

	k.out = x86Operand{elem: k.elemOf(f.Out), vector: true}
	k.loadOperand(&k.out, "dst", "ldd")
	k.wide = k.out.elem.Size()
	for i, in := range f.Inputs {
		o := &x86Operand{elem: k.elemOf(in.Type), vector: k.kind.Vector[i]}
		k.loadOperand(o, in.Name, "ld"+in.Name)
		k.ins = append(k.ins, o)
		if o.elem != x86Count {
			k.wide = max(k.wide, o.elem.Size())
		}
	}
	k.lanes = k.isa.Vector / k.wide
	if k.em.consts != nil {
		k.consts = k.em.consts(k)
	}

	rows := k.GP64()
	k.MOVQ(m, rows)
	k.j, k.cnt = k.GP64(), k.GP64()
	// Rows of exactly q vectors, as in column broadcasts, take a loop of
	// their own; not for the math ops, whose steps cost far more than a
	// loop's, and whose interleaved vectors make such copies long.
	// So do rows of one element (the columns of a strided view, a
	// row each), which would otherwise walk the whole step-down tail.
	exact := !k.stream && k.op.Family.Stream && !k.op.Math
	if exact {
		k.CMPQ(n, U32(1))
		k.JE(LabelRef(k.name + "_single"))
		for q := 1; q <= k.unroll(); q++ {
			k.CMPQ(n, U32(uint32(q*k.lanes)))
			k.JE(LabelRef(fmt.Sprintf("%s_exact%d", k.name, q)))
		}
	}
	row := k.name + "_row"
	k.Label(row)
	k.rowValues()
	k.XORQ(k.j, k.j)
	k.MOVQ(n, k.cnt)
	if k.stream {
		k.head(k.name + "_head")
	}
	for _, step := range slices.Compact([]int{k.unroll(), 1}) {
		loop, next := fmt.Sprintf("%s_loop%d", k.name, step), fmt.Sprintf("%s_after%d", k.name, step)
		k.Label(loop)
		k.CMPQ(k.cnt, U32(uint32(step*k.lanes)))
		k.JB(LabelRef(next))
		k.full(step, k.stream)
		k.ADDQ(U32(uint32(step*k.lanes)), k.j)
		k.SUBQ(U32(uint32(step*k.lanes)), k.cnt)
		k.JMP(LabelRef(loop))
		k.Label(next)
	}
	k.tail(k.name + "_tail")
	k.nextRow(rows, row)
	end := k.name + "_end"
	if exact {
		for q := 1; q <= k.unroll(); q++ {
			k.JMP(LabelRef(end))
			label := fmt.Sprintf("%s_exact%d", k.name, q)
			k.Label(label)
			k.rowValues()
			k.XORQ(k.j, k.j)
			k.full(q, false)
			k.nextRow(rows, label)
		}
		k.JMP(LabelRef(end))
		single := k.name + "_single"
		k.Label(single)
		k.rowValues()
		k.XORQ(k.j, k.j)
		if k.isa.masked {
			k.single()
		} else {
			k.piece(1)
		}
		k.nextRow(rows, single)
	}
	k.Label(end)
	k.Label(done)
	k.VZEROUPPER()
	k.RET()
}

// unroll is the number of vectors per main-loop iteration: the level's,
// or the emitter's where it sets one (a math op: as many as the registers
// hold of its interleaved programs).
func (k *x86Kernel) unroll() int {
	if k.em.unroll != nil {
		return k.em.unroll(k.isa, k.t)
	}
	return k.isa.unroll
}

// elemOf resolves an operand type of the registry: "T" (or a conversion's
// "S"), "D", "bool", "uint".
func (k *x86Kernel) elemOf(typ string) x86Elem {
	e := x86ElemOf(k.t)
	switch typ {
	case "bool":
		e = x86Bool
	case "uint":
		return x86Count
	case "D":
		e = x86ElemOf(k.dt)
	}
	e.evex = k.isa.masked
	return e
}

// loadOperand loads an operand's pointer and leading stride (in bytes).
func (k *x86Kernel) loadOperand(o *x86Operand, name, ld string) {
	o.base = k.Load(k.Param(name), k.GP64())
	o.ld = k.Load(k.Param(ld), k.GP64())
	k.SHLQ(U8(log2(o.elem.Size())), o.ld)
}

func log2(n int) uint8 {
	s := uint8(0)
	for n > 1 {
		n, s = n/2, s+1
	}
	return s
}

// nextRow advances every operand by its leading stride and loops to label
// while rows remain.
func (k *x86Kernel) nextRow(rows reg.GPVirtual, label string) {
	k.ADDQ(k.out.ld, k.out.base)
	for _, o := range k.ins {
		k.ADDQ(o.ld, o.base)
	}
	k.DECQ(rows)
	k.JNZ(LabelRef(label))
}

// rowValues broadcasts the per-row value of each input that has one, and
// lets the op prepare it, into the same registers on every row.
func (k *x86Kernel) rowValues() {
	for _, o := range k.ins {
		if o.vector {
			continue
		}
		w := k.width(o.elem, k.lanes)
		if o.bc == nil {
			o.bc = k.vec(w)
		}
		o.elem.broadcast(k.Context, Mem{Base: o.base}, o.bc)
		if k.em.preps > 0 {
			if o.prep == nil {
				for range k.em.preps {
					o.prep = append(o.prep, k.vec(w))
				}
			}
			var out []Op
			for _, p := range o.prep {
				out = append(out, narrow(p, w))
			}
			k.em.prep(k, narrow(o.bc, w), out, w)
		}
	}
}

// sources returns the inputs at lane offset disp as the op sees them, at
// width w (of the widest element): vector inputs loaded by load, or, for
// the op's memory input, as memory.
func (k *x86Kernel) sources(disp, lanes int, load func(o *x86Operand, w int, m Mem) Op) []x86Src {
	var srcs []x86Src
	for i, o := range k.ins {
		w := k.width(o.elem, lanes)
		s := x86Src{elem: o.elem}
		switch {
		case !o.vector:
			s.v = narrow(o.bc, w)
			for _, p := range o.prep {
				s.prep = append(s.prep, narrow(p, w))
			}
		case load == nil && i+1 == k.em.memInput && o.elem.Size() == k.wide:
			s.v = k.at(o, disp)
		case load == nil:
			r := k.vec(w)
			o.elem.load(k.Context, lanes*o.elem.Size(), k.at(o, disp), r)
			s.v = narrow(r, w)
		default:
			s.v = load(o, w, k.at(o, disp))
		}
		srcs = append(srcs, s)
	}
	return srcs
}

// full emits count whole vectors at j: all loads and computations first,
// then the stores.
func (k *x86Kernel) full(count int, nt bool) {
	w := k.isa.Vector
	results := make([]Op, count)
	if k.em.computeAll != nil {
		srcs := make([][]x86Src, count)
		for i := range srcs {
			srcs[i] = k.sources(i*k.lanes, k.lanes, nil)
		}
		results = k.em.computeAll(k, srcs, w)
	} else {
		for i := range results {
			results[i] = k.em.compute(k, k.sources(i*k.lanes, k.lanes, nil), w)
		}
	}
	for i, r := range results {
		if nt {
			k.out.elem.storeNT(k.Context, r, k.at(&k.out, i*k.lanes))
		} else {
			k.out.elem.store(k.Context, k.lanes*k.out.elem.Size(), r, k.at(&k.out, i*k.lanes))
		}
	}
}

// head computes the elements before dst reaches a vector boundary (for the
// non-temporal stores, which need one), as a tail, and leaves cnt the rest.
func (k *x86Kernel) head(label string) {
	head, rest := k.GP64(), k.GP64()
	k.MOVQ(k.out.base, head)
	k.NEGQ(head)
	k.ANDQ(U32(uint32(k.isa.Vector-1)), head)
	k.SHRQ(U8(log2(k.out.elem.Size())), head)
	k.CMPQ(head, k.cnt)
	k.CMOVQGT(k.cnt, head)
	k.MOVQ(k.cnt, rest)
	k.SUBQ(head, rest)
	k.MOVQ(head, k.cnt)
	k.tail(label)
	k.MOVQ(rest, k.cnt)
}

// tail emits the work for the cnt (< one vector) elements at j, with
// ordinary stores, and leaves j past them.
func (k *x86Kernel) tail(label string) {
	if k.isa.masked {
		k.maskedTail(label)
		return
	}
	for lanes := k.lanes / 2; lanes >= 1; lanes /= 2 {
		skip := fmt.Sprintf("%s%d", label, lanes)
		k.CMPQ(k.cnt, U32(uint32(lanes)))
		k.JB(LabelRef(skip))
		k.piece(lanes)
		k.ADDQ(U32(uint32(lanes)), k.j)
		k.SUBQ(U32(uint32(lanes)), k.cnt)
		k.Label(skip)
	}
}

// piece emits one step of an AVX2 step-down tail: lanes elements, each
// operand moved with the instruction of exactly its bytes, computed in XMM
// registers.
func (k *x86Kernel) piece(lanes int) {
	srcs := k.sources(0, lanes, func(o *x86Operand, w int, m Mem) Op {
		r := k.XMM()
		o.elem.load(k.Context, lanes*o.elem.Size(), m, r)
		return r
	})
	r := k.em.compute(k, srcs, 16)
	k.out.elem.store(k.Context, lanes*k.out.elem.Size(), r, k.at(&k.out, 0))
}

// single emits the one element of a row at AVX-512: each operand moved by
// the instruction of exactly its bytes into the low lane of a register
// (the others zero), computed in XMM registers where narrowSingle says so
// and elsewhere at the level's widths, as those emitters are written for
// them. Masked moves of whole vectors, as the tail makes them, cost a
// failed store forwarding at every row of a column whose stride is a few
// bytes past a multiple of 4 KiB (a load then meets the low address bits
// of the last row's masked store): a column of 1024 float32 with a stride
// of 1025 scaled in place took 8.8 ns per element that way on a Zen 4,
// against 1.7 for the plain Go loop.
func (k *x86Kernel) single() {
	lanes, width := k.lanes, k.isa.Vector
	if k.narrowSingle() {
		lanes, width = 1, 16
	}
	srcs := k.sources(0, lanes, func(o *x86Operand, w int, m Mem) Op {
		r := k.vec(w)
		o.elem.load(k.Context, o.elem.Size(), m, r.AsX())
		return narrow(r, w)
	})
	r := k.em.compute(k, srcs, width)
	k.out.elem.store(k.Context, k.out.elem.Size(), r.(reg.Vec).AsX(), k.at(&k.out, 0))
}

// narrowSingle reports whether single computes in XMM registers: the
// arithmetic families with operands of one size, but division, whose
// reciprocal path (x86Divide) is written for whole registers. A 512-bit
// operation on one lane cost the columns of strided views: Xeon model 167,
// BenchmarkColumnView (1024 float32 scaled in place), view against the
// plain loop, us, 4 interleaved runs: stride 1024 6.55-6.77 against
// 6.17-6.31 with ZMM registers, 6.25-6.60 against 6.10-6.46 with XMM;
// stride 1025 2.77-2.88 against 2.51-2.54, 2.57-2.81 against 2.47-2.73.
func (k *x86Kernel) narrowSingle() bool {
	switch k.op.Family.Name {
	case "binary", "unary", "ternary":
	default:
		return false
	}
	if k.op.Name == "div" {
		return false
	}
	for _, o := range k.ins {
		if o.elem.Size() != k.out.elem.Size() {
			return false
		}
	}
	return true
}

// maskedTail emits the AVX-512 tail: zero-masked loads of the cnt lanes,
// a full-width computation, a masked store, so that no lane beyond cnt is
// read or written.
func (k *x86Kernel) maskedTail(label string) {
	k.TESTQ(k.cnt, k.cnt)
	k.JZ(LabelRef(label + "_done"))
	table, mask := k.GP64(), k.K()
	k.LEAQ(x86TailMask, table)
	k.KMOVQ(Mem{Base: table, Index: k.cnt, Scale: 8}, mask)
	srcs := k.sources(0, k.lanes, func(o *x86Operand, w int, m Mem) Op {
		r := k.vec(w)
		o.elem.loadMasked(k.Context, m, mask, r)
		return narrow(r, w)
	})
	r := k.em.compute(k, srcs, k.isa.Vector)
	k.out.elem.storeMasked(k.Context, r, mask, k.at(&k.out, 0))
	k.ADDQ(k.cnt, k.j)
	k.Label(label + "_done")
}

// x86TailMask is the opmask table of the AVX-512 tails: entry c (8 bytes)
// has the low c bits set, c = 0..64.
var x86TailMask Mem

// x86BitBytes is the table that spreads a lane mask's bits to bool bytes:
// byte j of entry m (8 bytes) is bit j of m, 0 or 1. Only files of kernels
// with a []bool output have it.
var x86BitBytes Mem
