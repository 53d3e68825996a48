package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// addColumnSums adds the column-sum kernels, columnSums{4,8}{AVX2,AVX512}
// (acc, lda, x, ldx, rows, w, lane): row r < rows of x (ldx bytes apart)
// added into accumulator row (lane + r) mod 32 (lda bytes apart), the
// first w bytes of each (a whole number of registers), in row order for
// each accumulator row: kernel.ColumnSums. columnSqDevs{4,8}{AVX2,AVX512}
// (..., lane, mean) add the squares (x - m)*(x - m) instead, m the
// column's mean in the row at mean, difference and square each rounded:
// kernel.ColumnSqDevs.
func addColumnSums(c *build.Context, needs map[string][]string) {
	addColumnKernels(c, needs, "columnSums", "func(acc *byte, lda int, x *byte, ldx int, rows, w, lane int)",
		"adds rows into 32 accumulator rows", "addColumnSums", func(c *build.Context, name string, size int, wide bool) {
			emitColumnSums(c, name, size, wide, false)
		})
	addColumnKernels(c, needs, "columnSqDevs", "func(acc *byte, lda int, x *byte, ldx int, rows, w, lane int, mean *byte)",
		"adds squared deviations of rows into 32 accumulator rows", "addColumnSums", func(c *build.Context, name string, size int, wide bool) {
			emitColumnSums(c, name, size, wide, true)
		})
}

// columnSumsStrip is the registers of an accumulator row a column sum
// holds while it adds that row's rows of x: loaded and stored once for
// them all, where a vertical Add of each row loads and stores them for
// every row.
const columnSumsStrip = 8

// emitColumnSums writes one column-sum kernel: for each accumulator row,
// strips of columnSumsStrip registers and then single registers, each
// loaded, added every 32nd row of x from the first that meets it, and
// stored.
func emitColumnSums(c *build.Context, name string, size int, wide, squares bool) {
	bytes, vec, add, sub, mul := 32, c.YMM, c.VADDPS, c.VSUBPS, c.VMULPS
	if wide {
		bytes, vec = 64, c.ZMM
	}
	if size == 8 {
		add, sub, mul = c.VADDPD, c.VSUBPD, c.VMULPD
	}
	acc := c.Load(c.Param("acc"), c.GP64())
	lda := c.Load(c.Param("lda"), c.GP64())
	x := c.Load(c.Param("x"), c.GP64()) // then the first row of x of an accumulator row
	step := c.Load(c.Param("ldx"), c.GP64())
	left := c.Load(c.Param("rows"), c.GP64()) // rows of x from x on
	w := c.Load(c.Param("w"), c.GP64())
	lane := c.Load(c.Param("lane"), c.GP64())
	var mean reg.Register
	if squares {
		mean = c.Load(c.Param("mean"), c.GP64())
	}
	c.TESTQ(left, left)
	c.JZ(LabelRef(name + "done"))
	c.TESTQ(w, w)
	c.JZ(LabelRef(name + "done"))
	c.SHLQ(U8(5), step) // 32 rows of x
	rounds := c.GP64()  // the accumulator rows still to run, at most 32
	c.MOVQ(U32(32), rounds)
	c.Label(name + "row")
	row := c.GP64()
	c.MOVQ(lane, row)
	c.ANDQ(U8(31), row)
	c.IMULQ(lda, row)
	c.ADDQ(acc, row)
	j := c.GP64()
	c.XORQ(j, j)
	for _, strip := range []int{columnSumsStrip, 1} {
		label := fmt.Sprintf("%sstrip%d", name, strip)
		c.Label(label)
		c.ADDQ(U32(uint32(strip*bytes)), j) // j is the strip's end from here on
		c.CMPQ(j, w)
		c.JA(LabelRef(label + "done"))
		at := func(base reg.Register, u int) Mem {
			return Mem{Base: base, Index: j, Scale: 1, Disp: (u - strip) * bytes}
		}
		sums := make([]reg.VecVirtual, strip)
		for u := range sums {
			sums[u] = vec()
			c.VMOVUPS(at(row, u), sums[u])
		}
		p, n := c.GP64(), c.GP64()
		c.MOVQ(x, p)
		c.MOVQ(left, n) // rows 0, 32, 64, ... of x from here: (left + 31) / 32
		c.ADDQ(U8(31), n)
		c.SHRQ(U8(5), n)
		c.Label(label + "add")
		for u := range sums {
			if !squares {
				add(at(p, u), sums[u], sums[u])
				continue
			}
			d := vec() // (x - m)^2 + acc, as SqDiffAdd's kernels
			c.VMOVUPS(at(p, u), d)
			sub(at(mean, u), d, d)
			mul(d, d, d)
			add(sums[u], d, sums[u])
		}
		c.ADDQ(step, p)
		c.DECQ(n)
		c.JNZ(LabelRef(label + "add"))
		for u := range sums {
			c.VMOVUPS(sums[u], at(row, u))
		}
		c.JMP(LabelRef(label))
		c.Label(label + "done")
		c.SUBQ(U32(uint32(strip*bytes)), j)
	}
	next := c.GP64()
	c.MOVQ(step, next)
	c.SARQ(U8(5), next)
	c.ADDQ(next, x)
	c.INCQ(lane)
	c.DECQ(left)
	c.JZ(LabelRef(name + "end"))
	c.DECQ(rounds)
	c.JNZ(LabelRef(name + "row"))
	c.Label(name + "end")
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}
