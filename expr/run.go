package expr

import (
	"fmt"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/alias"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/rowtile"
	"github.com/simdkit/elem/internal/split"
)

// Arg binds one input of a plan for a run: an array's data (Array) or a
// scalar's value (Value).
type Arg[T elem.Number] struct {
	name   string
	data   []T
	val    T
	scalar bool
}

// Binding is an Arg of any element type, as Run and RunParallel take
// them: a plan with conversions (see Convert) binds inputs of several
// element types in one run, each with an Arg of its own type.
type Binding interface{ binding() }

func (Arg[T]) binding() {}

// Array binds the array input name to data, stored contiguously in
// row-major order with the shape the input was declared with.
func Array[T elem.Number](name string, data []T) Arg[T] { return Arg[T]{name: name, data: data} }

// Value binds the scalar input name to v.
func Value[T elem.Number](name string, v T) Arg[T] { return Arg[T]{name: name, val: v, scalar: true} }

// scratch is one run's memory: the bound inputs and the block temporaries.
// Plans keep them (a spare, and a pool), so that runs allocate nothing and
// concurrent runs share nothing.
type scratch[T elem.Number] struct {
	// src holds every operand of a one-block run as a slice (see call):
	// the values, each a slice of one, then the array inputs (data is that
	// part), the temporaries, a tiled plan's tiles (one per array input)
	// and dst.
	src   [][]T
	data  [][]T
	vals  []T
	bound []uint64 // a bit per input, during bind
	// argNames and argKeys are the names of the last run's args, by
	// position, and their binding indexes: a caller passes its args in the
	// same order from run to run, with the same strings (literals, mostly),
	// and a string whose bytes are at the same address, and kept alive
	// here, is the same name, found without a search.
	argNames []string
	argKeys  []int
	temps    [][]T
	bools    [][]bool
	// tiles are the tiles of a tiled plan's repeated rows, by array input
	// (empty for the others).
	tiles []rowtile.Tile[T]
	off   []int // per array input, then dst: the block's first element
	base  []int // the same at the block row and column 0
	idx   []int // the odometer over the outer axes
	sink  byte  // what touch read, so that its loads stay
	// dst is the run's output, held so that it lives on the heap: the
	// fused kernels get its address as an integer, which a moving stack
	// would leave behind.
	dst []T
	// inPlace says that dst is one of the inputs (bind found it).
	inPlace bool
	// The fused kernels' slots and chunk buffers (see fusion).
	fslots  []uintptr
	fchunks []T
	fbools  []bool
	// subs are the scratches of the plan's parts (see part), by index in
	// Plan.parts, shared by the scratch of the plan and those of its
	// parts, whose off is the plan's.
	subs []any
}

func newScratch[T elem.Number](p *Plan[T], block int) *scratch[T] {
	nv, na := len(p.consts)+len(p.scalars), len(p.arrays)
	s := &scratch[T]{
		src:      make([][]T, p.srcDst()+1),
		vals:     make([]T, nv),
		bound:    make([]uint64, max(1, (na+len(p.scalars)+63)/64)),
		argNames: make([]string, len(p.names)),
		argKeys:  make([]int, len(p.names)),
		bools:    make([][]bool, p.nbools),
		off:      make([]int, na+1),
		base:     make([]int, na+1),
		idx:      make([]int, len(p.size)),
	}
	copy(s.vals, p.consts)
	for i := range s.vals {
		s.src[i] = s.vals[i : i+1]
	}
	s.data = s.src[nv : nv+na]
	s.temps = s.src[nv+na : nv+na+p.ntemps]
	placeTemps(s.temps, block)
	if p.tile > 0 {
		s.tiles = make([]rowtile.Tile[T], na)
		for k := range s.tiles {
			if p.arrays[k].row && p.arrays[k].tag == p.tag {
				s.tiles[k].Buf = make([]T, p.tile)
				s.src[nv+na+p.ntemps+k] = s.tiles[k].Buf
			}
		}
	}
	if p.fused != nil {
		newFuseScratch(p.fused, s)
	}
	for i := range s.bools {
		s.bools[i] = make([]bool, block)
	}
	if len(p.parts) > 0 {
		s.subs = make([]any, len(p.parts))
		for j, pt := range p.parts {
			s.subs[j] = pt.newScratch(block, s.subs, s.off)
		}
	}
	return s
}

// tempOffsets are where in a page the temporaries start. A load that
// follows a store whose address matches it in the low 12 bits stalls as if
// it depended on it (4 KiB aliasing): a kernel writing temporary t while
// reading input a stalls on every vector when t starts a little past a in
// the page. Large buffers from make start on a page boundary and elem's
// benchmark buffers 1024 and 3072 bytes past one; these offsets are at
// least 768 bytes from those and from one another, both ways.
var tempOffsets = [...]int{2048, 3328, 768, 2688}

// placeTemps allocates the temporaries in one buffer, each at its offset
// in a page (past the fourth, the offsets again a line further on).
func placeTemps[T elem.Number](temps [][]T, block int) {
	const page, line = 4096, 64
	size := int(unsafe.Sizeof(T(0)))
	span := (block*size+page-1)/page*page + page
	buf := make([]byte, len(temps)*span+page)
	start := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))%page) % page
	for i := range temps {
		at := start + i*span + (tempOffsets[i%len(tempOffsets)]+i/len(tempOffsets)*line)%page
		temps[i] = unsafe.Slice((*T)(unsafe.Pointer(&buf[at])), block)
	}
}

// Run computes the expression into dst, which must have Len elements,
// with the inputs bound by args (Args of the inputs' element types):
// every array and scalar input exactly once. dst may be exactly one array input whose shape is the output's (the
// computation then runs in place); any other overlap of dst with an input
// is an error. On any error nothing is written.
func (p *Plan[T]) Run(dst []T, args ...Binding) error {
	if err := p.usable(); err != nil {
		return err
	}
	s := p.get()
	err := p.bind(s, dst, args)
	if err == nil {
		p.run(s, dst)
	}
	p.put(s)
	return err
}

// get returns a scratch for a run: the spare, while runs do not overlap,
// else one from the pool.
func (p *Plan[T]) get() *scratch[T] {
	if !p.shared.Load() {
		if s := p.spare.Swap(nil); s != nil {
			return s
		}
		if p.filled.Load() { // another run has it
			p.shared.Store(true)
		}
	}
	return p.pool.Get().(*scratch[T])
}

// run computes a run with the inputs bound in s: in the fused kernels
// where the plan's runs take them, else by steps (one block's calls, or
// blocks of them).
func (p *Plan[T]) run(s *scratch[T], dst []T) {
	var fr fuseRun
	var g *geometry
	fused := false
	if p.fusable() { // decided first: most small runs are steps
		fr, g, fused = p.fuser(s)
	}
	switch {
	case !fused:
		g = p.geometry()
		if p.calls != nil && g.total == 1 {
			p.one(s, dst, g.stream)
		} else {
			p.blocks(nil, s, s, dst, g, 0, g.total)
		}
	case g.total == 1 && p.tile == 0:
		clear(s.off)
		s.dst = dst
		p.fusedBlock(&fr, s, s, dst, g, min(g.m, g.d1), min(g.n, g.n0))
	default:
		s.dst = dst
		p.blocks(&fr, s, s, dst, g, 0, g.total)
	}
	kernel.FenceAfter(g.stream)
}

// parallelGrain is the least number of output elements worth a goroutine,
// as in broadcast.RunParallel.
const parallelGrain = 1 << 15

// RunParallel is Run on up to workers goroutines (GOMAXPROCS when workers
// <= 0), each computing a range of whole blocks; calls too small to gain run
// on the calling goroutine alone. The result is bit for bit that of Run,
// errors included.
func (p *Plan[T]) RunParallel(workers int, dst []T, args ...Binding) error {
	if err := p.usable(); err != nil {
		return err
	}
	s := p.pool.Get().(*scratch[T])
	defer p.put(s)
	if err := p.bind(s, dst, args); err != nil {
		return err
	}
	fr, g, fused := p.fuser(s)
	var run *fuseRun
	if fused {
		run, s.dst = &fr, dst
	} else {
		g = p.geometry()
	}
	parts := split.Count(workers, p.outLen, 1, parallelGrain)
	if parts <= 1 || g.total < 2 {
		p.blocks(run, s, s, dst, g, 0, g.total)
		kernel.FenceAfter(g.stream)
		return nil
	}
	split.Even(parts, g.total, 0, 1).Run(func(lo, hi int) {
		w := p.pool.Get().(*scratch[T])
		copy(w.vals, s.vals) // the fused kernels read the values from the worker's scratch
		p.blocks(run, s, w, dst, g, lo, hi)
		kernel.FenceAfter(g.stream)
		p.pool.Put(w)
	})
	return nil
}

// put returns s to the pool without the caller's slices, which it must not
// keep alive.
func (p *Plan[T]) put(s *scratch[T]) {
	s.dropData()
	s.src[len(s.src)-1] = nil
	s.dst = nil
	for j, pt := range p.parts {
		pt.release(s.subs[j])
	}
	if !p.shared.Load() && p.spare.CompareAndSwap(nil, s) {
		if !p.filled.Load() {
			p.filled.Store(true)
		}
		return
	}
	p.pool.Put(s)
}

// dropData forgets the bound arrays, which the scratch must not keep
// alive.
func (s *scratch[T]) dropData() {
	for k := range s.data { // not clear, which calls the runtime
		s.data[k] = nil
	}
}

// resetTiles marks the tiles empty.
func (s *scratch[T]) resetTiles() {
	for k := range s.tiles {
		s.tiles[k].Reset()
	}
}

// bind checks dst and args against the plan and stores the inputs in s,
// recording in s.inPlace whether dst is one of them.
func (p *Plan[T]) bind(s *scratch[T], dst []T, args []Binding) error {
	if len(dst) != p.outLen {
		return fmt.Errorf("%w: dst has length %d, the output shape %v needs %d", ErrLength, len(dst), p.out, p.outLen)
	}
	bound := s.bound
	bound[0] = 0 // most plans have one word: no call to clear
	clear(bound[1:])
	size := unsafe.Sizeof(T(0))
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	dn := uintptr(len(dst)) * size
	inPlace := false
	na := len(p.arrays)
	var a argView
	for i := range args {
		if !p.view(args[i], &a) {
			return fmt.Errorf("%w: argument %d is a nil Binding", ErrInput, i)
		}
		k := -1
		if i < len(s.argNames) { // the name at i last time, the same string, and of a's kind
			if c := s.argNames[i]; len(c) == len(a.name) && unsafe.StringData(c) == unsafe.StringData(a.name) {
				if k = s.argKeys[i]; k >= na != a.scalar {
					k = -1
				}
			}
		}
		if k < 0 {
			if k = p.find(&a); k < 0 {
				return p.unknown(&a)
			}
			if i < len(s.argNames) {
				s.argNames[i], s.argKeys[i] = a.name, k
			}
		}
		if a.tag != p.tags[k] {
			return fmt.Errorf("%w: input %q is of element type %s, bound with an Arg[%s]", ErrInput, a.name, p.typeName(p.tags[k]), p.typeName(a.tag))
		}
		w, bit := k>>6, uint64(1)<<(k&63)
		if bound[w]&bit != 0 {
			return fmt.Errorf("%w: input %q is bound twice", ErrInput, a.name)
		}
		bound[w] |= bit
		if a.scalar {
			p.bindValue(s, k-na, a.bits)
			continue
		}
		sl := &p.arrays[k]
		if a.n != sl.length {
			return fmt.Errorf("%w: input %q has %d elements, its shape %v has %d", ErrLength, a.name, a.n, sl.shape, sl.length)
		}
		// dst may share memory with an input only by being exactly that
		// input (of the output's shape, as its length is dst's, and of its
		// element type).
		x, xn := uintptr(a.ptr), uintptr(a.n*sl.size)
		if !alias.SameOrDisjointRuns(d, dn, x, xn) || dn > 0 && x == d && sl.tag != p.tag {
			return fmt.Errorf("%w: dst (shape %v) and input %q (shape %v) share memory without being the same array",
				ErrOverlap, p.out, sl.name, sl.shape)
		}
		inPlace = inPlace || dn > 0 && x == d
		if sl.tag == p.tag {
			s.data[k] = unsafe.Slice((*T)(a.ptr), a.n)
		}
		if len(p.parts) > 0 {
			p.bindParts(s, k, &a)
		}
	}
	if n := len(p.names); len(args) < n { // each arg bound a different input
		for k := range n {
			if bound[k>>6]>>(k&63)&1 == 0 {
				return p.missing(k)
			}
		}
	}
	s.inPlace = inPlace
	return nil
}

// bindParts stores array input k, bound by a, in the scratches of the
// parts of its element type.
func (p *Plan[T]) bindParts(s *scratch[T], k int, a *argView) {
	tag := p.arrays[k].tag
	for j, pt := range p.parts {
		if pt.tag() == tag {
			pt.bindArray(s.subs[j], k, a.ptr, a.n)
		}
	}
}

// bindValue stores the value of scalar i (binding index past the arrays),
// bits as valueBits gives them, where the plan and its parts read it.
func (p *Plan[T]) bindValue(s *scratch[T], i int, bits uint64) {
	for _, at := range p.scalarTo[i] {
		if at.part < 0 {
			s.vals[at.vi] = valueOf[T](bits)
		} else {
			p.parts[at.part].bindValue(s.subs[at.part], at.vi, bits)
		}
	}
}

// typeName names the element type tag of an input or Arg of p.
func (p *Plan[T]) typeName(tag etype) string {
	if tag != tagOther {
		return tagNames[tag]
	}
	return fmt.Sprintf("%T", T(0)) // the one defined type a plan's inputs may have
}

// find returns the binding index of a's name and kind (arrays first, then
// scalars), or -1: a run looks up the names its per-position cache misses
// (see scratch.argNames), in constant time, however many inputs the plan
// has (searching them one by one took 5.5 s in the first run of a plan of
// 40000 scalars).
func (p *Plan[T]) find(a *argView) int {
	if k, ok := p.byName[a.name]; ok && k >= len(p.arrays) == a.scalar {
		return k
	}
	return -1
}

// unknown is the error for an argument that binds no input.
func (p *Plan[T]) unknown(a *argView) error {
	for _, n := range p.names[len(p.arrays):] {
		if n == a.name {
			return fmt.Errorf("%w: %q is a scalar input; bind it with Value, not Array", ErrInput, a.name)
		}
	}
	for _, s := range p.arrays {
		if s.name == a.name {
			return fmt.Errorf("%w: %q is an array input of shape %v; bind it with Array, not Value", ErrInput, a.name, s.shape)
		}
	}
	return fmt.Errorf("%w: unknown input %q (arrays %q, scalars %q)", ErrInput, a.name, p.Inputs(), p.Scalars())
}

// missing is the error for binding index k left unbound.
func (p *Plan[T]) missing(k int) error {
	if k < len(p.arrays) {
		return fmt.Errorf("%w: missing array input %q of shape %v", ErrInput, p.arrays[k].name, p.arrays[k].shape)
	}
	return fmt.Errorf("%w: missing scalar input %q", ErrInput, p.names[k])
}

// geometry is how a run cuts the output into blocks: m rows of n elements
// of the two innermost coalesced axes, with outer positions over the rest.
// A plan works it out for both store modes when it is compiled.
type geometry struct {
	stream    bool
	n, m      int // a block's columns and rows
	n0, d1    int // the inner axis and the one outside it
	colBlocks int
	rowBlocks int
	total     int // blocks
	outer     int // rank of the axes outside the block
	dstLd     int
}

// newGeometry cuts p's output into blocks of about be elements.
func (p *Plan[T]) newGeometry(be int, stream bool) geometry {
	g := geometry{stream: stream}
	r := len(p.size)
	g.n0, g.d1 = p.size[r-1], 1
	if r >= 2 {
		g.d1 = p.size[r-2]
		g.dstLd = p.dstStride[r-2]
	}
	g.outer = max(0, r-2)
	switch {
	case p.tile > 0: // whole tiles (be holds one), and a block's rows are the tile's
		g.n, g.m = g.n0, min(g.d1, be/p.tile*(p.tile/g.n0))
		g.dstLd = p.tile
	case g.n0 >= be:
		g.n, g.m = be, 1
	default:
		g.n, g.m = g.n0, max(1, min(g.d1, be/max(1, g.n0)))
	}
	if p.outLen == 0 {
		return g
	}
	g.colBlocks = (g.n0 + g.n - 1) / g.n
	g.rowBlocks = (g.d1 + g.m - 1) / g.m
	g.total = g.colBlocks * g.rowBlocks
	for _, sz := range p.size[:g.outer] {
		g.total *= sz
	}
	return g
}

// geometry returns the blocks of a run under the streaming policy in
// effect.
func (p *Plan[T]) geometry() *geometry {
	if p.streams() {
		return &p.geom[1]
	}
	return &p.geom[0]
}

// one computes a run of one block, the whole output, with the calls
// worked out when the plan was compiled: each call's assembly kernel where
// it has one (resolved as its entry would choose it), else its entry.
func (p *Plan[T]) one(s *scratch[T], dst []T, stream bool) {
	src := s.src
	src[len(src)-1] = dst
	for k := range s.tiles { // a tiled plan's one block is one row of the tile
		if p.arrays[k].row {
			s.tiles[k].Reset()
			s.tiles[k].Fill(s.data[k], 0, p.size[len(p.size)-1], p.tile)
		}
	}
	ks := p.oneKernels(stream)
	for i := range p.calls {
		c, k := &p.calls[i], &ks[i]
		switch c.fam {
		case kindBinary:
			if k.k3 != nil {
				k.k3(c.m, c.n, data(src[c.out]), c.ld[0], data(src[c.in[0]]), c.ld[1], data(src[c.in[1]]), c.ld[2])
				continue
			}
			c.node.binary(c.kind, c.m, c.n, src[c.out], c.ld[0], src[c.in[0]], c.ld[1], src[c.in[1]], c.ld[2], stream && c.toDst)
		case kindUnary:
			if k.k2 != nil {
				k.k2(c.m, c.n, data(src[c.out]), c.ld[0], data(src[c.in[0]]), c.ld[1])
				continue
			}
			c.node.unary(c.kind, c.m, c.n, src[c.out], c.ld[0], src[c.in[0]], c.ld[1], stream && c.toDst)
		case kindTernary:
			if k.k4 != nil {
				k.k4(c.m, c.n, data(src[c.out]), c.ld[0], data(src[c.in[0]]), c.ld[1], data(src[c.in[1]]), c.ld[2], data(src[c.in[2]]), c.ld[3])
				continue
			}
			c.node.ternary(c.kind, c.m, c.n, src[c.out], c.ld[0], src[c.in[0]], c.ld[1], src[c.in[1]], c.ld[2], src[c.in[2]], c.ld[3], stream && c.toDst)
		case kindCompare:
			if k.k3 != nil {
				k.k3(c.m, c.n, data(s.bools[c.out]), c.ld[0], data(src[c.in[0]]), c.ld[1], data(src[c.in[1]]), c.ld[2])
				continue
			}
			c.node.compare(c.kind, c.m, c.n, s.bools[c.out], c.ld[0], src[c.in[0]], c.ld[1], src[c.in[1]], c.ld[2], stream && c.toDst)
		case kindSelect:
			if k.k4 != nil {
				k.k4(c.m, c.n, data(src[c.out]), c.ld[0], data(s.bools[c.in[0]]), c.ld[1], data(src[c.in[1]]), c.ld[2], data(src[c.in[2]]), c.ld[3])
				continue
			}
			c.node.pick(c.kind, c.m, c.n, src[c.out], c.ld[0], s.bools[c.in[0]], c.ld[1], src[c.in[1]], c.ld[2], src[c.in[2]], c.ld[3], stream && c.toDst)
		}
	}
}

// data is the address of x's first element, as the resolved kernels take
// it.
func data[E any](x []E) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(x)) }

// oneKernels returns the resolved kernels of the plan's calls for the
// dispatch in effect and the store mode, resolving them again when the
// dispatch or the mode changed since (runs that race to do it resolve
// alike).
func (p *Plan[T]) oneKernels(stream bool) []resolvedKernel {
	policy := kernel.PolicyToken()
	if r := p.kernels.Load(); r != nil && r.policy == policy && r.stream == stream {
		return r.ks
	}
	r := &oneKernels{policy: policy, stream: stream, ks: make([]resolvedKernel, len(p.calls))}
	for i, c := range p.calls {
		r.ks[i] = c.node.kernel(c.kind, c.m, c.n, stream && c.toDst)
	}
	p.kernels.Store(r)
	return r.ks
}

// blocks computes blocks lo..hi, in order, with the inputs bound in b and
// the temporaries of t, with the fused kernels as fr says or (fr nil) the
// steps: a seek to lo, then an odometer over the column blocks, the row
// blocks and the outer axes, innermost first.
func (p *Plan[T]) blocks(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, lo, hi int) {
	r := len(p.size)
	nd := len(p.arrays)
	base, idx := t.base, t.idx
	clear(base)
	clear(idx)
	t.resetTiles() // b's inputs are not those of the last run
	for j, pt := range p.parts {
		pt.resetTiles(t.subs[j])
	}
	c, rb := 0, 0
	if lo > 0 {
		c, rb = lo%g.colBlocks, lo/g.colBlocks%g.rowBlocks
		rest := lo / g.colBlocks / g.rowBlocks
		for d := g.outer - 1; d >= 0; d-- {
			idx[d] = rest % p.size[d]
			rest /= p.size[d]
		}
		for d := range g.outer {
			for k := range nd {
				base[k] += idx[d] * p.arrays[k].stride[d]
			}
			base[nd] += idx[d] * p.dstStride[d]
		}
	}
	off := t.off
	for blk := lo; blk < hi; blk++ {
		row, col := rb*g.m, c*g.n
		for k := range nd {
			st := p.arrays[k].stride
			off[k] = base[k] + col*st[r-1]
			if r >= 2 {
				off[k] += row * st[r-2]
			}
		}
		off[nd] = base[nd] + col
		if r >= 2 {
			off[nd] += row * p.dstStride[r-2]
		}
		m, n := min(g.m, g.d1-row), min(g.n, g.n0-col)
		if fr == nil && g.stream {
			p.touch(b, t, m, n)
		}
		if p.tile > 0 {
			p.tiled(fr, b, t, dst, g, m*n)
		} else {
			p.compute(fr, b, t, dst, g, m, n)
		}
		if c++; c < g.colBlocks {
			continue
		}
		if c, rb = 0, rb+1; rb < g.rowBlocks {
			continue
		}
		rb = 0
		for d := g.outer - 1; d >= 0; d-- {
			idx[d]++
			for k := range nd {
				base[k] += p.arrays[k].stride[d]
			}
			base[nd] += p.dstStride[d]
			if idx[d] < p.size[d] {
				break
			}
			for k := range nd {
				base[k] -= p.size[d] * p.arrays[k].stride[d]
			}
			base[nd] -= p.size[d] * p.dstStride[d]
			idx[d] = 0
		}
	}
}

// compute computes the current block of m x n elements, with the fused
// kernels as fr says or (fr nil) the steps.
func (p *Plan[T]) compute(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, m, n int) {
	if fr != nil {
		p.fusedBlock(fr, b, t, dst, g, m, n)
		return
	}
	for i := range p.steps {
		p.step(&p.steps[i], b, t, dst, g, m, n)
	}
}

// array is array input k's memory in the current block from row row and
// column col, and its leading stride: its data, or the tile that stands
// in for a repeated row.
func (p *Plan[T]) array(k int, b, t *scratch[T], row, col int) ([]T, int) {
	s := &p.arrays[k]
	if s.row {
		return t.tiles[k].Buf[col:], 0
	}
	return b.data[k][t.off[k]+row*s.ld+col*s.inc:], s.ld
}

// arg is an operand's memory in the current block: a slice from its first
// element and its leading stride.
func (p *Plan[T]) arg(o operand, b, t *scratch[T], dst []T, g *geometry, n int) ([]T, int) {
	switch o.at {
	case inArray:
		return p.array(o.idx, b, t, 0, 0)
	case inValue:
		return b.vals[o.idx : o.idx+1], 0
	case inTemp:
		return t.temps[o.idx], tempLd(o, n)
	}
	return dst[t.off[len(p.arrays)]:], g.dstLd
}

// tempLd is the leading stride of a temporary holding o in a block of n
// columns: a row per block row, one value per block row, or (0) one row or
// value repeated for every block row.
func tempLd(o operand, n int) int {
	switch {
	case !o.vout:
		return 0
	case o.vin:
		return n
	}
	return 1
}

// step runs one step on the current block of m x n elements.
func (p *Plan[T]) step(s *step[T], b, t *scratch[T], dst []T, g *geometry, m, n int) {
	nd := s.node
	mm, nn := 1, 1
	if s.out.vout {
		mm = m
	}
	if s.out.vin {
		nn = n
	}
	k := s.kind
	stream := s.out.at == inDst && g.stream
	var d []T
	var ldd int
	var bd []bool
	if s.out.at == inBools {
		bd, ldd = t.bools[s.out.idx], tempLd(s.out, n)
	} else {
		d, ldd = p.arg(s.out, b, t, dst, g, n)
	}
	switch nd.kind {
	case kindBinary:
		a, lda := p.arg(s.in[0], b, t, dst, g, n)
		c, ldc := p.arg(s.in[1], b, t, dst, g, n)
		nd.binary(k, mm, nn, d, ldd, a, lda, c, ldc, stream)
	case kindUnary:
		a, lda := p.arg(s.in[0], b, t, dst, g, n)
		nd.unary(k, mm, nn, d, ldd, a, lda, stream)
	case kindTernary:
		a, lda := p.arg(s.in[0], b, t, dst, g, n)
		x, ldx := p.arg(s.in[1], b, t, dst, g, n)
		c, ldc := p.arg(s.in[2], b, t, dst, g, n)
		nd.ternary(k, mm, nn, d, ldd, a, lda, x, ldx, c, ldc, stream)
	case kindCompare:
		a, lda := p.arg(s.in[0], b, t, dst, g, n)
		c, ldc := p.arg(s.in[1], b, t, dst, g, n)
		nd.compare(k, mm, nn, bd, ldd, a, lda, c, ldc, stream)
	case kindSelect:
		cond, ldcond := t.bools[s.in[0].idx], tempLd(s.in[0], n)
		a, lda := p.arg(s.in[1], b, t, dst, g, n)
		c, ldc := p.arg(s.in[2], b, t, dst, g, n)
		nd.pick(k, mm, nn, d, ldd, cond, ldcond, a, lda, c, ldc, stream)
	case kindConvert:
		s.conv.run(b, t, g, m, n, d, ldd, stream)
	}
}

// touch reads one byte of every cache line of the block in each array
// input that streams from memory, the inputs interleaved, before the
// block's ops run. Each op reads one input; alone, it would wait on that one
// stream, where touching keeps the misses of all of them in flight at once,
// as a kernel reading two inputs does.
func (p *Plan[T]) touch(b, t *scratch[T], m, n int) {
	const line = 64
	size := int(unsafe.Sizeof(T(0)))
	var base [4]unsafe.Pointer
	var ld [4]int
	k := 0
	r := len(p.size)
	for i := range p.arrays {
		st := p.arrays[i].stride
		if st[r-1] == 0 || m > 1 && (r < 2 || st[r-2] == 0) || k == len(base) || p.arrays[i].tag != p.tag {
			continue // repeated values, or rows: in cache after the first block; or of a part's type
		}
		base[k] = unsafe.Pointer(&b.data[i][t.off[i]])
		if r >= 2 {
			ld[k] = st[r-2] * size
		}
		k++
	}
	var acc byte
	rowBytes := n * size
	for row := range m {
		for j := 0; j < rowBytes; j += line {
			for i := range k {
				acc |= *(*byte)(unsafe.Add(base[i], row*ld[i]+j))
			}
		}
	}
	t.sink = acc
}
