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
// multiple of the step (two registers of float64 pairs: 4 values at AVX2,
// 8 at AVX-512). complex64 values are widened to float64 as they load
// and narrowed as they store, as Go's compiler multiplies them; Conj
// multiplies by b's conjugate (its imaginary part's sign flipped).
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
				x := &x86Complex{c: c, wide: l.bytes == 64, narrow: bits == 64}
				c.Function(name)
				c.Pragma("noescape")
				c.Attributes(attr.NOSPLIT)
				c.Doc(fmt.Sprintf("%s sets dst[i] = %s for i < n, n a multiple of %d.", name, what, 2*x.pairs()))
				c.SignatureExpr(fmt.Sprintf("func(dst, a, b *complex%d, n int)", bits))
				x.mul(name, conj)
				needs[name] = l.features
			}
		}
	}
	return writeAvo(c, dir, "complex", needs)
}

// x86Complex is one complex product kernel being written.
type x86Complex struct {
	c      *build.Context
	wide   bool // AVX-512
	narrow bool // complex64: float32 parts in memory, float64 in registers
}

// pairs is the complex values in one register of float64 pairs.
func (x *x86Complex) pairs() int {
	if x.wide {
		return 4
	}
	return 2
}

func (x *x86Complex) vec() reg.VecVirtual {
	if x.wide {
		return x.c.ZMM()
	}
	return x.c.YMM()
}

// elemBytes is the bytes of one value in memory.
func (x *x86Complex) elemBytes() int {
	if x.narrow {
		return 8
	}
	return 16
}

// load reads register k of a step at base, widened for complex64.
func (x *x86Complex) load(base reg.Register, k int) reg.VecVirtual {
	v := x.vec()
	m := Mem{Base: base, Disp: k * x.pairs() * x.elemBytes()}
	if x.narrow {
		x.c.VCVTPS2PD(m, v)
	} else {
		x.c.VMOVUPD(m, v)
	}
	return v
}

// store writes register k of a step at base, narrowed for complex64.
func (x *x86Complex) store(v reg.VecVirtual, base reg.Register, k int) {
	m := Mem{Base: base, Disp: k * x.pairs() * x.elemBytes()}
	if !x.narrow {
		x.c.VMOVUPD(v, m)
		return
	}
	var h reg.VecVirtual
	if x.wide {
		h = x.c.YMM()
		x.c.VCVTPD2PS(v, h)
		x.c.VMOVUPS(h, m)
		return
	}
	h = x.c.XMM()
	x.c.VCVTPD2PSY(v, h)
	x.c.VMOVUPS(h, m)
}

// broadcast returns a register of the 64-bit value v in every lane.
func (x *x86Complex) broadcast(v uint64) reg.VecVirtual {
	g := x.c.GP64()
	x.c.MOVQ(U64(v), g)
	s := x.c.XMM()
	x.c.MOVQ(g, s)
	r := x.vec()
	x.c.VPBROADCASTQ(s, r)
	return r
}

// mul writes the loop. For each pair (ar, ai) of a and (br, bi) of b:
// p = (ar·br, ai·br), q = (ai·bi, ar·bi), the result (p - q, q + p) taken
// lane by lane: ar·br − ai·bi and ar·bi + ai·br, the operands in Go's
// order, every product rounded; a NaN part becomes the quiet NaN.
func (x *x86Complex) mul(name string, conj bool) {
	c := x.c
	dst := c.Load(c.Param("dst"), c.GP64())
	a := c.Load(c.Param("a"), c.GP64())
	b := c.Load(c.Param("b"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	var sign reg.VecVirtual
	if conj {
		sign = x.broadcast(1 << 63)
	}
	nan := x.broadcast(0x7ff8000000000000)
	var odd reg.Register
	if x.wide {
		g := c.GP32()
		c.MOVL(U32(0xaa), g)
		odd = c.K()
		c.KMOVW(g, odd)
	}
	swap, dupOdd := U8(0b0101), U8(0b1111)
	if x.wide {
		swap, dupOdd = U8(0b01010101), U8(0b11111111)
	}
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	for k := range 2 {
		va, vb := x.load(a, k), x.load(b, k)
		br, bi, as := x.vec(), x.vec(), x.vec()
		c.VMOVDDUP(vb, br)
		c.VPERMILPD(dupOdd, vb, bi)
		switch {
		case conj && x.wide: // VXORPD zmm is AVX512DQ
			c.VPXORQ(sign, bi, bi)
		case conj:
			c.VXORPD(sign, bi, bi)
		}
		c.VPERMILPD(swap, va, as)
		p, q, r := x.vec(), x.vec(), x.vec()
		c.VMULPD(br, va, p)
		c.VMULPD(bi, as, q)
		c.VSUBPD(q, p, r) // p - q
		if x.wide {
			c.VADDPD(p, q, odd, r) // the odd lanes: q + p
		} else {
			t := x.vec()
			c.VADDPD(p, q, t) // q + p
			c.VBLENDPD(U8(0b1010), t, r, r)
		}
		if x.wide { // a NaN part becomes the quiet NaN
			m := c.K()
			c.VCMPPD(U8(3), r, r, m)
			c.VBLENDMPD(nan, r, m, r)
		} else {
			m := x.vec()
			c.VCMPPD(U8(3), r, r, m)
			c.VBLENDVPD(m, nan, r, r)
		}
		x.store(r, dst, k)
	}
	step := uint32(2 * x.pairs() * x.elemBytes())
	c.ADDQ(U32(step), dst)
	c.ADDQ(U32(step), a)
	c.ADDQ(U32(step), b)
	c.SUBQ(U32(uint32(2*x.pairs())), n)
	c.JNZ(LabelRef(name + "loop"))
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}
