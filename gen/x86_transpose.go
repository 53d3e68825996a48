package main

import (
	"fmt"
	"math"
	"slices"

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
	name   string
	size   int  // element bytes
	side   int  // elements per register: the square's side
	wide   bool // AVX-512: squares whose rows are whole cache lines
	stream bool // with streaming stores (dst's rows on 64-byte boundaries)
}{
	{"transpose4AVX2", 4, 8, false, false}, {"transpose8AVX2", 8, 4, false, false},
	{"transpose4AVX512", 4, 16, true, false}, {"transpose8AVX512", 8, 8, true, false},
	{"transpose4AVX512Stream", 4, 16, true, true}, {"transpose8AVX512Stream", 8, 8, true, true},
}

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
		set := "AVX2"
		needs[t.name] = []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}
		if t.wide {
			set = "AVX-512"
			needs[t.name] = append(needs[t.name], "cpu.X86.HasAVX512F")
		}
		doc := fmt.Sprintf("%s sets dst[c*ldd+r] = src[r*lds+c] for r < rows, c < cols (multiples of %d) with %s, %d-byte elements, %dx%d squares at a time.", t.name, t.side, set, t.size, t.side, t.side)
		if t.stream {
			doc += " Its stores are streaming: dst and every row of it on a 64-byte boundary, and a store fence after the last call."
		}
		c.Doc(doc)
		c.Attributes(attr.NOSPLIT)
		c.SignatureExpr("func(dst *byte, ldd int, src *byte, lds int, rows, cols int)")
		emitTranspose(c, t.size, t.side, t.wide, t.stream)
	}
	for _, n := range x86Narrows {
		for _, split := range []bool{true, false} {
			name := narrowName(n.size, n.cols, split)
			c.Function(name)
			c.Pragma("noescape")
			if split {
				c.Doc(fmt.Sprintf("%s sets dst[c*ld+r] = src[r*%d+c] for r < n (a multiple of %d), c < %d with AVX2, %d-byte elements: a contiguous block of %d-element rows split into its columns.", name, n.cols, 32/n.size, n.cols, n.size, n.cols))
			} else {
				c.Doc(fmt.Sprintf("%s sets dst[r*%d+c] = src[c*ld+r] for r < n (a multiple of %d), c < %d with AVX2, %d-byte elements: %d rows interleaved into a contiguous block of %d-element rows.", name, n.cols, 32/n.size, n.cols, n.size, n.cols, n.cols))
			}
			c.Attributes(attr.NOSPLIT)
			c.SignatureExpr("func(dst *byte, src *byte, ld int, n int)")
			emitNarrow(c, name, n.size, n.cols, split)
			needs[name] = []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}
		}
		wide := fmt.Sprintf("split%dx%dAVX512", n.size, n.cols)
		c.Function(wide)
		c.Pragma("noescape")
		c.Doc(fmt.Sprintf("%s is %s with AVX-512 (n a multiple of %d): the rows split into columns by two-table and masked permutations, whole registers of 64 bytes.", wide, narrowName(n.size, n.cols, true), 64/n.size))
		c.Attributes(attr.NOSPLIT)
		c.SignatureExpr("func(dst *byte, src *byte, ld int, n int)")
		emitSplitWide(c, wide, n.size, n.cols)
		needs[wide] = append([]string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2", "cpu.X86.HasAVX512F"}, permuteFeature[n.size]...)
	}
	for _, n := range x86Narrows {
		if n.size < 4 {
			continue
		}
		name := fmt.Sprintf("splitFold%dx%dAVX2", n.size, n.cols)
		c.Function(name)
		c.Pragma("noescape")
		c.Doc(fmt.Sprintf("%s sets dst[r] to the canonical tree (kernel.SplitFold) of the fold op (kernel.SplitFoldSum, SplitFoldMax, SplitFoldMin, SplitFoldMean, SplitFoldSqDev, SplitFoldVarOp's; SplitArg's ops write the extreme's index, an int64) over src[r*%d : r*%d+%d] for r < n (a multiple of %d) with AVX2, %d-byte floats: the rows split into columns in registers, as %s splits them, and folded there.", name, n.cols, n.cols, n.cols, 32/n.size, n.size, narrowName(n.size, n.cols, true)))
		c.Attributes(attr.NOSPLIT)
		c.SignatureExpr("func(dst *byte, src *byte, n int, op int)")
		emitSplitFold(c, name, n.size, n.cols, false)
		needs[name] = []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}
		wide := fmt.Sprintf("splitFold%dx%dAVX512", n.size, n.cols)
		c.Function(wide)
		c.Pragma("noescape")
		c.Doc(fmt.Sprintf("%s is %s with AVX-512 (n a multiple of %d): the rows split into columns by two-table and masked permutations.", wide, name, 64/n.size))
		c.Attributes(attr.NOSPLIT)
		c.SignatureExpr("func(dst *byte, src *byte, n int, op int)")
		emitSplitFold(c, wide, n.size, n.cols, true)
		needs[wide] = []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2", "cpu.X86.HasAVX512F", "cpu.X86.HasAVX512DQ"} // VRANGE
	}
	return writeAvo(c, dir, "transpose", needs)
}

// The folds of splitFold kernels, their op argument: as internal/kernel
// numbers them.
var splitFoldOps = []struct {
	name string
	op   int
}{{"sum", 0}, {"max", 1}, {"min", 2}, {"mean", 3}, {"sqdev", 4}, {"argmax", 5}, {"argmin", 6}, {"var", 7}, {"std", 8}}

// quietNaN is the default quiet NaN's bits for size-byte floats.
func quietNaN(size int) uint64 {
	if size == 4 {
		return 0x7FC00000
	}
	return 0x7FF8000000000000
}

// VRANGE's imm8 for Go's max and min: the comparison in bits 1:0 (max 1,
// min 0) and the sign of the value it picks in bits 3:2 (01), so that +0
// is above -0 in either order. A quiet NaN in one source gives the other
// (a signaling one, a NaN), so the kernels mark NaN lanes by comparisons.
const (
	rangeMin = 0b0100
	rangeMax = 0b0101
)

// emitSplitFold writes a split-fold kernel: a loop per fold op, each
// splitting side rows of cols contiguous elements into column registers
// and combining the columns by the canonical tree over cols accumulators
// (accumulator j combined with j+h for h = 16, 8, ..., 1 where both hold
// values; elem.Sum's order with the identity accumulators left out) into
// one register of results. The rows split within 128-bit lanes (the low
// lanes hold the first half of the rows, the high lanes the second, as
// they are loaded), so that no instruction crosses lanes: VPERMPS, which
// the narrow splits use, is the bottleneck of a split on AMD's cores (Zen
// 3: 16384 rows of 3 float32, 4.0-4.4 us split by VPERMPS, about 8
// cycles per 8 rows). Max and min are Go's builtins as the VV kernels
// compute them (goMin's sequence, max on negated values), so that every
// result that is not a NaN has the bits of the fold's kernels; a NaN stays
// a NaN, and the caller gives it its bits. On AVX-512 one VRANGE takes the
// place of the sequence (three operations, and the negations of max), and
// a comparison per two columns marks the NaN lanes: Zen 4 (AMD EPYC family
// 25 model 17), max of 2048 rows of 3 float32 in L1, 469-484 -> 346-389
// ns (the sum's 298-328). argmax and argmin write the
// index of each row's extreme as an int64 (splitArgOf). sqdev is the sum of the squared
// deviations of a row's values from its mean (mean's result): each
// difference and square rounded, then the sum's tree, the bits of a
// variance's passes before its division; var and std divide it by the
// divisor in op's bits from 8 on (and take the square root). wide is the AVX-512 form, whose
// rows split by permutations across the whole register (splitPermuted).
func emitSplitFold(c *build.Context, name string, size, cols int, wide bool) {
	bytes := 32
	vec := c.YMM
	vadd, vmin, vxor, vor, vdiv, vsub, vmul, vsqrt, vrange := c.VADDPS, c.VMINPS, c.VXORPS, c.VORPS, c.VDIVPS, c.VSUBPS, c.VMULPS, c.VSQRTPS, c.VRANGEPS
	if size == 8 {
		vadd, vmin, vxor, vor, vdiv, vsub, vmul, vsqrt, vrange = c.VADDPD, c.VMINPD, c.VXORPD, c.VORPD, c.VDIVPD, c.VSUBPD, c.VMULPD, c.VSQRTPD, c.VRANGEPD
	}
	if wide { // the bitwise ops of AVX512F: VXORPS and VORPS of zmm are AVX512DQ's
		bytes, vec, vxor, vor = 64, c.ZMM, c.VPXORD, c.VPORD
	}
	side := bytes / size
	dst := c.Load(c.Param("dst"), c.GP64())
	src := c.Load(c.Param("src"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	op := c.Load(c.Param("op"), c.GP64())
	divisor := c.GP64() // var and std: op's bits from 8 on
	c.MOVQ(op, divisor)
	c.SHRQ(U8(8), divisor)
	c.ANDQ(U32(255), op)
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	for _, f := range splitFoldOps[1:] {
		c.CMPQ(op, U8(f.op))
		c.JE(LabelRef(name + f.name))
	}
	var plan permutePlan
	if wide {
		plan = planPermutes(c, name, size, cols)
	}
	for _, f := range splitFoldOps {
		c.Label(name + f.name)
		var sign, count, nan reg.VecVirtual
		switch f.name {
		case "max", "min":
			if !wide { // max(x, y) = -min(-x, -y), as the VV kernels compute it
				sign = signBits(c, size, vec())
				break
			}
			nan = intConst(c, size, quietNaN(size), vec()) // VRANGE passes quiet NaNs by
		case "mean", "sqdev":
			count = floatConst(c, size, float64(cols), vec())
		}
		moment := f.name == "sqdev" || f.name == "var" || f.name == "std"
		var div reg.VecVirtual
		if f.name == "var" || f.name == "std" {
			count, div = floatConst(c, size, float64(cols), vec()), vec()
			x := c.XMM()
			if size == 4 {
				c.VCVTSI2SSQ(divisor, x, x)
				c.VBROADCASTSS(x, div)
			} else {
				c.VCVTSI2SDQ(divisor, x, x)
				c.VBROADCASTSD(x, div)
			}
		}
		arg := f.name == "argmax" || f.name == "argmin"
		var at []reg.VecVirtual
		if arg {
			for j := range cols {
				at = append(at, intConst(c, size, uint64(j), vec()))
			}
		}
		var split func() []reg.VecVirtual
		if wide {
			split = splitPermuted(c, plan, src, size, cols)
		} else {
			split = func() []reg.VecVirtual { return splitInLanes(c, src, size, cols) }
		}
		c.Label(name + f.name + "loop")
		acc := split()
		if arg {
			splitArgStore(c, dst, size, wide, splitArgOf(c, acc, at, size, wide, f.name == "argmax"))
			c.ADDQ(U32(uint32(bytes*cols)), src)
			c.ADDQ(U32(uint32(side*8)), dst)
			c.SUBQ(U32(uint32(side)), n)
			c.JNZ(LabelRef(name + f.name + "loop"))
			c.JMP(LabelRef(name + "end"))
			continue
		}
		if f.name == "max" && !wide {
			for j, v := range acc {
				acc[j] = vec()
				vxor(sign, v, acc[j])
			}
		}
		combine := func(x, y reg.VecVirtual) reg.VecVirtual {
			r := vec()
			if f.name == "sum" || f.name == "mean" || moment {
				vadd(y, x, r)
				return r
			}
			if wide { // VRANGE: the greater (less), +0 above -0; a quiet NaN loses (nan below)
				imm := uint8(rangeMin)
				if f.name == "max" {
					imm = rangeMax
				}
				vrange(U8(imm), y, x, r)
				return r
			}
			t1, t2 := vec(), vec()
			vmin(y, x, t1)
			vmin(x, t1, t2)
			vor(t2, t1, r)
			return r
		}
		tree := func(acc []reg.VecVirtual) reg.VecVirtual {
			acc = slices.Clone(acc)
			m := cols
			for h := 16; h > 0; h /= 2 {
				if m > h {
					for j := range m - h {
						acc[j] = combine(acc[j], acc[j+h])
					}
					m = h
				}
			}
			return acc[0]
		}
		out := tree(acc)
		if moment { // the squared deviations from the mean, each rounded, by the same tree
			mean := vec()
			vdiv(count, out, mean)
			sq := make([]reg.VecVirtual, cols)
			for j, x := range acc {
				d := vec()
				vsub(mean, x, d)
				sq[j] = vec()
				vmul(d, d, sq[j])
			}
			out = tree(sq)
		}
		switch {
		case nan != nil: // a NaN where a column has one
			vmov, cmp := c.VMOVAPS, c.VCMPPS
			if size == 8 {
				vmov, cmp = c.VMOVAPD, c.VCMPPD
			}
			k := c.K()
			cmp(U8(3), acc[1], acc[0], k) // UNORD_Q
			for j := 2; j < cols; j += 2 {
				kj := c.K()
				cmp(U8(3), acc[min(j+1, cols-1)], acc[j], kj)
				c.KORW(kj, k, k)
			}
			vmov(nan, k, out) // merge-masked
		case f.name == "max" && !wide:
			pos := vec()
			vxor(sign, out, pos)
			out = pos
		case f.name == "mean":
			mean := vec()
			vdiv(count, out, mean)
			out = mean
		case f.name == "var" || f.name == "std":
			v := vec()
			vdiv(div, out, v)
			out = v
			if f.name == "std" {
				r := vec()
				vsqrt(out, r)
				out = r
			}
		}
		c.VMOVUPS(out, Mem{Base: dst})
		c.ADDQ(U32(uint32(bytes*cols)), src)
		c.ADDQ(U32(uint32(bytes)), dst)
		c.SUBQ(U32(uint32(side)), n)
		c.JNZ(LabelRef(name + f.name + "loop"))
		c.JMP(LabelRef(name + "end"))
	}
	c.Label(name + "end")
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}

// splitArgOf returns the index in its row of the greatest (least) of the
// columns cols, one lane per row (int32 lanes for float32 rows, int64 for
// float64), by elem.ArgMax's rule: each value's bits made a signed integer
// key that orders the floats with -0 below +0 (the magnitude bits flipped
// where the sign is set), the first strictly greater (less) key taking the
// index, then the first NaN's index over all. at holds the indexes 0 to
// cols-1 in every lane.
func splitArgOf(c *build.Context, cols, at []reg.VecVirtual, size int, wide, greatest bool) reg.VecVirtual {
	vec := c.YMM
	if wide {
		vec = c.ZMM
	}
	var zero reg.VecVirtual
	key := func(x reg.VecVirtual) reg.VecVirtual {
		t, k := vec(), vec()
		switch {
		case size == 4:
			c.VPSRAD(U8(31), x, t)
			c.VPSRLD(U8(1), t, t)
		case wide:
			c.VPSRAQ(U8(63), x, t)
			c.VPSRLQ(U8(1), t, t)
		default: // AVX2 has no 64-bit arithmetic shift: the sign from 0 > x
			if zero == nil {
				zero = vec()
				c.VPXOR(zero, zero, zero)
			}
			c.VPCMPGTQ(x, zero, t)
			c.VPSRLQ(U8(1), t, t)
		}
		if wide {
			c.VPXORD(t, x, k)
		} else {
			c.VPXOR(t, x, k)
		}
		return k
	}
	// pick returns m ? a : b, m an opmask (wide) or a vector of all-ones
	// and all-zeros lanes.
	pick := func(m reg.Register, a, b reg.VecVirtual) reg.VecVirtual {
		r := vec()
		if !wide {
			c.VPBLENDVB(m, a, b, r)
			return r
		}
		c.VMOVDQU64(b, r) // defines r: see selectLanes
		if size == 4 {
			c.VPBLENDMD(a, b, m, r)
		} else {
			c.VPBLENDMQ(a, b, m, r)
		}
		return r
	}
	mask := func() reg.Register {
		if wide {
			return c.K()
		}
		return vec()
	}
	gt, cmpNaN := c.VPCMPGTD, c.VCMPPS
	if size == 8 {
		gt, cmpNaN = c.VPCMPGTQ, c.VCMPPD
	}
	best, idx := key(cols[0]), at[0]
	for j := 1; j < len(cols); j++ {
		k, m := key(cols[j]), mask()
		if greatest {
			gt(best, k, m) // k > best
		} else {
			gt(k, best, m) // best > k
		}
		best, idx = pick(m, k, best), pick(m, at[j], idx)
	}
	for j := len(cols) - 1; j >= 0; j-- {
		m := mask()
		cmpNaN(U8(3), cols[j], cols[j], m) // unordered: a NaN
		idx = pick(m, at[j], idx)
	}
	return idx
}

// splitArgStore stores the row indexes idx of splitArgOf at dst as int64s:
// float64 rows' lanes as they are, float32 rows' widened, each half of the
// register in turn.
func splitArgStore(c *build.Context, dst reg.Register, size int, wide bool, idx reg.VecVirtual) {
	switch {
	case size == 8 && wide:
		c.VMOVDQU64(idx, Mem{Base: dst})
	case size == 8:
		c.VMOVDQU(idx, Mem{Base: dst})
	case wide:
		lo, half, hi := c.ZMM(), c.YMM(), c.ZMM()
		c.VPMOVSXDQ(idx.AsY(), lo)
		c.VMOVDQU64(lo, Mem{Base: dst})
		c.VEXTRACTI64X4(U8(1), idx, half)
		c.VPMOVSXDQ(half, hi)
		c.VMOVDQU64(hi, Mem{Base: dst, Disp: 64})
	default:
		lo, half, hi := c.YMM(), c.XMM(), c.YMM()
		c.VPMOVSXDQ(idx.AsX(), lo)
		c.VMOVDQU(lo, Mem{Base: dst})
		c.VEXTRACTI128(U8(1), idx, half)
		c.VPMOVSXDQ(half, hi)
		c.VMOVDQU(hi, Mem{Base: dst, Disp: 32})
	}
}

// intConst sets r, a register of any width, to v in every size-byte
// lane, and returns it.
func intConst(c *build.Context, size int, v uint64, r reg.VecVirtual) reg.VecVirtual {
	g, x := c.GP64(), c.XMM()
	if size == 4 {
		c.MOVL(U32(uint32(v)), g.As32())
		c.VMOVD(g.As32(), x)
		c.VPBROADCASTD(x, r)
		return r
	}
	c.MOVQ(U64(v), g)
	c.VMOVQ(g, x)
	c.VPBROADCASTQ(x, r)
	return r
}

// splitInLanes loads the 32*cols bytes at src, side rows of cols
// elements, and returns the cols columns, row r in lane r: register j
// holds 16-byte piece j of the first half of the rows in its low lane
// and of the second half in its high lane, so that each lane holds
// whole rows, which in-lane shuffles (the same in both lanes) split.
func splitInLanes(c *build.Context, src reg.Register, size, cols int) []reg.VecVirtual {
	half := 16 / size // lanes of 128 bits: the rows of each half
	in := make([]reg.VecVirtual, cols)
	for j := range in {
		in[j] = c.YMM()
		c.VMOVUPS(Mem{Base: src, Disp: 16 * j}, in[j].AsX())
		c.VINSERTF128(U8(1), Mem{Base: src, Disp: 16 * (cols + j)}, in[j], in[j])
	}
	if size == 4 && cols == 4 { // a row per lane: the 4x4 transposition
		return transposeInLanes(c, in, c.YMM)
	}
	out := make([]reg.VecVirtual, cols)
	for j := range out {
		from := make([]lane, half)
		for r := range from {
			e := r*cols + j
			from[r] = lane{e / half, e % half}
		}
		out[j] = gatherInLanes(c, size, in, from)
	}
	return out
}

// gatherInLanes returns a register whose lane l of each 128-bit half is
// lane from[l].lane of that half of register from[l].reg of in: one
// shuffle where the low half of the lanes comes from one register and
// the high half from another (VSHUFPS, VSHUFPD), else blends then one
// in-lane permutation (VPERMILPS, VPERMILPD) when no lane is wanted from
// two registers, else each register permuted and then blended.
func gatherInLanes(c *build.Context, size int, in []reg.VecVirtual, from []lane) reg.VecVirtual {
	half := len(from)
	// An immediate's selector per lane: 2 bits (float32, the same 8 bits
	// for both halves) or 1 bit (float64, 2 bits per half).
	bits, both := 2, func(imm int) uint8 { return uint8(imm) }
	shuffle, permute, blend := c.VSHUFPS, c.VPERMILPS, c.VBLENDPS
	if size == 8 {
		bits, both = 1, func(imm int) uint8 { return uint8(imm | imm<<2) }
		shuffle, permute, blend = c.VSHUFPD, c.VPERMILPD, c.VBLENDPD
	}
	if lo, hi := from[0].reg, from[half/2].reg; all(from[:half/2], lo) && all(from[half/2:], hi) {
		imm := 0
		for l, f := range from {
			imm |= f.lane << (bits * l)
		}
		out := c.YMM()
		shuffle(U8(both(imm)), in[hi], in[lo], out)
		return out
	}
	lanes := make([]int, half)
	var regs []int
	owner := make([]int, half)
	for i := range owner {
		owner[i] = -1
	}
	shared := false
	for l, f := range from {
		lanes[l] = f.lane
		shared = shared || owner[f.lane] >= 0 && owner[f.lane] != f.reg
		owner[f.lane] = f.reg
		if !slices.Contains(regs, f.reg) {
			regs = append(regs, f.reg)
		}
	}
	perm := func(sel []int, v reg.VecVirtual) reg.VecVirtual {
		if identity(sel) {
			return v
		}
		imm := 0
		for l, f := range sel {
			imm |= f << (bits * l)
		}
		out := c.YMM()
		permute(U8(both(imm)), v, out)
		return out
	}
	mix := func(mask int, v, base reg.VecVirtual) reg.VecVirtual {
		out := c.YMM()
		blend(U8(uint8(mask|mask<<half)), v, base, out)
		return out
	}
	if !shared {
		o := in[regs[0]]
		for _, r := range regs[1:] {
			mask := 0
			for l, w := range owner {
				if w == r {
					mask |= 1 << l
				}
			}
			o = mix(mask, in[r], o)
		}
		return perm(lanes, o)
	}
	var o reg.VecVirtual
	for k, r := range regs {
		sel, mask := make([]int, half), 0
		for l, f := range from {
			if f.reg == r {
				sel[l], mask = f.lane, mask|1<<l
			}
		}
		moved := perm(sel, in[r])
		if k == 0 {
			o = moved
			continue
		}
		o = mix(mask, moved, o)
	}
	return o
}

// all reports whether every lane in from is from register r.
func all(from []lane, r int) bool {
	for _, f := range from {
		if f.reg != r {
			return false
		}
	}
	return true
}

// permutePlan is how the AVX-512 split of a split-fold kernel gathers each
// column: column j's lanes from the first two registers come by one
// two-table permutation (VPERMT2PS), those from each further register by a
// masked one (VPERMPS), each step with its index vector at offset off of
// the kernel's table.
type permutePlan struct {
	table Mem
	steps [][]permuteStep
}

type permuteStep struct {
	reg, off, mask int // reg 1 for the pair of registers 0 and 1
}

// planPermutes writes the index table of kernel name's split of rows of
// cols size-byte elements and returns the plan.
func planPermutes(c *build.Context, name string, size, cols int) permutePlan {
	lanes := 64 / size
	p := permutePlan{table: c.StaticGlobal(name + "idx"), steps: make([][]permuteStep, cols)}
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	at := 0
	for j := range p.steps {
		for q := 1; q < cols; q++ {
			first, last := q*lanes, (q+1)*lanes // the elements of register q
			if q == 1 {
				first = 0
			}
			s := permuteStep{reg: q, off: at}
			for r := range lanes {
				v := 0
				if e := r*cols + j; e >= first && e < last {
					s.mask |= 1 << r
					v = e - first
				}
				switch size {
				case 1:
					c.AddDatum(at, U8(uint8(v)))
				case 2:
					c.AddDatum(at, U16(uint16(v)))
				case 4:
					c.AddDatum(at, U32(uint32(v)))
				default:
					c.AddDatum(at, U64(uint64(v)))
				}
				at += size
			}
			if s.mask != 0 {
				p.steps[j] = append(p.steps[j], s)
			}
		}
	}
	return p
}

// permuteFeature is what the permutations of size-byte lanes need beyond
// AVX-512 F: VPERMB and VPERMT2B are VBMI's, VPERMW and VPERMT2W and the
// 64-bit masks (KMOVQ) BW's.
var permuteFeature = map[int][]string{1: {"cpu.X86.HasAVX512BW", "cpu.X86.HasAVX512VBMI"}, 2: {"cpu.X86.HasAVX512BW"}}

// splitPermuted loads plan's index vectors and masks and returns the
// AVX-512 split of a split kernel: a function that loads the 64*cols
// bytes at src, 64/size rows of cols elements, and returns the cols
// columns, row r in lane r.
func splitPermuted(c *build.Context, plan permutePlan, src reg.Register, size, cols int) func() []reg.VecVirtual {
	var permute2, permute func(...Op)
	switch size {
	case 1:
		permute2, permute = c.VPERMT2B, c.VPERMB
	case 2:
		permute2, permute = c.VPERMT2W, c.VPERMW
	case 4:
		permute2, permute = c.VPERMT2PS, c.VPERMPS
	default:
		permute2, permute = c.VPERMT2PD, c.VPERMPD
	}
	idx := map[int]reg.VecVirtual{}
	masks := map[int]reg.Register{}
	for _, steps := range plan.steps {
		for _, s := range steps {
			idx[s.off] = c.ZMM()
			c.VMOVDQU64(plan.table.Offset(s.off), idx[s.off])
			if s.reg > 1 && masks[s.mask] == nil {
				k := c.K()
				switch size { // 64, 32, 16 or 8 lanes
				case 1:
					g := c.GP64()
					c.MOVQ(U64(uint64(s.mask)), g)
					c.KMOVQ(g, k)
				case 2:
					g := c.GP32()
					c.MOVL(U32(uint32(s.mask)), g)
					c.KMOVD(g, k)
				default:
					g := c.GP32()
					c.MOVL(U32(uint32(s.mask)), g)
					c.KMOVW(g, k)
				}
				masks[s.mask] = k
			}
		}
	}
	return func() []reg.VecVirtual {
		in := make([]reg.VecVirtual, cols)
		for i := range in {
			in[i] = c.ZMM()
			c.VMOVUPS(Mem{Base: src, Disp: 64 * i}, in[i])
		}
		out := make([]reg.VecVirtual, cols)
		for j := range out {
			out[j] = c.ZMM()
			for _, s := range plan.steps[j] {
				if s.reg == 1 {
					c.VMOVDQU64(in[0], out[j])
					permute2(in[1], idx[s.off], out[j])
					continue
				}
				permute(in[s.reg], idx[s.off], masks[s.mask], out[j])
			}
		}
		return out
	}
}

// narrowParams loads the arguments of a narrow kernel (dst, src, ld, n),
// ld in bytes, and jumps to its end when n is 0.
func narrowParams(c *build.Context, name string, size int) (dst, src, ld, n reg.Register) {
	dst = c.Load(c.Param("dst"), c.GP64())
	src = c.Load(c.Param("src"), c.GP64())
	ld = c.Load(c.Param("ld"), c.GP64())
	n = c.Load(c.Param("n"), c.GP64())
	if size > 1 {
		c.SHLQ(U8(log2(size)), ld)
	}
	c.TESTQ(n, n)
	c.JZ(LabelRef(name + "done"))
	return dst, src, ld, n
}

// emitSplitWide writes an AVX-512 split kernel: 64*cols bytes of rows
// split into cols registers of columns per step (splitPermuted), each
// stored at its column of dst.
func emitSplitWide(c *build.Context, name string, size, cols int) {
	plan := planPermutes(c, name, size, cols)
	dst, src, ld, n := narrowParams(c, name, size)
	split := splitPermuted(c, plan, src, size, cols)
	c.Label(name + "loop")
	p := c.GP64()
	c.MOVQ(dst, p)
	for j, o := range split() {
		c.VMOVUPS(o, Mem{Base: p})
		if j < cols-1 {
			c.ADDQ(ld, p)
		}
	}
	c.ADDQ(U32(uint32(64*cols)), src)
	c.ADDQ(U32(64), dst)
	c.SUBQ(U32(uint32(64/size)), n)
	c.JNZ(LabelRef(name + "loop"))
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}

// floatConst sets r, a register of any width, to v in every size-byte
// lane, and returns it.
func floatConst(c *build.Context, size int, v float64, r reg.VecVirtual) reg.VecVirtual {
	if size == 4 {
		return intConst(c, size, uint64(math.Float32bits(float32(v))), r)
	}
	return intConst(c, size, math.Float64bits(v), r)
}

// signBits sets r, a register of any width, to the sign bit of every
// size-byte lane, and returns it.
func signBits(c *build.Context, size int, r reg.VecVirtual) reg.VecVirtual {
	return floatConst(c, size, math.Copysign(0, -1), r)
}

// emitTranspose writes the loops of a transposition kernel: over squares
// down the rows of src, then across its columns. The wide (AVX-512)
// squares are whole cache lines on both sides: each line of src is read
// and each line of dst written by one square, whatever the strides'
// cache-set conflicts evict in between.
func emitTranspose(c *build.Context, size, side int, wide, stream bool) {
	dst := c.Load(c.Param("dst"), c.GP64())
	ldd := c.Load(c.Param("ldd"), c.GP64())
	src := c.Load(c.Param("src"), c.GP64())
	lds := c.Load(c.Param("lds"), c.GP64())
	rows := c.Load(c.Param("rows"), c.GP64())
	cols := c.Load(c.Param("cols"), c.GP64())
	tag := fmt.Sprint(size)
	vec := c.YMM
	if wide {
		tag += "w"
		vec = c.ZMM
	}
	store := func(v, m Op) { c.VMOVUPS(v, m) }
	if stream {
		tag += "s"
		store = c.VMOVNTPS
	}
	shift := U8(log2(size))
	c.SHLQ(shift, ldd)
	c.SHLQ(shift, lds)
	c.TESTQ(rows, rows)
	c.JZ(LabelRef("done" + tag))
	c.TESTQ(cols, cols)
	c.JZ(LabelRef("done" + tag))
	// A band of side rows of src: down by side*lds; its squares land side
	// elements further along every row of dst.
	band := c.GP64()
	c.MOVQ(lds, band)
	c.SHLQ(U8(log2(side)), band)
	down := c.GP64()
	c.MOVQ(ldd, down)
	c.SHLQ(U8(log2(side)), down)
	c.Label("band" + tag)
	in, out, n := c.GP64(), c.GP64(), c.GP64()
	c.MOVQ(src, in)
	c.MOVQ(dst, out)
	c.MOVQ(cols, n)
	c.Label("square" + tag)
	p := c.GP64()
	c.MOVQ(in, p)
	regs := make([]reg.VecVirtual, side)
	for i := range regs {
		regs[i] = vec()
		c.VMOVUPS(Mem{Base: p}, regs[i])
		if i < side-1 {
			c.ADDQ(lds, p)
		}
	}
	var cols4 []reg.VecVirtual
	switch {
	case wide:
		cols4 = transposeWide(c, regs, size)
	case size == 4:
		cols4 = transpose8x8(c, regs)
	default:
		cols4 = transpose4x4(c, regs)
	}
	c.MOVQ(out, p)
	for i, v := range cols4 {
		store(v, Mem{Base: p})
		if i < side-1 {
			c.ADDQ(ldd, p)
		}
	}
	c.ADDQ(U32(uint32(side*size)), in)
	c.ADDQ(down, out)
	c.SUBQ(U32(uint32(side)), n)
	c.JNZ(LabelRef("square" + tag))
	c.ADDQ(band, src)
	c.ADDQ(U32(uint32(side*size)), dst)
	c.SUBQ(U32(uint32(side)), rows)
	c.JNZ(LabelRef("band" + tag))
	c.VZEROUPPER()
	c.Label("done" + tag)
	c.RET()
}

// transposeWide returns the columns of the square of size-byte elements
// whose rows are the zmm registers r (16 float32, 8 float64): the q x q
// squares in each 128-bit lane transposed (q = 16/size), so that lane l
// of register g*q + j holds column q*l + j of rows q*g to q*g + q - 1;
// then, for each j, two rounds of 128-bit lane shuffles (lanes 0 and 2,
// 1 and 3 of two registers) gather lane l of the four groups into column
// q*l + j.
func transposeWide(c *build.Context, r []reg.VecVirtual, size int) []reg.VecVirtual {
	q := 16 / size
	var u []reg.VecVirtual
	for g := range 4 {
		if size == 4 {
			u = append(u, transposeInLanes(c, r[4*g:4*g+4], c.ZMM)...)
			continue
		}
		lo, hi := c.ZMM(), c.ZMM()
		c.VUNPCKLPD(r[2*g+1], r[2*g], lo)
		c.VUNPCKHPD(r[2*g+1], r[2*g], hi)
		u = append(u, lo, hi)
	}
	shuffle := func(imm uint8, a, b reg.VecVirtual) reg.VecVirtual {
		v := c.ZMM()
		c.VSHUFF32X4(U8(imm), b, a, v) // lanes imm[1:0], imm[3:2] of a, imm[5:4], imm[7:6] of b
		return v
	}
	const even, odd = 0x88, 0xdd // lanes 0 and 2; 1 and 3
	out := make([]reg.VecVirtual, 4*q)
	for j := range q {
		a, b := shuffle(even, u[j], u[q+j]), shuffle(odd, u[j], u[q+j])
		d, e := shuffle(even, u[2*q+j], u[3*q+j]), shuffle(odd, u[2*q+j], u[3*q+j])
		out[j], out[2*q+j] = shuffle(even, a, d), shuffle(odd, a, d)
		out[q+j], out[3*q+j] = shuffle(even, b, e), shuffle(odd, b, e)
	}
	return out
}

// transposeInLanes returns the columns of the 4x4 float32 squares whose
// rows are the 128-bit lanes of r, in each lane: pairs of rows
// interleaved, then pairs of pairs.
func transposeInLanes(c *build.Context, r []reg.VecVirtual, vec func() reg.VecVirtual) []reg.VecVirtual {
	t := make([]reg.VecVirtual, 4)
	for i := 0; i < 4; i += 2 {
		t[i], t[i+1] = vec(), vec()
		c.VUNPCKLPS(r[i+1], r[i], t[i])
		c.VUNPCKHPS(r[i+1], r[i], t[i+1])
	}
	out := make([]reg.VecVirtual, 4)
	for k, s := range []struct {
		a, b int
		imm  uint8
	}{{0, 2, 0x44}, {0, 2, 0xEE}, {1, 3, 0x44}, {1, 3, 0xEE}} {
		out[k] = vec()
		c.VSHUFPS(U8(s.imm), t[s.b], t[s.a], out[k])
	}
	return out
}

// transpose8x8 returns the columns of the 8x8 float32 square whose rows are
// r: pairs of rows interleaved, then pairs of pairs, then the 128-bit halves
// exchanged.
func transpose8x8(c *build.Context, r []reg.VecVirtual) []reg.VecVirtual {
	u := append(transposeInLanes(c, r[:4], c.YMM), transposeInLanes(c, r[4:], c.YMM)...)
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
// into its columns, or columns interleaved into such rows, a register of
// rows at a time, where an element loop moves one element per load and
// store.
var x86Narrows = []struct{ size, cols int }{{1, 2}, {1, 3}, {1, 4}, {2, 2}, {2, 3}, {2, 4}, {4, 2}, {4, 3}, {4, 4}, {8, 2}, {8, 3}}

// narrowName is the name of the narrow transposition of cols columns of
// size-byte elements: the split, or the interleave.
func narrowName(size, cols int, split bool) string {
	if split {
		return fmt.Sprintf("split%dx%dAVX2", size, cols)
	}
	return fmt.Sprintf("interleave%dx%dAVX2", size, cols)
}

// lane is where a lane of a register comes from: lane of input register reg.
type lane struct{ reg, lane int }

// emitNarrow writes a narrow transposition of cols columns: side rows per
// step, one register of each column and cols registers of the contiguous
// rows. Element (r, c) is at lane (r*cols+c) mod side of contiguous
// register (r*cols+c) / side, and at lane r of column register c.
func emitNarrow(c *build.Context, name string, size, cols int, split bool) {
	if size < 4 {
		emitNarrowBytes(c, name, size, cols, split)
		return
	}
	side := 32 / size
	g := &laneGatherer{c: c, size: size, idx: c.StaticGlobal(name + "idx")}
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	dst, src, ld, n := narrowParams(c, name, size)
	c.Label(name + "loop")
	in := make([]reg.VecVirtual, cols)
	p := c.GP64()
	c.MOVQ(src, p)
	for j := range in {
		in[j] = c.YMM()
		if split {
			c.VMOVUPS(Mem{Base: src, Disp: 32 * j}, in[j])
		} else {
			c.VMOVUPS(Mem{Base: p}, in[j])
			if j < cols-1 {
				c.ADDQ(ld, p)
			}
		}
	}
	c.MOVQ(dst, p)
	for j := range cols {
		from := make([]lane, side)
		for l := range from {
			if split { // column j, row l
				at := l*cols + j
				from[l] = lane{at / side, at % side}
			} else { // contiguous register j
				at := j*side + l
				from[l] = lane{at % cols, at / cols}
			}
		}
		o := g.gather(in, from)
		if split {
			c.VMOVUPS(o, Mem{Base: p})
			if j < cols-1 {
				c.ADDQ(ld, p)
			}
		} else {
			c.VMOVUPS(o, Mem{Base: dst, Disp: 32 * j})
		}
	}
	narrowNext(c, name, dst, src, n, side, cols, split)
}

// laneGatherer emits register permutations and blends of one kernel, its
// permutation indexes in the kernel's table idx.
type laneGatherer struct {
	c     *build.Context
	size  int // element bytes
	idx   Mem
	datum int
}

// gather returns a register whose lane l is from[l] of the registers in.
// Where no lane of one register is wanted from two of them, one blend
// collects the lanes and one permutation puts them in place; otherwise
// each register's lanes are permuted into place and then blended.
func (g *laneGatherer) gather(in []reg.VecVirtual, from []lane) reg.VecVirtual {
	side := len(from)
	owner := make([]int, side) // the register each lane is wanted from, or -1
	for i := range owner {
		owner[i] = -1
	}
	shared := false
	for _, f := range from {
		if owner[f.lane] >= 0 && owner[f.lane] != f.reg {
			shared = true
		}
		owner[f.lane] = f.reg
	}
	var regs []int // the registers used, in order of first use
	for _, f := range from {
		if !slices.Contains(regs, f.reg) {
			regs = append(regs, f.reg)
		}
	}
	if !shared {
		o := in[regs[0]]
		for _, r := range regs[1:] {
			var mask uint8
			for l, w := range owner {
				if w == r {
					mask |= 1 << l
				}
			}
			o = g.blend(mask, in[r], o)
		}
		lanes := make([]int, side)
		for l, f := range from {
			lanes[l] = f.lane
		}
		if identity(lanes) {
			return o
		}
		return g.permute(lanes, o)
	}
	var o reg.VecVirtual
	for k, r := range regs {
		lanes := make([]int, side)
		var mask uint8
		for l, f := range from {
			if f.reg == r {
				lanes[l] = f.lane
				mask |= 1 << l
			}
		}
		moved := in[r]
		if !identity(lanes) {
			moved = g.permute(lanes, in[r])
		}
		if k == 0 {
			o = moved
			continue
		}
		o = g.blend(mask, moved, o)
	}
	return o
}

// permute returns v with lane l set to its lane from[l]: VPERMPD with an
// immediate for 8-byte elements, VPERMPS with indexes from the table for
// 4-byte ones.
func (g *laneGatherer) permute(from []int, v reg.VecVirtual) reg.VecVirtual {
	c, out := g.c, g.c.YMM()
	if g.size == 8 {
		var imm uint8
		for l, f := range from {
			imm |= uint8(f) << (2 * l)
		}
		c.VPERMPD(U8(imm), v, out)
		return out
	}
	m := g.idx.Offset(g.datum)
	for _, f := range from {
		c.AddDatum(g.datum, U32(uint32(f)))
		g.datum += 4
	}
	i := c.YMM()
	c.VMOVDQU(m, i)
	c.VPERMPS(v, i, out)
	return out
}

// blend returns base with the lanes in mask taken from v.
func (g *laneGatherer) blend(mask uint8, v, base reg.VecVirtual) reg.VecVirtual {
	out := g.c.YMM()
	if g.size == 8 {
		g.c.VBLENDPD(U8(mask), v, base, out)
	} else {
		g.c.VBLENDPS(U8(mask), v, base, out)
	}
	return out
}

// identity reports whether a permutation leaves every lane where it is.
func identity(from []int) bool {
	for l, f := range from {
		if f != l {
			return false
		}
	}
	return true
}

// emitNarrowBytes writes a narrow transposition of cols columns of 1- or
// 2-byte elements (RGB pixels of uint8, float16 pairs), which no lane
// permutation of whole registers moves: VPSHUFB moves bytes, but only
// within each 16-byte half. So each half holds a block of its own, 16/size
// rows: the contiguous block's register k is its bytes 16k to 16k+15 in
// the low half and 16*cols further on in the high half (one load and one
// VINSERTI128, or one store and one VEXTRACTI128), and a column register
// holds 32/size rows, the first half of them low. Every register of one
// side is then the OR of one VPSHUFB of each register of the other that it
// takes bytes from, the bytes it takes none from zeroed by the shuffle.
func emitNarrowBytes(c *build.Context, name string, size, cols int, split bool) {
	side := 32 / size
	idx := c.StaticGlobal(name + "idx")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	datum := 0
	dst, src, ld, n := narrowParams(c, name, size)
	c.Label(name + "loop")
	in := make([]reg.VecVirtual, cols)
	p := c.GP64()
	c.MOVQ(src, p)
	for k := range in {
		in[k] = c.YMM()
		if split {
			c.VMOVDQU(Mem{Base: src, Disp: 16 * k}, in[k].AsX())
			c.VINSERTI128(U8(1), Mem{Base: src, Disp: 16 * (cols + k)}, in[k], in[k])
		} else {
			c.VMOVDQU(Mem{Base: p}, in[k])
			if k < cols-1 {
				c.ADDQ(ld, p)
			}
		}
	}
	c.MOVQ(dst, p)
	for k := range cols {
		// from[b]: the register and byte of the other side that byte b of
		// this register's halves comes from.
		from := make([]lane, 16)
		for b := range from {
			if split { // column k: row b/size of the half, byte b%size
				at := (b/size*cols+k)*size + b%size
				from[b] = lane{at / 16, at % 16}
			} else { // contiguous bytes 16k+b of the half
				at := (16*k + b) / size
				from[b] = lane{at % cols, at/cols*size + (16*k+b)%size}
			}
		}
		var o reg.VecVirtual
		for r := range cols {
			var mask [16]byte
			used := false
			for b, f := range from {
				mask[b] = 0x80
				if f.reg == r {
					mask[b], used = byte(f.lane), true
				}
			}
			if !used {
				continue
			}
			for h := range 2 { // the same shuffle in both halves
				for i, x := range mask {
					c.AddDatum(datum+16*h+i, U8(x))
				}
			}
			m := c.YMM()
			c.VMOVDQU(idx.Offset(datum), m)
			datum += 32
			c.VPSHUFB(m, in[r], m)
			if o == nil {
				o = m
				continue
			}
			c.VPOR(m, o, o)
		}
		if split {
			c.VMOVDQU(o, Mem{Base: p})
			if k < cols-1 {
				c.ADDQ(ld, p)
			}
		} else {
			c.VMOVDQU(o.AsX(), Mem{Base: dst, Disp: 16 * k})
			c.VEXTRACTI128(U8(1), o, Mem{Base: dst, Disp: 16 * (cols + k)})
		}
	}
	narrowNext(c, name, dst, src, n, side, cols, split)
}

// narrowNext ends a narrow transposition's step: past its side rows of cols
// columns (32*cols contiguous bytes, 32 of each column), and round again
// while rows remain.
func narrowNext(c *build.Context, name string, dst, src, n reg.Register, side, cols int, split bool) {
	if split {
		c.ADDQ(U32(uint32(32*cols)), src)
		c.ADDQ(U32(32), dst)
	} else {
		c.ADDQ(U32(32), src)
		c.ADDQ(U32(uint32(32*cols)), dst)
	}
	c.SUBQ(U32(uint32(side)), n)
	c.JNZ(LabelRef(name + "loop"))
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}
