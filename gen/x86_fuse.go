package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/gen/registry"
)

// The fused kernels run a whole expression (package expr) over memory in
// one pass: a small program of instructions, one per op, interpreted chunk
// by chunk (a row's last chunk may have fewer groups). Each instruction
// runs its op over one chunk (groups of four vectors) of its operands,
// which are slots: an array's current chunk, a chunk-sized temporary, or
// one value (a scalar, a constant, a column's value for the row) broadcast
// into a register. A chunk is small enough
// that its temporaries stay in L1 and every input stream is read a chunk at
// a time, all of them in each chunk, as one kernel of several inputs reads
// them; the op-per-call alternative reads one stream at a time and pays a
// call per op and block.
//
// Slots are 4 words: the address of the current row's first chunk (or of
// the row's value), the bytes from one row to the next, a mask of the
// chunk's offset in the row (all ones for a slot that advances along the
// row, zero for temporaries and values), and one unused. The offset lives
// in a register, so that each instruction finds its operands with no store
// to wait for. An instruction is a uint64: bytes 0 and 1 its key (its op's
// code times 8, plus a bit per input that is one value: 1 << i), byte 2
// its flags (fuseNT: non-temporal stores), bytes 3 to 6 the slots of its
// output and inputs.

// fuseFamilies are the families the fused kernels run, each with the first
// code of its ops: an op's code is its family's base plus its index in the
// family, which is its value in package kernel.
var fuseFamilies = []struct {
	f    *registry.Family
	base int
}{{registry.Binary, 1}, {registry.Unary, 12}, {registry.Ternary, 36}, {registry.Compare, 40}, {registry.Selection, 48}}

// fuseKeyBits is the bits of an instruction's key below its op's code:
// one per input, set where the input is one value.
const fuseKeyBits = 3

// fuseNT is the flag of an instruction that writes with non-temporal
// stores: the output, when it streams.
const fuseNT = 1

// fuseGroup is the number of vectors of one step of an instruction's loop.
const fuseGroup = 4

// fuseOp is an op the fused kernels of one element type run.
type fuseOp struct {
	code int
	op   registry.Op
	em   x86Emitter
}

// fuseForm is one handler of a fused kernel: an op with a choice of the
// inputs that are one value (bit i of scalars for input i). A []bool input
// (a comparison's result) is always a chunk.
type fuseForm struct {
	fuseOp
	scalars int
}

// key is the form's key in instructions.
func (f fuseForm) key() int { return f.code<<fuseKeyBits | f.scalars }

// fuseFormsOf lists every form of ops, by key.
func fuseFormsOf(ops []fuseOp) []fuseForm {
	var forms []fuseForm
	for _, o := range ops {
		ins := o.op.Family.Inputs
	masks:
		for m := range 1 << len(ins) {
			for i, in := range ins {
				if m>>i&1 == 1 && in.Type == "bool" {
					continue masks
				}
			}
			forms = append(forms, fuseForm{o, m})
		}
	}
	return forms
}

// fuseTypes are the element types with fused kernels.
var fuseTypes = []registry.Type{registry.Float32, registry.Float64}

// fuseOpsOf lists the ops of t with a vector form, by code.
func fuseOpsOf(t registry.Type) ([]fuseOp, error) {
	var ops []fuseOp
	for i, fam := range fuseFamilies {
		family := registry.OpsOf(fam.f)
		if i+1 < len(fuseFamilies) && fam.base+len(family) > fuseFamilies[i+1].base {
			return nil, fmt.Errorf("fuse: family %s has %d ops, more than its codes", fam.f.Name, len(family))
		}
		for j, o := range family {
			if !o.Supports(t) {
				continue
			}
			em, vector, err := x86EmitterFor(o, t)
			if err != nil {
				return nil, err
			}
			if vector {
				ops = append(ops, fuseOp{code: fam.base + j, op: o, em: em})
			}
		}
	}
	if last := ops[len(ops)-1].code; last >= 64 {
		return nil, fmt.Errorf("fuse: code %d does not fit the 64-bit sets of codes", last)
	}
	return ops, nil
}

// fuseName names the fused kernel of t on isa: fuseF32AVX2.
func fuseName(t registry.Type, isa x86ISA) string { return "fuse" + t.Short + isa.Name }

// generateFuseAMD64 writes internal/kernel's fused kernels (fuse_amd64.s and
// its stubs) and the codes and features the Go side builds programs from
// (fuse_generated.go).
func generateFuseAMD64(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	addBitBytes(c)
	needs := map[string][]string{}
	has := make([]uint64, len(fuseTypes))
	var extra []string
	for ti, t := range fuseTypes {
		ops, err := fuseOpsOf(t)
		if err != nil {
			return err
		}
		for _, o := range ops {
			has[ti] |= 1 << o.code
			for _, feat := range o.em.features {
				if !slices.Contains(extra, feat) {
					extra = append(extra, feat)
				}
			}
		}
		for _, isa := range x86ISAs() {
			f := &fuser{Context: c, isa: isa, t: t, name: fuseName(t, isa)}
			f.generate(ops)
			needs[f.name] = append(slices.Clone(isa.Features), extra...)
		}
	}
	if err := writeAvo(c, dir, "fuse", needs); err != nil {
		return err
	}
	return writeFuseGo(dir, has, extra)
}

// writeFuseGo writes the instruction codes for package kernel.
func writeFuseGo(dir string, has []uint64, extra []string) error {
	g := newGoFile(filepath.Join(dir, "fuse_generated.go"), "", "kernel", "golang.org/x/sys/cpu")
	g.doc("The codes of the fused kernels' ops: the op's family base plus its value.")
	g.p("const (")
	for _, fam := range fuseFamilies {
		g.p("fuse%sBase = %d", exported(fam.f.Name), fam.base)
	}
	g.p(")\n")
	g.doc("fuseKeyBits is the bits of an instruction's key below its op's code:\none per input, set where the input is one value.")
	g.p("const fuseKeyBits = %d\n", fuseKeyBits)
	g.doc("fuseNT is the flag of an instruction that writes with non-temporal stores.")
	g.p("const fuseNT = %d\n", fuseNT)
	g.doc("fuseGroup is the vectors of one step of an instruction: a chunk is a\nwhole number of groups.")
	g.p("const fuseGroup = %d\n", fuseGroup)
	g.doc("fuseHas is, for float32 and float64, the set of codes the fused kernels\nrun: bit c for code c.")
	g.p("var fuseHas = [%d]uint64{", len(has))
	for i, h := range has {
		g.p("%#x, // %s", h, fuseTypes[i].GoName)
	}
	g.p("}\n")
	g.doc("fuseCPU reports whether this CPU has the features the fused kernels\nneed beyond their level's.")
	cond := features(extra)
	if cond == "" {
		cond = "true"
	}
	g.p("func fuseCPU() bool { return %s }", cond)
	return g.write()
}

// exported capitalises a family name: "binary" is "Binary".
func exported(s string) string { return string(s[0]-'a'+'A') + s[1:] }

// addBitBytes adds the table that spreads a lane mask's bits to bool bytes
// (see x86BitBytes) to c's file.
func addBitBytes(c *build.Context) {
	x86BitBytes = c.StaticGlobal("bitbytes")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for m := 0; m < 256; m++ {
		var v uint64
		for j := range 8 {
			v |= uint64(m>>j&1) << (8 * j)
		}
		c.AddDatum(8*m, U64(v))
	}
}

// fuser is one fused kernel being generated.
type fuser struct {
	*build.Context
	isa   x86ISA
	t     registry.Type
	name  string
	lanes int

	slots, ip, j reg.GPVirtual
	gs           reg.GPVirtual // the groups of the current chunk
	left         reg.GPVirtual // the groups of the row from the current chunk on
}

// label names a label of this kernel.
func (f *fuser) label(s string, args ...any) string {
	return f.name + "_" + fmt.Sprintf(s, args...)
}

// arg is the memory of parameter name.
func (f *fuser) arg(name string) Mem {
	b, err := f.Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// slotAddr loads into a new register the current chunk's address of the
// slot named by byte b of the instruction at ip: its row start, plus the
// chunk's offset in the row where its mask (all ones or zero) lets it.
func (f *fuser) slotAddr(b int) reg.GPVirtual {
	s, p, m := f.GP64(), f.GP64(), f.GP64()
	f.MOVBQZX(Mem{Base: f.ip, Disp: b}, s)
	f.SHLQ(U8(5), s)
	f.MOVQ(Mem{Base: f.slots, Index: s, Scale: 1}, p)
	f.MOVQ(Mem{Base: f.slots, Index: s, Scale: 1, Disp: 16}, m)
	f.ANDQ(f.j, m)
	f.ADDQ(m, p)
	return p
}

// generate emits the kernel: rows, each chunks of the program; at the end
// of a row, every slot's row start moves on by its row stride.
func (f *fuser) generate(ops []fuseOp) {
	f.Function(f.name)
	f.Attributes(attr.NOSPLIT)
	f.SignatureExpr("func(prog *uint64, nprog int, slots *uintptr, nslots, rows, groups, chunk, tail int)")
	f.Pragma("noescape")
	f.Doc(fmt.Sprintf("%s runs the fused program prog over rows rows of groups groups of %d vectors of %s, chunk groups at a time, and (tail != 0) one more group tail bytes from the end of the whole groups, with %s (see gen/x86_fuse.go).",
		f.name, fuseGroup, f.t.GoName, f.isa.Name))
	f.lanes = f.isa.Vector / (f.t.Bits / 8)
	done := f.label("done")
	f.slots = f.GP64()
	f.Load(f.Param("slots"), f.slots)
	f.CMPQ(f.arg("rows"), U8(0))
	f.JLE(LabelRef(done))
	f.CMPQ(f.arg("groups"), U8(0))
	f.JLE(LabelRef(done))
	f.CMPQ(f.arg("nprog"), U8(0))
	f.JLE(LabelRef(done))
	f.ip = f.GP64()
	end := f.GP64()

	f.Label(f.label("row"))
	f.j = f.GP64()
	f.XORQ(f.j, f.j)
	f.left = f.GP64()
	left := f.left
	f.Load(f.Param("groups"), left)
	f.Label(f.label("chunk"))
	f.gs = f.GP64()
	f.Load(f.Param("chunk"), f.gs)
	f.CMPQ(left, f.gs)
	f.CMOVQLT(left, f.gs) // the row's last chunk may be shorter
	f.Load(f.Param("prog"), f.ip)
	f.Load(f.Param("nprog"), end)
	f.SHLQ(U8(3), end)
	f.ADDQ(f.ip, end)
	f.Label(f.label("dispatch"))
	key := f.GP64()
	f.MOVWQZX(Mem{Base: f.ip}, key)
	forms := fuseFormsOf(ops)
	f.tree(forms, key)
	for _, form := range forms {
		f.handler(form)
	}
	f.Label(f.label("next"))
	f.ADDQ(U8(8), f.ip)
	f.CMPQ(f.ip, end)
	f.JB(LabelRef(f.label("dispatch")))

	f.SUBQ(f.gs, left)
	f.SHLQ(U8(log2(fuseGroup*f.isa.Vector)), f.gs)
	f.ADDQ(f.gs, f.j)
	f.TESTQ(left, left)
	f.JNZ(LabelRef(f.label("chunk")))

	p, last := f.GP64(), f.GP64()
	f.MOVQ(f.slots, p)
	f.Load(f.Param("nslots"), last)
	f.SHLQ(U8(5), last)
	f.ADDQ(p, last)
	f.Label(f.label("rownext"))
	x := f.GP64()
	f.MOVQ(Mem{Base: p, Disp: 8}, x)
	f.ADDQ(x, Mem{Base: p})
	f.ADDQ(U8(32), p)
	f.CMPQ(p, last)
	f.JB(LabelRef(f.label("rownext")))
	f.DECQ(f.arg("rows")) // the count of rows left: an argument slot is the callee's
	f.JNZ(LabelRef(f.label("row")))
	f.Label(done)
	f.VZEROUPPER()
	f.RET()
}

// tree emits a binary search of forms (by key) for key, ending in a jump
// to the matching handler. The programs hold only keys the kernel has.
func (f *fuser) tree(forms []fuseForm, key reg.GPVirtual) {
	if len(forms) == 1 {
		f.JMP(LabelRef(f.label("op%d", forms[0].key())))
		return
	}
	mid := len(forms) / 2
	right := f.label("keys%d", forms[mid].key())
	f.CMPQ(key, U32(uint32(forms[mid].key())))
	f.JAE(LabelRef(right))
	f.tree(forms[:mid], key)
	f.Label(right)
	f.tree(forms[mid:], key)
}

// handler emits the instruction of form o at ip over one chunk: each value
// input broadcast into a register (and prepared, as the op's kernels
// prepare a value per row), then groups of fuseGroup vectors, each loaded,
// computed and stored in turn: an output that is one of the inputs is read
// a vector before it is written there.
func (f *fuser) handler(o fuseForm) {
	name := f.label("op%d", o.key())
	f.Label(name)
	fam := o.op.Family
	k := &x86Kernel{Context: f.Context, isa: f.isa, op: o.op, em: o.em, t: f.t, lanes: f.lanes, wide: f.t.Bits / 8}
	out := k.elemOf(fam.Out)
	w := f.isa.Vector
	dst := f.slotAddr(3)
	if o.em.consts != nil {
		k.consts = o.em.consts(k)
	}
	ins := make([]reg.GPVirtual, len(fam.Inputs)) // nil for a value
	elems := make([]x86Elem, len(fam.Inputs))
	values := make([]x86Src, len(fam.Inputs))
	for i, in := range fam.Inputs {
		e := k.elemOf(in.Type)
		elems[i] = e
		addr := f.slotAddr(4 + i)
		if o.scalars>>i&1 == 0 {
			ins[i] = addr
			continue
		}
		bc := k.vec(w)
		e.broadcast(f.Context, Mem{Base: addr}, bc)
		v := x86Src{elem: e, v: narrow(bc, w)}
		if o.em.preps > 0 {
			for range o.em.preps {
				v.prep = append(v.prep, narrow(k.vec(w), w))
			}
			o.em.prep(k, v.v, v.prep, w)
		}
		values[i] = v
	}
	g := f.GP64()
	f.MOVQ(f.gs, g)
	nt := out.Size() == k.wide
	if nt {
		f.TESTB(U8(fuseNT), Mem{Base: f.ip, Disp: 2})
		f.JNZ(LabelRef(name + "nt"))
	}
	// group computes one group at the pointers, leaving them where they are.
	// A math op's vectors are a loop rather than fuseGroup copies of its
	// long program: the fused file would otherwise grow by megabytes.
	groups := 0
	group := func(stream bool) {
		copies, step := fuseGroup, 0
		var count reg.GPVirtual
		vec := f.label("op%dvec%d", o.key(), groups)
		groups++
		if o.op.Math {
			copies, step = 1, f.lanes
			count = f.GP64()
			f.MOVQ(U32(fuseGroup), count)
			f.Label(vec)
		}
		advance := func(by int) {
			f.ADDQ(I32(int32(by*out.Size())), dst)
			for i, e := range elems {
				if ins[i] != nil {
					f.ADDQ(I32(int32(by*e.Size())), ins[i])
				}
			}
		}
		defer func() {
			if o.op.Math {
				advance(step)
				f.DECQ(count)
				f.JNZ(LabelRef(vec))
				advance(-fuseGroup * step)
			}
		}()
		for u := range copies {
			srcs := slices.Clone(values)
			for i, e := range elems {
				if ins[i] == nil {
					continue
				}
				m := Mem{Base: ins[i], Disp: u * f.lanes * e.Size()}
				srcs[i] = x86Src{elem: e, v: m}
				if i+1 != o.em.memInput || e.Size() != k.wide {
					ew := k.width(e, f.lanes)
					r := k.vec(ew)
					e.load(f.Context, f.lanes*e.Size(), m, r)
					srcs[i].v = narrow(r, ew)
				}
			}
			r := o.em.compute(k, srcs, w)
			m := Mem{Base: dst, Disp: u * f.lanes * out.Size()}
			if stream {
				out.storeNT(f.Context, r, m)
			} else {
				out.store(f.Context, f.lanes*out.Size(), r, m)
			}
		}
	}
	loop := func(label string, stream bool) {
		f.Label(label)
		group(stream)
		f.ADDQ(U32(uint32(fuseGroup*f.lanes*out.Size())), dst)
		for i, e := range elems {
			if ins[i] != nil {
				f.ADDQ(U32(uint32(fuseGroup*f.lanes*e.Size())), ins[i])
			}
		}
		f.DECQ(g)
		f.JNZ(LabelRef(label))
		if !stream {
			f.tail(o, dst, ins, group)
		}
		f.JMP(LabelRef(f.label("next")))
	}
	loop(name+"loop", false)
	if nt {
		loop(name+"nt", true)
	}
}

// tail emits, after an instruction's loop over the row's last chunk, the
// row's tail group (kernel.Fuse's tail): the pointers of the slots that
// move along the row go back by -tail bytes, from the end of the whole
// groups to the group that ends the row; those of temporaries stay where
// the loop left them, one group past the chunk, in room the chunk buffers
// keep for it.
func (f *fuser) tail(o fuseForm, dst reg.GPVirtual, ins []reg.GPVirtual, group func(stream bool)) {
	skip := f.label("op%dnotail", o.key())
	f.CMPQ(f.left, f.gs)
	f.JNE(LabelRef(skip))
	d := f.GP64()
	f.Load(f.Param("tail"), d)
	f.TESTQ(d, d)
	f.JZ(LabelRef(skip))
	back := func(b int, p reg.GPVirtual) {
		s, m := f.GP64(), f.GP64()
		f.MOVBQZX(Mem{Base: f.ip, Disp: b}, s)
		f.SHLQ(U8(5), s)
		f.MOVQ(Mem{Base: f.slots, Index: s, Scale: 1, Disp: 16}, m)
		f.ANDQ(d, m)
		f.ADDQ(m, p)
	}
	back(3, dst)
	for i, p := range ins {
		if p != nil {
			back(4+i, p)
		}
	}
	group(false)
	f.Label(skip)
}
