package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// x86Transposes are the transposition kernels: a strided view whose
// elements are contiguous across its rows (a transposed matrix) is gathered
// into a tile a square of registers at a time, where an element loop moves
// one element per load and store.
var x86Transposes = []struct {
	name string
	size int // element bytes
	side int // elements per register: the square's side
}{{"transpose4AVX2", 4, 8}, {"transpose8AVX2", 8, 4}}

// generateTransposeAMD64 writes internal/kernel's transposition kernels:
// transposeNAVX2(dst, ldd, src, lds, rows, cols) sets dst[c*ldd+r] =
// src[r*lds+c] for r < rows, c < cols, both multiples of the square's side;
// strides are in elements, of either sign.
func generateTransposeAMD64(dir string) error {
	c := build.NewContext()
	c.ConstraintExpr("!purego")
	needs := map[string][]string{}
	for _, t := range x86Transposes {
		c.Function(t.name)
		c.Pragma("noescape")
		c.Doc(fmt.Sprintf("%s sets dst[c*ldd+r] = src[r*lds+c] for r < rows, c < cols (multiples of %d) with AVX2, %d-byte elements, %dx%d squares at a time.", t.name, t.side, t.size, t.side, t.side))
		c.Attributes(attr.NOSPLIT)
		c.SignatureExpr("func(dst *byte, ldd int, src *byte, lds int, rows, cols int)")
		emitTranspose(c, t.size, t.side)
		needs[t.name] = []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}
	}
	return writeAvo(c, dir, "transpose", needs)
}

// emitTranspose writes the loops of a transposition kernel: over squares
// down the rows of src, then across its columns.
func emitTranspose(c *build.Context, size, side int) {
	dst := c.Load(c.Param("dst"), c.GP64())
	ldd := c.Load(c.Param("ldd"), c.GP64())
	src := c.Load(c.Param("src"), c.GP64())
	lds := c.Load(c.Param("lds"), c.GP64())
	rows := c.Load(c.Param("rows"), c.GP64())
	cols := c.Load(c.Param("cols"), c.GP64())
	shift := U8(log2(size))
	c.SHLQ(shift, ldd)
	c.SHLQ(shift, lds)
	c.TESTQ(rows, rows)
	c.JZ(LabelRef("done" + fmt.Sprint(size)))
	c.TESTQ(cols, cols)
	c.JZ(LabelRef("done" + fmt.Sprint(size)))
	// A band of side rows of src: down by side*lds; its squares land side
	// elements further along every row of dst.
	band := c.GP64()
	c.MOVQ(lds, band)
	c.SHLQ(U8(log2(side)), band)
	down := c.GP64()
	c.MOVQ(ldd, down)
	c.SHLQ(U8(log2(side)), down)
	c.Label(fmt.Sprintf("band%d", size))
	in, out, n := c.GP64(), c.GP64(), c.GP64()
	c.MOVQ(src, in)
	c.MOVQ(dst, out)
	c.MOVQ(cols, n)
	c.Label(fmt.Sprintf("square%d", size))
	p := c.GP64()
	c.MOVQ(in, p)
	regs := make([]reg.VecVirtual, side)
	for i := range regs {
		regs[i] = c.YMM()
		c.VMOVUPS(Mem{Base: p}, regs[i])
		if i < side-1 {
			c.ADDQ(lds, p)
		}
	}
	var cols4 []reg.VecVirtual
	if size == 4 {
		cols4 = transpose8x8(c, regs)
	} else {
		cols4 = transpose4x4(c, regs)
	}
	c.MOVQ(out, p)
	for i, v := range cols4 {
		c.VMOVUPS(v, Mem{Base: p})
		if i < side-1 {
			c.ADDQ(ldd, p)
		}
	}
	c.ADDQ(U32(uint32(side*size)), in)
	c.ADDQ(down, out)
	c.SUBQ(U32(uint32(side)), n)
	c.JNZ(LabelRef(fmt.Sprintf("square%d", size)))
	c.ADDQ(band, src)
	c.ADDQ(U32(uint32(side*size)), dst)
	c.SUBQ(U32(uint32(side)), rows)
	c.JNZ(LabelRef(fmt.Sprintf("band%d", size)))
	c.VZEROUPPER()
	c.Label("done" + fmt.Sprint(size))
	c.RET()
}

// transpose8x8 returns the columns of the 8x8 float32 square whose rows are
// r: pairs of rows interleaved, then pairs of pairs, then the 128-bit halves
// exchanged.
func transpose8x8(c *build.Context, r []reg.VecVirtual) []reg.VecVirtual {
	t := make([]reg.VecVirtual, 8)
	for i := 0; i < 8; i += 2 {
		t[i], t[i+1] = c.YMM(), c.YMM()
		c.VUNPCKLPS(r[i+1], r[i], t[i])
		c.VUNPCKHPS(r[i+1], r[i], t[i+1])
	}
	u := make([]reg.VecVirtual, 8)
	for _, h := range []int{0, 4} { // rows 0-3, rows 4-7
		for k, s := range []struct {
			a, b int
			imm  uint8
		}{{0, 2, 0x44}, {0, 2, 0xEE}, {1, 3, 0x44}, {1, 3, 0xEE}} {
			u[h+k] = c.YMM()
			c.VSHUFPS(U8(s.imm), t[h+s.b], t[h+s.a], u[h+k])
		}
	}
	out := make([]reg.VecVirtual, 8)
	for k := range 4 {
		out[k], out[k+4] = c.YMM(), c.YMM()
		c.VPERM2F128(U8(0x20), u[k+4], u[k], out[k])
		c.VPERM2F128(U8(0x31), u[k+4], u[k], out[k+4])
	}
	return out
}

// transpose4x4 returns the columns of the 4x4 float64 square whose rows
// are r: pairs of rows interleaved, then the 128-bit halves exchanged.
func transpose4x4(c *build.Context, r []reg.VecVirtual) []reg.VecVirtual {
	t := make([]reg.VecVirtual, 4)
	for i := 0; i < 4; i += 2 {
		t[i], t[i+1] = c.YMM(), c.YMM()
		c.VUNPCKLPD(r[i+1], r[i], t[i])
		c.VUNPCKHPD(r[i+1], r[i], t[i+1])
	}
	out := make([]reg.VecVirtual, 4)
	for k := range 2 {
		out[k], out[k+2] = c.YMM(), c.YMM()
		c.VPERM2F128(U8(0x20), t[k+2], t[k], out[k])
		c.VPERM2F128(U8(0x31), t[k+2], t[k], out[k+2])
	}
	return out
}
