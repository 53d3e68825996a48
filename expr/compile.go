package expr

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/coalesce"
	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/kernel"
)

// Errors that Compile, Parse and Run wrap, for errors.Is; the messages name
// the input and the shapes involved.
var (
	ErrShape   = errors.New("expr: shapes do not broadcast")
	ErrInput   = errors.New("expr: bad input")
	ErrLength  = errors.New("expr: data length does not match shape")
	ErrOverlap = errors.New("expr: dst overlaps an input")
	ErrSyntax  = errors.New("expr: syntax error")
	ErrNoOp    = errors.New("expr: the expression has no operation")
	ErrOp      = errors.New("expr: invalid operation")
	ErrPlan    = errors.New("expr: invalid plan")
)

// where says where an operand of a step lives during a block.
type where uint8

const (
	inArray where = iota // an array input: its slot's data at the block's offset
	inValue              // a scalar or constant: one value in the run's vals
	inTemp               // a block-sized temporary of T
	inBools              // a block-sized temporary of bool (a comparison)
	inDst                // the output
)

// operand is one argument or result of a step, and how it varies over a
// block: along the inner axis (a row of n values) and along the outer one
// (one row, or one value, per block row). Whatever does not vary is
// repeated by the kernels' strides, never materialised.
type operand struct {
	at        where
	idx       int
	vin, vout bool
}

// step is one kernel call per block: an op node of the expression.
type step[T elem.Number] struct {
	node *node[T]
	in   [3]operand
	out  operand
	// kind has a row (v) for every argument that varies along the inner
	// axis, one value per row (s) for the others; when the result does not
	// vary along it either, every argument is a row of one.
	kind kernel.Kind
	conv conversion[T] // a conversion's
}

// valueAt is where a scalar's value goes: the plan's vals (part < 0) or
// part's, at index vi.
type valueAt struct{ part, vi int }

// call is a step of a run of one block, the whole output, with what step
// works out for every block worked out once: its operands as indexes in the
// scratch's src (or bools, for []bool operands), the leading strides (out
// first) and the block's shape. A run of a few thousand elements is a few
// kernel calls, and the work around them is a large part of its time.
type call[T elem.Number] struct {
	node  *node[T]
	fam   kind // the node's
	kind  kernel.Kind
	toDst bool // writes dst, so streams when the run does
	m, n  int
	out   int
	in    [3]int
	ld    [4]int
}

// oneKernels are the resolved kernels of a plan's calls (resolvedKernel,
// by call) under one dispatch (kernel.PolicyToken) and store mode.
type oneKernels struct {
	policy unsafe.Pointer
	stream bool
	ks     []resolvedKernel
}

// slot is an array input: its name and shape, its strides along the
// coalesced axes of the output, and how a block reads it.
type slot struct {
	name   string
	shape  broadcast.Shape
	length int
	stride []int
	// inc and ld are its strides in a block, along the row and from row
	// to row: the inner two axes' strides, or in a tiled plan (see
	// Plan.tile) the tile's length for ld where it is dense.
	inc, ld int
	// row says that it is a repeated row of a tiled plan, which a tile
	// stands in for.
	row  bool
	tag  etype // its element type
	size int   // and that type's size in bytes
}

// Plan is a compiled expression: the output shape, the inputs, the kernel
// calls of one block and the loop over the blocks. It is immutable and safe
// for concurrent use; Run allocates nothing once the plan's scratch pool is
// warm. Build one with Compile: the zero Plan and a nil *Plan are not
// plans, and running them returns an error wrapping ErrPlan (their other
// methods answer as for an expression of no inputs and no elements).
type Plan[T elem.Number] struct {
	out     broadcast.Shape
	outLen  int
	arrays  []slot
	scalars []string
	consts  []T            // vals holds consts, then scalars
	names   []string       // the inputs' names by binding index: arrays, then scalars
	byName  map[string]int // the binding index of each name
	// tags are the inputs' element types by binding index, and scalarTo
	// where each scalar's value goes, by binding index past the arrays:
	// the plan's vals or a part's.
	tags     []etype
	scalarTo [][]valueAt
	tag      etype // T's
	// parts are the arguments of the plan's conversions, each a plan of
	// its element type run block by block with this one (see part).
	parts  []part
	steps  []step[T]
	ntemps int
	nbools int

	size      []int // coalesced output axes, outermost first
	dstStride []int
	// streamBytes is what a run streams through: the output and every
	// array input, each once; the streaming decision is taken from it at
	// every run, as the policy in effect may change.
	streamBytes int
	block       [2]int      // elements per block, without and with streaming stores
	geom        [2]geometry // the blocks of a run, without and with streaming stores

	fused *fusion // nil when an op has no fused kernel for T

	// tile is the length of the tile of a plan whose output has short
	// rows against repeated ones (see tileRows), else 0: its blocks run as
	// rows of the tile, the repeated rows expanded into tiles.
	tile int

	// calls are the steps of a run of one block (see Plan.one), nil
	// when the output is more than one block; kernels are their
	// assembly kernels, resolved for the dispatch in effect and a store
	// mode when a run finds them missing or stale.
	calls   []call[T]
	kernels atomic.Pointer[oneKernels]

	pool sync.Pool // *scratch[T]
	// spare is a scratch kept for Run outside the pool, whose Get and Put
	// cost more than the work of a small run: one swap takes it and
	// another gives it back. Runs on several goroutines at once would
	// contend for it, so the first run that finds it taken sets shared,
	// and from then on every run takes the pool.
	spare  atomic.Pointer[scratch[T]]
	filled atomic.Bool // spare has held a scratch
	shared atomic.Bool
}

// blockCap is the largest block: bigger ones gain nothing and cost scratch.
const blockCap = 1 << 16

// blockMin is the smallest block worth the per-block overhead of a call per
// op.
const blockMin = 512

// blockFor returns the block size, in elements of size bytes: a quarter of
// the L1d per array when the data comes from the caches, and half the L2
// over the live block-sized arrays (dst, array inputs, temporaries) when
// the output streams past the caches.
//
// From the caches, the block is a trade between the kernel calls per block
// (one per op) and keeping the temporaries in L1: measured on Zen 4 (32 KiB
// L1d), float32, 16000-element outputs (all in L2), µs per run, medians of
// 3, one run, against op by op 2.8 (N), 3.5 (B), 4.1 (A):
//
//	block (elements)   1024  2048  3072  4096  8192  16000   L1d over the live arrays
//	(x - m) / s         2.90  2.60  2.55  2.76  2.96   2.92   3.01 (2688)
//	max(x*w + b, 0)     3.43  2.94  2.96  3.11  3.34   3.30   3.57 (1000: a row)
//	a*s + b*t           3.08  2.91  3.90  4.34  4.35   4.22   3.22 (1600)
//
// 2048 (8 KiB) is the best or next to it in every row; a*s + b*t, with
// five arrays live, falls out of L1 past it.
//
// Streaming, small blocks (2-4 KiB per memory stream, so that the
// prefetchers run ahead across blocks) won on a quiet machine with one set
// of buffers (ms per 16M run, Add 5.7: N 4.4 against 7.4 with L2-sized
// blocks, B 5.6 against 8.1, A 8.3 against 12.0), but lost, and ran
// bimodal from process to process, under the load the machine usually
// carries and with elembench's buffers (medians of 6, Add 7.5: N 9.8
// against 8.1, B 11.6 against 10.4, A 16.1 against 12.9 for L2-sized
// blocks with touch). L2-sized blocks keep the kernel calls per byte few
// and leave the memory streams' overlap to touch.
func blockFor(caches cpuinfo.Caches, live, size int, stream bool) int {
	if stream {
		l2 := caches.L2
		if l2 <= 0 {
			l2 = 1 << 20
		}
		e := l2 / 2 / (live * size)
		return max(blockMin, min(blockCap, e&^63))
	}
	l1 := caches.L1d
	if l1 <= 0 {
		l1 = 32 << 10
	}
	e := l1 / 4 / size
	return max(blockMin, min(blockCap, e&^63))
}

// Compile plans the expression root. It fails when two uses of one name
// disagree (shapes, element types, or array and scalar), when the shapes
// do not broadcast,
// or when root is a bare input or constant (nothing to compute).
func Compile[T elem.Number](root Node[T]) (*Plan[T], error) { return compile(root, 0) }

// compile is Compile; block > 0 forces the block size (for the tests,
// which need many blocks on small arrays).
func compile[T elem.Number](root Node[T], block int) (*Plan[T], error) {
	if root.n == nil {
		return nil, fmt.Errorf("%w: an empty Node", ErrNoOp)
	}
	if root.n.kind <= kindConst {
		return nil, fmt.Errorf("%w: it is a bare %s", ErrNoOp, leafWord[root.n.kind])
	}
	p := &Plan[T]{tag: tagOf[T]()}
	reg := newRegistry[T]()
	c := newCompiler(p, reg)
	if err := c.collect(root.n); err != nil {
		return nil, err
	}
	p.arrays, p.parts = reg.arrays, reg.parts
	if err := p.layout(); err != nil {
		return nil, err
	}
	p.index(reg)
	// size is the largest element size of the plan's parts, which the
	// blocks and tiles are sized for.
	size := int(unsafe.Sizeof(T(0)))
	p.streamBytes = p.outLen * size
	vin := 0
	for _, s := range p.arrays {
		p.streamBytes += s.length * s.size
		size = max(size, s.size)
		if s.stride[len(s.stride)-1] != 0 {
			vin++
		}
	}
	for _, pt := range p.parts { // each after the parts it converts from, which it registered first
		pt.emit(p.arrays)
	}
	p.steps = make([]step[T], 0, len(c.ops))
	c.emit(root.n)
	p.routeScalars(c.scalarGlobal)
	live := 1 + vin + p.ntemps + (p.nbools+size-1)/size
	caches := cpuinfo.Get().Caches
	p.block = [2]int{blockFor(caches, live, size, false), blockFor(caches, live, size, true)}
	if block > 0 {
		p.block = [2]int{block, block}
	}
	p.tileRows(min(p.block[0], p.block[1]), size)
	for _, pt := range p.parts {
		pt.adopt(p.size, p.dstStride, p.tile)
	}
	p.geom = [2]geometry{p.newGeometry(p.block[0], false), p.newGeometry(p.block[1], true)}
	if len(p.parts) == 0 { // the fused kernels and one-block calls know one element type
		c.fuse(block)
		switch g := p.geom[0]; {
		case p.tile > 0 && len(p.size) == 2 && p.tile == p.outLen: // a tiled output of one block, one row of the tile
			p.calls = p.oneBlockCalls(1, p.tile, p.tile)
		case p.tile == 0 && (g.total == 1 || p.geom[1].total == 1): // either block is the whole output
			p.calls = p.oneBlockCalls(g.d1, g.n0, g.dstLd)
		}
	}
	maxBlock := max(p.block[0], p.block[1])
	p.pool.New = func() any { return newScratch(p, maxBlock) }
	return p, nil
}

var leafWord = [...]string{kindInput: "input", kindScalar: "scalar", kindConst: "constant"}

// compiler is the state of one Compile for the plan or part p, of element
// type T.
type compiler[T elem.Number] struct {
	p         *Plan[T]
	reg       *registry
	id        map[*node[T]]int32 // each op node's index in ops
	ops       []opState
	scalarIdx map[string]int // p's scalars
	// scalarGlobal are the indexes of p's scalars in reg.scalars.
	scalarGlobal []int
	constIdx     map[*node[T]]int
	convs        map[*node[T]]conversion[T] // the conversions' parts
	freeT        []int
	freeB        []int
	// sub says that p is a part, whose root goes to a temporary.
	sub bool
}

func newCompiler[T elem.Number](p *Plan[T], reg *registry) *compiler[T] {
	return &compiler[T]{p: p, reg: reg, id: map[*node[T]]int32{}, scalarIdx: map[string]int{},
		constIdx: map[*node[T]]int{}, convs: map[*node[T]]conversion[T]{}}
}

// opState is what Compile knows of an op node of the expression.
type opState struct {
	uses int32   // consumers not yet emitted
	done bool    // its step is emitted,
	at   operand // and its value is here
}

// collect numbers the leaves, in the order of a left-to-right walk (the
// constants, which vals holds first, and the inputs), checks that names are
// used consistently and that every op is one elem defines, and counts each
// op node's consumers. The walk keeps its own stack: expressions may be as
// deep as memory allows.
func (c *compiler[T]) collect(root *node[T]) error {
	var short [16]*node[T] // the stack of most expressions, without an allocation
	stack := append(short[:0], root)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case n == nil:
			return fmt.Errorf("%w: an operation has an empty Node argument", ErrInput)
		case n.kind <= kindConst:
			if err := c.collectLeaf(n); err != nil {
				return err
			}
			continue
		}
		if i, ok := c.id[n]; ok {
			c.ops[i].uses++
			continue // its arguments are counted already
		}
		if !n.defined() {
			return n.invalidOp()
		}
		if n.kind != kindConvert && isHalf[T]() {
			return fmt.Errorf("%w: %s is storage, with no arithmetic: Convert it to float32 and back", ErrOp, tagNames[tagOf[T]()])
		}
		c.id[n] = int32(len(c.ops))
		c.ops = append(c.ops, opState{uses: 1})
		if n.kind == kindConvert {
			cv, err := n.from.part(c.reg)
			if err != nil {
				return err
			}
			c.convs[n] = cv
		}
		for i := n.nargs - 1; i >= 0; i-- { // the first argument on top
			stack = append(stack, n.args[i])
		}
	}
	return nil
}

// collectLeaf numbers leaf n, if it is the first use of its input or
// constant, and checks the use of its name against the others.
func (c *compiler[T]) collectLeaf(n *node[T]) error {
	r := c.reg
	if n.kind != kindConst {
		if err := c.checkType(n.name); err != nil {
			return err
		}
	}
	switch n.kind {
	case kindInput:
		if _, ok := r.scalarIdx[n.name]; ok {
			return fmt.Errorf("%w: %q is used both as a scalar and as an array of shape %v", ErrInput, n.name, broadcast.Shape(n.shape))
		}
		if i, ok := r.arrayIdx[n.name]; ok {
			if !r.arrays[i].shape.Equal(n.shape) {
				return fmt.Errorf("%w: input %q is used with shapes %v and %v", ErrInput, n.name, r.arrays[i].shape, broadcast.Shape(n.shape))
			}
			return nil
		}
		s := broadcast.Shape(n.shape)
		if err := s.Validate(); err != nil {
			return fmt.Errorf("%w: input %q: %w", ErrInput, n.name, err)
		}
		length, _ := s.Size()
		r.arrayIdx[n.name] = len(r.arrays)
		r.arrays = append(r.arrays, slot{name: n.name, shape: s.Clone(), length: length, tag: c.p.tag, size: int(unsafe.Sizeof(T(0)))})
	case kindScalar:
		if i, ok := r.arrayIdx[n.name]; ok {
			return fmt.Errorf("%w: %q is used both as a scalar and as an array of shape %v", ErrInput, n.name, r.arrays[i].shape)
		}
		g, ok := r.scalarIdx[n.name]
		if !ok {
			g = len(r.scalars)
			r.scalarIdx[n.name] = g
			r.scalars = append(r.scalars, n.name)
			r.scalarTags = append(r.scalarTags, c.p.tag)
		}
		if _, ok := c.scalarIdx[n.name]; !ok {
			c.scalarIdx[n.name] = len(c.p.scalars)
			c.p.scalars = append(c.p.scalars, n.name)
			c.scalarGlobal = append(c.scalarGlobal, g)
		}
	case kindConst:
		if _, ok := c.constIdx[n]; !ok {
			c.constIdx[n] = len(c.p.consts)
			c.p.consts = append(c.p.consts, n.val)
		}
	}
	return nil
}

// checkType records T as the element type of input name, or returns the
// error for a name used with two element types, or for an input of a
// defined type other than the plan's, which a run could not bind (see
// Plan.view).
func (c *compiler[T]) checkType(name string) error {
	r := c.reg
	typ := fmt.Sprintf("%T", T(0))
	if had, ok := r.typeName[name]; ok && had != typ {
		return fmt.Errorf("%w: input %q is used with element types %s and %s", ErrInput, name, had, typ)
	}
	if _, same := r.plan.(T); c.p.tag == tagOther && !same {
		return fmt.Errorf("%w: input %q is of the defined type %s; a plan of %T takes inputs of its element type or of elem's predeclared ones",
			ErrInput, name, typ, r.plan)
	}
	r.typeName[name] = typ
	return nil
}

// invalidOp is the error for op node n, whose op elem does not define on T.
func (n *node[T]) invalidOp() error {
	switch n.kind {
	case kindBinary:
		if op := elem.Op(n.op); op.Valid() {
			return fmt.Errorf("%w: %v is not defined on %T", ErrOp, op, T(0))
		}
		return fmt.Errorf("%w: %v is not one of elem's binary ops", ErrOp, elem.Op(n.op))
	case kindUnary:
		if op := elem.UnaryOp(n.op); op.Valid() {
			return fmt.Errorf("%w: %v is not defined on %T", ErrOp, op, T(0))
		}
		return fmt.Errorf("%w: %v is not one of elem's unary ops", ErrOp, elem.UnaryOp(n.op))
	}
	return fmt.Errorf("%w: %v is not one of elem's comparisons", ErrOp, elem.CompareOp(n.op))
}

// index fills names, byName and tags, the scalars of every part in
// reg's order.
func (p *Plan[T]) index(reg *registry) {
	for _, s := range p.arrays {
		p.names = append(p.names, s.name)
		p.tags = append(p.tags, s.tag)
	}
	p.names = append(p.names, reg.scalars...)
	p.tags = append(p.tags, reg.scalarTags...)
	p.byName = make(map[string]int, len(p.names))
	for k, name := range p.names {
		p.byName[name] = k
	}
}

// routeScalars fills scalarTo from the scalars of the plan (their indexes
// in the registry's, global) and of its parts.
func (p *Plan[T]) routeScalars(global []int) {
	p.scalarTo = make([][]valueAt, len(p.names)-len(p.arrays))
	for i, g := range global {
		p.scalarTo[g] = append(p.scalarTo[g], valueAt{part: -1, vi: len(p.consts) + i})
	}
	for j, pt := range p.parts {
		gs, first := pt.scalarVals()
		for i, g := range gs {
			p.scalarTo[g] = append(p.scalarTo[g], valueAt{part: j, vi: first + i})
		}
	}
}

// layout works out the output shape and coalesces the loop nest of the
// output and every array input.
func (p *Plan[T]) layout() error {
	shapes := make([]broadcast.Shape, len(p.arrays))
	var acc broadcast.Shape
	for i, s := range p.arrays {
		shapes[i] = s.shape
		l, err := broadcast.NumpyLayout(acc, s.shape)
		if err != nil {
			return fmt.Errorf("%w: input %q of shape %v does not broadcast with shape %v of the inputs before it: %w",
				ErrShape, s.name, s.shape, acc, err)
		}
		acc = l.Out
	}
	l, err := broadcast.NumpyLayout(shapes...)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrShape, err)
	}
	p.out = l.Out.Clone()
	p.outLen, _ = p.out.Size()
	size := append([]int{}, l.Out...)
	stride := append([][]int{l.OutStrides}, l.Strides...)
	if len(size) == 0 { // every input is rank 0: one element
		size = []int{1}
		for k := range stride {
			stride[k] = []int{0}
		}
	}
	rank := coalesce.Nest(size, stride)
	if rank == 0 { // every axis of size 1
		rank, size[0] = 1, 1
		for k := range stride {
			stride[k][0] = 0
		}
	}
	p.size = size[:rank]
	p.dstStride = stride[0][:rank]
	for i := range p.arrays {
		s := &p.arrays[i]
		s.stride = stride[i+1][:rank]
		s.inc = s.stride[rank-1]
		if rank >= 2 {
			s.ld = s.stride[rank-2]
		}
	}
	return nil
}

// leaf returns the operand of leaf n.
func (c *compiler[T]) leaf(n *node[T]) operand {
	switch n.kind {
	case kindInput:
		i := c.reg.arrayIdx[n.name]
		st := c.p.arrays[i].stride
		r := len(st)
		o := operand{at: inArray, idx: i, vin: st[r-1] != 0}
		if r >= 2 {
			o.vout = st[r-2] != 0
		}
		return o
	case kindScalar:
		return operand{at: inValue, idx: len(c.p.consts) + c.scalarIdx[n.name]}
	}
	return operand{at: inValue, idx: c.constIdx[n]}
}

// emit appends the steps that compute root, each after those of its
// arguments, left to right. The walk keeps its own stack (a frame per op
// node whose arguments are being emitted): expressions may be as deep as
// memory allows.
func (c *compiler[T]) emit(root *node[T]) {
	var short [16]emitFrame[T] // the stack of most expressions, without an allocation
	stack := append(short[:0], emitFrame[T]{n: root, id: c.id[root]})
	for {
		f := &stack[len(stack)-1]
		if f.next < f.n.nargs {
			if a := f.n.args[f.next]; a.kind > kindConst {
				f.args[f.next] = c.id[a]
				if !c.ops[f.args[f.next]].done {
					stack = append(stack, emitFrame[T]{n: a, id: f.args[f.next]})
					continue
				}
			}
			f.next++
			continue
		}
		c.step(f, len(stack) == 1)
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			return
		}
		stack[len(stack)-1].next++
	}
}

// emitFrame is an op node whose arguments emit is emitting.
type emitFrame[T elem.Number] struct {
	n    *node[T]
	id   int32    // n's index in ops
	args [3]int32 // the op arguments' indexes in ops, up to next
	next int      // the argument to emit next
}

// step appends the step of f's op node, whose arguments are emitted, and
// records where its value is. Temporaries are reused as soon as their last
// consumer has run; a step writes in place over an argument's temporary
// only when that has the same shape in the block, since the kernels allow
// dst to be exactly an input and nothing else.
func (c *compiler[T]) step(f *emitFrame[T], root bool) {
	n := f.n
	s := step[T]{node: n}
	var out operand
	for i, a := range n.args[:n.nargs] {
		if a.kind <= kindConst {
			s.in[i] = c.leaf(a)
		} else {
			s.in[i] = c.ops[f.args[i]].at
		}
		out.vin = out.vin || s.in[i].vin
		out.vout = out.vout || s.in[i].vout
	}
	if n.kind == kindConvert {
		s.conv = c.convs[n]
		src := s.conv.source()
		out.vin, out.vout = src.vin, src.vout
	}
	bools := n.kind == kindCompare
	// Free the arguments that may be overwritten in place first.
	for i := range n.nargs {
		if o := s.in[i]; (o.at == inTemp || o.at == inBools) && o.vin == out.vin && o.vout == out.vout {
			c.release(f.args[i])
		}
	}
	switch {
	case root && !c.sub:
		out.at = inDst
	case bools:
		out.at, out.idx = inBools, c.alloc(&c.freeB, &c.p.nbools)
	default:
		out.at, out.idx = inTemp, c.alloc(&c.freeT, &c.p.ntemps)
	}
	for i := range n.nargs {
		if o := s.in[i]; (o.at == inTemp || o.at == inBools) && (o.vin != out.vin || o.vout != out.vout) {
			c.release(f.args[i])
		}
	}
	s.out = out
	mask := 0
	for i := range n.nargs {
		if s.in[i].vin || !out.vin {
			mask |= 1 << i
		}
	}
	if n.nargs > 0 {
		s.kind, _ = kernel.KindFor(n.nargs, mask)
	}
	c.p.steps = append(c.p.steps, s)
	c.ops[f.id].done, c.ops[f.id].at = true, out
}

// release counts one use of the op node ops[i], whose value is in a
// temporary, and frees the temporary after the last.
func (c *compiler[T]) release(i int32) {
	o := &c.ops[i]
	o.uses--
	if o.uses > 0 {
		return
	}
	switch o.at.at {
	case inTemp:
		c.freeT = append(c.freeT, o.at.idx)
	case inBools:
		c.freeB = append(c.freeB, o.at.idx)
	}
}

// alloc returns a free temporary, or a new one.
func (c *compiler[T]) alloc(free *[]int, count *int) int {
	if k := len(*free); k > 0 {
		i := (*free)[k-1]
		*free = (*free)[:k-1]
		return i
	}
	*count++
	return *count - 1
}

// oneBlockCalls works out the calls of a run of one block of m x n
// elements, dst's rows dstLd apart.
func (p *Plan[T]) oneBlockCalls(m, n, dstLd int) []call[T] {
	nv, na := len(p.consts)+len(p.scalars), len(p.arrays)
	// at is o's index in the scratch's src or bools, and its leading stride.
	at := func(o operand) (int, int) {
		switch o.at {
		case inValue:
			return o.idx, 0
		case inArray:
			if p.arrays[o.idx].row {
				return nv + na + p.ntemps + o.idx, 0
			}
			return nv + o.idx, p.arrays[o.idx].ld
		case inTemp:
			return nv + na + o.idx, tempLd(o, n)
		case inBools:
			return o.idx, tempLd(o, n)
		}
		return p.srcDst(), dstLd
	}
	calls := make([]call[T], len(p.steps))
	for i, s := range p.steps {
		c := &calls[i]
		*c = call[T]{node: s.node, fam: s.node.kind, kind: s.kind, toDst: s.out.at == inDst, m: 1, n: 1}
		if s.out.vout {
			c.m = m
		}
		if s.out.vin {
			c.n = n
		}
		c.out, c.ld[0] = at(s.out)
		for k := range s.node.nargs {
			c.in[k], c.ld[k+1] = at(s.in[k])
		}
	}
	return calls
}

// usable returns the error for running p, if it is not a plan; small
// enough to inline into Run.
func (p *Plan[T]) usable() error {
	if p != nil && len(p.steps) > 0 {
		return nil
	}
	return p.notAPlan()
}

// notAPlan is the error for running p, a nil *Plan or the zero Plan.
func (p *Plan[T]) notAPlan() error {
	if p == nil {
		return fmt.Errorf("%w: the plan is nil", ErrPlan)
	}
	return fmt.Errorf("%w: the zero Plan is not a plan: build one with Compile", ErrPlan)
}

// srcDst is the index of dst in a scratch's src: past the values, the
// array inputs, the temporaries and a tiled plan's tiles.
func (p *Plan[T]) srcDst() int {
	i := len(p.consts) + len(p.scalars) + len(p.arrays) + p.ntemps
	if p.tile > 0 {
		i += len(p.arrays)
	}
	return i
}

// Shape returns the output shape.
func (p *Plan[T]) Shape() []int {
	if p == nil {
		return nil
	}
	return p.out.Clone()
}

// Len returns the number of output elements, the length dst must have.
func (p *Plan[T]) Len() int {
	if p == nil {
		return 0
	}
	return p.outLen
}

// Inputs returns the names of the array inputs, in order of first use.
func (p *Plan[T]) Inputs() []string {
	if p == nil {
		return []string{}
	}
	names := make([]string, len(p.arrays))
	for i, s := range p.arrays {
		names[i] = s.name
	}
	return names
}

// Scalars returns the names of the scalar inputs, in order of first use
// (by the parts of each element type in turn, in a plan with conversions).
func (p *Plan[T]) Scalars() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.names[len(p.arrays):]...)
}

// BlockLen returns the length of each temporary of a run with streaming
// stores (output and inputs past the caches) or without: the fused
// kernels' chunk where such runs take them (see Fused), else the output
// elements of a block.
func (p *Plan[T]) BlockLen(stream bool) int {
	if p == nil {
		return 0
	}
	if p.Fused() && stream == p.streams() {
		return p.fused.chunkLen(stream)
	}
	if stream {
		return p.block[1]
	}
	return p.block[0]
}

// Streams reports whether a run writes dst with streaming stores under the
// policy in effect (see elem.Dispatch): its output and inputs are past the
// caches, and the rows its kernel calls write are whole cache lines or
// long.
func (p *Plan[T]) Streams() bool { return p.usable() == nil && p.streams() }

// Fused reports whether runs under the policy in effect (see elem.Dispatch)
// take the fused kernels, which run the whole expression a chunk at a time
// in one assembly call per block: every op has one for T, the
// implementation has them (amd64, AVX2 or AVX-512), and a run's rows are
// long (2 KiB; short rows against repeated ones run as rows of a tile) and
// its traffic past half the L2 or its output long (8 KiB), where they are
// faster than a kernel call per op.
// A run whose dst is one of its inputs takes them too; a plan with
// conversions (see Convert) never does.
func (p *Plan[T]) Fused() bool {
	if p == nil || !p.fusable() {
		return false
	}
	_, _, _, ok := kernel.FuseImpl[T](p.fused.compute, p.streamBytes)
	return ok
}
