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
	for _, n := range x86Narrows {
		name := narrowName(n.size, n.cols)
		c.Function(name)
		c.Pragma("noescape")
		c.Doc(fmt.Sprintf("%s sets dst[c*ldd+r] = src[r*%d+c] for r < rows (a multiple of %d), c < %d with AVX2, %d-byte elements: a contiguous block of %d-element rows split into its columns.", name, n.cols, 32/n.size, n.cols, n.size, n.cols))
		c.Attributes(attr.NOSPLIT)
		c.SignatureExpr("func(dst *byte, ldd int, src *byte, rows int)")
		emitNarrow(c, name, n.size, n.cols)
		needs[name] = []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}
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

// x86Narrows are the narrow transpositions: a block of rows too narrow for
// a square (xyz points, RGB pixels, the parts of complex numbers) split
// into its columns, a register of rows at a time, where an element loop
// moves one element per load and store.
var x86Narrows = []struct{ size, cols int }{{4, 2}, {4, 3}, {4, 4}, {8, 2}, {8, 3}}

// narrowPart is the part of a narrow column in one source register: the
// rows it holds and the lane of each.
type narrowPart struct {
	reg        int
	rows, lane []int
}

// narrowName is the name of the narrow transposition of cols columns of
// size-byte elements.
func narrowName(size, cols int) string { return fmt.Sprintf("narrow%dx%dAVX2", size, cols) }

// emitNarrow writes a narrow transposition: side rows (one register of
// each column) per step from cols registers of src. Column c's elements
// sit at lanes (r*cols+c) mod side of register (r*cols+c) / side; where
// those lanes differ between registers (cols odd, side a power of two) one
// blend gathers them and one permutation puts them in row order, elsewhere
// each register's elements are permuted into place first and then blended.
func emitNarrow(c *build.Context, name string, size, cols int) {
	side := 32 / size
	idx := c.StaticGlobal(name + "idx")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	datum := 0
	// perm returns the permutation that moves lane from[r] to lane r (rows
	// with from[r] < 0 take lane 0): a register of indexes in memory for
	// 4-byte elements, an immediate for 8-byte ones.
	perm := func(from []int) Op {
		if size == 8 {
			var imm uint8
			for r, l := range from {
				imm |= uint8(max(l, 0)) << (2 * r)
			}
			return U8(imm)
		}
		m := idx.Offset(datum)
		for _, l := range from {
			c.AddDatum(datum, U32(uint32(max(l, 0))))
			datum += 4
		}
		return m
	}
	permute := func(from []int, v reg.VecVirtual) reg.VecVirtual {
		out := c.YMM()
		p := perm(from)
		if size == 8 {
			c.VPERMPD(p, v, out)
			return out
		}
		i := c.YMM()
		c.VMOVDQU(p, i)
		c.VPERMPS(v, i, out)
		return out
	}
	// blend returns base with the lanes in mask taken from v.
	blend := func(mask uint8, v, base reg.VecVirtual) reg.VecVirtual {
		out := c.YMM()
		if size == 8 {
			c.VBLENDPD(U8(mask), v, base, out)
		} else {
			c.VBLENDPS(U8(mask), v, base, out)
		}
		return out
	}
	plan := make([][]narrowPart, cols)
	for col := range cols {
		for r := range side {
			p := r*cols + col
			j := p / side
			ps := plan[col]
			if len(ps) == 0 || ps[len(ps)-1].reg != j {
				ps = append(ps, narrowPart{reg: j})
			}
			ps[len(ps)-1].rows = append(ps[len(ps)-1].rows, r)
			ps[len(ps)-1].lane = append(ps[len(ps)-1].lane, p%side)
			plan[col] = ps
		}
	}
	dst := c.Load(c.Param("dst"), c.GP64())
	ldd := c.Load(c.Param("ldd"), c.GP64())
	src := c.Load(c.Param("src"), c.GP64())
	rows := c.Load(c.Param("rows"), c.GP64())
	c.SHLQ(U8(log2(size)), ldd)
	c.TESTQ(rows, rows)
	c.JZ(LabelRef(name + "done"))
	c.Label(name + "loop")
	v := make([]reg.VecVirtual, cols)
	for j := range v {
		v[j] = c.YMM()
		c.VMOVUPS(Mem{Base: src, Disp: 32 * j}, v[j])
	}
	out := c.GP64()
	c.MOVQ(dst, out)
	for col, ps := range plan {
		var o reg.VecVirtual
		if distinctLanes(ps, side) {
			from := make([]int, side) // the blended register's lane of each row
			for k, p := range ps {
				var mask uint8
				for i, l := range p.lane {
					mask |= 1 << l
					from[p.rows[i]] = l
				}
				if k == 0 {
					o = v[p.reg]
					continue
				}
				o = blend(mask, v[p.reg], o)
			}
			if !identity(from) {
				o = permute(from, o)
			}
		} else {
			for k, p := range ps {
				from := make([]int, side)
				var mask uint8
				for r := range from {
					from[r] = -1
				}
				for i, l := range p.lane {
					from[p.rows[i]] = l
					mask |= 1 << p.rows[i]
				}
				moved := permute(from, v[p.reg])
				if k == 0 {
					o = moved
					continue
				}
				o = blend(mask, moved, o)
			}
		}
		c.VMOVUPS(o, Mem{Base: out})
		if col < cols-1 {
			c.ADDQ(ldd, out)
		}
	}
	c.ADDQ(U32(uint32(32*cols)), src)
	c.ADDQ(U32(32), dst)
	c.SUBQ(U32(uint32(side)), rows)
	c.JNZ(LabelRef(name + "loop"))
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}

// distinctLanes reports whether no two parts of a narrow column share a
// lane, so that blending the registers gathers the column.
func distinctLanes(ps []narrowPart, side int) bool {
	seen := make([]bool, side)
	for _, p := range ps {
		for _, l := range p.lane {
			if seen[l] {
				return false
			}
			seen[l] = true
		}
	}
	return true
}

// identity reports whether a permutation leaves every lane where it is.
func identity(from []int) bool {
	for r, l := range from {
		if l != r {
			return false
		}
	}
	return true
}
