package expr

import (
	"runtime"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/cpuinfo"
	"github.com/simdkit/elem/internal/kernel"
)

// fusion is a plan's program for the fused kernels (kernel.Fuse): every
// step of the expression as one instruction, run a chunk at a time, so
// that a block costs one assembly call instead of one kernel call per op,
// every input stream is read in each chunk (as one kernel of several
// inputs reads them, where op by op reads one at a time), the temporaries
// are chunks in L1, and scalars, constants and columns are broadcast into
// registers. A plan has one when every op has a fused kernel for T; a run
// uses it when the implementation in effect has them and its rows and
// output are long or its traffic large and its rows not short (minRow,
// minOut, minBytes, minRowPast), and the steps otherwise.
type fusion struct {
	prog       [2][]uint64 // ordinary stores, and the output with streaming stores
	slots      []fslot
	compute    bool  // an op of the compute class (div, sqrt) decides the implementation and the chunk
	chunkBytes int   // fuseChunkBytes or fuseComputeChunkBytes
	chunk      int   // elements per chunk
	bufLen     int   // elements per chunk buffer: a chunk and the group of a row's tail
	nchunks    int   // chunk buffers of T: temporaries, the row ends' copies
	nbools     int   // chunk buffers of bool
	moving     []int // the slots of dst and the arrays, whose addresses each call sets
	geom       [2]geometry
	// A run takes the fused kernels when its rows (Plan.rowLen: the inner
	// axis of the output, coalesced, or a tiled plan's tile) have at least
	// minRow elements, 2 KiB, and its output at least minOut, 8 KiB, or
	// when its traffic (p.streamBytes) is at least minBytes, half the L2,
	// and its rows at least minRowPast elements, 512 bytes. Smaller runs,
	// from the caches, are faster as steps: a 2-D kernel call covers many
	// short rows, where the fused kernels pay a dispatch per op for every
	// chunk, and each row has a chunk of its own (and rows shorter than a
	// group a call of their own). Zen 4, float32, ns per run, medians of 8,
	// interleaved, fused against steps (with 4 KiB chunks, 1 KiB for the
	// division, and the rows' ends as the kernel's tail): (x - m) / s, one
	// row of 1000 229 / 244, 2000 401 / 427, 3000 553 / 711; a*s + b*t
	// 1000 291 / 221, 2000 465 / 489, 3000 587 / 832, 16000 2150 / 3196;
	// max(x*w + b, 0) on rows of 1000: 1 row 300 / 272, 2 rows 514 / 452,
	// 3 rows 719 / 967, 4 rows 975 / 1068, 16 rows 3125 / 3936; on
	// shorter rows the steps stay ahead: 8 x 512 1090 / 1051, 16 x 256
	// 1109 / 1042, 64 x 125 3470 / 2749. Past half the L2, the steps win
	// on rows shorter than minRowPast, and the fused kernels on longer
	// ones, streaming only where the steps would (Plan.streams): Intel
	// Xeon (family 6 model 207, AVX-512), float32, a column c, ms per run
	// fused / steps for x + c, max(x*c + c, 0) and (x - c) / c, best of 7
	// on a busy 2-core guest: 1M elements (not streaming), rows of 32 0.42
	// / 0.37, 0.88 / 0.38, 0.61 / 0.44; of 64 0.25 / 0.21, 0.33 / 0.32,
	// 0.24 / 0.30; of 128 0.37 / 0.36, 0.43 / 0.51, 0.38 / 0.46; of 500
	// 0.33 / 0.34, 0.33 / 0.42, 0.31 / 0.37; 4M elements (past the
	// streaming threshold), rows of 3 89 / 10, 108 / 14, 98 / 11; of 16
	// 12.1 / 2.8, 14.8 / 2.9, 13.6 / 3.4; thread CPU time, best of 15, the
	// fused kernels streaming / not / steps: rows of 128 0.73 / 0.79 /
	// 1.06, 1.02 / 1.23 / 1.94, 1.48 / 1.58 / 2.40; of 130 19.6 / 1.54 /
	// 1.48, 19.6 / 1.59 / 1.76, 19.2 / 1.35 / 1.69; of 500 7.7 / 1.27 /
	// 1.27, 9.0 / 1.53 / 1.67, 7.9 / 1.25 / 1.56.
	minBytes, minRow, minOut, minRowPast int
}

// fslot is one slot of a fused program and where its memory comes from.
type fslot struct {
	at  where // inDst, inArray (the array's rows, or its value per row), inValue (a value's address), inTemp, inBools
	idx int   // the array, value, or chunk buffer
	adv bool  // reads or writes along the row: the output and arrays whose rows vary
	pad int   // for adv, the chunk buffer that stands in at the ends of rows
}

// fuseChunkBytes is the bytes of one chunk of T from the caches (and of the
// chunk buffers): small enough for the temporaries to stay in L1 beside
// the streams, large enough that an instruction's dispatch is a small part
// of its chunk. A program with an op of the compute class (div, sqrt)
// takes fuseComputeChunkBytes: its chunks alternate between the divider
// and the loads and stores of the other ops, which overlap only across the
// end of one instruction's chunk and the start of the next, more often in
// short chunks. Zen 4, float32, µs per run (ns for 4000), medians of 6,
// interleaved, chunks of 1, 2 and 4 KiB:
//
//	a*s + b*t, 16000               2.75  2.45  2.15
//	a*s + b*t, 4000                 732   626   620
//	max(x*w + b, 0), 16 x 1000     3.62  3.25  3.10
//	max(x*w + b, 0), 4 x 1000       962   891   820
//	(x - m) / s, 16000             2.14  2.47  2.36
//
// (The last one's placement of its temporary in the page did not matter:
// 2.33-2.52 at eight offsets 512 bytes apart.)
const (
	fuseChunkBytes        = 4096
	fuseComputeChunkBytes = 1024
)

// chunkLen is the elements of a chunk of a run with streaming stores or
// without.
func (f *fusion) chunkLen(stream bool) int {
	if stream {
		return f.chunk * fuseStreamChunkBytes / f.chunkBytes
	}
	return f.chunk
}

// fuseStreamChunkBytes is the bytes of a chunk when the output streams:
// each op of a chunk reads its input streams, and the output goes out in
// non-temporal bursts of a chunk, which are shorter here. Zen 4, float32,
// 16M elements, elembench -expr, four interleaved runs each, fused / Add:
// a*s + b*t 1.12-1.43 with 512-byte chunks against 1.29-1.98 with 1 KiB
// (fused / op by op 0.48-0.67 against 0.54-0.82); (x - m) / s 0.61-0.79
// against 0.63-0.84; max(x*w + b, 0) 0.85-1.03 against 0.83-0.95. 256
// bytes measured as 512 (three runs). Prefetching each input ahead in the
// kernel did not help (a*s + b*t, three runs each: 1.31-1.53 without,
// 1.37-1.51 1 KiB ahead, 1.59-1.92 4 KiB ahead).
const fuseStreamChunkBytes = 512

// fuseBlockBytes is the most output of one fused call: a block is at most
// one kernel call, which cannot be preempted (see kernel.Fuse).
const fuseBlockBytes = 256 << 10

// fuse builds the plan's fused program, or leaves it nil when an op has no
// fused kernel for T or an input's rows are not contiguous. block > 0
// forces the elements of a block, as it does for the steps.
func (c *compiler[T]) fuse(block int) {
	p := c.p
	size := int(unsafe.Sizeof(T(0)))
	r := len(p.size)
	for _, s := range p.arrays {
		if st := s.stride[r-1]; st != 0 && st != 1 {
			return
		}
	}
	f := &fusion{minBytes: fuseMinBytes(cpuinfo.Get().Caches), minRow: fuseMinRowBytes / size, minOut: fuseMinOutBytes / size,
		minRowPast: fuseMinRowPastBytes / size}
	add := func(s fslot) uint8 {
		f.slots = append(f.slots, s)
		return uint8(min(len(f.slots)-1, kernel.FuseMaxSlots-1))
	}
	chunk := func() int { f.nchunks++; return f.nchunks - 1 }
	dst := add(fslot{at: inDst, adv: true})
	seen := map[operand]uint8{}
	// slot returns o's slot, and whether o is one value per row (a scalar,
	// a constant, an array that repeats along the row), which the kernels
	// broadcast into a register.
	slot := func(o operand) (uint8, bool) {
		value := o.at == inValue || o.at == inArray && p.arrays[o.idx].stride[r-1] == 0
		key := operand{at: o.at, idx: o.idx}
		if s, ok := seen[key]; ok {
			return s, value
		}
		var s uint8
		switch o.at {
		case inArray:
			s = add(fslot{at: inArray, idx: o.idx, adv: !value})
		case inValue:
			s = add(fslot{at: inValue, idx: o.idx})
		case inTemp:
			s = add(fslot{at: inTemp, idx: chunk()})
		case inBools:
			f.nbools++
			s = add(fslot{at: inBools, idx: f.nbools - 1})
		default:
			s = dst
		}
		seen[key] = s
		return s, value
	}
	for _, s := range p.steps {
		fam, op := fuseFamily(s.node)
		code, ok := kernel.FuseCode[T](fam, op)
		if !ok {
			return
		}
		f.compute = f.compute || kernel.FuseCompute(fam, op)
		var in [3]uint8
		var scalars uint8
		for i := range s.node.nargs {
			var value bool
			in[i], value = slot(s.in[i])
			if value {
				scalars |= 1 << i
			}
		}
		out, _ := slot(s.out)
		for nt := range f.prog {
			f.prog[nt] = append(f.prog[nt], kernel.FuseInstr(code, scalars, nt == 1 && s.out.at == inDst, out, in[:s.node.nargs]...))
		}
	}
	if len(f.slots) > kernel.FuseMaxSlots {
		return
	}
	f.chunkBytes = fuseChunkBytes
	if f.compute {
		f.chunkBytes = fuseComputeChunkBytes
	}
	f.chunk = f.chunkBytes / size
	// Room for the tail group past the chunk: 1 KiB, not a group's 256
	// bytes, so that the buffers stay 1 KiB apart in the page (as 1 KiB
	// chunks had them) when the output streams and each uses 512 bytes.
	f.bufLen = f.chunk + max(kernel.FuseMaxGroupBytes, 1024)/size
	for i, sl := range f.slots {
		if sl.adv {
			f.slots[i].pad = chunk()
		}
		if sl.at == inDst || sl.at == inArray {
			f.moving = append(f.moving, i)
		}
	}
	be := fuseBlockBytes / size
	if block > 0 {
		be = block
	}
	f.geom = [2]geometry{p.newGeometry(be, false), p.newGeometry(be, true)}
	p.fused = f
}

// fuseMinRowBytes, fuseMinOutBytes and fuseMinRowPastBytes are
// fusion.minRow, minOut and minRowPast in bytes.
const (
	fuseMinRowBytes     = 2 << 10
	fuseMinOutBytes     = 8 << 10
	fuseMinRowPastBytes = 512
)

// fuseMinBytes is fusion.minBytes on caches caches.
func fuseMinBytes(caches cpuinfo.Caches) int {
	if caches.L2 <= 0 {
		return 512 << 10
	}
	return caches.L2 / 2
}

// fuseFamily is the fused kernels' family of an op node, and its op.
func fuseFamily[T elem.Number](n *node[T]) (kernel.FuseFamily, uint8) {
	switch n.kind {
	case kindBinary:
		return kernel.FuseBinary, n.op
	case kindUnary:
		return kernel.FuseUnary, n.op
	case kindTernary:
		return kernel.FuseTernary, n.op
	case kindCompare:
		return kernel.FuseCompare, n.op
	}
	return kernel.FuseSelect, uint8(kernel.OpSelect)
}

// fusable reports whether runs take the fused kernels where the
// implementation has them: the plan has a program, and its rows and
// output are long enough, or its traffic and its rows (fusion.minRow,
// minOut, minBytes, minRowPast).
func (p *Plan[T]) fusable() bool {
	f := p.fused
	if f == nil {
		return false
	}
	n := p.rowLen()
	return n >= f.minRow && p.outLen >= f.minOut || n >= f.minRowPast && p.streamBytes >= f.minBytes
}

// fuseRun is how one run uses the fused kernels.
type fuseRun struct {
	impl   kernel.Impl
	vector int  // bytes
	groups int  // per chunk (a row's last chunk may have fewer)
	group  int  // elements per group
	stream bool // the output streams
	// overlap says that the ends of rows may be computed as whole groups
	// that overlap the groups before them (computing some elements twice,
	// with the same bits): dst is not one of the inputs, which the first
	// computation would have overwritten.
	overlap bool
}

// fuser returns how a run with the inputs bound in b, under the policy in
// effect, uses the fused kernels, and its blocks; ok is false when it runs
// the steps.
func (p *Plan[T]) fuser(b *scratch[T]) (fr fuseRun, g *geometry, ok bool) {
	if !p.fusable() {
		return fr, nil, false
	}
	f := p.fused
	fr.impl, fr.vector, fr.stream, ok = kernel.FuseImpl[T](f.compute, p.streamBytes)
	if !ok {
		return fr, nil, false
	}
	fr.stream = fr.stream && p.rowsStream()
	gb := kernel.FuseGroupBytes(fr.impl)
	fr.groups = f.chunkBytes / gb
	if fr.stream {
		fr.groups = fuseStreamChunkBytes / gb
	}
	fr.group = gb / int(unsafe.Sizeof(T(0)))
	fr.overlap = !b.inPlace
	g = &f.geom[0]
	if fr.stream {
		g = &f.geom[1]
	}
	return fr, g, true
}

// fusedBlock computes the current block of m x n elements with the fused
// kernels, every row at once where the rows' output starts share their
// offset in a vector (or the stores are ordinary).
func (p *Plan[T]) fusedBlock(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, m, n int) {
	if fr.stream && m > 1 && g.dstLd*int(unsafe.Sizeof(T(0)))%fr.vector != 0 {
		for row := range m {
			p.fusedRows(fr, b, t, dst, g, row, 1, n)
		}
	} else {
		p.fusedRows(fr, b, t, dst, g, 0, m, n)
	}
	runtime.KeepAlive(dst)
}

// fusedRows computes rows row..row+rows of the current block: the
// elements before the output's first vector boundary when it streams,
// whole groups (a chunk at a time), and the elements past the last whole
// group. The ends of rows are whole groups overlapping their neighbours
// where fr.overlap allows and a row has a group (in the call of the whole
// groups, as the kernel's tail, unless the output streams: a row's end is
// not on a vector boundary), and otherwise copies (fusedPad).
func (p *Plan[T]) fusedRows(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, row, rows, n int) {
	size := int(unsafe.Sizeof(T(0)))
	whole := fr.overlap && n >= fr.group
	col := 0
	if fr.stream {
		at := t.off[len(p.arrays)] + row*g.dstLd
		addr := int(uintptr(unsafe.Pointer(unsafe.SliceData(dst[at:]))))
		col = min(n, (fr.vector-addr%fr.vector)%fr.vector/size)
		switch {
		case col == 0:
		case whole:
			p.fuseCall(fr, b, t, dst, g, row, rows, 0, 1, 0, false)
		default:
			p.fusedPad(fr, b, t, dst, g, row, rows, 0, col)
		}
	}
	if k := (n - col) / fr.group; k > 0 {
		end, tail := col+k*fr.group, 0
		if whole && !fr.stream && end < n { // the row's end in the same call, as its tail group
			tail, end = (n-fr.group-end)*size, n
		}
		p.fuseCall(fr, b, t, dst, g, row, rows, col, k, tail, fr.stream)
		col = end
	}
	switch {
	case col == n:
	case whole:
		p.fuseCall(fr, b, t, dst, g, row, rows, n-fr.group, 1, 0, false)
	default:
		p.fusedPad(fr, b, t, dst, g, row, rows, col, n-col)
	}
}

// fuseCall runs the program over rows rows of the current block from row
// row and column col: groups groups, a chunk at a time, and the tail group
// of kernel.Fuse, writing dst with streaming stores or not (the first
// column must then be on a vector boundary).
func (p *Plan[T]) fuseCall(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, row, rows, col, groups, tail int, stream bool) {
	f := p.fused
	prog := f.prog[0]
	if stream {
		prog = f.prog[1]
	}
	p.fuseSlots(b, t, dst, g, row, col, 0)
	kernel.Fuse[T](fr.impl, prog, t.fslots, rows, groups, fr.groups, tail, stream)
}

// fusedPad computes cnt (< a group) elements of each of rows rows from row
// row and column col, one row at a time: the inputs along the row copied
// into a group of chunk buffers, one group computed with ordinary stores,
// and the output copied back.
func (p *Plan[T]) fusedPad(fr *fuseRun, b, t *scratch[T], dst []T, g *geometry, row, rows, col, cnt int) {
	f := p.fused
	for r := row; r < row+rows; r++ {
		p.fuseSlots(b, t, dst, g, r, col, cnt)
		kernel.Fuse[T](fr.impl, f.prog[0], t.fslots, 1, 1, 1, 0, false)
		at := t.off[len(p.arrays)] + r*g.dstLd + col
		copy(dst[at:at+cnt], t.fchunk(f.slots[0].pad, f.bufLen))
	}
}

// fuseSlots fills the slots of dst and the arrays in t.fslots for the
// current block from row row and column col: the rows themselves, or for
// pad > 0, copies of pad elements of each input along the row in chunk
// buffers, and a chunk buffer for the output. The other slots (values,
// temporaries) never change: newFuseScratch filled them.
func (p *Plan[T]) fuseSlots(b, t *scratch[T], dst []T, g *geometry, row, col, pad int) {
	f := p.fused
	size := int(unsafe.Sizeof(T(0)))
	nd := len(p.arrays)
	for _, i := range f.moving {
		sl := &f.slots[i]
		w := t.fslots[i*kernel.FuseSlotWords : (i+1)*kernel.FuseSlotWords]
		var at []T
		var ld int
		if sl.at == inDst {
			at, ld = dst[t.off[nd]+row*g.dstLd+col:], g.dstLd
		} else {
			at, ld = p.array(sl.idx, b, t, row, col)
		}
		ld *= size
		var along uintptr // the chunk offset's mask: the slot moves along the row
		if sl.adv {
			along = ^uintptr(0)
			if pad > 0 {
				c := t.fchunk(sl.pad, f.bufLen)
				if sl.at == inArray {
					copy(c, at[:pad])
				}
				at, ld, along = c, 0, 0
			}
		}
		w[0], w[1], w[2] = uintptr(unsafe.Pointer(unsafe.SliceData(at))), uintptr(ld), along

	}
}

// fchunk is chunk buffer i, of n elements.
func (s *scratch[T]) fchunk(i, n int) []T { return s.fchunks[i*n : (i+1)*n] }

// newFuseScratch allocates a run's memory for the fused kernels: slots and
// chunk buffers, each on a 64-byte boundary.
func newFuseScratch[T elem.Number](f *fusion, s *scratch[T]) {
	const align = 64
	size := int(unsafe.Sizeof(T(0)))
	s.fslots = make([]uintptr, len(f.slots)*kernel.FuseSlotWords)
	n := f.nchunks*f.bufLen + align/size
	buf := make([]T, n)
	skip := (align - int(uintptr(unsafe.Pointer(&buf[0])))%align) % align / size
	s.fchunks = buf[skip : skip+f.nchunks*f.bufLen]
	bools := make([]bool, f.nbools*f.bufLen+align)
	skip = (align - int(uintptr(unsafe.Pointer(&bools[0])))%align) % align
	s.fbools = bools[skip : skip+f.nbools*f.bufLen]
	for i, sl := range f.slots {
		var addr unsafe.Pointer
		switch sl.at {
		case inValue:
			addr = unsafe.Pointer(&s.vals[sl.idx])
		case inTemp:
			addr = unsafe.Pointer(&s.fchunk(sl.idx, f.bufLen)[0])
		case inBools:
			addr = unsafe.Pointer(&s.fbools[sl.idx*f.bufLen])
		default:
			continue
		}
		s.fslots[i*kernel.FuseSlotWords] = uintptr(addr)
	}
}
