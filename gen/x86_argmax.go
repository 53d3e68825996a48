package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The extremes' searches (FindMax, FindMin) in one pass: each lane keeps
// the best value it has met and where, and the lanes are combined once at
// the end. That replaces MaxOf, which combines its 32 accumulators in Go,
// followed by FindBits over the same data: two passes and two fixed costs.

// x86ArgIota are the element offsets 0, 1, 2, ... as int32 (64 of them)
// and as int64 (32): lane l of register u of a step is its element
// u*lanes + l.
var x86ArgIota32, x86ArgIota64 Mem

// addArgIota adds the offset tables to c.
func addArgIota(c *build.Context) {
	x86ArgIota32 = c.StaticGlobal("argiota32")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := range 64 {
		c.AddDatum(4*i, U32(uint32(i)))
	}
	x86ArgIota64 = c.StaticGlobal("argiota64")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := range 32 {
		c.AddDatum(8*i, U64(uint64(i)))
	}
}

// extremeRegs is the number of registers of best values (and of their
// positions) a step updates: four independent chains.
const extremeRegs = 4

// x86Ordered are VCMPPS predicates: greater than, less than, equal, all
// ordered (a NaN compares false), and unordered (true for a NaN).
const (
	x86CmpGT    = 0x1e
	x86CmpLT    = 0x11
	x86CmpEQ    = 0x00
	x86CmpUnord = 0x03
)

// extreme emits FindMax or FindMin, or without the positions
// FindGreatest or FindLeast. Lane l of best register u holds the
// best value of the elements it met (element u*lanes + l of each step) by
// an ordered comparison, strict so that the first stays on a tie, and the
// same lane of idx register u the index j of that step; every element is
// also checked for a NaN, which makes the result -1. At the end the best
// of all lanes is found, then the least index among the lanes that hold
// it. Indices are lanes of T's width: the entry's pieces are far below
// 2^31 elements. Without positions a lane keeps the greater (lesser) by
// VMAXPS (VMINPS), whose choice on a tie of zeros or a NaN does not
// matter: a NaN was seen, and a zero result is +0.
func (k *x86Reduce) extreme(laneMask Mem) {
	w, lanes := k.w, k.lanes
	masked, valued := k.isa.masked, k.r.Fold.Valued()
	beats, inf32, inf64 := uint8(x86CmpGT), uint32(0xff800000), uint64(0xfff0000000000000) // -Inf
	extremeOf := pick(k.t, k.VMAXPS, k.VMAXPD)
	if k.r.Fold.Least() {
		beats, inf32, inf64 = x86CmpLT, 0x7f800000, 0x7ff0000000000000
		extremeOf = pick(k.t, k.VMINPS, k.VMINPD)
	}
	start := k.constant(inf32, inf64)
	var best, idx []reg.VecVirtual
	for range extremeRegs {
		b := k.vec(w)
		k.move(narrow(start, w), narrow(b, w))
		best = append(best, b)
		if !valued {
			x := k.vec(w)
			k.xor(narrow(x, w), narrow(x, w), narrow(x, w), w)
			idx = append(idx, x)
		}
	}
	var nanMask Op // an opmask (AVX-512) or a lane mask of NaNs met
	if masked {
		nanMask = k.K()
		k.KXORW(nanMask, nanMask, nanMask)
	} else {
		nanMask = narrow(k.vec(w), w)
		k.xor(nanMask, nanMask, nanMask, w)
	}
	cmp := pick(k.t, k.VCMPPS, k.VCMPPD)
	// at broadcasts j, the index of the step's first element, where
	// positions are kept.
	at := func() Op {
		if valued {
			return nil
		}
		x, v := k.XMM(), narrow(k.vec(w), w)
		k.VMOVQ(k.j, x)
		if k.t.Bits == 32 {
			k.VPBROADCASTD(x, v)
		} else {
			k.VPBROADCASTQ(x, v)
		}
		return v
	}
	update := func(u int, x, j Op) {
		if valued {
			b := narrow(best[u], w)
			extremeOf(x, b, b)
			return
		}
		b, p := narrow(best[u], w), narrow(idx[u], w)
		if masked {
			m := k.K()
			cmp(U8(beats), b, x, m)
			pick(k.t, k.VMOVAPS, k.VMOVAPD)(x, m, b)
			pick(k.t, k.VMOVDQA32, k.VMOVDQA64)(j, m, p)
			return
		}
		m := narrow(k.vec(w), w)
		cmp(U8(beats), b, x, m)
		k.blendv(m, x, b, b)
		k.blendv(m, j, p, p)
	}
	nan := func(x, y Op) {
		if masked {
			m := k.K()
			cmp(U8(x86CmpUnord), y, x, m)
			k.KORW(m, nanMask, nanMask)
			return
		}
		m := narrow(k.vec(w), w)
		cmp(U8(x86CmpUnord), y, x, m)
		k.or(m, nanMask, nanMask, w)
	}
	load := func(disp int) Op {
		x := narrow(k.vec(w), w)
		k.move(k.at(0, disp), x)
		return x
	}
	for _, count := range []int{extremeRegs, 1} {
		loop, next := fmt.Sprintf("%s_loop%d", k.name, count), fmt.Sprintf("%s_after%d", k.name, count)
		k.loopHead(loop, next, count*lanes)
		j := at()
		var xs []Op
		for u := range count {
			x := load(u * lanes)
			update(u, x, j)
			xs = append(xs, x)
		}
		for u := 0; u < count; u += 2 {
			nan(xs[u], xs[min(u+1, count-1)])
		}
		k.ADDQ(U32(uint32(count*lanes)), k.j)
		k.JMP(LabelRef(loop))
		k.Label(next)
	}
	// The last elements, fewer than a register: loaded under a lane mask,
	// the other lanes holding the start value, which beats nothing.
	rem, table := k.GP64(), k.GP64()
	k.MOVQ(k.n, rem)
	k.SUBQ(k.j, rem)
	k.JZ(LabelRef(k.name + "_combine"))
	x := narrow(k.vec(w), w)
	k.move(narrow(start, w), x)
	if masked {
		m := k.K()
		k.LEAQ(x86TailMask, table)
		k.KMOVQ(Mem{Base: table, Index: rem, Scale: 8}, m)
		pick(k.t, k.VMOVUPS, k.VMOVUPD)(k.at(0, 0), m, x)
	} else {
		mask, y := narrow(k.vec(w), w), narrow(k.vec(w), w)
		k.LEAQ(laneMask, table)
		k.SHLQ(U8(log2(k.t.Size())), rem)
		k.SUBQ(rem, table)
		k.VMOVDQU(Mem{Base: table, Disp: 32}, mask)
		if k.t.Bits == 32 {
			k.VMASKMOVPS(k.at(0, 0), mask, y)
		} else {
			k.VMASKMOVPD(k.at(0, 0), mask, y)
		}
		k.blendv(mask, y, x, x)
	}
	update(0, x, at())
	nan(x, x)

	k.Label(k.name + "_combine")
	if masked {
		k.KORTESTW(nanMask, nanMask)
	} else {
		k.VPTEST(nanMask, nanMask)
	}
	k.JNE(LabelRef(k.name + "_nan"))
	// No NaN is left, so the combine is exact.
	eReg := k.vec(w)
	e := narrow(eReg, w)
	extremeOf(narrow(best[1], w), narrow(best[0], w), e)
	for _, b := range best[2:] {
		extremeOf(narrow(b, w), e, e)
	}
	k.across(e, func(x, y, r Op) { extremeOf(x, y, r) })
	r := k.GP64()
	// ret returns r, then the NaN's result -1.
	ret := func() {
		k.Store(r, k.ReturnIndex(0))
		k.VZEROUPPER()
		k.RET()
		k.Label(k.name + "_nan")
		k.MOVQ(I32(-1), r)
		k.Store(r, k.ReturnIndex(0))
		k.VZEROUPPER()
		k.RET()
	}
	if valued {
		// The bits of lane 0, those of +0 for a zero: the magnitude's bits
		// are all clear then, and replace them.
		mag := k.GP64()
		if k.t.Bits == 32 {
			k.VMOVD(eReg.AsX(), r.As32())
			k.MOVL(U32(0x7fffffff), mag.As32())
			k.ANDL(r.As32(), mag.As32())
			k.CMOVLEQ(mag.As32(), r.As32())
		} else {
			k.VMOVQ(eReg.AsX(), r)
			k.MOVQ(U64(0x7fffffffffffffff), mag)
			k.ANDQ(r, mag)
			k.CMOVQEQ(mag, r)
		}
		ret()
		return
	}
	// The least index among the lanes holding the extreme (-0 and +0 alike):
	// every other lane offers the largest index.
	iota := x86ArgIota32
	if k.t.Bits == 64 {
		iota = x86ArgIota64
	}
	none := k.constant(0x7fffffff, 0x7fffffffffffffff)
	leastReg := k.vec(w)
	least := narrow(leastReg, w)
	k.move(narrow(none, w), least)
	for u := range extremeRegs {
		p := narrow(idx[u], w)
		pick(k.t, k.VPADDD, k.VPADDQ)(iota.Offset(u*w), p, p)
		if masked {
			m := k.K()
			cmp(U8(x86CmpEQ), e, narrow(best[u], w), m)
			pick(k.t, k.VPMINSD, k.VPMINSQ)(p, least, m, least)
			continue
		}
		m := narrow(k.vec(w), w)
		cmp(U8(x86CmpEQ), e, narrow(best[u], w), m)
		k.blendv(m, p, narrow(none, w), m)
		k.leastIndex(m, least, least)
	}
	k.across(least, k.leastIndex)
	if k.t.Bits == 32 {
		k.VMOVD(leastReg.AsX(), r.As32()) // zero-extended: indices are not negative
	} else {
		k.VMOVQ(leastReg.AsX(), r)
	}
	ret()
}

// leastIndex emits r = the lane-wise signed minimum of the indices x and
// y: AVX2 has none for 64-bit lanes, so there a comparison and a blend.
func (k *x86Reduce) leastIndex(x, y, r Op) {
	switch {
	case k.t.Bits == 32:
		k.VPMINSD(x, y, r)
	case k.isa.masked:
		k.VPMINSQ(x, y, r)
	default:
		g := narrow(k.vec(k.w), k.w)
		k.VPCMPGTQ(x, y, g) // y > x
		k.VBLENDVPD(g, x, y, r)
	}
}

// across folds the lanes of v with op, leaving the result in every lane:
// the halves of 512 and 256 bits swapped and folded, then the 64- and
// 32-bit lanes within each 128.
func (k *x86Reduce) across(v Op, op func(x, y, r Op)) {
	w := k.w
	t := narrow(k.vec(w), w)
	if w == 64 {
		k.VSHUFF64X2(U8(0x4e), v, v, t)
		op(t, v, v)
		k.VSHUFF64X2(U8(0xb1), v, v, t)
		op(t, v, v)
	} else {
		k.VPERM2F128(U8(0x01), v, v, t)
		op(t, v, v)
	}
	k.VPSHUFD(U8(0x4e), v, t)
	op(t, v, v)
	if k.t.Bits == 32 {
		k.VPSHUFD(U8(0xb1), v, t)
		op(t, v, v)
	}
}

// addArgColumns adds the column searches: argColumnsNLEVEL(best, at, x,
// ld, lines, w, first, least) runs down lines lines of w >= lanes columns
// of N-byte floats, line i at x + i*ld bytes, keeping in best and at each
// column's extreme so far and its line (first + i, an integer of N bytes):
// a column takes line i's value where it is greater (least: less) than
// best's, or a NaN where best's is not. Strict, so that the first of equal
// values stays; a NaN stays once it is in best. The last vector of a line
// overlaps the one before it where w is not a multiple of the lanes: the
// update is idempotent. Zeros are not told apart (the caller looks again
// where the extreme is ±0). Each line's vector is a load, two comparisons
// and two merges in registers, best's and at's vectors loaded and stored
// once a block of lines (argColumnsBlock), against the fused kernels'
// three instructions through memory.
func addArgColumns(c *build.Context, needs map[string][]string) {
	addColumnKernels(c, needs, "argColumns", "func(best, at, x *byte, ld, lines, w, first, least int)",
		"updates best and at over lines lines of w columns", "addArgColumns", emitArgColumns)
}

// addColumnKernels adds the kernels base{4,8}{AVX2,AVX512} for 4- and
// 8-byte floats, emitted by emit, with signature sig; their docs say what
// they do (what) and where in the generator to read more (see).
func addColumnKernels(c *build.Context, needs map[string][]string, base, sig, what, see string, emit func(c *build.Context, name string, size int, wide bool)) {
	for _, wide := range []bool{false, true} {
		for _, size := range []int{4, 8} {
			level, feats := "AVX2", []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}
			if wide {
				level, feats = "AVX512", append(feats, "cpu.X86.HasAVX512F")
			}
			name := fmt.Sprintf("%s%d%s", base, size, level)
			c.Function(name)
			c.Pragma("noescape")
			c.Doc(fmt.Sprintf("%s %s of %d-byte floats with %s (see %s in the generator).", name, what, size, level, see))
			c.Attributes(attr.NOSPLIT)
			c.SignatureExpr(sig)
			emit(c, name, size, wide)
			needs[name] = feats
		}
	}
}

// VCMPPS predicates of the column searches: ordered (no NaN), not less or
// equal and not greater or equal (true for a NaN).
const (
	x86CmpOrd   = 0x07
	x86CmpNLEUQ = 0x16
	x86CmpNGEUQ = 0x19
)

// argColumnsBlock is the lines a column search takes at once: each
// vector of best and at is loaded, updated by that many lines in
// registers, and stored whole. Updated in memory by masked stores, line
// after line, the next line's load of best waited for the store, which a
// masked store does not forward. Xeon model 167, float32 ArgMax over the
// lines, us, 3 interleaved runs, masked stores / blocks of 2 / 4 / 8:
// (1000, 100) 22.4-22.9 / 15.2-15.5 / 16.3-17.4 / 19.8-20.9; (1024, 1024)
// 176-192 / 155-168 / 179-205 / 206-214; (64, 64) 0.57-0.59 / 0.47-0.48
// / 0.40-0.42 / 0.41-0.42.
const argColumnsBlock = 2

// emitArgColumns writes one column search (addArgColumns): blocks of
// argColumnsBlock lines, then the rest one at a time.
func emitArgColumns(c *build.Context, name string, size int, wide bool) {
	bytes, vec := 32, c.YMM
	if wide {
		bytes, vec = 64, c.ZMM
	}
	best := c.Load(c.Param("best"), c.GP64())
	at := c.Load(c.Param("at"), c.GP64())
	x := c.Load(c.Param("x"), c.GP64())
	ld := c.Load(c.Param("ld"), c.GP64())
	lines := c.Load(c.Param("lines"), c.GP64())
	last := c.Load(c.Param("w"), c.GP64()) // then the byte offset of a line's last vector
	first := c.Load(c.Param("first"), c.GP64())
	least := c.Load(c.Param("least"), c.GP64())
	c.SHLQ(U8(log2(size)), last)
	c.SUBQ(U32(uint32(bytes)), last)
	c.TESTQ(lines, lines)
	c.JZ(LabelRef(name + "done"))
	cmp, move, moveIdx, blend := c.VCMPPS, c.VMOVUPS, c.VMOVDQU32, c.VBLENDVPS
	if size == 8 {
		cmp, move, moveIdx, blend = c.VCMPPD, c.VMOVUPD, c.VMOVDQU64, c.VBLENDVPD
	}
	broadcast := c.VPBROADCASTD
	if size == 8 {
		broadcast = c.VPBROADCASTQ
	}
	c.TESTQ(least, least)
	c.JNZ(LabelRef(name + "least"))
	for _, p := range []struct {
		label string
		pred  uint8
	}{{"greatest", x86CmpNLEUQ}, {"least", x86CmpNGEUQ}} {
		c.Label(name + p.label)
		for _, block := range []int{argColumnsBlock, 1} {
			loop := fmt.Sprintf("%s%s%d", name, p.label, block)
			c.Label(loop)
			if block > 1 { // the rest, fewer lines than a block, one at a time
				c.CMPQ(lines, U8(block))
				c.JB(LabelRef(fmt.Sprintf("%s%s%d", name, p.label, 1)))
			}
			// line l's first element and index
			ptr, idx := []reg.Register{x}, make([]reg.VecVirtual, block)
			for l := range block {
				if l > 0 {
					q := c.GP64()
					c.LEAQ(Mem{Base: ptr[l-1], Index: ld, Scale: 1}, q)
					ptr = append(ptr, q)
				}
				g, xr := c.GP64(), c.XMM()
				c.LEAQ(Mem{Base: first, Disp: l}, g)
				c.VMOVQ(g, xr)
				idx[l] = vec()
				broadcast(xr, idx[l])
			}
			j := c.GP64()
			c.XORQ(j, j)
			step := func() {
				bv, av := vec(), vec()
				move(Mem{Base: best, Index: j, Scale: 1}, bv)
				if wide {
					moveIdx(Mem{Base: at, Index: j, Scale: 1}, av)
				} else {
					c.VMOVDQU(Mem{Base: at, Index: j, Scale: 1}, av)
				}
				for l := range block {
					xv := vec()
					move(Mem{Base: ptr[l], Index: j, Scale: 1}, xv)
					if wide {
						ord, take := c.K(), c.K()
						cmp(U8(x86CmpOrd), bv, bv, ord)
						cmp(U8(p.pred), bv, xv, ord, take)
						move(xv, take, bv)
						moveIdx(idx[l], take, av)
						continue
					}
					ord, take := vec(), vec()
					cmp(U8(x86CmpOrd), bv, bv, ord)
					cmp(U8(p.pred), bv, xv, take)
					c.VANDPS(ord, take, take) // bitwise: either lane size
					blend(take, xv, bv, bv)
					blend(take, idx[l], av, av)
				}
				move(bv, Mem{Base: best, Index: j, Scale: 1})
				if wide {
					moveIdx(av, Mem{Base: at, Index: j, Scale: 1})
				} else {
					c.VMOVDQU(av, Mem{Base: at, Index: j, Scale: 1})
				}
			}
			vecs, tail := loop+"vec", loop+"tail"
			c.Label(vecs)
			c.CMPQ(j, last)
			c.JAE(LabelRef(tail))
			step()
			c.ADDQ(U32(uint32(bytes)), j)
			c.JMP(LabelRef(vecs))
			c.Label(tail)
			c.MOVQ(last, j)
			step()
			for range block {
				c.ADDQ(ld, x)
			}
			c.ADDQ(U8(block), first)
			c.SUBQ(U8(block), lines)
			c.JNZ(LabelRef(loop))
			c.JMP(LabelRef(name + "end"))
		}
	}
	c.Label(name + "end")
	c.VZEROUPPER()
	c.Label(name + "done")
	c.RET()
}
