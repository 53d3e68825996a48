package elem

import (
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/split"
)

// parallelGrain is the fewest elements a goroutine of the Parallel calls is
// given (for the flat calls give or take a cache line): below about this
// many, starting and joining a goroutine costs more than the work it takes.
const parallelGrain = 1 << 15

// lineBytes is the cache line size the flat Parallel calls split on, so that
// no two goroutines write the same line of dst.
const lineBytes = 64

// ParallelApply is Apply run by up to workers goroutines, the caller's among
// them; workers <= 0 means runtime.GOMAXPROCS(0). Each goroutine gets at least
// about 32768 elements and stores as the whole call would (with streaming
// stores for big outputs where the kernels have them); a short call runs on
// the caller's goroutine alone, exactly as Apply. It validates as Apply does,
// panicking with the same message before any goroutine starts or anything is
// written, and gives the same bits: every element is computed once, by the
// same kernel. dst is split on 64-byte boundaries of its address.
func ParallelApply[T Number](workers int, op Op, dst, a, b []T) {
	w := flatWorkers(workers, len(dst))
	if w == 1 {
		Apply(op, dst, a, b)
		return
	}
	mustDefined[T](op)
	checkVV(op, dst, a, b)
	parallelFlat(w, kernel.VV, op, dst, a, b)
}

// ParallelApplyScalar is ApplyScalar (dst[i] = a[i] op s) run by up to
// workers goroutines, as ParallelApply runs Apply.
func ParallelApplyScalar[T Number](workers int, op Op, dst, a []T, s T) {
	w := flatWorkers(workers, len(dst))
	if w == 1 {
		ApplyScalar(op, dst, a, s)
		return
	}
	mustDefined[T](op)
	checkV(op, dst, a)
	parallelFlat(w, kernel.VS, op, dst, a, []T{s})
}

// ParallelScalarApply is ScalarApply (dst[i] = s op a[i]) run by up to
// workers goroutines, as ParallelApply runs Apply.
func ParallelScalarApply[T Number](workers int, op Op, dst []T, s T, a []T) {
	w := flatWorkers(workers, len(dst))
	if w == 1 {
		ScalarApply(op, dst, s, a)
		return
	}
	mustDefined[T](op)
	checkV(op, dst, a)
	parallelFlat(w, kernel.SV, op, dst, []T{s}, a)
}

// ParallelApply2D is Apply2D run by up to workers goroutines, the caller's
// among them; workers <= 0 means runtime.GOMAXPROCS(0). It splits the block
// into bands of whole rows of at least about 32768 elements each, so a
// small block, and a
// block of fewer rows than workers, runs on fewer goroutines (a single row
// on the caller's alone, exactly as Apply2D). It validates as
// Apply2D does, panicking with the same message before any goroutine starts
// or anything is written, and gives the same bits.
func ParallelApply2D[T Number](workers int, op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	w := rowWorkers(workers, m, n)
	if w == 1 {
		Apply2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
		return
	}
	mustCheck2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
	// Every band stores as the whole block would: split, it might fall below
	// the streaming threshold and pull the output through the caches.
	stream := kernel.Streaming[T](kind2D(inca, incb), m, n, ldd, lda, ldb)
	split.Even(w, m, 0, 1).Run(func(r0, r1 int) {
		apply2D(op, r1-r0, n, dst[r0*ldd:], ldd, a[r0*lda:], lda, inca, b[r0*ldb:], ldb, incb, stream)
	})
}

// flatWorkers is the number of goroutines for n elements: at most workers,
// at least 1, few enough that each gets parallelGrain elements. A short call
// costs a comparison: it does not even ask for GOMAXPROCS.
func flatWorkers(workers, n int) int { return split.Count(workers, n, 1, parallelGrain) }

// rowWorkers is the number of goroutines for an m x n block split on whole
// rows: at most workers and m, at least 1, few enough that each gets
// parallelGrain elements. Nonsense sizes give 1 (Apply2D then rejects them).
func rowWorkers(workers, m, n int) int { return split.Count(workers, m, n, parallelGrain) }

// parallelFlat runs a validated flat call of kind k on w goroutines, the
// caller's one of them. The vs and sv kinds pass the scalar as a
// one-element b or a.
func parallelFlat[T Number](w int, k kernel.Kind, op Op, dst, a, b []T) {
	parts := flatParts(len(dst), w, uintptr(unsafe.Pointer(unsafe.SliceData(dst))), int(unsafe.Sizeof(T(0))))
	stream := kernel.Streaming[T](k, 1, len(dst), 0, 0, 0) // every chunk stores as the whole call would
	parts.Run(func(lo, hi int) { flatChunk(k, op, dst, a, b, lo, hi, stream) })
}

// flatParts splits n elements of size bytes, the first at address addr,
// into w parts whose inner bounds fall on lineBytes boundaries of the address
// (when addr is a multiple of size, as Go aligns floats): the first part also
// takes the elements before the first such boundary.
func flatParts(n, w int, addr uintptr, size int) split.Parts {
	line := lineBytes / size
	head := 0
	if addr%uintptr(size) == 0 {
		head = int((lineBytes-addr%lineBytes)%lineBytes) / size
	}
	return split.Even(w, n, head, line)
}

// flatChunk runs elements [lo, hi) of a validated flat call of kind k; a
// scalar operand (b for vs, a for sv) is a one-element slice.
func flatChunk[T Number](k kernel.Kind, op Op, dst, a, b []T, lo, hi int, stream bool) {
	if k != kernel.SV {
		a = a[lo:hi]
	}
	if k != kernel.VS {
		b = b[lo:hi]
	}
	kernel.Binary(k, kernel.Op(op), 1, hi-lo, dst[lo:hi], 0, a, 0, b, 0, stream)
	kernel.FenceAfter(stream)
}
