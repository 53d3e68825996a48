package main

import (
	"fmt"
	"strings"
	"text/template"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdkit/elem/asm"
)

// x86Type binds an element type to the AVX instructions that act on it.
type x86Type struct {
	asm.Type
	add, sub, mul, div, min func(...Op)
	movu                    func(...Op)             // full-vector unaligned load and store
	movuZ                   func(mxyz, k, mxyz1 Op) // zero-masked load
	movnt                   func(mxyz, m Op)        // non-temporal store
	bcast                   func(...Op)             // broadcast one element from memory
	signBcast               func(...Op)             // broadcast a general register's low lane (the sign mask)
	sign                    Constant                // the sign bit of one element, as a bit pattern
}

var x86Types = []x86Type{
	{Type: asm.Types[0], add: VADDPS, sub: VSUBPS, mul: VMULPS, div: VDIVPS, min: VMINPS,
		movu: VMOVUPS, movuZ: VMOVUPS_Z, movnt: VMOVNTPS, bcast: VBROADCASTSS, signBcast: VPBROADCASTD, sign: U32(0x80000000)},
	{Type: asm.Types[1], add: VADDPD, sub: VSUBPD, mul: VMULPD, div: VDIVPD, min: VMINPD,
		movu: VMOVUPD, movuZ: VMOVUPD_Z, movnt: VMOVNTPD, bcast: VBROADCASTSD, signBcast: VPBROADCASTQ, sign: U64(0x8000000000000000)},
}

// x86ISA is one amd64 implementation level.
type x86ISA struct {
	name     string // kernel name suffix and ELEM_IMPL name, upper case
	vecBytes int
	or, xor  func(...Op) // bitwise, in the integer domain of this level
	unroll   int         // vectors per main-loop iteration
	masked   bool        // tails through opmask loads and stores; otherwise step-down pieces
}

var x86ISAs = []x86ISA{
	{name: "AVX2", vecBytes: 32, or: fixed3(VPOR), xor: fixed3(VPXOR), unroll: 4},
	{name: "AVX512", vecBytes: 64, or: VPORD, xor: VPXORD, unroll: 4, masked: true},
}

// fixed2 and fixed3 adapt avo's fixed-arity instruction functions to the
// variadic form the tables hold.
func fixed2(f func(a, b Op)) func(...Op)    { return func(o ...Op) { f(o[0], o[1]) } }
func fixed3(f func(a, b, c Op)) func(...Op) { return func(o ...Op) { f(o[0], o[1], o[2]) } }

// x86ImplNames lists the amd64 implementations' kernel name suffixes.
func x86ImplNames() []string {
	var names []string
	for _, isa := range x86ISAs {
		names = append(names, isa.name)
	}
	return names
}

// tailPiece is one step of an AVX2 step-down tail: a partial vector of
// bytes/size lanes moved with load and store, computed in an XMM register.
type tailPiece struct {
	bytes       int
	load, store func(...Op)
}

func (t x86Type) tailPieces() []tailPiece {
	pieces := []tailPiece{
		{bytes: 16, load: t.movu, store: t.movu},
		{bytes: 8, load: fixed2(VMOVQ), store: fixed2(VMOVQ)},
	}
	if t.Size == 4 {
		pieces = append(pieces, tailPiece{bytes: 4, load: VMOVSS, store: VMOVSS})
	}
	return pieces
}

// tailMask16 is the AVX-512 opmask table: entry k has the low k bits set.
var tailMask16 Mem

// generateAMD64 builds every amd64 kernel into avo's global context.
func generateAMD64() {
	ConstraintExpr("!purego")

	tailMask16 = GLOBL("tailmask16", RODATA|NOPTR)
	for k := 0; k <= 16; k++ {
		DATA(2*k, U16(uint16(1)<<k-1))
	}

	for _, isa := range x86ISAs {
		for _, t := range x86Types {
			for _, k := range asm.Kinds {
				for _, stream := range []bool{false, true} {
					kernelAMD64(isa, t, k, stream)
				}
			}
		}
	}
}

// streamSuffix ends the names of the kernels that write with non-temporal
// stores: the same computation for outputs far larger than the caches, whose
// lines would only evict useful data and cost a read for ownership.
const streamSuffix = "NT"

// operand is one input of a kernel body: streamed from memory at base+offset,
// or broadcast once per row into vector register bc (and its negation nbc,
// which max needs, or nil).
type operand struct {
	streamed bool
	base     reg.Register
	bc, nbc  reg.VecVirtual
}

func kernelAMD64(isa x86ISA, t x86Type, k asm.Kind, stream bool) {
	name := asm.KernelName(k, t.Type, isa.name)
	doc := fmt.Sprintf("%s computes dst[r*ldd+j] = %s for r < m, j < n with %s.", name, kindExpr(k), isa.name)
	if stream {
		name += streamSuffix
		doc = fmt.Sprintf("%s is %s writing the aligned part of each row with non-temporal stores.", name, name[:len(name)-len(streamSuffix)])
	}
	TEXT(name, NOSPLIT, asm.Signature(t.Type))
	Pragma("noescape")
	Doc(doc)

	op := Load(Param("op"), GP64())
	m := Load(Param("m"), GP64())
	n := Load(Param("n"), GP64())
	done := name + "_done"
	TESTQ(m, m)
	JLE(LabelRef(done))
	TESTQ(n, n)
	JLE(LabelRef(done))

	last := asm.Ops[len(asm.Ops)-1]
	for _, o := range asm.Ops[:len(asm.Ops)-1] {
		CMPQ(op, U32(uint32(o.Value)))
		JE(LabelRef(name + "_" + o.Name))
	}
	Comment("Any other op value is " + last.Name + ": elem validates ops before calling.")
	JMP(LabelRef(name + "_" + last.Name))
	for _, o := range asm.Ops {
		Label(name + "_" + o.Name)
		rowLoop(isa, t, k, o, m, n, name+"_"+o.Name, stream)
		JMP(LabelRef(done))
	}
	Label(done)
	if stream {
		Comment("Order the non-temporal stores before any later store, as ordinary ones are.")
		SFENCE()
	}
	VZEROUPPER()
	RET()
}

func kindExpr(k asm.Kind) string {
	a, b := "a[r*lda]", "b[r*ldb]"
	if k.AStreamed {
		a = "a[r*lda+j]"
	}
	if k.BStreamed {
		b = "b[r*ldb+j]"
	}
	return a + " op " + b
}

// rowLoop emits the whole m x n computation for one op; it reloads the
// pointers and strides so that each op body owns its registers.
func rowLoop(isa x86ISA, t x86Type, k asm.Kind, op asm.Op, m, n reg.Register, prefix string, stream bool) {
	shift := Imm(2)
	if t.Size == 8 {
		shift = Imm(3)
	}
	dst := Load(Param("dst"), GP64())
	ldd := Load(Param("ldd"), GP64())
	SHLQ(shift, ldd)
	a := operand{streamed: k.AStreamed, base: Load(Param("a"), GP64())}
	lda := Load(Param("lda"), GP64())
	SHLQ(shift, lda)
	b := operand{streamed: k.BStreamed, base: Load(Param("b"), GP64())}
	ldb := Load(Param("ldb"), GP64())
	SHLQ(shift, ldb)

	var sign reg.VecVirtual
	if op.Name == "max" {
		sign = vecReg(isa.vecBytes)
		g := GP64()
		MOVQ(t.sign, g)
		x := XMM()
		MOVQ(g, x)
		t.signBcast(x, sign)
	}

	rows := GP64()
	MOVQ(m, rows)
	lanes := isa.vecBytes / t.Size
	end := prefix + "_end"
	if !stream {
		// Rows of exactly 1 to unroll vectors, as in column broadcasts of a
		// few dozen elements: each row fully unrolled, one branch per row.
		for q := 1; q <= isa.unroll; q++ {
			CMPQ(n, U32(uint32(q*lanes)))
			JE(LabelRef(fmt.Sprintf("%s_exact%d", prefix, q)))
		}
	}
	Label(prefix + "_row")
	loadRowValues(isa, t, sign, &a, &b)

	off, cnt := GP64(), GP64()
	XORQ(off, off)
	MOVQ(n, cnt)
	b4 := body{isa: isa, t: t, op: op, a: a, b: b, dst: dst, off: off, cnt: cnt, sign: sign, stream: stream}

	if stream {
		// Head: the elements before dst+off reaches a vector boundary, as a tail.
		head, rest := GP64(), GP64()
		MOVQ(dst, head)
		NEGQ(head)
		ANDQ(U32(uint32(isa.vecBytes-1)), head)
		SHRQ(shift, head)
		CMPQ(head, cnt)
		CMOVQGT(cnt, head)
		MOVQ(cnt, rest)
		SUBQ(head, rest)
		MOVQ(head, cnt)
		b4.tail(prefix + "_head")
		MOVQ(rest, cnt)
	}

	for _, step := range []int{isa.unroll, 1} {
		loop, next := fmt.Sprintf("%s_loop%d", prefix, step), fmt.Sprintf("%s_after%d", prefix, step)
		Label(loop)
		CMPQ(cnt, U32(uint32(step*lanes)))
		JB(LabelRef(next))
		b4.full(step)
		ADDQ(U32(uint32(step*isa.vecBytes)), off)
		SUBQ(U32(uint32(step*lanes)), cnt)
		JMP(LabelRef(loop))
		Label(next)
	}

	b4.tail(prefix + "_tail")
	nextRow := func(label string) {
		ADDQ(ldd, dst)
		ADDQ(lda, a.base)
		ADDQ(ldb, b.base)
		DECQ(rows)
		JNZ(LabelRef(label))
	}
	nextRow(prefix + "_row")

	if !stream {
		for q := 1; q <= isa.unroll; q++ {
			JMP(LabelRef(end))
			label := fmt.Sprintf("%s_exact%d", prefix, q)
			Label(label)
			loadRowValues(isa, t, sign, &a, &b)
			XORQ(off, off)
			b4.full(q)
			nextRow(label)
		}
	}
	Label(end)
}

// loadRowValues broadcasts the per-row value of each operand that has one
// (and its negation, for max) into vector registers, the same registers on
// every call, so that every loop body emitted with the operands reads them.
func loadRowValues(isa x86ISA, t x86Type, sign reg.VecVirtual, ops ...*operand) {
	for _, o := range ops {
		if o.streamed {
			continue
		}
		if o.bc == nil {
			o.bc = vecReg(isa.vecBytes)
			if sign != nil {
				o.nbc = vecReg(isa.vecBytes)
			}
		}
		t.bcast(Mem{Base: o.base}, o.bc)
		if sign != nil {
			isa.xor(sign, o.bc, o.nbc)
		}
	}
}

// body emits the vector work of one row position.
type body struct {
	isa    x86ISA
	t      x86Type
	op     asm.Op
	a, b   operand
	dst    reg.Register
	off    reg.Register
	cnt    reg.Register
	sign   reg.VecVirtual
	stream bool // full vectors are stored non-temporally
}

// tail emits the work for the cnt (< one vector) elements at off, with
// ordinary stores, and leaves off past them.
func (g body) tail(prefix string) {
	if g.isa.masked {
		TESTQ(g.cnt, g.cnt)
		JZ(LabelRef(prefix + "_done"))
		table, mask := GP64(), K()
		LEAQ(tailMask16, table)
		KMOVW(Mem{Base: table, Index: g.cnt, Scale: 2}, mask)
		g.masked(mask)
		MOVQ(g.cnt, table)
		SHLQ(U8(log2(g.t.Size)), table)
		ADDQ(table, g.off)
		Label(prefix + "_done")
		return
	}
	for i, p := range g.t.tailPieces() {
		skip := fmt.Sprintf("%s%d", prefix, i)
		CMPQ(g.cnt, U32(uint32(p.bytes/g.t.Size)))
		JB(LabelRef(skip))
		g.piece(p)
		ADDQ(U32(uint32(p.bytes)), g.off)
		SUBQ(U32(uint32(p.bytes/g.t.Size)), g.cnt)
		Label(skip)
	}
}

func log2(n int) uint8 {
	s := uint8(0)
	for n > 1 {
		n, s = n/2, s+1
	}
	return s
}

func (g body) at(base reg.Register, disp int) Mem {
	return Mem{Base: base, Index: g.off, Scale: 1, Disp: disp}
}

// full emits count full vectors: a is loaded, b is folded into the first
// instruction that reads it.
func (g body) full(count int) {
	results := make([]reg.VecVirtual, count)
	for i := range results {
		disp := i * g.isa.vecBytes
		w := g.isa.vecBytes
		x, y := g.source(g.a, disp, w), g.source(g.b, disp, w)
		if g.a.streamed {
			r := vecReg(w)
			g.t.movu(x.v, r)
			x.v = r
		}
		results[i] = g.compute(x, y, w)
	}
	for i, r := range results {
		if g.stream {
			g.t.movnt(r, g.at(g.dst, i*g.isa.vecBytes))
		} else {
			g.t.movu(r, g.at(g.dst, i*g.isa.vecBytes))
		}
	}
}

// piece emits one AVX2 step-down tail piece in XMM registers.
func (g body) piece(p tailPiece) {
	x, y := g.source(g.a, 0, 16), g.source(g.b, 0, 16)
	for _, s := range []*source{&x, &y} {
		if mem, ok := s.v.(Mem); ok {
			r := XMM()
			p.load(mem, r)
			s.v = r
		}
	}
	p.store(g.compute(x, y, 16), g.at(g.dst, 0))
}

// masked emits the AVX-512 tail: zero-masked loads, full-width compute, a
// masked store, so no lane beyond n is read or written.
func (g body) masked(mask reg.OpmaskVirtual) {
	x, y := g.source(g.a, 0, 64), g.source(g.b, 0, 64)
	for _, s := range []*source{&x, &y} {
		if mem, ok := s.v.(Mem); ok {
			r := ZMM()
			g.t.movuZ(mem, mask, r)
			s.v = r
		}
	}
	g.t.movu(g.compute(x, y, 64), mask, g.at(g.dst, 0))
}

// source is one operand value at one position: a register or memory operand,
// and for a broadcast operand its precomputed negation.
type source struct {
	v   Op
	neg Op
}

func (g body) source(o operand, disp, width int) source {
	if o.streamed {
		return source{v: g.at(o.base, disp)}
	}
	s := source{v: narrow(o.bc, width)}
	if o.nbc != nil {
		s.neg = narrow(o.nbc, width)
	}
	return s
}

// vecReg allocates a vector register of width bytes.
func vecReg(width int) reg.VecVirtual {
	switch width {
	case 16:
		return XMM()
	case 32:
		return YMM()
	}
	return ZMM()
}

// narrow views a full-width register at width bytes.
func narrow(r reg.VecVirtual, width int) Op {
	switch width {
	case 16:
		return r.AsX()
	case 32:
		return r.AsY()
	}
	return r.AsZ()
}

// compute emits x op y and returns the register holding it. x is a register;
// y may be memory. Go assembly lists sources in reverse, so x, the first
// source, is always the middle operand.
func (g body) compute(x, y source, width int) reg.VecVirtual {
	r := vecReg(width)
	switch g.op.Name {
	case "add":
		g.t.add(y.v, x.v, r)
	case "sub":
		g.t.sub(y.v, x.v, r)
	case "mul":
		g.t.mul(y.v, x.v, r)
	case "div":
		g.t.div(y.v, x.v, r)
	case "min":
		g.goMin(x.v, y.v, r, width)
	case "max":
		// Go computes max(x, y) as -min(-x, -y).
		nx, ny := g.negate(x, width), g.negate(y, width)
		m := vecReg(width)
		g.goMin(nx, ny, m, width)
		g.isa.xor(narrow(g.sign, width), m, r)
	default:
		panic("unknown op " + g.op.Name)
	}
	return r
}

// goMin emits the sequence the Go compiler uses for the builtin min, so that
// NaNs and signed zeros come out with the same bits:
// t1 = MIN(x, y); t2 = MIN(t1, x); r = t1 | t2.
func (g body) goMin(x, y Op, r reg.VecVirtual, width int) {
	t1, t2 := vecReg(width), vecReg(width)
	g.t.min(y, x, t1)
	g.t.min(x, t1, t2)
	g.isa.or(t2, t1, r)
}

func (g body) negate(s source, width int) Op {
	if s.neg != nil {
		return s.neg
	}
	r := vecReg(width)
	g.isa.xor(s.v, narrow(g.sign, width), r)
	return r
}

// generateRunSwitch writes runKernel, the Go function through which every call
// reaches the kernels of one architecture: the level, kind and store mode
// pick the kernel in a switch, so the hot path holds no function values and
// no further call. impls are the kernel name suffixes ("AVX2"), each also a
// level constant ("levelAVX2"); stream says whether the kernels have NT forms.
func generateRunSwitch(path string, impls []string, stream bool) error {
	type kernel struct{ Kind, Name string }
	type level struct {
		Level   string
		Kernels []kernel
	}
	type typeCase struct {
		Bits   int
		Levels []level
	}
	data := struct {
		Stream bool
		Types  []typeCase
	}{Stream: stream}
	for _, t := range asm.Types {
		c := typeCase{Bits: t.Bits}
		for _, impl := range impls {
			l := level{Level: "level" + impl}
			for _, k := range asm.Kinds {
				l.Kernels = append(l.Kernels, kernel{Kind: "kind" + strings.ToUpper(k.Name), Name: asm.KernelName(k, t, impl)})
			}
			c.Levels = append(c.Levels, l)
		}
		data.Types = append(data.Types, c)
	}
	return writeGo(path, runSwitchTemplate, data)
}

var runSwitchTemplate = template.Must(template.New("switch").Parse(`// Code generated by command: go run ./gen. DO NOT EDIT.

//go:build !purego

package elem

import "unsafe"

// runKernel computes the m x n block of kind k with the implementation in
// use{{if .Stream}}, writing with non-temporal stores when stream is set{{else}} (these kernels
// have no streaming-store forms, so stream is ignored){{end}}. The caller has validated
// op, the shapes and the extents.
func runKernel[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int, stream bool) {
	l := level(current.Load())
	if l == levelGeneric {
		runGeneric(k, op, m, n, dst, ldd, a, lda, b, ldb)
		return
	}
	o := int(op)
{{- range .Types}}
	if unsafe.Sizeof(T(0)) == {{.Bits}}/8 {
		d, x, y := ptr{{.Bits}}(dst), ptr{{.Bits}}(a), ptr{{.Bits}}(b)
		switch l {
{{- range .Levels}}
		case {{.Level}}:
			switch k {
{{- range .Kernels}}
			case {{.Kind}}:
{{- if $.Stream}}
				if stream {
					{{.Name}}NT(o, m, n, d, ldd, x, lda, y, ldb)
				} else {
					{{.Name}}(o, m, n, d, ldd, x, lda, y, ldb)
				}
{{- else}}
				{{.Name}}(o, m, n, d, ldd, x, lda, y, ldb)
{{- end}}
{{- end}}
			}
{{- end}}
		}
		return
	}
{{- end}}
}
`))
