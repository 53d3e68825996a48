package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/simdkit/elem/gen/registry"
)

// x86Elem is how one element type moves between memory and vector
// registers: the instruction forms the kernels' loads, stores and broadcasts
// use, by the number of bytes moved.
type x86Elem struct {
	registry.Type
	float bool
	// evex says the kernel is an AVX-512 one, whose registers may be X16 to
	// X31, which only EVEX-encoded instructions reach: VMOVDQU has no such
	// form, VMOVDQU64 does.
	evex bool
}

// x86ElemOf returns the moves of element type t; a bool moves as a byte.
func x86ElemOf(t registry.Type) x86Elem { return x86Elem{Type: t, float: t.Float} }

// x86Bool is the element type of []bool operands.
var x86Bool = x86Elem{Type: registry.Type{GoName: "bool", Short: "B", Bits: 8}}

// x86Count is the element type of a shift count, a uint: one per row, held
// in the low 64 bits of an XMM register, where the shift instructions read
// it. It is not lane data.
var x86Count = x86Elem{Type: registry.Type{GoName: "uint", Short: "U", Bits: 64}}

// load emits a load of bytes bytes from m into r (a register of at least
// that width): whole vectors with VMOVUPS/VMOVUPD/VMOVDQU, partial ones with
// the narrowest instruction that moves exactly those bytes, so that no byte
// past them is read.
func (e x86Elem) load(c *build.Context, bytes int, m Mem, r Op) {
	switch {
	case bytes >= 16 && e.float && e.Bits == 32:
		c.VMOVUPS(m, r)
	case bytes >= 16 && e.float:
		c.VMOVUPD(m, r)
	case bytes == 64 || bytes >= 16 && e.evex:
		c.VMOVDQU64(m, r)
	case bytes >= 16:
		c.VMOVDQU(m, r)
	case bytes == 8:
		c.VMOVQ(m, r)
	case bytes == 4 && e.float:
		c.VMOVSS(m, r)
	case bytes == 4:
		c.VMOVD(m, r)
	case bytes <= 2 && e.evex: // through a GP register: VPXOR has no EVEX form for X16-X31
		g := c.GP32()
		if bytes == 2 {
			c.MOVWLZX(m, g)
		} else {
			c.MOVBLZX(m, g)
		}
		c.VMOVD(g, r)
	case bytes == 2:
		c.VPXOR(r, r, r)
		c.VPINSRW(U8(0), m, r, r)
	case bytes == 1:
		c.VPXOR(r, r, r)
		c.VPINSRB(U8(0), m, r, r)
	default:
		panic(fmt.Sprintf("gen: no %d-byte load", bytes))
	}
}

// store is load's inverse.
func (e x86Elem) store(c *build.Context, bytes int, r Op, m Mem) {
	switch {
	case bytes >= 16 && e.float && e.Bits == 32:
		c.VMOVUPS(r, m)
	case bytes >= 16 && e.float:
		c.VMOVUPD(r, m)
	case bytes == 64 || bytes >= 16 && e.evex:
		c.VMOVDQU64(r, m)
	case bytes >= 16:
		c.VMOVDQU(r, m)
	case bytes == 8:
		c.VMOVQ(r, m)
	case bytes == 4 && e.float:
		c.VMOVSS(r, m)
	case bytes == 4:
		c.VMOVD(r, m)
	case bytes == 2:
		c.VPEXTRW(U8(0), r, m)
	case bytes == 1:
		c.VPEXTRB(U8(0), r, m)
	default:
		panic(fmt.Sprintf("gen: no %d-byte store", bytes))
	}
}

// storeNT stores a whole vector, aligned, with a non-temporal hint.
func (e x86Elem) storeNT(c *build.Context, r Op, m Mem) {
	switch {
	case e.float && e.Bits == 32:
		c.VMOVNTPS(r, m)
	case e.float:
		c.VMOVNTPD(r, m)
	default:
		c.VMOVNTDQ(r, m)
	}
}

// loadMasked is the AVX-512 zero-masked load of the lanes set in k.
func (e x86Elem) loadMasked(c *build.Context, m Mem, k, r Op) {
	switch {
	case e.float && e.Bits == 32:
		c.VMOVUPS_Z(m, k, r)
	case e.float:
		c.VMOVUPD_Z(m, k, r)
	case e.Bits == 8:
		c.VMOVDQU8_Z(m, k, r)
	case e.Bits == 16:
		c.VMOVDQU16_Z(m, k, r)
	case e.Bits == 32:
		c.VMOVDQU32_Z(m, k, r)
	default:
		c.VMOVDQU64_Z(m, k, r)
	}
}

// storeMasked is the AVX-512 store of the lanes set in k.
func (e x86Elem) storeMasked(c *build.Context, r, k Op, m Mem) {
	switch {
	case e.float && e.Bits == 32:
		c.VMOVUPS(r, k, m)
	case e.float:
		c.VMOVUPD(r, k, m)
	case e.Bits == 8:
		c.VMOVDQU8(r, k, m)
	case e.Bits == 16:
		c.VMOVDQU16(r, k, m)
	case e.Bits == 32:
		c.VMOVDQU32(r, k, m)
	default:
		c.VMOVDQU64(r, k, m)
	}
}

// broadcast loads the element at m into every lane of r.
func (e x86Elem) broadcast(c *build.Context, m Mem, r Op) {
	switch {
	case e.float && e.Bits == 32:
		c.VBROADCASTSS(m, r)
	case e.float:
		c.VBROADCASTSD(m, r)
	case e.Bits == 8:
		c.VPBROADCASTB(m, r)
	case e.Bits == 16:
		c.VPBROADCASTW(m, r)
	case e.Bits == 32:
		c.VPBROADCASTD(m, r)
	default:
		c.VPBROADCASTQ(m, r)
	}
}
