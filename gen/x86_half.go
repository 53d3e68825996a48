package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// x86HalfLevels are the vector widths of the half-precision conversion
// kernels: AVX2 (with F16C for float16) and AVX-512.
var x86HalfLevels = []struct {
	name     string
	bytes    int // vector register bytes
	features []string
}{
	{"AVX2", 32, []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2", "cpu.X86.HasF16C"}},
	{"AVX512", 64, []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2", "cpu.X86.HasF16C", "cpu.X86.HasAVX512F", "cpu.X86.HasAVX512BW", "cpu.X86.HasAVX512DQ", "cpu.X86.HasAVX512VL"}},
}

// generateHalfAMD64 writes internal/kernel's half-precision conversion
// kernels: f16From32<level>(dst *uint16, src *float32, n int) and the
// other three, for n a multiple of their step, float16 by the F16C
// instructions (round to nearest even: immediate 0), bfloat16 by integer
// rounding (VCVTNEPS2BF16 flushes subnormals).
func generateHalfAMD64(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	needs := map[string][]string{}
	for _, l := range x86HalfLevels {
		for _, k := range []struct {
			name, doc string
			narrow    bool
			emit      func(h *x86Half, dst, src reg.Register)
		}{
			{"f16From32", "float32 to float16", true, (*x86Half).f16From32},
			{"f16To32", "float16 to float32", false, (*x86Half).f16To32},
			{"bf16From32", "float32 to bfloat16", true, (*x86Half).bf16From32},
			{"bf16To32", "bfloat16 to float32", false, (*x86Half).bf16To32},
		} {
			// Each also streams: non-temporal stores skip reading the
			// destination's lines first, which at 16M values is a third
			// of a widening's traffic and a fifth of a narrowing's.
			for _, nt := range []bool{false, true} {
				name := k.name + l.name
				h := &x86Half{c: c, lanes: l.bytes / 4, wide: l.bytes == 64, nt: nt}
				doc := fmt.Sprintf("%s converts n values (a multiple of %d) from %s.", name, 2*h.lanes, k.doc)
				if nt {
					name += "NT"
					doc = fmt.Sprintf("%s converts n values (a multiple of %d) from %s, dst aligned to %d bytes, with non-temporal stores left unordered: Fence orders them.", name, 2*h.lanes, k.doc, l.bytes)
				}
				c.Function(name)
				c.Pragma("noescape")
				c.Doc(doc)
				c.Attributes(attr.NOSPLIT)
				if k.narrow {
					c.SignatureExpr("func(dst *uint16, src *float32, n int)")
				} else {
					c.SignatureExpr("func(dst *float32, src *uint16, n int)")
				}
				h.loop(name, k.narrow, k.emit)
				needs[name] = l.features
			}
		}
	}
	for _, l := range x86HalfLevels {
		for _, brain := range []bool{false, true} {
			for _, with := range []string{"", "Half", "Float32"} {
				name := halfDotName(brain, with, l.name)
				h := &x86Half{c: c, lanes: l.bytes / 4, wide: l.bytes == 64}
				c.Function(name)
				c.Pragma("noescape")
				c.Attributes(attr.NOSPLIT)
				switch with {
				case "":
					c.Doc(name + " adds a[i] into acc[i mod 32], n a multiple of 32: Sum's lanes over half values.")
					c.SignatureExpr("func(acc *float32, a *uint16, n int)")
				case "Half":
					c.Doc(name + " adds a[i]*b[i] into acc[i mod 32], n a multiple of 32: Dot's lanes over half values.")
					c.SignatureExpr("func(acc *float32, a, b *uint16, n int)")
				default:
					c.Doc(name + " adds a[i]*b[i] into acc[i mod 32], n a multiple of 32: Dot's lanes over half values a and float32 values b.")
					c.SignatureExpr("func(acc *float32, a *uint16, b *float32, n int)")
				}
				h.dot(name, brain, with)
				needs[name] = l.features
				if with == "Half" && !brain {
					needs[name] = append(slices.Clone(l.features), "cpu.X86.HasFMA")
				}
			}
		}
	}
	return writeAvo(c, dir, "half", needs)
}

// halfDotName is the name of a fused half-precision sum ("" with) or dot
// product (with "Half" or "Float32" values) kernel.
func halfDotName(brain bool, with, level string) string {
	f := "f16"
	if brain {
		f = "bf16"
	}
	if with == "" {
		return f + "Sum" + level
	}
	return f + "Dot" + with + level
}

// dot writes a fused sum or dot product: Lanes accumulators in registers,
// each value widened in registers as it is loaded and added (after its
// product, rounded, with the other operand) into its lane, in the order of
// Sum's and Dot's lane kernels.
func (h *x86Half) dot(name string, brain bool, with string) {
	c := h.c
	accPtr := c.Load(c.Param("acc"), c.GP64())
	a := c.Load(c.Param("a"), c.GP64())
	var b reg.Register
	if with != "" {
		b = c.Load(c.Param("b"), c.GP64())
	}
	n := c.Load(c.Param("n"), c.GP64())
	regs := 32 / h.lanes
	acc := make([]reg.VecVirtual, regs)
	for k := range acc {
		acc[k] = h.vec()
		c.VMOVUPS(Mem{Base: accPtr, Disp: 4 * h.lanes * k}, acc[k])
	}
	widen := func(base reg.Register, k int) reg.VecVirtual {
		v := h.vec()
		m := Mem{Base: base, Disp: 2 * h.lanes * k}
		if brain {
			c.VPMOVZXWD(m, v)
			c.VPSLLD(U8(16), v, v)
		} else {
			c.VCVTPH2PS(m, v)
		}
		return v
	}
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	for k := range acc {
		x := widen(a, k)
		switch {
		case with == "Half" && !brain:
			// A product of two float16 values is exact in float32 (22
			// bits, between 2^-48 and 2^32), so the fused multiply-add
			// rounds once where Dot's product and sum round twice, to
			// the same bits.
			c.VFMADD231PS(widen(b, k), x, acc[k])
			continue
		case with == "Half":
			c.VMULPS(widen(b, k), x, x)
		case with == "Float32":
			c.VMULPS(Mem{Base: b, Disp: 4 * h.lanes * k}, x, x)
		}
		c.VADDPS(x, acc[k], acc[k])
	}
	c.ADDQ(U32(64), a)
	switch with {
	case "Half":
		c.ADDQ(U32(64), b)
	case "Float32":
		c.ADDQ(U32(128), b)
	}
	c.SUBQ(U32(32), n)
	c.JNZ(LabelRef(name + "loop"))
	c.Label(name + "done")
	for k := range acc {
		c.VMOVUPS(acc[k], Mem{Base: accPtr, Disp: 4 * h.lanes * k})
	}
	c.VZEROUPPER()
	c.RET()
}

// x86Half is one half-precision conversion kernel being written.
type x86Half struct {
	c     *build.Context
	lanes int  // float32 lanes per register
	wide  bool // AVX-512
	nt    bool // float32 stores non-temporal, to an aligned dst
	k     struct{ one, round, abs, inf, quiet, odd reg.VecVirtual }
}

// vec returns a new register of the kernel's width.
func (h *x86Half) vec() reg.VecVirtual {
	if h.wide {
		return h.c.ZMM()
	}
	return h.c.YMM()
}

// loop writes the kernel's loop over n values, two registers of float32 a
// step; body writes one step at dst and src.
func (h *x86Half) loop(name string, narrow bool, body func(h *x86Half, dst, src reg.Register)) {
	c := h.c
	dst := c.Load(c.Param("dst"), c.GP64())
	src := c.Load(c.Param("src"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	if strings.HasPrefix(name, "bf16From32") {
		h.constants(name)
	}
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	body(h, dst, src)
	step := 2 * h.lanes
	dstSize, srcSize := 4, 2
	if narrow {
		dstSize, srcSize = 2, 4
	}
	c.ADDQ(U32(uint32(step*dstSize)), dst)
	c.ADDQ(U32(uint32(step*srcSize)), src)
	c.SUBQ(U32(uint32(step)), n)
	c.JNZ(LabelRef(name + "loop"))
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}

// constants broadcasts the constants of the bfloat16 rounding of kernel
// name; at AVX-512 the NaN test needs none, the quiet bit is a float32's,
// and the indexes of the odd 16-bit words of two registers (their top
// halves) are loaded from a table.
func (h *x86Half) constants(name string) {
	type constant struct {
		r *reg.VecVirtual
		v uint32
	}
	consts := []constant{{&h.k.one, 1}, {&h.k.round, 0x7fff}, {&h.k.abs, 0x7fffffff}, {&h.k.inf, 0x7f800000}, {&h.k.quiet, 0x40}}
	if h.wide {
		consts = []constant{{&h.k.one, 1}, {&h.k.round, 0x7fff}, {&h.k.quiet, 0x400000}}
		idx := h.c.StaticGlobal(name + "odd")
		h.c.DataAttributes(attr.RODATA | attr.NOPTR)
		for j := range 32 {
			h.c.AddDatum(2*j, U16(uint16(2*j+1)))
		}
		h.k.odd = h.vec()
		h.c.VMOVDQU32(idx, h.k.odd)
	}
	for _, k := range consts {
		g := h.c.GP32()
		h.c.MOVL(U32(k.v), g)
		x := h.c.XMM()
		h.c.MOVD(g, x)
		*k.r = h.vec()
		h.c.VPBROADCASTD(x, *k.r)
	}
}

// store writes v to m.
func (h *x86Half) store(v reg.VecVirtual, m Mem) {
	if h.wide {
		h.c.VMOVDQU32(v, m)
		return
	}
	h.c.VMOVDQU(v, m)
}

func (h *x86Half) f16From32(dst, src reg.Register) {
	for i := range 2 {
		v := h.vec()
		h.c.VMOVUPS(Mem{Base: src, Disp: 4 * h.lanes * i}, v)
		m := Mem{Base: dst, Disp: 2 * h.lanes * i}
		if !h.nt {
			h.c.VCVTPS2PH(U8(0), v, m)
			continue
		}
		r := h.halfVec()
		h.c.VCVTPS2PH(U8(0), v, r)
		h.c.VMOVNTDQ(r, m)
	}
}

// halfVec returns a register of half the kernel's width: one register of
// float32 values narrowed to 16 bits.
func (h *x86Half) halfVec() reg.VecVirtual {
	if h.wide {
		return h.c.YMM()
	}
	return h.c.XMM()
}

func (h *x86Half) f16To32(dst, src reg.Register) {
	for i := range 2 {
		v := h.vec()
		h.c.VCVTPH2PS(Mem{Base: src, Disp: 2 * h.lanes * i}, v)
		h.storeFloats(v, Mem{Base: dst, Disp: 4 * h.lanes * i})
	}
}

// storeFloats writes a register of float32 results to m.
func (h *x86Half) storeFloats(v reg.VecVirtual, m Mem) {
	if h.nt {
		h.c.VMOVNTPS(v, m)
		return
	}
	h.c.VMOVUPS(v, m)
}

func (h *x86Half) bf16To32(dst, src reg.Register) {
	for i := range 2 {
		v := h.vec()
		h.c.VPMOVZXWD(Mem{Base: src, Disp: 2 * h.lanes * i}, v)
		h.c.VPSLLD(U8(16), v, v)
		if h.nt {
			h.storeFloats(v, Mem{Base: dst, Disp: 4 * h.lanes * i})
		} else {
			h.store(v, Mem{Base: dst, Disp: 4 * h.lanes * i})
		}
	}
}

// bf16From32 rounds each float32's bits b to its top half, to nearest
// even: (b + 0x7fff + bit 16 of b) >> 16, which carries into the exponent
// as rounding should and overflows to ±Inf; a NaN (|b| above Inf's bits)
// keeps its top half with the quiet bit set.
func (h *x86Half) bf16From32(dst, src reg.Register) {
	c := h.c
	if h.wide {
		h.bf16From32Wide(dst, src)
		return
	}
	var rounded [2]reg.VecVirtual
	for i := range 2 {
		b, top, r, a, nan := h.vec(), h.vec(), h.vec(), h.vec(), h.vec()
		h.load(Mem{Base: src, Disp: 4 * h.lanes * i}, b)
		c.VPSRLD(U8(16), b, top)
		c.VPAND(h.k.one, top, r)
		c.VPADDD(b, r, r)
		c.VPADDD(h.k.round, r, r)
		c.VPSRLD(U8(16), r, r)
		c.VPAND(h.k.abs, b, a)
		c.VPOR(h.k.quiet, top, nan)
		m := h.vec() // AVX2 has no mask registers
		c.VPCMPGTD(h.k.inf, a, m)
		c.VPBLENDVB(m, nan, r, r)
		rounded[i] = r
	}
	p := h.vec()
	c.VPACKUSDW(rounded[1], rounded[0], p)
	c.VPERMQ(U8(0xd8), p, p)
	if h.nt {
		c.VMOVNTDQ(p, Mem{Base: dst})
	} else {
		c.VMOVDQU(p, Mem{Base: dst})
	}
}

// bf16From32Wide is bf16From32 at AVX-512 with the rounded bits left in
// place: a NaN (VFPCLASSPS) takes its own bits with the quiet bit set by a
// masked OR, and one VPERMT2W gathers the top halves of two registers,
// where the narrow form shifts, compares, blends and narrows each (16
// instructions per 32 values with the loads and the store, against 22).
func (h *x86Half) bf16From32Wide(dst, src reg.Register) {
	c := h.c
	var r [2]reg.VecVirtual
	for i := range 2 {
		b, t := h.vec(), h.vec()
		r[i] = h.vec()
		h.load(Mem{Base: src, Disp: 4 * h.lanes * i}, b)
		c.VPSRLD(U8(16), b, t)
		c.VPANDD(h.k.one, t, t)
		c.VPADDD(b, t, r[i])
		c.VPADDD(h.k.round, r[i], r[i])
		nan := c.K()
		c.VFPCLASSPSZ(U8(0x81), b, nan) // quiet or signalling NaN
		c.VPORD(h.k.quiet, b, nan, r[i])
	}
	c.VPERMT2W(r[1], h.k.odd, r[0])
	if h.nt {
		c.VMOVNTDQ(r[0], Mem{Base: dst})
	} else {
		c.VMOVDQU32(r[0], Mem{Base: dst})
	}
}

// load reads m into v.
func (h *x86Half) load(m Mem, v reg.VecVirtual) {
	if h.wide {
		h.c.VMOVDQU32(m, v)
		return
	}
	h.c.VMOVDQU(m, v)
}
