package kernel

import "unsafe"

// FuseFamily is a family of ops in a fused program (see Fuse).
type FuseFamily uint8

// The families a fused program runs.
const (
	FuseBinary FuseFamily = iota
	FuseUnary
	FuseTernary
	FuseCompare
	FuseSelect
)

var fuseBases = [...]uint8{fuseBinaryBase, fuseUnaryBase, fuseTernaryBase, fuseCompareBase, fuseSelectionBase}

// fuseReady says whether the fused kernels run here: the build has them
// and the CPU has their features beyond their level's (which the choice of
// implementation checks).
var fuseReady = fuseAsm && fuseCPU()

// FuseSlotWords is the number of words of a slot in a fused program's slot
// array: the address of the current row's first chunk (which the kernel
// moves on by a row at the end of each), the bytes to the next row, a mask
// of the chunk's offset in the row (all ones for a slot that moves along
// the row, 0 for a temporary or a value), and one unused.
const FuseSlotWords = 4

// FuseMaxSlots is the most slots an instruction can name.
const FuseMaxSlots = 256

// FuseCode returns the code of op (its value in package kernel) of family
// fam in a fused program of T, and whether the fused kernels run it.
func FuseCode[T Number](fam FuseFamily, op uint8) (uint8, bool) {
	c := fuseBases[fam] + op
	ti := fuseTypeIndex[T]()
	return c, ti >= 0 && c < 64 && fuseHas[ti]>>c&1 == 1
}

// fuseTypeIndex is T's index in fuseHas, or -1. It tells the types apart
// by size and by whether 1/2 is 0, which the compiler folds for each
// shape; a type switch would cost a runtime type comparison per call.
func fuseTypeIndex[T Number]() int {
	var one T = 1
	switch {
	case one/2 == 0:
		return -1
	case unsafe.Sizeof(one) == 4:
		return 0
	}
	return 1
}

// FuseInstr encodes an instruction of a fused program: the op of code
// (from FuseCode) writing slot out from slots in, where bit i of scalars
// says that input i is one value (a slot that holds the address of the
// value for the row, broadcast to every element) rather than a chunk; with
// non-temporal stores when nt (only on the output, aligned to the vector,
// whose chunks are whole vectors). A []bool input is always a chunk.
func FuseInstr(code, scalars uint8, nt bool, out uint8, in ...uint8) uint64 {
	w := uint64(code)<<fuseKeyBits | uint64(scalars)
	if nt {
		w |= fuseNT << 16
	}
	w |= uint64(out) << 24
	for i, s := range in {
		w |= uint64(s) << (32 + 8*i)
	}
	return w
}

// FuseImpl returns how a fused program of T moving bytes bytes runs
// (compute when one of its ops is of the compute class): the
// implementation chosen as for one call of that size, its vector width in
// bytes, and whether its output streams (ShouldStream). ok is false where
// no fused kernel runs: the generic implementation, a build without
// assembly, a CPU without the kernels' features.
func FuseImpl[T Number](compute bool, bytes int) (impl Impl, vector int, stream, ok bool) {
	stream = ShouldStream(bytes)
	if fuseTypeIndex[T]() < 0 || !fuseReady {
		return Generic, 0, stream, false
	}
	c := classMemory
	if compute {
		c = classCompute
	}
	impl = implFor(c, bytes, stream)
	vector = fuseVector(impl)
	return impl, vector, stream, vector > 0
}

// Fuse runs the fused program prog with implementation impl (from
// FuseImpl) over rows rows of groups groups of 4 vectors each, chunk groups
// at a time (a row's last chunk may be shorter): every instruction runs on
// a chunk before the next chunk starts. tail, when not 0, adds one group to
// each row, computed in its last chunk: tail bytes (negative, more than a
// group's) from the end of the whole groups, so that the group ends the
// row and overlaps the one before it; a row so recomputes some elements,
// which is right only where the output is no input. slots holds
// FuseSlotWords words per slot; its addresses must stay valid for the
// row's groups in every slot that advances, for one chunk and one group in
// every temporary and one element in every value, and the output must be
// aligned to the vector where it is written with non-temporal stores. No
// more than 256 KiB of output per call: an assembly call cannot be
// preempted. stream says that prog writes with non-temporal stores (it
// holds an instruction of FuseInstr with nt): they are left unordered, as
// a streaming kernel's, for the caller's Fence; such a program has no
// tail.
func Fuse[T Number](impl Impl, prog []uint64, slots []uintptr, rows, groups, chunk, tail int, stream bool) {
	if rows <= 0 || groups <= 0 || chunk <= 0 || len(prog) == 0 {
		return
	}
	if stream {
		if tail != 0 {
			panic("kernel: Fuse of a streaming program with a tail")
		}
	} else { // the flag is what the fence contract sees: it must not hide a streaming program
		for _, w := range prog {
			if w>>16&fuseNT != 0 {
				panic("kernel: Fuse of a program with streaming stores, called with stream false")
			}
		}
	}
	fuseRun(impl, fuseTypeIndex[T](), prog, slots, rows, groups, chunk, tail)
}

// FuseGroupBytes is the bytes of one group of vectors with implementation
// impl: a chunk is a whole number of them.
func FuseGroupBytes(impl Impl) int { return fuseGroup * fuseVector(impl) }

// FuseMaxGroupBytes is the most bytes of a group, with any implementation:
// the room past a chunk that temporaries keep for a tail (see Fuse).
const FuseMaxGroupBytes = fuseGroup * 64

// FuseCompute reports whether op of family fam is of the compute class
// (a divider or square root unit), which the choice of implementation for
// a fused program weighs as for a call of that op.
func FuseCompute(fam FuseFamily, op uint8) bool {
	var name string
	switch fam {
	case FuseBinary:
		name = Op(op).String()
	case FuseUnary:
		name = UnaryOp(op).String()
	default:
		return false
	}
	for _, c := range computeOps {
		if c == name {
			return true
		}
	}
	return false
}
