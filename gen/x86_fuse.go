package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/gen/asm"
)

// The fused kernels run a whole expression (package expr) over memory in
// one pass: a small program of instructions, one per op, interpreted chunk
// by chunk. Each instruction runs its op over one chunk (groups of four
// vectors) of its operands, which are slots: an array's current chunk, a
// chunk-sized temporary, a value broadcast over a chunk. A chunk is small
// enough that its temporaries stay in L1 and every input stream is read a
// chunk at a time, all of them in each chunk, as one kernel of several
// inputs reads them; the op-per-call alternative reads one stream at a time
// and pays a call per op and block.
//
// Slots are 4 words: the address of the current row's first chunk, the
// bytes from one row to the next, a mask of the chunk's offset in the row
// (all ones for a slot that advances along the row, zero for temporaries
// and broadcasts), and one unused. The offset lives in a register, so that
// each instruction finds its operands with no store to wait for. An instruction is a uint64: byte 0 its code, byte 1 its
// flags (fuseNT: non-temporal stores), bytes 2 to 5 the slots of its
// output and inputs. The first npro instructions are broadcasts, run once
// per row (a value per row, or the same value every row); the rest run on
// every chunk.

// fuseFamilies are the families the fused kernels run, each with the first
// code of its ops: an op's code is its family's base plus its index in the
// family, which is its value in package kernel.
var fuseFamilies = []struct {
	f    *asm.Family
	base int
}{{asm.Binary, 1}, {asm.Unary, 16}, {asm.Ternary, 32}, {asm.Compare, 48}, {asm.Selection, 56}}

// fuseBroadcastCode is the code of the broadcast instruction.
const fuseBroadcastCode = 0

// fuseNT is the flag of an instruction that writes with non-temporal
// stores: the output, when it streams.
const fuseNT = 1

// fuseGroup is the number of vectors of one step of an instruction's loop.
const fuseGroup = 4

// fuseOp is an op the fused kernels of one element type run.
type fuseOp struct {
	code int
	op   asm.Op
	em   x86Emitter
}

// fuseTypes are the element types with fused kernels.
var fuseTypes = []asm.Type{asm.Float32, asm.Float64}

// fuseOpsOf lists the ops of t with a vector form, by code.
func fuseOpsOf(t asm.Type) ([]fuseOp, error) {
	var ops []fuseOp
	for i, fam := range fuseFamilies {
		family := asm.OpsOf(fam.f)
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
func fuseName(t asm.Type, isa x86ISA) string { return "fuse" + t.Short + isa.Name }

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
	for _, isa := range x86ISAs() {
		for ti, t := range fuseTypes {
			ops, err := fuseOpsOf(t)
			if err != nil {
				return err
			}
			f := &fuser{Context: c, isa: isa, t: t, name: fuseName(t, isa)}
			f.generate(ops)
			needs[f.name] = slices.Clone(isa.Features)
			for _, o := range ops {
				has[ti] |= 1 << o.code
				for _, feat := range o.em.features {
					needs[f.name] = append(needs[f.name], feat)
					if !slices.Contains(extra, feat) {
						extra = append(extra, feat)
					}
				}
			}
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
	g.doc("The codes of the fused kernels' instructions: a broadcast, and an op's\nfamily base plus its value.")
	g.p("const (")
	g.p("fuseBroadcast = %d", fuseBroadcastCode)
	for _, fam := range fuseFamilies {
		g.p("fuse%sBase = %d", exported(fam.f.Name), fam.base)
	}
	g.p(")\n")
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
	t     asm.Type
	name  string
	lanes int

	slots, ip, j reg.GPVirtual
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

// generate emits the kernel: rows, each a prologue of broadcasts and then
// chunks of the program; at the end of a row, every slot's row start moves
// on by its row stride.
func (f *fuser) generate(ops []fuseOp) {
	f.Function(f.name)
	f.Attributes(attr.NOSPLIT)
	f.SignatureExpr("func(prog *uint64, npro, nprog int, slots *uintptr, nslots, rows, chunks, groups int)")
	f.Pragma("noescape")
	f.Doc(fmt.Sprintf("%s runs the fused program prog over rows x chunks chunks of groups x %d vectors of %s with %s (see gen/x86_fuse.go).",
		f.name, fuseGroup, f.t.GoName, f.isa.Name))
	f.lanes = f.isa.Vector / (f.t.Bits / 8)
	done := f.label("done")
	f.slots = f.GP64()
	f.Load(f.Param("slots"), f.slots)
	rows := f.Load(f.Param("rows"), f.GP64())
	f.TESTQ(rows, rows)
	f.JLE(LabelRef(done))
	f.CMPQ(f.arg("chunks"), U8(0))
	f.JLE(LabelRef(done))
	step := f.Load(f.Param("groups"), f.GP64())
	f.SHLQ(U8(log2(fuseGroup*f.isa.Vector)), step)

	f.Label(f.label("row"))
	f.j = f.GP64()
	f.XORQ(f.j, f.j)
	f.ip = f.GP64()
	end := f.GP64()
	f.Load(f.Param("prog"), f.ip)
	f.Load(f.Param("npro"), end)
	f.SHLQ(U8(3), end)
	f.ADDQ(f.ip, end)
	f.CMPQ(f.ip, end)
	f.JAE(LabelRef(f.label("chunks")))
	f.Label(f.label("broadcast"))
	f.broadcast()
	f.ADDQ(U8(8), f.ip)
	f.CMPQ(f.ip, end)
	f.JB(LabelRef(f.label("broadcast")))

	f.Label(f.label("chunks"))
	cnt := f.Load(f.Param("chunks"), f.GP64())
	f.Label(f.label("chunk"))
	f.Load(f.Param("npro"), f.ip)
	f.SHLQ(U8(3), f.ip)
	f.ADDQ(f.arg("prog"), f.ip)
	f.Load(f.Param("nprog"), end)
	f.SHLQ(U8(3), end)
	f.ADDQ(f.arg("prog"), end)
	f.CMPQ(f.ip, end)
	f.JAE(LabelRef(f.label("advance")))
	f.Label(f.label("dispatch"))
	code := f.GP64()
	f.MOVBQZX(Mem{Base: f.ip}, code)
	f.tree(ops, code)
	for _, o := range ops {
		f.handler(o)
	}
	f.Label(f.label("next"))
	f.ADDQ(U8(8), f.ip)
	f.CMPQ(f.ip, end)
	f.JB(LabelRef(f.label("dispatch")))

	f.Label(f.label("advance"))
	f.ADDQ(step, f.j)
	f.DECQ(cnt)
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
	f.DECQ(rows)
	f.JNZ(LabelRef(f.label("row")))
	f.Label(done)
	f.VZEROUPPER()
	f.RET()
}

// broadcast emits the broadcast instruction at ip: the element at its
// input slot's address into every element of its output slot's chunk.
func (f *fuser) broadcast() {
	dst, src := f.slotAddr(2), f.slotAddr(3)
	e := x86ElemOf(f.t)
	v := f.vec(f.isa.Vector)
	e.broadcast(f.Context, Mem{Base: src}, v)
	g := f.Load(f.Param("groups"), f.GP64())
	loop := f.label("broadcastloop")
	f.Label(loop)
	for u := range fuseGroup {
		e.store(f.Context, f.isa.Vector, v, Mem{Base: dst, Disp: u * f.isa.Vector})
	}
	f.ADDQ(U32(uint32(fuseGroup*f.isa.Vector)), dst)
	f.DECQ(g)
	f.JNZ(LabelRef(loop))
}

// vec allocates a vector register of width bytes.
func (f *fuser) vec(width int) reg.VecVirtual {
	if width == 64 {
		return f.ZMM()
	}
	return f.YMM()
}

// tree emits a binary search of ops (by code) for code, ending in a jump
// to the matching handler. The programs hold only codes the kernel has.
func (f *fuser) tree(ops []fuseOp, code reg.GPVirtual) {
	if len(ops) == 1 {
		f.JMP(LabelRef(f.label("op%d", ops[0].code)))
		return
	}
	mid := len(ops) / 2
	right := f.label("codes%d", ops[mid].code)
	f.CMPQ(code, U8(ops[mid].code))
	f.JAE(LabelRef(right))
	f.tree(ops[:mid], code)
	f.Label(right)
	f.tree(ops[mid:], code)
}

// handler emits the instruction of op o at ip over one chunk: groups of
// fuseGroup vectors, all loads and computations of a group before its
// stores, so that the output may be one of the inputs.
func (f *fuser) handler(o fuseOp) {
	f.Label(f.label("op%d", o.code))
	fam := o.op.Family
	k := &x86Kernel{Context: f.Context, isa: f.isa, op: o.op, em: o.em, t: f.t, lanes: f.lanes, wide: f.t.Bits / 8}
	out := k.elemOf(fam.Out)
	dst := f.slotAddr(2)
	var ins []reg.GPVirtual
	var elems []x86Elem
	for i, in := range fam.Inputs {
		ins = append(ins, f.slotAddr(3+i))
		elems = append(elems, k.elemOf(in.Type))
	}
	if o.em.consts != nil {
		k.consts = o.em.consts(k)
	}
	g := f.Load(f.Param("groups"), f.GP64())
	nt := out.Size() == k.wide
	if nt {
		f.TESTB(U8(fuseNT), Mem{Base: f.ip, Disp: 1})
		f.JNZ(LabelRef(f.label("op%dnt", o.code)))
	}
	loop := func(label string, stream bool) {
		f.Label(label)
		w := f.isa.Vector
		results := make([]Op, fuseGroup)
		for u := range results {
			var srcs []x86Src
			for i, e := range elems {
				m := Mem{Base: ins[i], Disp: u * f.lanes * e.Size()}
				s := x86Src{elem: e, v: m}
				if i+1 != o.em.memInput || e.Size() != k.wide {
					ew := k.width(e, f.lanes)
					r := k.vec(ew)
					e.load(f.Context, f.lanes*e.Size(), m, r)
					s.v = narrow(r, ew)
				}
				srcs = append(srcs, s)
			}
			results[u] = o.em.compute(k, srcs, w)
		}
		for u, r := range results {
			m := Mem{Base: dst, Disp: u * f.lanes * out.Size()}
			if stream {
				out.storeNT(f.Context, r, m)
			} else {
				out.store(f.Context, f.lanes*out.Size(), r, m)
			}
		}
		f.ADDQ(U32(uint32(fuseGroup*f.lanes*out.Size())), dst)
		for i, e := range elems {
			f.ADDQ(U32(uint32(fuseGroup*f.lanes*e.Size())), ins[i])
		}
		f.DECQ(g)
		f.JNZ(LabelRef(label))
		f.JMP(LabelRef(f.label("next")))
	}
	loop(f.label("op%dloop", o.code), false)
	if nt {
		loop(f.label("op%dnt", o.code), true)
	}
}
