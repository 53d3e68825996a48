package elem

import (
	"runtime"
	"sync"
	"unsafe"
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
func ParallelApply[T Float](workers int, op Op, dst, a, b []T) {
	w := flatWorkers(workers, len(dst))
	if w == 1 {
		Apply(op, dst, a, b)
		return
	}
	if !op.Valid() {
		panic(badOp(op))
	}
	checkVV(op, dst, a, b)
	parallelFlat(w, kindVV, op, dst, a, b)
}

// ParallelApplyScalar is ApplyScalar (dst[i] = a[i] op s) run by up to
// workers goroutines, as ParallelApply runs Apply.
func ParallelApplyScalar[T Float](workers int, op Op, dst, a []T, s T) {
	w := flatWorkers(workers, len(dst))
	if w == 1 {
		ApplyScalar(op, dst, a, s)
		return
	}
	if !op.Valid() {
		panic(badOp(op))
	}
	checkV(op, dst, a)
	parallelFlat(w, kindVS, op, dst, a, []T{s})
}

// ParallelScalarApply is ScalarApply (dst[i] = s op a[i]) run by up to
// workers goroutines, as ParallelApply runs Apply.
func ParallelScalarApply[T Float](workers int, op Op, dst []T, s T, a []T) {
	w := flatWorkers(workers, len(dst))
	if w == 1 {
		ScalarApply(op, dst, s, a)
		return
	}
	if !op.Valid() {
		panic(badOp(op))
	}
	checkV(op, dst, a)
	parallelFlat(w, kindSV, op, dst, []T{s}, a)
}

// ParallelApply2D is Apply2D run by up to workers goroutines, the caller's
// among them; workers <= 0 means runtime.GOMAXPROCS(0). It splits the block
// into bands of whole rows of at least about 32768 elements each, so a
// small block, and a
// block of fewer rows than workers, runs on fewer goroutines (a single row
// on the caller's alone, exactly as Apply2D). It validates as
// Apply2D does, panicking with the same message before any goroutine starts
// or anything is written, and gives the same bits.
func ParallelApply2D[T Float](workers int, op Op, m, n int, dst []T, ldd int, a []T, lda, inca int, b []T, ldb, incb int) {
	w := rowWorkers(workers, m, n)
	if w == 1 {
		Apply2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
		return
	}
	mustCheck2D(op, m, n, dst, ldd, a, lda, inca, b, ldb, incb)
	q, rem := m/w, m%w
	// Every band stores as the whole block would: split, it might fall below
	// the streaming threshold and pull the output through the caches.
	stream := streaming[T](kind2D(inca, incb), m, n, lda, ldb)
	band := func(i int) { // rows [r0, r0+rows): the first rem bands have one row more
		r0, rows := i*q+min(i, rem), q+btoi(i < rem)
		apply2D(op, rows, n, dst[r0*ldd:], ldd, a[r0*lda:], lda, inca, b[r0*ldb:], ldb, incb, stream)
	}
	var wg sync.WaitGroup
	for i := 1; i < w; i++ {
		wg.Go(func() { band(i) })
	}
	band(0)
	wg.Wait()
}

// btoi is 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// resolveWorkers maps workers <= 0 to GOMAXPROCS.
func resolveWorkers(workers int) int {
	if workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// flatWorkers is the number of goroutines for n elements: at most workers,
// at least 1, few enough that each gets parallelGrain elements. A short call
// costs a comparison: it does not even ask for GOMAXPROCS.
func flatWorkers(workers, n int) int {
	if n < 2*parallelGrain {
		return 1
	}
	return max(1, min(resolveWorkers(workers), n/parallelGrain))
}

// rowWorkers is the number of goroutines for an m x n block split on whole
// rows: at most workers and m, at least 1, few enough that each gets
// parallelGrain elements. Nonsense sizes give 1 (Apply2D then rejects them).
func rowWorkers(workers, m, n int) int {
	if m <= 0 || n <= 0 {
		return 1
	}
	rowsEach := ceilDiv(parallelGrain, n) // rows in a band, at least
	if m < 2*rowsEach {
		return 1
	}
	return min(resolveWorkers(workers), m/rowsEach)
}

// ceilDiv is a/b rounded up, for a, b > 0, without overflow.
func ceilDiv(a, b int) int { return (a-1)/b + 1 }

// parallelFlat runs a validated flat call of kind k on w goroutines, the
// caller's one of them. The vs and sv kinds pass the scalar as a
// one-element b or a.
func parallelFlat[T Float](w int, k kind, op Op, dst, a, b []T) {
	bounds := flatBounds(len(dst), w, uintptr(unsafe.Pointer(unsafe.SliceData(dst))), int(unsafe.Sizeof(T(0))))
	stream := streaming[T](k, 1, len(dst), 0, 0) // every chunk stores as the whole call would
	var wg sync.WaitGroup
	for i := 1; i < w; i++ {
		lo, hi := bounds[i], bounds[i+1]
		wg.Go(func() { flatChunk(k, op, dst, a, b, lo, hi, stream) })
	}
	flatChunk(k, op, dst, a, b, 0, bounds[1], stream)
	wg.Wait()
}

// flatBounds splits n elements of size bytes, the first at address addr,
// into w chunks: chunk i is [bounds[i], bounds[i+1]). Every inner bound
// falls on a lineBytes boundary of the address (when addr is a multiple of
// size, as Go aligns floats); the first chunk also takes the elements before
// the first such boundary, the last the rounding remainder.
func flatBounds(n, w int, addr uintptr, size int) []int {
	line := lineBytes / size
	head := 0
	if addr%uintptr(size) == 0 {
		head = int((lineBytes-addr%lineBytes)%lineBytes) / size
	}
	chunk := (n - head) / w / line * line
	bounds := make([]int, w+1)
	for i := 1; i < w; i++ {
		bounds[i] = head + i*chunk
	}
	bounds[w] = n
	return bounds
}

// flatChunk runs elements [lo, hi) of a validated flat call of kind k; a
// scalar operand (b for vs, a for sv) is a one-element slice.
func flatChunk[T Float](k kind, op Op, dst, a, b []T, lo, hi int, stream bool) {
	if k != kindSV {
		a = a[lo:hi]
	}
	if k != kindVS {
		b = b[lo:hi]
	}
	runKernel(k, op, 1, hi-lo, dst[lo:hi], 0, a, 0, b, 0, stream)
}
