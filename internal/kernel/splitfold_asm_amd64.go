//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// splitFoldKernel runs the split-fold kernel for T's size and cols on the
// largest whole number of registers of rows, and returns how many it
// computed: none when there is no kernel. dst is T, or int for SplitArg's
// ops. It calls the kernels on chunks of splitFoldChunk rows: a call
// cannot be preempted, and the dispatch decides by a chunk's bytes. By
// the whole call's, SplitArg of 1048576 rows of 3 float32 went to AVX2 on
// a Xeon model 167, where AVX-512 is faster (836-864 us against
// 577-648). Where the dispatch gives a chunk to AVX-512 its kernel takes
// whole zmm registers of rows, and the AVX2 kernel at most one ymm
// register's more.
func splitFoldKernel[T Number, D any](dst []D, src []T, cols, op int) int {
	if !splitFoldRuns[T](cols) {
		return 0
	}
	size := int(unsafe.Sizeof(T(0)))
	done := 0
	for done < len(dst) {
		d, s := dst[done:min(len(dst), done+splitFoldChunk)], src[done*cols:]
		wide := 0
		if implFor(classMemory, len(d)*(cols+1)*size, false) == AVX512 {
			wide = len(d) &^ (64/size - 1)
			splitFoldRun(d[:wide], s, cols, op, true)
		}
		n := wide + (len(d)-wide)&^(32/size-1)
		splitFoldRun(d[wide:n], s[wide*cols:], cols, op, false)
		done += n
		if n < len(d) { // the last chunk's rest: the caller's loop
			break
		}
	}
	return done
}

// splitFoldChunk is the most rows of one split-fold kernel call, a
// multiple of every kernel's rows per register (chunks of 4096 rows of 3
// float32 already went to AVX2 there: 917-959 us).
const splitFoldChunk = 2048

// splitFoldRuns reports whether a split-fold kernel exists for T and cols
// on this CPU.
func splitFoldRuns[T Number](cols int) bool {
	return isFloat[T]() && cpu.X86.HasAVX2 && cols >= 2 && cols <= 4 && !(unsafe.Sizeof(T(0)) == 8 && cols == 4)
}

// splitFoldKernels are the kernels by width (AVX2, AVX-512), element size
// (4, 8 bytes) and columns (2 to 4); 8-byte rows of 4 have none. Called
// through this table, their arguments escape: SplitFold's callers pass the
// user's slices, which are on the heap already.
var splitFoldKernels = [2][2][3]func(dst, src *byte, n, op int){
	{{splitFold4x2AVX2, splitFold4x3AVX2, splitFold4x4AVX2}, {splitFold8x2AVX2, splitFold8x3AVX2, nil}},
	{{splitFold4x2AVX512, splitFold4x3AVX512, splitFold4x4AVX512}, {splitFold8x2AVX512, splitFold8x3AVX512, nil}},
}

// splitFoldRun runs the AVX2 or (wide) AVX-512 kernel for T's size and
// cols over the rows of dst, a whole number of its registers of rows.
func splitFoldRun[T Number, D any](dst []D, src []T, cols, op int, wide bool) {
	if len(dst) == 0 {
		return
	}
	if raceEnabled {
		raceWrite(dst)
		raceRead(src[:len(dst)*cols])
	}
	w := 0
	if wide {
		w = 1
	}
	k := splitFoldKernels[w][unsafe.Sizeof(T(0))/8][cols-2]
	k((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), (*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(dst), op)
}
