//go:build !purego

package elem

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// availableLevels lists what this CPU can run: the features in the kernels'
// "Requires:" lines (x/sys/cpu also checks that the OS saves the registers),
// less SSE2, CMOV and MMX+ (SFENCE), which every amd64 CPU has.
func availableLevels() []level {
	levels := []level{levelGeneric}
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		levels = append(levels, levelAVX2)
	}
	if cpu.X86.HasAVX && cpu.X86.HasAVX512F {
		levels = append(levels, levelAVX512)
	}
	return levels
}

// defaultLevel prefers AVX2. The AVX-512 kernels are generated and tested on
// every machine that has AVX-512, but none of the machines they were
// developed on had it, so no benchmark has shown them at least matching AVX2;
// until one does they run only when asked for (ELEM_IMPL=avx512).
func defaultLevel() level {
	if hasLevel(levelAVX2) {
		return levelAVX2
	}
	return levelGeneric
}

// hasStreaming reports whether the kernels here have streaming-store forms.
const hasStreaming = true

// run computes the m x n block of kind k with the implementation in use.
// The caller has validated op, the shapes and the extents.
func run[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int) {
	l := level(current.Load())
	if l == levelGeneric {
		runGeneric(k, op, m, n, dst, ldd, a, lda, b, ldb)
		return
	}
	stream := m*n >= streamMinBytes/int(unsafe.Sizeof(T(0)))
	if is32[T]() {
		kernel32(l, k, stream, int(op), m, n, ptr32(dst), ldd, ptr32(a), lda, ptr32(b), ldb)
		return
	}
	kernel64(l, k, stream, int(op), m, n, ptr64(dst), ldd, ptr64(a), lda, ptr64(b), ldb)
}
