package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// generateComplexAMD64 writes internal/kernel's complex product kernels:
// mul[Conj]C64<level> and mul[Conj]C128<level>(dst, a, b *T, n int), n a
// multiple of the step (two registers a step). Conj multiplies by b's
// conjugate (its imaginary part's sign flipped).
func generateComplexAMD64(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	needs := map[string][]string{}
	for _, l := range x86HalfLevels {
		for _, bits := range []int{64, 128} {
			for _, conj := range []bool{false, true} {
				name := fmt.Sprintf("mulC%d%s", bits, l.name)
				what := "a[i]*b[i]"
				if conj {
					name = fmt.Sprintf("mulConjC%d%s", bits, l.name)
					what = "a[i]*conj(b[i])"
				}
				x := &x86Complex{c: c, wide: l.bytes == 64, single: bits == 64}
				c.Function(name)
				c.Pragma("noescape")
				c.Attributes(attr.NOSPLIT)
				c.Doc(fmt.Sprintf("%s sets dst[i] = %s for i < n, n a multiple of %d.", name, what, 2*x.values()))
				c.SignatureExpr(fmt.Sprintf("func(dst, a, b *complex%d, n int)", bits))
				x.mul(name, conj)
				needs[name] = l.features

				dot := "dot" + name[len("mul"):]
				c.Function(dot)
				c.Pragma("noescape")
				c.Attributes(attr.NOSPLIT)
				c.Doc(fmt.Sprintf("%s adds the parts of %s into acc[j] for part j mod 32, n a multiple of 16: Sum's lanes over the products.", dot, what))
				c.SignatureExpr(fmt.Sprintf("func(acc *float%d, a, b *complex%d, n int)", bits/2, bits))
				x.dot(dot, conj)
				needs[dot] = l.features
			}
		}
	}
	for _, l := range x86HalfLevels {
		name := "magC64" + l.name
		x := &x86Complex{c: c, wide: l.bytes == 64, single: false}
		c.Function(name)
		c.Pragma("noescape")
		c.Attributes(attr.NOSPLIT)
		c.Doc(name + " sets dst[i] = |a[i]| for i < n until a NaN, n a multiple of its group, and returns how many it set (see magnitude).")
		c.SignatureExpr("func(dst *float32, a *complex64, n int) int")
		x.magnitude(name)
		needs[name] = l.features
	}
	return writeAvo(c, dir, "complex", needs)
}

// x86Complex is one complex product kernel being written.
type x86Complex struct {
	c      *build.Context
	wide   bool // AVX-512
	single bool // complex64: float32 parts
}

// values is the complex values in one register.
func (x *x86Complex) values() int {
	n := 2
	if x.wide {
		n *= 2
	}
	if x.single {
		n *= 2
	}
	return n
}

func (x *x86Complex) vec() reg.VecVirtual {
	if x.wide {
		return x.c.ZMM()
	}
	return x.c.YMM()
}

// broadcast returns a register of the part-sized value v in every lane.
func (x *x86Complex) broadcast(v uint64) reg.VecVirtual {
	g := x.c.GP64()
	x.c.MOVQ(U64(v), g)
	s := x.c.XMM()
	x.c.MOVQ(g, s)
	r := x.vec()
	if x.single {
		x.c.VPBROADCASTD(s, r)
	} else {
		x.c.VPBROADCASTQ(s, r)
	}
	return r
}

// mul writes the loop. For each pair (ar, ai) of a and (br, bi) of b:
// p = (ar·br, ai·br), q = (ai·bi, ar·bi), the result (p - q, q + p) taken
// lane by lane: ar·br − ai·bi and ar·bi + ai·br, the operands in Go's
// order, every product rounded to the part type; a NaN part becomes the
// quiet NaN. b's parts are repeated across each pair by loads (MOVSLDUP,
// MOVSHDUP and MOVDDUP from memory take no shuffle unit); a's are swapped
// in register.
func (x *x86Complex) mul(name string, conj bool) {
	c := x.c
	dst := c.Load(c.Param("dst"), c.GP64())
	a := c.Load(c.Param("a"), c.GP64())
	b := c.Load(c.Param("b"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	sign := x.conjSign(conj)
	size := 8
	if x.single {
		size = 4
	}
	nan := x.broadcast(quietNaN(size))
	odd := x.oddLanes()
	regBytes := x.regBytes()
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	for k := range 2 {
		r := x.product(Mem{Base: a, Disp: k * regBytes}, Mem{Base: b, Disp: k * regBytes}, sign, odd)
		switch { // a NaN part becomes the quiet NaN
		case x.wide && x.single:
			m := c.K()
			c.VCMPPS(U8(3), r, r, m)
			c.VBLENDMPS(nan, r, m, r)
		case x.wide:
			m := c.K()
			c.VCMPPD(U8(3), r, r, m)
			c.VBLENDMPD(nan, r, m, r)
		case x.single:
			m := x.vec()
			c.VCMPPS(U8(3), r, r, m)
			c.VBLENDVPS(m, nan, r, r)
		default:
			m := x.vec()
			c.VCMPPD(U8(3), r, r, m)
			c.VBLENDVPD(m, nan, r, r)
		}
		x.move(r, Mem{Base: dst, Disp: k * regBytes})
	}
	c.ADDQ(U32(uint32(2*regBytes)), dst)
	c.ADDQ(U32(uint32(2*regBytes)), a)
	c.ADDQ(U32(uint32(2*regBytes)), b)
	c.SUBQ(U32(uint32(2*x.values())), n)
	c.JNZ(LabelRef(name + "loop"))
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}

// regBytes is the bytes of a register.
func (x *x86Complex) regBytes() int {
	if x.wide {
		return 64
	}
	return 32
}

// conjSign returns, for a product by b's conjugate, a register of the
// part's sign bit in every lane (which product flips on b's imaginary
// parts), else nil.
func (x *x86Complex) conjSign(conj bool) reg.Register {
	if !conj {
		return nil
	}
	if x.single {
		return x.broadcast(1 << 31)
	}
	return x.broadcast(1 << 63)
}

// oddLanes returns, at the AVX-512 width, a mask of the odd lanes (the
// imaginary parts).
func (x *x86Complex) oddLanes() reg.Register {
	if !x.wide {
		return nil
	}
	g := x.c.GP32()
	x.c.MOVL(U32(0xaaaa), g)
	k := x.c.K()
	x.c.KMOVW(g, k)
	return k
}

// product returns a register of the products of the values at ma and mb
// (by mb's conjugates when sign, the part's sign bit in every lane, is
// set), NaN parts as the operations give them.
func (x *x86Complex) product(ma, mb Mem, sign, odd reg.Register) reg.VecVirtual {
	c := x.c
	va, br, bi, as := x.vec(), x.vec(), x.vec(), x.vec()
	p, q, r := x.vec(), x.vec(), x.vec()
	if x.single {
		c.VMOVUPS(ma, va)
		c.VMOVSLDUP(mb, br)
		c.VMOVSHDUP(mb, bi)
		c.VPERMILPS(U8(0b10110001), va, as)
	} else {
		c.VMOVUPD(ma, va)
		c.VMOVDDUP(mb, br)
		c.VPERMILPD(U8(0b11111111), mb, bi)
		c.VPERMILPD(U8(0b01010101), va, as)
	}
	switch conj := sign != nil; {
	case conj && x.wide && x.single: // VXORPS zmm is AVX512DQ
		c.VPXORD(sign, bi, bi)
	case conj && x.wide:
		c.VPXORQ(sign, bi, bi)
	case conj && x.single:
		c.VXORPS(sign, bi, bi)
	case conj:
		c.VXORPD(sign, bi, bi)
	}
	if x.single {
		c.VMULPS(br, va, p)
		c.VMULPS(bi, as, q)
		c.VSUBPS(q, p, r) // p - q
	} else {
		c.VMULPD(br, va, p)
		c.VMULPD(bi, as, q)
		c.VSUBPD(q, p, r)
	}
	switch {
	case x.wide && x.single:
		c.VADDPS(p, q, odd, r) // the odd lanes: q + p
	case x.wide:
		c.VADDPD(p, q, odd, r)
	case x.single:
		t := x.vec()
		c.VADDPS(p, q, t) // q + p
		c.VBLENDPS(U8(0b10101010), t, r, r)
	default:
		t := x.vec()
		c.VADDPD(p, q, t)
		c.VBLENDPD(U8(0b1010), t, r, r)
	}
	return r
}

// dot writes a fused dot product: the products of a round (16 values, 32
// parts) added into the 32 accumulators of Sum's canonical order, part j
// of the round into accumulator j, as Sum's lane kernel adds the parts of
// the products; n is a multiple of 16. NaN parts need no fixing here: a
// NaN sum is made the quiet NaN at the end.
func (x *x86Complex) dot(name string, conj bool) {
	c := x.c
	accPtr := c.Load(c.Param("acc"), c.GP64())
	a := c.Load(c.Param("a"), c.GP64())
	b := c.Load(c.Param("b"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	sign := x.conjSign(conj)
	odd := x.oddLanes()
	regs := 32 * x.partBytes() / x.regBytes()
	acc := make([]reg.VecVirtual, regs)
	for k := range acc {
		acc[k] = x.vec()
		x.move(Mem{Base: accPtr, Disp: k * x.regBytes()}, acc[k])
	}
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	for k := range acc {
		r := x.product(Mem{Base: a, Disp: k * x.regBytes()}, Mem{Base: b, Disp: k * x.regBytes()}, sign, odd)
		if x.single {
			c.VADDPS(r, acc[k], acc[k])
		} else {
			c.VADDPD(r, acc[k], acc[k])
		}
	}
	round := uint32(32 * x.partBytes())
	c.ADDQ(U32(round), a)
	c.ADDQ(U32(round), b)
	c.SUBQ(U32(16), n)
	c.JNZ(LabelRef(name + "loop"))
	c.Label(name + "done")
	for k := range acc {
		x.move(acc[k], Mem{Base: accPtr, Disp: k * x.regBytes()})
	}
	c.VZEROUPPER()
	c.RET()
}

// partBytes is the bytes of a part.
func (x *x86Complex) partBytes() int {
	if x.single {
		return 4
	}
	return 8
}

// move copies a register of parts between memory and a register.
func (x *x86Complex) move(from, to Op) {
	if x.single {
		x.c.VMOVUPS(from, to)
	} else {
		x.c.VMOVUPD(from, to)
	}
}

// generateMagnitude writes magC64<level>(dst *float32, a *complex64, n
// int) int, n a multiple of its group (4 values at AVX2, 8 at AVX-512):
// for each value s = re² + im² in float64 (exact squares, one rounding),
// then, where s lies in [2^-126, 2^127], the float32 square root of s
// rounded to float32, and elsewhere s's float64 square root rounded to
// float32 (a group with such an s computes both and blends); a group with a NaN s (a NaN part, or Inf with
// NaN) stops the kernel, which returns how many values it wrote, for the
// caller to take that group value by value.
func (x *x86Complex) magnitude(name string) {
	c := x.c
	dst := c.Load(c.Param("dst"), c.GP64())
	a := c.Load(c.Param("a"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	done := c.GP64()
	c.XORQ(done, done)
	lo, hi := x.broadcast(0x3810000000000000), x.broadcast(0x47e0000000000000) // 2^-126, 2^127
	group := 4
	var idxEven, idxOdd Mem
	if x.wide {
		group = 8
		idxEven, idxOdd = x.indexTable("magC64even", 0), x.indexTable("magC64odd", 1)
	}
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	q := [2]reg.VecVirtual{x.vec(), x.vec()}
	for k := range q {
		c.VCVTPS2PD(Mem{Base: a, Disp: k * x.regBytes() / 2}, q[k])
		c.VMULPD(q[k], q[k], q[k])
	}
	s := x.vec()
	mask := c.GP32()
	var inRange reg.Register
	if x.wide {
		re, im := x.vec(), x.vec()
		c.VMOVUPD(idxEven, re)
		c.VMOVUPD(idxOdd, im)
		c.VPERMI2PD(q[1], q[0], re)
		c.VPERMI2PD(q[1], q[0], im)
		c.VADDPD(im, re, s)
		in, in2, nan := c.K(), c.K(), c.K()
		c.VCMPPD(U8(0x1d), lo, s, in)      // s >= 2^-126
		c.VCMPPD(U8(0x12), hi, s, in, in2) // and s <= 2^127
		c.KMOVW(in2, mask)
		inRange = in2
		c.CMPL(mask, U32(0xff))
		c.JE(LabelRef(name + "fast"))
		c.VCMPPD(U8(3), s, s, nan)
		c.KORTESTW(nan, nan)
		c.JNZ(LabelRef(name + "done"))
	} else {
		c.VHADDPD(q[1], q[0], s) // s0, s2, s1, s3
		c.VPERMPD(U8(0b11011000), s, s)
		in, in2 := x.vec(), x.vec()
		c.VCMPPD(U8(0x1d), lo, s, in)
		c.VCMPPD(U8(0x12), hi, s, in2)
		c.VANDPD(in2, in, in)
		c.VMOVMSKPD(in, mask)
		c.CMPL(mask, U32(0xf))
		c.JE(LabelRef(name + "fast"))
		inRange = in
		nan := x.vec()
		c.VCMPPD(U8(3), s, s, nan)
		c.VMOVMSKPD(nan, mask)
		c.TESTL(mask, mask)
		c.JNZ(LabelRef(name + "done"))
	}
	half := func() reg.VecVirtual { // a register of the float32 results
		if x.wide {
			return c.YMM()
		}
		return c.XMM()
	}
	// Some s out of float32's range: their float64 roots, the float32
	// roots of the others.
	r, slow := half(), half()
	x.narrowPD(s, r)
	c.VSQRTPS(r, r)
	c.VSQRTPD(s, s)
	x.narrowPD(s, slow)
	if x.wide {
		c.VBLENDMPS(r, slow, inRange, r)
	} else {
		m := half()
		x.narrowPD(inRange.(reg.VecVirtual), m) // all ones: a NaN, whose sign survives
		c.VBLENDVPS(m, r, slow, r)
	}
	c.JMP(LabelRef(name + "store"))
	c.Label(name + "fast")
	x.narrowPD(s, r)
	c.VSQRTPS(r, r)
	c.Label(name + "store")
	c.VMOVUPS(r, Mem{Base: dst})
	c.ADDQ(U32(uint32(4*group)), dst)
	c.ADDQ(U32(uint32(8*group)), a)
	c.ADDQ(U32(uint32(group)), done)
	c.SUBQ(U32(uint32(group)), n)
	c.JNZ(LabelRef(name + "loop"))
	c.Label(name + "done")
	c.VZEROUPPER()
	c.Store(done, c.ReturnIndex(0))
	c.RET()
}

// narrowPD rounds the float64 lanes of s to the float32 lanes of r.
func (x *x86Complex) narrowPD(s, r reg.VecVirtual) {
	if x.wide {
		x.c.VCVTPD2PS(s, r)
	} else {
		x.c.VCVTPD2PSY(s, r)
	}
}

// indexTable returns a table of the 8 lane indices odd, odd+2, ..., odd+14
// (the real or the imaginary parts of two registers of float64 pairs).
func (x *x86Complex) indexTable(name string, odd int) Mem {
	m := x.c.StaticGlobal(name)
	x.c.DataAttributes(attr.RODATA | attr.NOPTR)
	for j := range 8 {
		x.c.AddDatum(8*j, U64(uint64(2*j+odd)))
	}
	return m
}
