package broadcast

import (
	"runtime"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
)

// argColumnsDirect is argColumns for float columns in one pass over the
// lines with kernel.ArgColumns, whose kernels keep each column's extreme
// and its line (an integer of T's size) in the scratch room, updated in
// registers a block of lines at a time, where the fused kernels' three
// instructions go through memory at every line. A NaN takes its first
// index there; a column whose extreme is ±0 takes the exact loop after,
// as the kernels do not order zeros. It reports false, having done
// nothing, where no kernel runs or the lines are no more than fewArg.
func argColumnsDirect[T elem.Number](idx []int, x []T, along group, greatest bool) bool {
	if !kernel.IsFloat[T]() || along.size <= fewArg || len(idx) > columnTile {
		return false
	}
	if unsafe.Sizeof(T(0)) == 4 {
		return argColumnsWith[T, int32](idx, x, along, greatest)
	}
	return argColumnsWith[T, int64](idx, x, along, greatest)
}

// argColumnsWith is argColumnsDirect with the lines' integer type I.
func argColumnsWith[T elem.Number, I int32 | int64](idx []int, x []T, along group, greatest bool) bool {
	w, size := len(idx), int(unsafe.Sizeof(T(0)))
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	room := unsafe.Slice((*T)(unsafe.Pointer(buf)), len(buf)*8/size)
	best := room[:w]
	at := unsafe.Slice((*I)(unsafe.Pointer(&room[columnTile])), w)
	copy(best, x[:w])
	clear(at)
	perCall := max(1, argCallBytes/(w*size)) // lines per call: a call cannot be preempted
	for i := 1; i < along.size; i += perCall {
		lines := min(perCall, along.size-i)
		if !kernel.ArgColumns(best, at, x[i*along.stride:], along.stride, lines, i, !greatest) {
			return false // idx untouched: the caller's next way starts over
		}
	}
	for c, b := range best {
		idx[c] = int(at[c])
		if b == 0 {
			idx[c] = exactArg(x, along, c, greatest)
		}
	}
	return true
}

// argColumnsFused is argColumns for float columns in one pass over the
// lines where argColumnsDirect has no kernel (arm64), with the fused
// kernels: for each line i, m = x > best, at =
// m ? i : at, best = max(best, x) (less and min for ArgMin), a chunk at a
// time, so that each line is read once. A strict comparison keeps the
// first index of a value; Go's max takes a NaN or +0 into best without
// the index, and such columns take the exact loop after (a NaN extreme
// has no index of its own here, nor a zero one, whose sign the comparison
// does not see). Otherwise the extreme entered best at its first index,
// which the comparison saw: nothing before it was greater or equal.
// Indexes go through T, in blocks of lines whose indexes T holds exactly
// (the block's index table, in the scratch room), each block's found
// indexes into idx after it.
// A row's last elements are a group overlapping the one before it, which
// the three steps leave as they are a second time. It reports false,
// having done nothing, where no fused kernel runs or the columns are
// fewer than argMinGroups groups or the lines no more than fewArg.
func argColumnsFused[T elem.Number](idx []int, x []T, along group, greatest bool) bool {
	w := len(idx)
	if !kernel.IsFloat[T]() || along.size < 2 || w > columnTile {
		return false
	}
	size := int(unsafe.Sizeof(T(0)))
	cmpOp, extOp := kernel.OpGt, kernel.OpMax
	if !greatest {
		cmpOp, extOp = kernel.OpLt, kernel.OpMin
	}
	cmp, okCmp := kernel.FuseCode[T](kernel.FuseCompare, uint8(cmpOp))
	sel, okSel := kernel.FuseCode[T](kernel.FuseSelect, uint8(kernel.OpSelect))
	ext, okExt := kernel.FuseCode[T](kernel.FuseBinary, uint8(extOp))
	if !okCmp || !okSel || !okExt {
		return false
	}
	impl, _, _, ok := kernel.FuseImpl[T](false, along.size*w*size)
	if !ok {
		return false
	}
	group := kernel.FuseGroupBytes(impl) / size
	if w < argMinGroups*group || along.size <= fewArg {
		return false
	}
	heldOnHeap(unsafe.Pointer(unsafe.SliceData(x)))
	buf := scratch.Get().(*[columnTile * kernel.Lanes]float64)
	defer scratch.Put(buf)
	room := unsafe.Slice((*T)(unsafe.Pointer(buf)), len(buf)*8/size)
	best, at := room[:w], room[columnTile:][:w]
	mask := unsafe.Slice((*bool)(unsafe.Pointer(&room[2*columnTile])), argChunkBytes+kernel.FuseMaxGroupBytes)
	table := room[2*columnTile+(argChunkBytes+kernel.FuseMaxGroupBytes+size-1)/size:]
	table = table[:min(len(table), along.size-1, argTableLines)]
	for j := range table {
		table[j] = T(j)
	}

	const sx, sBest, sAt, sTable, sMask = 0, 1, 2, 3, 4
	var slots [5 * kernel.FuseSlotWords]uintptr
	set := func(s int, p unsafe.Pointer, ld int, along bool) {
		sw := slots[s*kernel.FuseSlotWords:]
		sw[0], sw[1], sw[2] = uintptr(p), uintptr(ld), 0
		if along {
			sw[2] = ^uintptr(0)
		}
	}
	set(sBest, unsafe.Pointer(&best[0]), 0, true)
	set(sAt, unsafe.Pointer(&at[0]), 0, true)
	set(sMask, unsafe.Pointer(&mask[0]), 0, false)
	prog := [3]uint64{
		kernel.FuseInstr(cmp, 0, false, sMask, sx, sBest),
		kernel.FuseInstr(sel, 1<<1, false, sAt, sMask, sTable, sAt),
		kernel.FuseInstr(ext, 0, false, sBest, sBest, sx),
	}
	groups := w / group
	tail := 0
	if r := w - groups*group; r > 0 {
		tail = (r - group) * size
	}
	chunk := max(1, argChunkBytes/(group*size))
	perCall := max(1, argCallBytes/(w*size)) // lines per call: a call cannot be preempted

	copy(best, x[:w])
	clear(idx)
	for i0 := 1; i0 < along.size; i0 += len(table) {
		lines := min(len(table), along.size-i0)
		fillRow(at, T(0)-1) // float T: -1, no index

		for j := 0; j < lines; j += perCall {
			rows := min(perCall, lines-j)
			set(sx, unsafe.Pointer(&x[(i0+j)*along.stride]), along.stride*size, true)
			set(sTable, unsafe.Pointer(&table[j]), size, false)
			kernel.Fuse[T](impl, prog[:], slots[:], rows, groups, chunk, tail, false)
		}
		for c, v := range at {
			if v >= 0 {
				idx[c] = i0 + int(v)
			}
		}
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(buf)
	for c, b := range best {
		if b != b || b == 0 {
			idx[c] = exactArg(x, along, c, greatest)
		}
	}
	return true
}

// argMinGroups is the fewest groups of vectors in a row of columns from
// which argColumnsFused runs: each instruction of the fused kernels costs
// about as much for a row of one group as argColumns' two kernel calls.
// Zen 5 (AMD EPYC family 26 model 2), float32 ArgMax over the lines,
// interleaved runs, argColumns / fused, us: (1024, 1024) 126-134 /
// 103-124, (16, 256) 2.38-2.46 / 1.02-1.11, (64, 64) 2.15-2.26 /
// 1.06-1.10, (1000, 100) 26.8-35.8 / 29.4-29.7, (100000, 64) 856-1104 /
// 1350-1654; and on few lines, argColumns' marks of every candidate:
// (2, 1024) 0.39-0.46 / 1.17-1.59, (4, 1024) 0.63-0.67 / 1.30-1.34.
const argMinGroups = 4

// argChunkBytes is the bytes of a chunk of argColumnsFused's lines, the
// fused kernels' chunk for ops of the memory class.
const argChunkBytes = 4096

// argCallBytes is the most bytes of lines one fused call of
// argColumnsFused reads: a call cannot be preempted, as the fused
// kernels' limit on a call's output says (this program writes best, at
// and the mask of each line besides).
const argCallBytes = 256 << 10

// argTableLines is the most lines of a block of argColumnsFused, beyond
// the scratch room's (62400 float32 or 30176 float64 indexes, which T
// holds exactly): tests lower it to run many blocks.
var argTableLines = 1 << 24

// heldOnHeap is called through a variable, which escape analysis cannot
// see through: its argument escapes, so that the lines whose addresses
// argColumnsFused gives the fused kernels as integers live on the heap,
// where a growing stack cannot move them from under those integers.
var heldOnHeap = func(unsafe.Pointer) {}

// exactArg is the index of the greatest (least) value of column c, line i
// at x[i*along.stride+c], by the exact loop.
func exactArg[T elem.Number](x []T, along group, c int, greatest bool) int {
	b, at := x[c], 0
	for i := 1; i < along.size; i++ {
		if v := x[i*along.stride+c]; beats(v, b, greatest) {
			b, at = v, i
		}
	}
	return at
}
